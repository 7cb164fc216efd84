#include "creationregistry.h"

#include "common/logging.h"
#include "creation/creationjob.h"

namespace sd {

CreationRegistry::CreationRegistry(QObject *parent)
    : QObject(parent)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &CreationRegistry::finishShutdown);
}

CreationRegistry::~CreationRegistry()
{
    for (const QPointer<CreationJob> &job : std::as_const(m_jobs)) {
        if (job)
            job->disconnect(this);
    }
}

void CreationRegistry::add(CreationJob *job)
{
    if (!job || job->isFinished() || m_jobs.contains(job))
        return;
    m_jobs.append(job);
    connect(job, &Job::finished, this, [this, job] { onFinished(job); });
    if (m_shuttingDown)
        job->cancel();
    Q_EMIT activeChanged();
}

QList<CreationJob *> CreationRegistry::active() const
{
    QList<CreationJob *> list;
    for (const QPointer<CreationJob> &job : m_jobs) {
        if (job && !job->isFinished())
            list.append(job.data());
    }
    return list;
}

QStringList CreationRegistry::describeActive() const
{
    QStringList list;
    for (CreationJob *job : active())
        list << tr("creation %1: %2").arg(job->creationId(), displayName(job->state()));
    return list;
}

void CreationRegistry::onFinished(CreationJob *job)
{
    m_jobs.removeIf([job](const QPointer<CreationJob> &p) { return !p || p.data() == job; });
    Q_EMIT activeChanged();
    if (m_shuttingDown && !m_shutdownReported) {
        if (active().isEmpty())
            finishShutdown();
        else
            Q_EMIT shutdownProgress(describeActive());
    }
}

void CreationRegistry::shutdown(std::chrono::milliseconds timeout)
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    const QList<CreationJob *> running = active();
    if (running.isEmpty()) {
        // Reported from the event loop, like every other result.
        QTimer::singleShot(0, this, &CreationRegistry::finishShutdown);
        return;
    }
    m_deadline.start(timeout);
    for (CreationJob *job : running)
        job->cancel();
    if (!m_shutdownReported)
        Q_EMIT shutdownProgress(describeActive());
}

void CreationRegistry::finishShutdown()
{
    if (m_shutdownReported)
        return;
    m_shutdownReported = true;
    m_deadline.stop();
    QStringList left;
    for (CreationJob *job : active())
        left << job->creationId();
    if (!left.isEmpty())
        qCWarning(lcCreation) << left.size()
                              << "creation(s) still running at quit; recovered on the next launch";
    Q_EMIT shutdownFinished(left);
}

} // namespace sd
