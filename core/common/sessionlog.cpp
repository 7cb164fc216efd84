#include "sessionlog.h"

#include "logging.h"

#include <QMetaObject>

namespace sd {

namespace {
SessionLog *installedLog = nullptr;
} // namespace

QString levelName(QtMsgType level)
{
    switch (level) {
    case QtDebugMsg:
        return QStringLiteral("debug");
    case QtInfoMsg:
        return QStringLiteral("info");
    case QtWarningMsg:
        return QStringLiteral("warning");
    case QtCriticalMsg:
        return QStringLiteral("critical");
    case QtFatalMsg:
        return QStringLiteral("fatal");
    }
    return {};
}

QString formatLogLine(const LogEntry &entry)
{
    return QStringLiteral("%1  %2  %3  %4")
        .arg(entry.time.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz")), entry.category, levelName(entry.level),
             entry.message);
}

SessionLog::SessionLog(int capacity, QObject *parent)
    : QObject(parent)
    , m_capacity(qMax(1, capacity))
{
    m_ring.reserve(m_capacity);
}

SessionLog::~SessionLog() = default;

SessionLog *SessionLog::install(int capacity)
{
    if (installedLog)
        return installedLog;
    // Never deleted: the handler may run until the very end of the process.
    installedLog = new SessionLog(capacity);
    installedLog->m_previous = qInstallMessageHandler(&SessionLog::handleMessage);
    return installedLog;
}

SessionLog *SessionLog::instance()
{
    return installedLog;
}

void SessionLog::handleMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    SessionLog *log = installedLog;
    // A message logged while one is being kept (say, by the queued notification)
    // is only passed on: keeping it could recurse.
    thread_local bool keeping = false;
    if (!keeping) {
        keeping = true;
        log->append({ QDateTime::currentDateTime(),
                      QString::fromLatin1(context.category ? context.category : "default"), type, message });
        keeping = false;
    }
    if (log->m_previous)
        log->m_previous(type, context, message);
}

void SessionLog::append(LogEntry entry)
{
    // Messages quote servers and sandboxes; the view shows them and "Copy" hands them
    // to a terminal, as stderr does: one line each, no control or reordering character.
    entry.message = terminalSafe(entry.message, false);
    if (entry.message.size() > maxMessageChars) {
        entry.message.truncate(maxMessageChars);
        entry.message += QStringLiteral("… (cut)");
    }
    {
        const QMutexLocker lock(&m_mutex);
        if (m_ring.size() < m_capacity) {
            m_ring.append(std::move(entry));
        } else {
            m_ring[m_next] = std::move(entry);
            m_next = (m_next + 1) % m_capacity;
        }
        ++m_total;
    }
    // One queued signal for a burst of messages, delivered in the log's thread.
    if (!m_notifyPending.exchange(true)) {
        QMetaObject::invokeMethod(this, [this] {
            m_notifyPending = false;
            Q_EMIT changed();
        }, Qt::QueuedConnection);
    }
}

QList<LogEntry> SessionLog::entries() const
{
    const QMutexLocker lock(&m_mutex);
    QList<LogEntry> ordered;
    ordered.reserve(m_ring.size());
    for (int i = 0; i < m_ring.size(); ++i)
        ordered.append(m_ring.at((m_next + i) % m_ring.size()));
    return ordered;
}

qint64 SessionLog::totalCount() const
{
    const QMutexLocker lock(&m_mutex);
    return m_total;
}

QString SessionLog::text() const
{
    QString text;
    for (const LogEntry &entry : entries())
        text += formatLogLine(entry) + QLatin1Char('\n');
    return text;
}

} // namespace sd
