#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"

#include <QList>
#include <QPointer>
#include <QTimer>

#include <chrono>

class QNetworkAccessManager;

namespace sd {

class KillSandboxJob;

/// How often and how patiently a kill is retried.
struct RetryPolicy
{
    int attempts = 3;
    /// The wait before the 2nd, 3rd ... try; the last value repeats.
    QList<std::chrono::milliseconds> backoff{std::chrono::milliseconds(500),
                                             std::chrono::milliseconds(1000),
                                             std::chrono::milliseconds(2000)};
    std::chrono::milliseconds requestTimeout{30000};

    std::chrono::milliseconds delayBefore(int attempt) const;
};

/// DELETE /sandboxes/{id} until it is gone: 204 and 404 both count as gone, 401/403
/// are not retried (the key will not get better), anything else is retried per
/// the policy with a QTimer between tries. cancel() is honoured between tries only.
class RetryingKillJob : public Job
{
    Q_OBJECT

public:
    RetryingKillJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                    QString sandboxId, RetryPolicy policy = {}, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    int attempts() const { return m_attempts; }
    bool wasAlreadyGone() const { return m_alreadyGone; }

protected:
    void doStart() override;
    void doCancel() override;

private:
    void attempt();

    QNetworkAccessManager *m_network;
    ConnectionSettings m_settings;
    QString m_sandboxId;
    RetryPolicy m_policy;
    QTimer m_retryTimer;
    QPointer<KillSandboxJob> m_kill;
    int m_attempts = 0;
    bool m_alreadyGone = false;
};

} // namespace sd
