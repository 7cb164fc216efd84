#include "envdjob.h"

#include "common/logging.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace sd {

namespace {
// Past the server's own deadline, give it this long to say so before giving up.
constexpr int StreamDeadlineGraceMs = 10000;
// Enough of an error body to read the server's message.
constexpr qsizetype MaxErrorBody = 64 * 1024;
// The largest unary answer taken (a List of many processes is far below it).
constexpr qsizetype MaxUnaryBody = 8 * 1024 * 1024;
} // namespace

EnvdJob::EnvdJob(QNetworkAccessManager *network, EnvdTarget target, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_target(std::move(target))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &EnvdJob::onTimeout);
}

EnvdJob::~EnvdJob() { releaseReply(); }

void EnvdJob::releaseReply()
{
    m_timer.stop();
    if (!m_reply)
        return;
    m_reply->disconnect(this);
    m_reply->abort();
    m_reply.release()->deleteLater();
}

void EnvdJob::doCancel()
{
    releaseReply();
    emitError(Error::cancelled().withContext(errorContext()));
}

void EnvdJob::sendUnary(const QString &method, const QJsonObject &body)
{
    send(method, body, false, 0, 0);
}

void EnvdJob::sendStream(
    const QString &method, const QJsonObject &body, int connectTimeoutMs, int keepAliveSeconds)
{
    send(method, body, true, connectTimeoutMs, keepAliveSeconds);
}

void EnvdJob::send(const QString &method, const QJsonObject &body, bool stream,
    int connectTimeoutMs, int keepAliveSeconds)
{
    m_stream = stream;
    QNetworkRequest request(m_target.methodUrl(method));
    m_target.applyHeaders(&request);
    request.setRawHeader("Connect-Protocol-Version", "1");
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QByteArray payload;
    if (stream) {
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/connect+json"));
        if (connectTimeoutMs > 0)
            request.setRawHeader("Connect-Timeout-Ms", QByteArray::number(connectTimeoutMs));
        if (keepAliveSeconds > 0)
            request.setRawHeader("Keepalive-Ping-Interval", QByteArray::number(keepAliveSeconds));
        payload = envd::encodeEnvelope(body);
        if (connectTimeoutMs > 0)
            m_timer.start(connectTimeoutMs + StreamDeadlineGraceMs);
    } else {
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
        if (m_requestTimeoutMs > 0)
            m_timer.start(m_requestTimeoutMs);
    }
    qCDebug(lcEnvd) << "POST" << method << "sandbox" << m_target.sandboxId;
    m_reply.reset(m_network->post(request, payload));
    m_reply->setParent(this);
    connect(m_reply.get(), &QNetworkReply::readyRead, this, &EnvdJob::onReadyRead);
    connect(m_reply.get(), &QNetworkReply::finished, this, &EnvdJob::onFinished);
}

void EnvdJob::onReadyRead()
{
    if (!m_reply)
        return;
    if (!m_statusChecked) {
        m_statusChecked = true;
        m_statusOk = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
    }
    if (!m_stream || !m_statusOk) {
        // Unary answers and error bodies are read as they come, so their caps hold
        // before the whole body is in memory.
        readBody();
        return;
    }
    if (!m_decoder.feed(m_reply->readAll())) {
        failStream(Error::badResponse(m_decoder.errorString()).withContext(errorContext()));
        return;
    }
    processEnvelopes();
}

bool EnvdJob::processEnvelopes()
{
    const QList<envd::Envelope> envelopes = m_decoder.takeAll();
    for (const envd::Envelope &envelope : envelopes) {
        if (isFinished())
            return false;
        if (envelope.isEndStream()) {
            const envd::ConnectError error = envd::parseConnectError(envelope.json);
            releaseReply();
            if (error.isError())
                finishWith(Error::rpc(error.code, error.message));
            else
                streamEnded();
            return false;
        }
        if (!streamMessage(envelope.json))
            return false;
    }
    return true;
}

void EnvdJob::onFinished()
{
    if (!m_reply || isFinished())
        return;
    m_timer.stop();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError networkError = m_reply->error();
    const QString networkErrorString = m_reply->errorString();

    if (m_timedOut) {
        releaseReply();
        finishWith(Error::timeout(tr("the sandbox did not answer in time")));
        return;
    }

    if (m_stream && status == 200) {
        if (!m_decoder.feed(m_reply->readAll())) {
            failStream(Error::badResponse(m_decoder.errorString()).withContext(errorContext()));
            return;
        }
        if (!processEnvelopes())
            return;
        releaseReply();
        if (!m_decoder.finish()) {
            // A cut connection and a body that simply stops both mean the same to a user.
            finishWith(Error::transport(m_decoder.errorString()));
            return;
        }
        return;
    }

    if (status == 0) {
        releaseReply();
        finishWith(Error::transport(networkErrorString));
        return;
    }

    if (!readBody())
        return;
    const QByteArray body = std::exchange(m_body, {});
    releaseReply();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (status != 200) {
        const envd::ConnectError error
            = doc.isObject() ? envd::parseConnectError(doc.object()) : envd::ConnectError();
        if (error.isError()) {
            finishWith(Error::rpc(error.code, error.message));
        } else {
            const QString text = QString::fromUtf8(body.left(200)).trimmed();
            finishWith(Error::http(status, text));
        }
        return;
    }
    if (networkError != QNetworkReply::NoError) {
        finishWith(Error::transport(networkErrorString));
        return;
    }
    if (!doc.isObject()) {
        finishWith(Error::badResponse(tr("the sandbox's answer is not a JSON object")));
        return;
    }
    unaryReplied(doc.object());
}

bool EnvdJob::readBody()
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const qsizetype cap = status == 200 ? MaxUnaryBody : MaxErrorBody;
    m_body += m_reply->read(cap + 1 - m_body.size());
    if (m_body.size() <= cap)
        return true;
    releaseReply();
    if (status == 200) {
        finishWith(Error::badResponse(
            tr("the sandbox's answer is larger than %1 MiB").arg(MaxUnaryBody / (1024 * 1024))));
    } else {
        // The start of an error body is enough to say what went wrong.
        const QJsonDocument doc = QJsonDocument::fromJson(m_body.left(cap));
        const envd::ConnectError error
            = doc.isObject() ? envd::parseConnectError(doc.object()) : envd::ConnectError();
        if (error.isError())
            finishWith(Error::rpc(error.code, error.message));
        else
            finishWith(Error::http(status, QString::fromUtf8(m_body.left(200)).trimmed()));
    }
    m_body.clear();
    return false;
}

void EnvdJob::onTimeout()
{
    if (!m_reply)
        return;
    m_timedOut = true;
    // Through abort() so the normal finish path reports it.
    m_reply->abort();
    if (!isFinished() && m_reply) {
        releaseReply();
        finishWith(Error::timeout(tr("the sandbox did not answer in time")));
    }
}

void EnvdJob::finishWith(Error error)
{
    error.withContext(errorContext());
    emitError(error);
}

void EnvdJob::failStream(const Error &error)
{
    releaseReply();
    Error e = error;
    if (e.context().isEmpty())
        e.withContext(errorContext());
    emitError(e);
}

void EnvdJob::unaryReplied(const QJsonObject &) { emitResult(); }

bool EnvdJob::streamMessage(const QJsonObject &) { return true; }

void EnvdJob::streamEnded() { emitResult(); }

} // namespace sd
