#include "infojobs.h"

namespace sd {

namespace {
const QString logsV2 = QStringLiteral("/v2");
} // namespace

SandboxLogsJob::SandboxLogsJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
    QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
    , m_path(logsV2 + sandboxPath(m_sandboxId, QStringLiteral("/logs")))
{ }

ApiJob::Request SandboxLogsJob::buildRequest() const
{
    Request request { "GET", m_path, {}, std::nullopt };
    const bool v2 = m_path.startsWith(logsV2);
    if (m_since.isValid())
        request.query.addQueryItem(v2 ? QStringLiteral("cursor") : QStringLiteral("start"),
            QString::number(m_since.toMSecsSinceEpoch()));
    if (m_limit > 0)
        request.query.addQueryItem(QStringLiteral("limit"), QString::number(m_limit));
    return request;
}

bool SandboxLogsJob::retryAfterError(const Error &error)
{
    if (error.httpStatus() != 404 || !m_path.startsWith(logsV2))
        return false;
    m_path = sandboxPath(m_sandboxId, QStringLiteral("/logs"));
    send(buildRequest());
    return true;
}

void SandboxLogsJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    const auto json = parseJsonObject(body, &problem);
    if (!json) {
        setError(Error::badResponse(tr("the sandbox log could not be read: %1").arg(problem)));
        return;
    }
    // v2 answers {logs: [SandboxLogEntry]}; v1 keeps the structured entries in
    // logEntries and plain lines in logs.
    const bool v2 = m_path.startsWith(logsV2);
    const QJsonValue list = json->value(v2 ? QLatin1String("logs") : QLatin1String("logEntries"));
    if (!list.isArray()) {
        setError(Error::badResponse(
            tr("the sandbox log could not be read: %1")
                .arg(QStringLiteral("missing array '%1'")
                         .arg(v2 ? QLatin1String("logs") : QLatin1String("logEntries")))));
        return;
    }
    auto entries = parseEach<SandboxLogEntry>(list.toArray(), &SandboxLogEntry::fromJson, &problem);
    if (!entries) {
        setError(Error::badResponse(tr("a sandbox log entry could not be read: %1").arg(problem)));
        return;
    }
    m_entries = std::move(*entries);
}

SandboxMetricsJob::SandboxMetricsJob(QNetworkAccessManager *network,
    const ConnectionSettings &settings, QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{ }

ApiJob::Request SandboxMetricsJob::buildRequest() const
{
    Request request { "GET", sandboxPath(m_sandboxId, QStringLiteral("/metrics")), {},
        std::nullopt };
    if (m_start.isValid())
        request.query.addQueryItem(
            QStringLiteral("start"), QString::number(m_start.toSecsSinceEpoch()));
    if (m_end.isValid())
        request.query.addQueryItem(
            QStringLiteral("end"), QString::number(m_end.toSecsSinceEpoch()));
    return request;
}

void SandboxMetricsJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    const auto array = parseJsonArray(body, &problem);
    if (!array) {
        setError(Error::badResponse(tr("the sandbox metrics could not be read: %1").arg(problem)));
        return;
    }
    auto metrics = parseEach<SandboxMetric>(*array, &SandboxMetric::fromJson, &problem);
    if (!metrics) {
        setError(Error::badResponse(tr("a metrics sample could not be read: %1").arg(problem)));
        return;
    }
    m_metrics = std::move(*metrics);
}

ListTemplatesJob::ListTemplatesJob(
    QNetworkAccessManager *network, const ConnectionSettings &settings, QObject *parent)
    : ApiJob(network, settings, parent)
{ }

ApiJob::Request ListTemplatesJob::buildRequest() const
{
    return { "GET", QStringLiteral("/templates"), {}, std::nullopt };
}

void ListTemplatesJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    const auto array = parseJsonArray(body, &problem);
    if (!array) {
        setError(Error::badResponse(tr("the template list could not be read: %1").arg(problem)));
        return;
    }
    auto templates = parseEach<SandboxTemplate>(*array, &SandboxTemplate::fromJson, &problem);
    if (!templates) {
        setError(Error::badResponse(tr("a template could not be read: %1").arg(problem)));
        return;
    }
    m_templates = std::move(*templates);
}

HealthJob::HealthJob(
    QNetworkAccessManager *network, const ConnectionSettings &settings, QObject *parent)
    : ApiJob(network, settings, parent)
{ }

ApiJob::Request HealthJob::buildRequest() const
{
    return { "GET", QStringLiteral("/health"), {}, std::nullopt };
}

} // namespace sd
