#include "apijob.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace sd {

namespace {
const QByteArray userAgent = QByteArrayLiteral("sandbox-desk/" SANDBOX_DESK_VERSION);
} // namespace

QString sandboxPath(const QString &sandboxId, const QString &suffix)
{
    return QStringLiteral("/sandboxes/") + QString::fromLatin1(QUrl::toPercentEncoding(sandboxId))
        + suffix;
}

ApiJob::ApiJob(QNetworkAccessManager *network, const ConnectionSettings &settings, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_settings(settings)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_reply) {
            m_timedOut = true;
            m_reply->abort();
        }
    });
}

ApiJob::~ApiJob()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void ApiJob::doStart()
{
    const QString scheme = m_settings.apiUrl.scheme();
    if (!m_settings.apiUrl.isValid() || m_settings.apiUrl.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        emitError(Error::rejected(tr("The API URL \"%1\" is not a valid http or https address. "
                                     "Check the profile settings.")
                                      .arg(m_settings.apiUrl.toDisplayString())));
        return;
    }
    const Request request = buildRequest();
    // An empty, "." or ".." sandbox ID would make the path name another resource (a
    // server resolving "/sandboxes/.." to "/"); percent-encoding cannot help, as URLs
    // decode "%2E" back to ".".
    for (const QStringView segment : QStringView(request.path).split(QLatin1Char('/')).mid(1)) {
        if (segment.isEmpty() || segment == u"." || segment == u"..") {
            emitError(Error::rejected(tr("\"%1\" is not a sandbox ID").arg(segment.toString())));
            return;
        }
    }
    send(request);
}

void ApiJob::send(const Request &request)
{
    QUrl url = m_settings.apiUrl;
    // Paths arrive percent-encoded (sandboxPath()); keep them that way.
    QString path = url.path(QUrl::FullyEncoded);
    if (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + request.path, QUrl::TolerantMode);
    url.setQuery(request.query.isEmpty() ? QString() : request.query.query(QUrl::FullyEncoded),
        QUrl::TolerantMode);
    url.setFragment({});

    QNetworkRequest req(url);
    // Never follow a redirect: the next hop would receive the API key.
    req.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setHeader(QNetworkRequest::UserAgentHeader, userAgent);
    if (sendsApiKey() && !m_settings.apiKey.isEmpty())
        req.setRawHeader("X-API-Key", m_settings.apiKey.toUtf8());
    req.setRawHeader("Accept", "application/json");
    QByteArray body;
    if (request.body) {
        body = request.body->toJson(QJsonDocument::Compact);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    }

    qCDebug(lcApi) << request.verb << url.path();
    m_httpStatus = 0;
    m_timedOut = false;
    Q_ASSERT(!m_reply);
    m_reply.reset(m_network->sendCustomRequest(req, request.verb, body));
    connect(m_reply.get(), &QNetworkReply::finished, this, &ApiJob::onFinished);
    connect(m_reply.get(), &QNetworkReply::uploadProgress, this,
        [this](qint64 sent, qint64) { m_requestSent = m_requestSent || sent > 0; });
    // A GET or DELETE has no upload; count it as sent once the socket is up.
    connect(m_reply.get(), &QNetworkReply::requestSent, this, [this] {
        m_requestSent = true;
        ++m_timesSent;
    });
    m_timer.start(m_timeout);
}

void ApiJob::failWithRequestOut(const Error &error)
{
    if (isFinished())
        return;
    m_timer.stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply.release()->deleteLater();
    }
    emitError(error);
}

void ApiJob::doCancel()
{
    if (m_reply)
        m_reply->abort(); // onFinished() reports the cancel
    else
        emitError(Error::cancelled());
}

void ApiJob::onFinished()
{
    m_timer.stop();
    // Take the reply: a subclass may send a follow-up request from parseReply().
    std::unique_ptr<QNetworkReply> reply = std::move(m_reply);
    // An aborted reply is closed; reading it would only warn.
    const QByteArray body = reply->isOpen() ? reply->readAll() : QByteArray();
    m_httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();

    // Errors below ContentAccessDenied are transport-level (reset, refused, TLS,
    // proxy): an answer cut off after a 2xx status is a failure, not a short body.
    const QNetworkReply::NetworkError netError = reply->error();
    const bool transportFailed
        = netError != QNetworkReply::NoError && netError < QNetworkReply::ContentAccessDenied;

    Error error;
    if (m_httpStatus == 0 || transportFailed || !isSuccess(m_httpStatus))
        error = errorFromReply(reply.get(), body);

    if (error) {
        reply.release()->deleteLater();
        if (!isCancelRequested() && retryAfterError(error))
            return;
        qCDebug(lcApi) << "failed:" << error.message();
        emitError(error);
        return;
    }
    parseReply(m_httpStatus, body, reply.get());
    reply.release()->deleteLater();
    if (!m_reply) // no follow-up request pending
        emitResult();
}

Error ApiJob::errorFromReply(QNetworkReply *reply, const QByteArray &body) const
{
    if (m_timedOut)
        return Error::timeout(tr("no answer after %1 s").arg(m_timeout.count() / 1000.0));
    if (isCancelRequested())
        return Error::cancelled();
    if (m_httpStatus >= 300 && m_httpStatus < 400) {
        const QUrl target = reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl();
        const QString host
            = target.isEmpty() ? tr("an unknown place") : reply->url().resolved(target).host();
        return Error::http(m_httpStatus,
            tr("the server redirected to %1; redirects are not followed so that "
               "the API key only goes to the configured host")
                .arg(host));
    }
    if (m_httpStatus != 0 && !isSuccess(m_httpStatus))
        return Error::http(m_httpStatus, scrubbed(serverMessageFromBody(body)));
    return Error::transport(scrubbed(reply->errorString()));
}

QString ApiJob::scrubbed(QString text) const
{
    // A server that echoes the request must not leak the key into an error text.
    if (m_settings.apiKey.size() >= 4)
        text.replace(m_settings.apiKey, QStringLiteral("<api key>"));
    return text;
}

} // namespace sd
