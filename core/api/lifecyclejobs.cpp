#include "lifecyclejobs.h"

#include "api/sandboxjobs.h"

namespace sd {

namespace {
QJsonDocument timeoutBody(int seconds)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("timeout"), seconds}});
}
} // namespace

PauseSandboxJob::PauseSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                 QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{
}

ApiJob::Request PauseSandboxJob::buildRequest() const
{
    return {"POST", sandboxPath(m_sandboxId, QStringLiteral("/pause")), {}, std::nullopt};
}

void PauseSandboxJob::parseReply(int status, const QByteArray &, QNetworkReply *)
{
    m_alreadyPaused = status == 409;
}

ResumeSandboxJob::ResumeSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                   QString sandboxId, int timeoutSeconds, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
    , m_timeoutSeconds(timeoutSeconds)
{
}

ApiJob::Request ResumeSandboxJob::buildRequest() const
{
    return {"POST", sandboxPath(m_sandboxId, QStringLiteral("/resume")), {},
            timeoutBody(m_timeoutSeconds)};
}

void ResumeSandboxJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    if (!readCreatedSandbox(body, &m_sandbox, &problem))
        setError(Error::badResponse(tr("the resumed sandbox could not be read: %1").arg(problem)));
}

ConnectSandboxJob::ConnectSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                     QString sandboxId, int timeoutSeconds, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
    , m_timeoutSeconds(timeoutSeconds)
{
}

ApiJob::Request ConnectSandboxJob::buildRequest() const
{
    return {"POST", sandboxPath(m_sandboxId, QStringLiteral("/connect")), {},
            timeoutBody(m_timeoutSeconds)};
}

void ConnectSandboxJob::parseReply(int status, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    if (!readCreatedSandbox(body, &m_sandbox, &problem)) {
        setError(Error::badResponse(tr("the connected sandbox could not be read: %1").arg(problem)));
        return;
    }
    m_resumed = status == 201;
}

} // namespace sd
