#pragma once

#include <QDateTime>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>

#include <atomic>

namespace sd {

/// One message of this session's log.
struct LogEntry
{
    QDateTime time;
    QString category; ///< "sd.api", "default", "qt.network.ssl"...
    QtMsgType level = QtDebugMsg;
    QString message;
};

/// "debug", "info", "warning", "critical" or "fatal".
QString levelName(QtMsgType level);
/// "2026-12-03 13:40:02.117  sd.api  debug  POST /v2/sandboxes": one line, as copied
/// into a bug report.
QString formatLogLine(const LogEntry &entry);

/// This session's log messages, kept in memory for the Session log view: a ring
/// buffer of the last capacity() messages, every category (what each category lets
/// through, see enableVerboseLogging()). Messages still go where they went before
/// (stderr). Nothing logged by this code base holds a secret (see logging.h).
///
/// install() once, early in main(); the message handler may be called from any
/// thread, so entries are guarded by a mutex, and changed() is queued to the
/// log's thread and coalesced.
class SessionLog : public QObject
{
    Q_OBJECT

public:
    static constexpr int defaultCapacity = 5000;
    /// Longer messages are cut here (and say so), so memory stays bounded.
    static constexpr int maxMessageChars = 4096;

    /// Creates the log and installs its message handler (once; later calls return
    /// the same log). Lives until the process ends.
    static SessionLog *install(int capacity = defaultCapacity);
    /// The installed log, or null.
    static SessionLog *instance();

    /// A log of its own, not installed (tests); the app uses install().
    explicit SessionLog(int capacity, QObject *parent = nullptr);
    ~SessionLog() override;

    int capacity() const { return m_capacity; }
    /// The messages kept, oldest first.
    QList<LogEntry> entries() const;
    /// How many messages were logged since install(), kept or not.
    qint64 totalCount() const;
    /// The kept messages as lines of formatLogLine().
    QString text() const;

    /// Adds one message (what the handler does; tests call it directly).
    void append(LogEntry entry);

Q_SIGNALS:
    /// New messages are in (several appends may make one signal).
    void changed();

private:
    static void handleMessage(QtMsgType type, const QMessageLogContext &context, const QString &message);

    const int m_capacity;
    mutable QMutex m_mutex;
    QList<LogEntry> m_ring; ///< guarded by m_mutex; m_ring[m_next] is the oldest once full
    int m_next = 0;
    qint64 m_total = 0;
    std::atomic_bool m_notifyPending = false;
    QtMessageHandler m_previous = nullptr;
};

} // namespace sd
