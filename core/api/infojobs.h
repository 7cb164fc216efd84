#pragma once

#include "api/apijob.h"
#include "api/sandbox.h"

#include <QList>

namespace sd {

/// GET /v2/sandboxes/{id}/logs: the sandbox's lifecycle log, oldest first by
/// default. Falls back to the deprecated GET /sandboxes/{id}/logs when the server
/// answers 404 (older deployments); a 404 there too is reported as it came.
class SandboxLogsJob : public ApiJob
{
    Q_OBJECT

public:
    SandboxLogsJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                   QString sandboxId, QObject *parent = nullptr);

    /// Only entries at or after this time (invalid: from the start).
    void setSince(const QDateTime &since) { m_since = since; }
    /// At most this many entries (the server's default is 1000; 0 leaves it to the server).
    void setLimit(int limit) { m_limit = limit; }

    QString sandboxId() const { return m_sandboxId; }
    const QList<SandboxLogEntry> &entries() const { return m_entries; }
    QString usedPath() const { return m_path; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;
    bool retryAfterError(const Error &error) override;

private:
    QString m_sandboxId;
    QString m_path;
    QDateTime m_since;
    int m_limit = 0;
    QList<SandboxLogEntry> m_entries;
};

/// GET /sandboxes/{id}/metrics: CPU, memory and disk samples.
class SandboxMetricsJob : public ApiJob
{
    Q_OBJECT

public:
    SandboxMetricsJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                      QString sandboxId, QObject *parent = nullptr);

    /// The interval to ask for (invalid ends: the server's default, the latest sample).
    void setInterval(const QDateTime &start, const QDateTime &end)
    {
        m_start = start;
        m_end = end;
    }

    QString sandboxId() const { return m_sandboxId; }
    const QList<SandboxMetric> &metrics() const { return m_metrics; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    QString m_sandboxId;
    QDateTime m_start;
    QDateTime m_end;
    QList<SandboxMetric> m_metrics;
};

/// GET /templates: the templates the key may create sandboxes from.
class ListTemplatesJob : public ApiJob
{
    Q_OBJECT

public:
    explicit ListTemplatesJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                              QObject *parent = nullptr);

    const QList<SandboxTemplate> &templates() const { return m_templates; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    QList<SandboxTemplate> m_templates;
};

/// GET /health: is the API there at all? Sends no API key: E2B's health check needs
/// none, and the key goes nowhere it is not needed. It therefore says nothing about
/// the key; to check a key, list one page of sandboxes (SandboxFilter::followPages
/// false, pageSize 1).
class HealthJob : public ApiJob
{
    Q_OBJECT

public:
    explicit HealthJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                       QObject *parent = nullptr);

protected:
    Request buildRequest() const override;
    void parseReply(int, const QByteArray &, QNetworkReply *) override {}
    bool sendsApiKey() const override { return false; }
};

} // namespace sd
