#include "retryingkilljob.h"

#include "api/sandboxjobs.h"
#include "common/logging.h"

namespace sd {

std::chrono::milliseconds RetryPolicy::delayBefore(int attempt) const
{
    if (backoff.isEmpty())
        return std::chrono::milliseconds(0);
    return backoff.at(qBound(0, attempt - 2, int(backoff.size()) - 1));
}

RetryingKillJob::RetryingKillJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                                 QString sandboxId, RetryPolicy policy, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_settings(settings)
    , m_sandboxId(std::move(sandboxId))
    , m_policy(std::move(policy))
{
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &RetryingKillJob::attempt);
}

void RetryingKillJob::doStart()
{
    attempt();
}

void RetryingKillJob::doCancel()
{
    // A DELETE already on the wire is let finish: aborting it would leave us not
    // knowing whether the sandbox is gone.
    if (!m_kill) {
        m_retryTimer.stop();
        emitError(Error::cancelled());
    }
}

void RetryingKillJob::attempt()
{
    ++m_attempts;
    auto *kill = new KillSandboxJob(m_network, m_settings, m_sandboxId, this);
    kill->setTimeout(m_policy.requestTimeout);
    m_kill = kill;
    connect(kill, &Job::finished, this, [this, kill] {
        m_kill = nullptr;
        if (!kill->hasError()) {
            m_alreadyGone = kill->wasAlreadyGone();
            emitResult();
            return;
        }
        const Error error = kill->error();
        const int status = error.httpStatus();
        qCDebug(lcCreation) << "kill attempt" << m_attempts << "of" << m_sandboxId << "failed:" << error.message();
        if (status == 401 || status == 403 || m_attempts >= m_policy.attempts || isCancelRequested()) {
            emitError(error);
            return;
        }
        m_retryTimer.start(m_policy.delayBefore(m_attempts + 1));
    });
    kill->start();
}

} // namespace sd
