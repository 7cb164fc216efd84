#include "sandboxjobs.h"

#include <QJsonArray>
#include <QNetworkReply>

namespace sd {

namespace {
QString sandboxPath(const QString &id, const QString &suffix = {})
{
    return QStringLiteral("/sandboxes/") + QString::fromLatin1(QUrl::toPercentEncoding(id)) + suffix;
}

QJsonObject parseObject(const QByteArray &body, QString *problem)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *problem = body.isEmpty() ? QStringLiteral("empty body")
                                  : QStringLiteral("not JSON (%1)").arg(parseError.errorString());
        return {};
    }
    if (!doc.isObject()) {
        *problem = QStringLiteral("expected a JSON object");
        return {};
    }
    return doc.object();
}
} // namespace

CreateSandboxJob::CreateSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                   NewSandbox request, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_request(std::move(request))
{
}

ApiJob::Request CreateSandboxJob::buildRequest() const
{
    return {"POST", m_path, {}, QJsonDocument(m_request.toJson())};
}

bool CreateSandboxJob::retryAfterError(const Error &error)
{
    if (error.httpStatus() != 404 || m_path != QLatin1String("/v2/sandboxes"))
        return false;
    m_path = QStringLiteral("/sandboxes");
    send(buildRequest());
    return true;
}

void CreateSandboxJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    const QJsonObject json = parseObject(body, &problem);
    std::optional<Sandbox> sandbox;
    if (problem.isEmpty())
        sandbox = Sandbox::fromCreated(json, &problem);
    if (!sandbox) {
        setError(Error::badResponse(tr("the created sandbox could not be read: %1").arg(problem)));
        return;
    }
    m_sandbox = *sandbox;
}

ListSandboxesJob::ListSandboxesJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                   SandboxFilter filter, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_filter(std::move(filter))
{
}

ApiJob::Request ListSandboxesJob::buildRequest() const
{
    Request request{"GET", QStringLiteral("/v2/sandboxes"), {}, std::nullopt};
    if (!m_filter.metadata.isEmpty()) {
        QUrlQuery metadata;
        for (auto it = m_filter.metadata.begin(); it != m_filter.metadata.end(); ++it)
            metadata.addQueryItem(it.key(), it.value());
        // The API expects the k=v&k2=v2 pairs URL-encoded as one parameter value.
        request.query.addQueryItem(QStringLiteral("metadata"),
                                   QString::fromLatin1(QUrl::toPercentEncoding(
                                       metadata.query(QUrl::FullyDecoded))));
    }
    QStringList states;
    for (SandboxState state : m_filter.states)
        states << toString(state);
    if (states.isEmpty())
        states = {QStringLiteral("running"), QStringLiteral("paused")};
    request.query.addQueryItem(QStringLiteral("state"), states.join(QLatin1Char(',')));
    request.query.addQueryItem(QStringLiteral("limit"), QString::number(m_filter.pageSize));
    if (!m_nextToken.isEmpty())
        request.query.addQueryItem(QStringLiteral("nextToken"),
                                   QString::fromLatin1(QUrl::toPercentEncoding(m_nextToken)));
    return request;
}

void ListSandboxesJob::parseReply(int, const QByteArray &body, QNetworkReply *reply)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (!doc.isArray()) {
        setError(Error::badResponse(tr("the sandbox list is not a JSON array")));
        return;
    }
    QList<Sandbox> page;
    const QJsonArray array = doc.array();
    page.reserve(array.size());
    for (const QJsonValue &value : array) {
        QString problem;
        const auto sandbox = Sandbox::fromListed(value.toObject(), &problem);
        if (!sandbox) {
            setError(Error::badResponse(tr("a listed sandbox could not be read: %1").arg(problem)));
            return;
        }
        page.append(*sandbox);
    }
    ++m_pages;
    m_sandboxes += page;
    Q_EMIT pageReceived(page);

    m_nextToken = QString::fromUtf8(reply->rawHeader("X-Next-Token"));
    if (!m_nextToken.isEmpty() && !isCancelRequested()) {
        if (m_pages >= m_filter.maxPages) {
            setError(Error::badResponse(tr("the server kept paging after %1 pages").arg(m_pages)));
            return;
        }
        send(buildRequest());
    }
}

GetSandboxJob::GetSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                             QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{
}

ApiJob::Request GetSandboxJob::buildRequest() const
{
    return {"GET", sandboxPath(m_sandboxId), {}, std::nullopt};
}

void GetSandboxJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    const QJsonObject json = parseObject(body, &problem);
    std::optional<Sandbox> sandbox;
    if (problem.isEmpty())
        sandbox = Sandbox::fromListed(json, &problem);
    if (!sandbox) {
        setError(Error::badResponse(tr("the sandbox details could not be read: %1").arg(problem)));
        return;
    }
    m_sandbox = *sandbox;
}

KillSandboxJob::KillSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                               QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{
}

ApiJob::Request KillSandboxJob::buildRequest() const
{
    return {"DELETE", sandboxPath(m_sandboxId), {}, std::nullopt};
}

void KillSandboxJob::parseReply(int status, const QByteArray &, QNetworkReply *)
{
    m_alreadyGone = status == 404;
}

SetTimeoutJob::SetTimeoutJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                             QString sandboxId, int seconds, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
    , m_seconds(seconds)
{
}

ApiJob::Request SetTimeoutJob::buildRequest() const
{
    return {"POST", sandboxPath(m_sandboxId, QStringLiteral("/timeout")), {},
            QJsonDocument(QJsonObject{{QStringLiteral("timeout"), m_seconds}})};
}

} // namespace sd
