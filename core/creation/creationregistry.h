#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <chrono>

namespace sd {

class CreationJob;

/// The creations running in this process: what the creations view lists and what
/// quitting must wait for.
///
/// On quit, shutdown() cancels each running creation (which rolls back what it
/// made) and reports through shutdownFinished() once all have finished or the time
/// is up, whichever comes first; it never blocks. A creation still running then is
/// left unfinished in the journal and flagged `interrupted` on the next launch.
class CreationRegistry : public QObject
{
    Q_OBJECT

public:
    explicit CreationRegistry(QObject *parent = nullptr);
    ~CreationRegistry() override;

    /// Tracks `job` until it finishes (once, however often it is added). Not owned.
    void add(CreationJob *job);
    QList<CreationJob *> active() const;
    bool isShuttingDown() const { return m_shuttingDown; }

    /// Cancels all and waits up to `timeout` (default 10 s) for their rollbacks.
    void shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(10));

    /// "creation <id>: Rolling back" for each creation still running.
    QStringList describeActive() const;

Q_SIGNALS:
    void activeChanged();
    /// While shutting down: what is still being waited for (for the quit dialog).
    void shutdownProgress(const QStringList &waitingFor);
    /// Shutdown is over; `leftBehind` names creations that did not finish in time.
    void shutdownFinished(const QStringList &leftBehind);

private:
    void onFinished(CreationJob *job);
    void finishShutdown();

    QList<QPointer<CreationJob>> m_jobs;
    QTimer m_deadline;
    bool m_shuttingDown = false;
    bool m_shutdownReported = false;
};

} // namespace sd
