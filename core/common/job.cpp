#include "job.h"

#include <QTimer>

namespace sd {

Job::Job(QObject *parent)
    : QObject(parent)
{
}

Job::~Job() = default;

void Job::start()
{
    if (m_started || m_finished)
        return;
    m_started = true;
    QTimer::singleShot(0, this, [this] {
        if (!m_finished)
            doStart();
    });
}

void Job::cancel()
{
    if (m_finished || m_cancelRequested)
        return;
    m_cancelRequested = true;
    doCancel();
}

void Job::doCancel()
{
    emitError(Error::cancelled());
}

void Job::emitResult()
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT finished(this);
    if (m_autoDelete)
        deleteLater();
}

} // namespace sd
