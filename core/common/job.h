#pragma once

#include "error.h"

#include <QObject>
#include <QPointer>

#include <utility>

namespace sd {

/// Base of every asynchronous operation (REST call, envd call, creation).
///
/// `start()` only schedules the work; `finished()` is emitted exactly once, through
/// emitResult(), whether the job succeeded, failed, timed out or was cancelled.
/// Results are read from the subclass's getters, failure from error(). By default
/// a job deletes itself (deleteLater) after finished(); call setAutoDelete(false)
/// to own it.
class Job : public QObject
{
    Q_OBJECT

public:
    explicit Job(QObject *parent = nullptr);
    ~Job() override;

    /// Schedules the job on the event loop; never emits from inside.
    void start();

    /// Asks the job to stop. Idempotent; the job still ends in one finished(),
    /// with a Cancelled error unless it had already finished (or a composite job
    /// decides its first error is more important).
    void cancel();

    bool isStarted() const { return m_started; }
    bool isFinished() const { return m_finished; }
    bool isCancelRequested() const { return m_cancelRequested; }
    const Error &error() const { return m_error; }
    bool hasError() const { return m_error.isError(); }

    bool autoDelete() const { return m_autoDelete; }
    void setAutoDelete(bool autoDelete) { m_autoDelete = autoDelete; }

Q_SIGNALS:
    /// Emitted once when the job ends; read error() and the getters then.
    void finished(sd::Job *job);

protected:
    /// Does the work; called from the event loop after start().
    virtual void doStart() = 0;
    /// Stops the running work; must lead to emitResult() (now or later). The default
    /// finishes at once with a Cancelled error.
    virtual void doCancel();

    void setError(const Error &error) { m_error = error; }
    /// The single finish path. Does nothing if the job has already finished.
    void emitResult();
    void emitError(const Error &error)
    {
        setError(error);
        emitResult();
    }
    /// For a job that waits on another: cancels `step` without hearing from it again
    /// and forgets it. Returns the step, for a caller that also owns it.
    template<typename StepJob>
    StepJob *abandonStep(QPointer<StepJob> &step)
    {
        StepJob *const abandoned = std::exchange(step, nullptr);
        if (abandoned) {
            abandoned->disconnect(this);
            abandoned->cancel();
        }
        return abandoned;
    }

private:
    Error m_error;
    bool m_started = false;
    bool m_finished = false;
    bool m_cancelRequested = false;
    bool m_autoDelete = true;
};

} // namespace sd
