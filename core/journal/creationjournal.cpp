#include "creationjournal.h"

#include "common/isotime.h"
#include "common/logging.h"
#include "common/processidentity.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSaveFile>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace sd {

namespace {

constexpr int formatVersion = 1;

/// Every record carries one.
QString isoUtc(const QDateTime &time) { return isoTime(time, IsoPrecision::Milliseconds); }

QString isoNow() { return isoUtc(QDateTime::currentDateTimeUtc()); }

QDateTime parseTime(const QJsonValue &value) { return parseIsoTime(value.toString()); }

QJsonObject rollbackToJson(const RollbackReport &report)
{
    QJsonObject json { { QStringLiteral("attempts"), report.attempts },
        { QStringLiteral("outcome"), toString(report.outcome) } };
    json.insert(
        QStringLiteral("error"), report.error.isEmpty() ? QJsonValue() : QJsonValue(report.error));
    if (report.found)
        json.insert(QStringLiteral("found"), *report.found);
    if (!report.summary.isEmpty())
        json.insert(QStringLiteral("summary"), report.summary);
    return json;
}

std::optional<RollbackReport> rollbackFromJson(const QJsonValue &value)
{
    if (!value.isObject())
        return std::nullopt;
    const QJsonObject json = value.toObject();
    RollbackReport report;
    report.attempts = json.value(QLatin1String("attempts")).toInt();
    report.outcome = rollbackOutcomeFromString(json.value(QLatin1String("outcome")).toString())
                         .value_or(RollbackOutcome::Failed);
    report.error = json.value(QLatin1String("error")).toString();
    if (json.contains(QLatin1String("found")))
        report.found = json.value(QLatin1String("found")).toInt();
    report.summary = json.value(QLatin1String("summary")).toString();
    return report;
}

QStringList toStringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

/// Keeps the text valid UTF-8 and under `maxBytes`.
QString capUtf8(const QByteArray &data, int maxBytes, bool *truncated)
{
    *truncated = data.size() > maxBytes;
    QString text = QString::fromUtf8(data.left(maxBytes));
    while (text.toUtf8().size() > maxBytes)
        text.chop(1);
    return text;
}

CreationStep *lastStateStep(CreationRecord &r)
{
    for (auto it = r.timeline.rbegin(); it != r.timeline.rend(); ++it) {
        if (it->kind == CreationStep::Kind::State)
            return &*it;
    }
    return nullptr;
}

void addEvent(
    CreationRecord &r, CreationStep::Kind kind, const QDateTime &time, const QString &detail = {})
{
    CreationStep step;
    step.kind = kind;
    step.state = r.state;
    step.time = time;
    step.detail = detail;
    r.timeline.append(step);
}

/// Enters `state`, marking what failed the way the New sandbox dialog ticks its
/// steps: the step a rollback starts from (or a refusal or cancel ends), the rollback
/// itself when it failed, and the final states that are failures of their own.
void addState(CreationRecord &r, CreationState state, const QDateTime &time)
{
    CreationStep *last = lastStateStep(r);
    if (last && last->state == state)
        return; // a repeated record is not a new step
    const bool failedFinal
        = state == CreationState::RollbackFailed || state == CreationState::Rejected;
    if (last && state == CreationState::RollingBack)
        last->failed = true;
    else if (last && isFinal(state) && state != CreationState::Ready
        && (last->state != CreationState::RollingBack || state == CreationState::RollbackFailed))
        last->failed = true;
    CreationStep step;
    step.state = state;
    step.time = time;
    step.failed = failedFinal;
    r.timeline.append(step);
}

QString systemError(int error) { return QString::fromLocal8Bit(std::strerror(error)); }

/// How long a writer waits for the journal's lock. Every holder only writes a few
/// lines and fsyncs, so a holder that keeps it longer is not running: stopped (Ctrl+Z)
/// or hung. Waiting for it would hang this writer with it.
constexpr std::chrono::milliseconds lockWait = std::chrono::seconds(5);

/// The process holding the flock() on the file open at `fd`, from /proc/locks; 0 when
/// that cannot be told (released meanwhile, or a holder outside this pid namespace).
qint64 lockHolder(int fd)
{
    struct stat info = {};
    QFile locks(QStringLiteral("/proc/locks"));
    if (::fstat(fd, &info) != 0 || !locks.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray file = QString::asprintf("%02x:%02x:%llu", major(info.st_dev),
        minor(info.st_dev), static_cast<unsigned long long>(info.st_ino))
                                .toLatin1();
    // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF"; a waiter's line has "->" after
    // the number, so its fields do not match.
    for (const QByteArray &line : locks.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() > 5 && fields.at(1) == "FLOCK" && fields.at(5) == file)
            return fields.at(4).toLongLong();
    }
    return 0;
}

QString lockErrorString(const QString &journalPath, int error)
{
    return CreationJournal::tr("Could not lock the journal %1: %2")
        .arg(journalPath, systemError(error));
}

/// Why the lock was not had, naming the holder when /proc tells it: after waiting
/// lockWait (`waited`), or at the first try.
QString lockHeldErrorString(const QString &journalPath, qint64 holder, bool waited)
{
    if (!waited) {
        // Only the calls that must not wait (tools, compaction) end here.
        return holder > 0
            ? CreationJournal::tr("The journal %1 is being written by another process (pid %2, "
                                  "%3). Try again in a moment.")
                  .arg(journalPath, QString::number(holder), processName(holder))
            : CreationJournal::tr("The journal %1 is being written by another process. Try "
                                  "again in a moment.")
                  .arg(journalPath);
    }
    const int seconds = int(std::chrono::ceil<std::chrono::seconds>(lockWait).count());
    if (holder <= 0) {
        return CreationJournal::tr(
            "The journal %1 is held by another process that has not released it for %n "
            "second(s). It may be stopped (Ctrl+Z) or hung: resume it or end it, then try again.",
            nullptr, seconds)
            .arg(journalPath);
    }
    QString name = processName(holder);
    if (name.isEmpty())
        name = QStringLiteral("?");
    if (processIsStopped(holder)) {
        return CreationJournal::tr(
            "The journal %1 is held by another process (pid %2, %3), which is stopped "
            "(Ctrl+Z). Resume it (fg, or kill -CONT %2) or end it, then try again.")
            .arg(journalPath, QString::number(holder), name);
    }
    return CreationJournal::tr(
        "The journal %1 is held by another process (pid %2, %3) that has not released it "
        "for %n second(s). It may be stopped (Ctrl+Z) or hung: resume it (fg, or kill -CONT "
        "%2) or end it, then try again.",
        nullptr, seconds)
        .arg(journalPath, QString::number(holder), name);
}

/// An exclusive flock() on the journal's lock file, taken at once or not at all, and
/// released on destruction.
///
/// The lock is on a separate file: a compaction renames a new journal over the old
/// one, so a lock on the journal's own inode would not exclude a process that opened
/// the new file. Every holder only writes a few lines and fsyncs, never waits for the
/// network, and a crashed holder's lock goes with its descriptor, so it is soon free
/// again; but a holder stopped with Ctrl+Z keeps it. Nothing here waits for it: the
/// journal's writer thread tries again from its event loop for up to lockWait
/// (JournalWriter), and the calls that run on the caller's thread give up at once.
/// Not reentrant: a second JournalLock in the same process is refused like another
/// process's.
class JournalLock
{
public:
    explicit JournalLock(const QString &path)
    {
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd < 0) {
            m_errno = errno;
            return;
        }
        tryAgain();
    }
    ~JournalLock()
    {
        if (m_fd >= 0)
            ::close(m_fd); // releases the lock
    }
    Q_DISABLE_COPY_MOVE(JournalLock)

    /// Tries once more while another holder has it; true once it is ours.
    bool tryAgain()
    {
        if (m_locked || m_fd < 0)
            return m_locked;
        int result = 0;
        do
            result = ::flock(m_fd, LOCK_EX | LOCK_NB);
        while (result != 0 && errno == EINTR);
        m_locked = result == 0;
        m_errno = m_locked ? 0 : errno;
        return m_locked;
    }
    bool isLocked() const { return m_locked; }
    /// Another holder has it (rather than the lock file failing to open).
    bool isBusy() const { return m_errno == EWOULDBLOCK; }
    /// Why the journal at `journalPath` could not be locked, for people; `waited`:
    /// after trying for lockWait.
    QString errorString(const QString &journalPath, bool waited) const
    {
        return isBusy() ? lockHeldErrorString(journalPath, lockHolder(m_fd), waited)
                        : lockErrorString(journalPath, m_errno);
    }

private:
    int m_fd = -1;
    bool m_locked = false;
    int m_errno = 0;
};

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/// Ends the file on a whole line before a record is appended. Only a writer that
/// died mid-line leaves an unfinished one (the others hold the lock and undo a
/// failed write): as open() does, a record missing only its newline gets one and a
/// piece of a record is cut off. Updates `size`; false (errno) if that failed.
bool endOnWholeLine(int fd, qint64 *size)
{
    const auto readAt = [fd](char *data, qint64 length, qint64 offset) {
        const ssize_t n = ::pread(fd, data, size_t(length), offset);
        if (n >= 0 && n != length)
            errno = EIO; // shrunk under the lock, by a writer that does not take it
        return n == length;
    };
    char last = '\n';
    if (*size == 0)
        return true;
    if (!readAt(&last, 1, *size - 1))
        return false;
    if (last == '\n')
        return true;
    QByteArray tail;
    qint64 start = *size;
    while (start > 0) {
        const qint64 from = std::max<qint64>(0, start - 4096);
        QByteArray block(start - from, Qt::Uninitialized);
        if (!readAt(block.data(), block.size(), from))
            return false;
        const qsizetype newline = block.lastIndexOf('\n');
        tail.prepend(block.mid(newline + 1));
        start = from + newline + 1;
        if (newline >= 0)
            break;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(tail.trimmed(), &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isObject()) {
        if (::write(fd, "\n", 1) != 1)
            return false;
        *size += 1;
    } else {
        if (::ftruncate(fd, start) != 0)
            return false;
        *size = start;
    }
    qCWarning(lcJournal) << "a writer died mid-line; its last" << tail.size() << "bytes were"
                         << (*size > start ? "ended" : "cut off");
    return true;
}

bool fsyncDirectory(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

/// What one append did: the errno that stopped it (0: written and synced), or why
/// the lock could not be taken.
struct AppendResult
{
    int error = 0;
    QString lockError;
};

/// Appends whole lines (one record or several) to the journal at `path`, whose lock
/// the caller holds, and syncs them with `sync` (::fsync when empty); on failure none
/// of them stays. Touches no CreationJournal state, so it runs on any thread.
AppendResult appendLocked(
    const QString &path, const QByteArray &line, const CreationJournal::SyncFunction &sync)
{
    // The lock is held from open to close: a compaction cannot read the file, then
    // miss this line when it renames its copy over the file.
    const auto syncFd = [&sync](int fd) { return sync ? sync(fd) : ::fsync(fd); };
    AppendResult result;
    const QByteArray encodedPath = QFile::encodeName(path);
    const bool existed = QFile::exists(path);
    // A fresh descriptor per record, opened under the lock: a file compacted
    // (renamed over) by another process is written, not the old inode.
    const int fd = ::open(encodedPath.constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    struct stat info = {};
    const bool opened = fd >= 0 && ::fstat(fd, &info) == 0;
    qint64 before = info.st_size;
    if (!opened || !endOnWholeLine(fd, &before)) {
        result.error = errno;
    } else {
        qint64 written = 0;
        while (written < line.size()) {
            const ssize_t n
                = ::write(fd, line.constData() + written, size_t(line.size() - written));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                result.error = n < 0 ? errno : EIO;
                break;
            }
            written += n;
        }
        if (!result.error && syncFd(fd) != 0)
            result.error = errno;
        // A record that failed must not stay, not even in part: a torn line in the
        // middle would make the next open() move the whole file aside.
        if (result.error && ::ftruncate(fd, before) != 0)
            qCWarning(lcJournal) << "could not undo a failed journal write:"
                                 << std::strerror(errno);
    }
    if (fd >= 0)
        ::close(fd);
    if (!result.error && !existed) {
        const int dir = ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(),
            O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            syncFd(dir);
            ::close(dir);
        }
    }
    return result;
}

} // namespace

/// The journal's writer thread's side: appends lines under the lock, in the order
/// they were handed over. While another process holds the lock it tries again from
/// this thread's event loop (never sleeping: the thread stays free to be stopped) and
/// gives up after lockWait, naming the holder. Touches no CreationJournal state.
class JournalWriter : public QObject
{
public:
    using Done = std::function<void(const AppendResult &)>;

    struct Append
    {
        QString path;
        QString lockPath;
        QByteArray lines;
        CreationJournal::SyncFunction sync;
        Done done; ///< runs on this thread; may be empty
    };

    /// Queues `append` behind those handed over before it. Call on this thread.
    void add(Append append)
    {
        m_pending.append(std::move(append));
        if (m_pending.size() == 1)
            tryFirst();
    }

    /// Ends the thread once every append handed over is done. Call on this thread.
    void quitWhenDone()
    {
        m_quitting = true;
        if (m_pending.isEmpty())
            thread()->quit();
    }

private:
    void tryFirst()
    {
        Append &append = m_pending.first();
        if (!m_lock) {
            // Held open across the tries: a process that compacts sees us waiting.
            m_lock = std::make_unique<JournalLock>(append.lockPath);
            m_deadline = QDeadlineTimer(lockWait);
            m_pause = 1;
        } else {
            m_lock->tryAgain();
        }
        if (!m_lock->isLocked() && m_lock->isBusy() && !m_deadline.hasExpired()) {
            // Short pauses first, for the usual holder that is only writing a line.
            const qint64 pause = std::min<qint64>(m_pause, m_deadline.remainingTime());
            m_pause = std::min(m_pause * 2, 100);
            QTimer::singleShot(std::chrono::milliseconds(pause), this, [this] { tryFirst(); });
            return;
        }
        const AppendResult result = m_lock->isLocked()
            ? appendLocked(append.path, append.lines, append.sync)
            : AppendResult { 0, m_lock->errorString(append.path, true) };
        m_lock.reset();
        const Done done = std::move(append.done);
        m_pending.removeFirst();
        if (done)
            done(result);
        if (!m_pending.isEmpty())
            tryFirst();
        else if (m_quitting)
            thread()->quit();
    }

    QList<Append> m_pending;
    std::unique_ptr<JournalLock> m_lock; ///< the first pending append's, while it tries
    QDeadlineTimer m_deadline; ///< when the first pending append gives up
    int m_pause = 1; ///< ms before the next try
    bool m_quitting = false;
};

namespace {
/// appendLocked() for the calls that run on the caller's thread: fails at once when
/// another writer holds the lock.
AppendResult appendNow(const QString &path, const QString &lockPath, const QByteArray &line,
    const CreationJournal::SyncFunction &sync)
{
    const JournalLock lock(lockPath);
    if (!lock.isLocked())
        return { 0, lock.errorString(path, false) };
    return appendLocked(path, line, sync);
}
} // namespace

bool CreationRecord::owns(const QString &id) const
{
    return !id.isEmpty() && (id == sandboxId || foundSandboxIds.contains(id));
}

bool CreationRecord::mayHaveSandboxRunning() const
{
    if (!isFinished())
        return true; // still in flight, or interrupted: its sandbox may run
    const auto allKilled = [this](const QStringList &ids) {
        for (const QString &id : ids) {
            if (!id.isEmpty() && !orphansKilled.contains(id))
                return false;
        }
        return true;
    };
    if (state == CreationState::RollbackFailed) {
        // A failed rollback or a lost response: resolved only once the orphans it is
        // known to own were killed (a lost response may know none before that).
        return orphansKilled.isEmpty() || !allKilled(QStringList(foundSandboxIds) << sandboxId);
    }
    if (state == CreationState::Ready) {
        // Duplicates found beside the sandbox were removed, but that is not journalled.
        QStringList duplicates = foundSandboxIds;
        duplicates.removeAll(sandboxId);
        return !allKilled(duplicates);
    }
    return false; // rolled back, rejected or cancelled: nothing left
}

CreationJournal::CreationJournal(QString filePath, QObject *parent)
    : QObject(parent)
    , m_filePath(std::move(filePath))
{ }

CreationJournal::~CreationJournal()
{
    if (!m_writerThread)
        return;
    QByteArray lines;
    for (const QueuedRecord &record : std::as_const(m_queued))
        lines += record.line;
    // Promised to callers: written, though no one is told any more, after the records
    // the writer has now; the thread ends once they are all done. Each write is a few
    // milliseconds of disk, or lockWait at most while another process holds the lock.
    QMetaObject::invokeMethod(m_writer.get(),
        [writer = m_writer.get(), path = m_filePath, lockPath = lockFilePath(),
            lines = std::move(lines), sync = m_sync]() mutable {
            if (!lines.isEmpty())
                writer->add({ path, lockPath, std::move(lines), std::move(sync), {} });
            writer->quitWhenDone();
        });
    m_writerThread->wait();
}

QString CreationJournal::lockFilePath() const { return m_filePath + QStringLiteral(".lock"); }

QString CreationJournal::defaultDirectory()
{
    // Beside the local backend's key file: ~/.local/share/sandbox-desk/journal.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/sandbox-desk/journal");
}

QString CreationJournal::legacyDefaultDirectory()
{
    // The organisation and the application share a name, which doubled the folder.
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + QStringLiteral("/journal");
}

QString CreationJournal::filePathFor(const QString &directory, const QString &profile)
{
    QString name;
    for (QChar c : profile) {
        const bool safe = c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')
            || c == QLatin1Char('.');
        name += safe ? c : QLatin1Char('_');
    }
    if (name.isEmpty() || name.startsWith(QLatin1Char('.')))
        name.prepend(QStringLiteral("profile"));
    return directory + QLatin1Char('/') + name + QStringLiteral(".jsonl");
}

void CreationJournal::replay(const QByteArray &data, qint64 *goodEnd, bool *corrupt, int *badLines)
{
    *goodEnd = 0;
    qint64 pos = 0;
    while (pos < data.size()) {
        const qint64 newline = data.indexOf('\n', pos);
        const bool complete = newline >= 0;
        const QByteArray line = data.mid(pos, (complete ? newline : data.size()) - pos).trimmed();
        const qint64 next = complete ? newline + 1 : data.size();
        if (line.isEmpty()) {
            *goodEnd = next;
            pos = next;
            continue;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        const bool usable = parseError.error == QJsonParseError::NoError && doc.isObject();
        if (!complete) {
            // The last line has no newline: the writer died mid-line, unless the
            // line is whole (only the newline is missing).
            if (usable) {
                apply(doc.object());
                *goodEnd = next;
            }
            return;
        }
        if (!usable || !apply(doc.object())) {
            *corrupt = true;
            ++*badLines;
        }
        *goodEnd = next;
        pos = next;
    }
}

void CreationJournal::clearRecords()
{
    m_order.clear();
    m_records.clear();
    m_raw.clear();
    m_readOffset = 0;
}

bool CreationJournal::open()
{
    m_open = false;
    m_warnings.clear();
    m_movedAside.clear();
    m_readFile.close();
    clearRecords();

    const QFileInfo info(m_filePath);
    if (!QDir().mkpath(info.absolutePath())) {
        m_errorString = tr("Could not create the journal folder %1").arg(info.absolutePath());
        return false;
    }
    // Held while reading, repairing and compacting: a torn last line is then a dead
    // writer's, never an append still in progress in another process. Not waited for:
    // while another process writes, the file is read as it is and repaired and
    // compacted at a later open.
    const JournalLock lock(lockFilePath());
    if (!lock.isLocked() && !lock.isBusy()) {
        m_errorString = lock.errorString(m_filePath, false);
        return false;
    }
    if (!load(lock.isLocked()))
        return false;
    m_open = true;
    if (lock.isLocked() && m_order.size() > maxCreations) {
        QSet<QString> changed;
        compactLocked(maxCreations, &changed);
    }
    return true;
}

bool CreationJournal::load(bool locked)
{
    if (!QFile::exists(m_filePath))
        return true;
    // Read through the descriptor that is then followed: without the lock, another
    // process may rename its compaction over the file at any moment, and an offset
    // into the file read means nothing in the one that replaced it.
    if (!holdCurrentFile(0))
        return false;
    const QByteArray data = m_readFile.readAll();

    qint64 goodEnd = 0;
    bool corrupt = false;
    int badLines = 0;
    replay(data, &goodEnd, &corrupt, &badLines);

    if (!locked) {
        // Another process is writing: what follows the last whole line may be its
        // record half written, so it is read once whole (refresh()); damage is left for
        // an open that has the file to itself.
        if (corrupt) {
            m_warnings << tr("The journal had %n unreadable line(s), skipped; it is repaired "
                             "when no other process is writing it",
                nullptr, badLines);
            qCWarning(lcJournal) << "journal damaged," << badLines
                                 << "bad lines; left for a later repair";
        }
        m_readOffset = goodEnd;
        return true;
    }

    if (corrupt) {
        const QString aside = m_filePath + QStringLiteral(".corrupt-")
            + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddThhmmsszzz"));
        if (!QFile::rename(m_filePath, aside)) {
            m_errorString
                = tr("The journal %1 is damaged and could not be moved aside").arg(m_filePath);
            return false;
        }
        m_movedAside = aside;
        m_warnings << tr(
            "The journal had %n unreadable line(s); it was moved to %1 and its readable "
            "records were kept",
            nullptr, badLines)
                          .arg(aside);
        qCWarning(lcJournal) << "journal damaged," << badLines << "bad lines; moved to" << aside;
        QList<QJsonObject> records;
        for (const QString &id : std::as_const(m_order))
            records += m_raw.value(id);
        if (!writeAll(m_filePath, records))
            return false;
    } else if (goodEnd < data.size()) {
        m_warnings << tr("The last journal line was incomplete (the app stopped while writing it) "
                         "and was skipped");
        qCWarning(lcJournal) << "torn last line skipped:" << (data.size() - goodEnd) << "bytes";
        if (!QFile(m_filePath).resize(goodEnd)) {
            m_errorString = tr("Could not repair the journal %1").arg(m_filePath);
            return false;
        }
    } else if (!data.isEmpty() && !data.endsWith('\n')) {
        QFile repair(m_filePath);
        if (repair.open(QIODevice::Append))
            repair.write("\n");
    }
    // Under the lock the file stays the one read, unless the repair above replaced it.
    return holdCurrentFile(QFileInfo(m_filePath).size());
}

bool CreationJournal::holdCurrentFile(qint64 offset)
{
    m_readFile.close();
    m_readFile.setFileName(m_filePath);
    m_readOffset = 0;
    if (!m_readFile.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        m_errorString
            = tr("Could not read the journal %1: %2").arg(m_filePath, m_readFile.errorString());
        return false;
    }
    m_readOffset = offset;
    return true;
}

void CreationJournal::catchUp(QSet<QString> *changed)
{
    struct stat onDisk = {};
    if (::stat(QFile::encodeName(m_filePath).constData(), &onDisk) != 0)
        return; // not written yet (or removed by hand): keep what we know
    struct stat held = {};
    const bool same = m_readFile.isOpen() && ::fstat(m_readFile.handle(), &held) == 0
        && sameFile(held, onDisk) && held.st_size >= m_readOffset;
    if (!same) {
        // Replaced by a compaction in another process (or created since we looked):
        // offsets into the old file mean nothing in this one, so start over.
        for (const QString &id : std::as_const(m_order))
            changed->insert(id);
        clearRecords();
        if (!holdCurrentFile(0))
            return;
    }
    if (!m_readFile.seek(m_readOffset))
        return;
    const QByteArray data = m_readFile.readAll();
    const qint64 lastNewline = data.lastIndexOf('\n');
    if (lastNewline < 0)
        return; // nothing, or a line still being written
    for (const QByteArray &raw : data.left(lastNewline).split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!doc.isObject() || !apply(doc.object())) {
            qCWarning(lcJournal) << "skipped an unreadable journal line";
            continue;
        }
        changed->insert(doc.object().value(QLatin1String("creation")).toString());
    }
    m_readOffset += lastNewline + 1;
}

void CreationJournal::emitChanged(const QSet<QString> &changed)
{
    for (const QString &id : changed)
        Q_EMIT creationChanged(id);
}

void CreationJournal::refresh()
{
    QSet<QString> changed;
    catchUp(&changed);
    emitChanged(changed);
}

bool CreationJournal::apply(const QJsonObject &json)
{
    if (json.value(QLatin1String("v")).toInt() != formatVersion)
        return false;
    const QString type = json.value(QLatin1String("type")).toString();
    const QString id = json.value(QLatin1String("creation")).toString();
    if (id.isEmpty() || type.isEmpty())
        return false;
    const QDateTime time = parseTime(json.value(QLatin1String("time")));

    if (type == QLatin1String("intent")) {
        if (m_records.contains(id))
            return true;
        CreationRecord r;
        r.creationId = id;
        r.templateId = json.value(QLatin1String("template")).toString();
        r.mcpServers = toStringList(json.value(QLatin1String("mcpServers")));
        r.installId = json.value(QLatin1String("install")).toString();
        r.pid = json.value(QLatin1String("pid")).toInteger();
        r.pidStartTicks = json.value(QLatin1String("pidStart")).toInteger(-1);
        r.bootId = json.value(QLatin1String("boot")).toString();
        r.host = json.value(QLatin1String("host")).toString();
        r.timeoutSeconds = json.value(QLatin1String("timeout")).toInt();
        r.startedAt = time;
        r.updatedAt = time;
        r.state = CreationState::Allocating;
        addState(r, r.state, time); // the intent announces the allocation
        m_records.insert(id, r);
        m_order.append(id);
        m_raw[id].append(json);
        return true;
    }

    auto it = m_records.find(id);
    if (it == m_records.end())
        return true; // its intent was compacted away; nothing to attach it to
    CreationRecord &r = *it;
    if (time.isValid())
        r.updatedAt = time;
    if (type == QLatin1String("sandbox")) {
        r.sandboxId = json.value(QLatin1String("sandboxId")).toString();
        addEvent(r, CreationStep::Kind::SandboxKnown, time, r.sandboxId);
    } else if (type == QLatin1String("state")) {
        const auto state = creationStateFromString(json.value(QLatin1String("state")).toString());
        if (!state)
            return false;
        r.state = *state;
        addState(r, r.state, time);
    } else if (type == QLatin1String("found")) {
        const QStringList found = toStringList(json.value(QLatin1String("sandboxIds")));
        for (const QString &sandbox : found) {
            if (!r.foundSandboxIds.contains(sandbox))
                r.foundSandboxIds << sandbox;
        }
        addEvent(r, CreationStep::Kind::Found, time, found.join(QStringLiteral(", ")));
    } else if (type == QLatin1String("gateway-stderr")) {
        r.gatewayStderr = json.value(QLatin1String("stderr")).toString();
        r.gatewayStderrTruncated = json.value(QLatin1String("truncated")).toBool();
        addEvent(r, CreationStep::Kind::GatewayOutput, time);
    } else if (type == QLatin1String("outcome")) {
        const auto state = creationStateFromString(json.value(QLatin1String("state")).toString());
        if (!state)
            return false;
        r.state = *state;
        addState(r, r.state, time);
        r.error = json.value(QLatin1String("error")).toString();
        r.cancelled
            = state == CreationState::Cancelled || json.value(QLatin1String("cancelled")).toBool();
        r.rollback = rollbackFromJson(json.value(QLatin1String("rollback")));
        r.orphanReason
            = orphanReasonFromString(json.value(QLatin1String("orphanReason")).toString());
        r.finishedAt = time.isValid() ? time : r.updatedAt;
        if (r.endedCancelled()) {
            // The rollback interrupted a step that had not failed: the user stopped it.
            for (CreationStep &step : r.timeline) {
                if (step.kind == CreationStep::Kind::State && step.failed) {
                    step.failed = false;
                    step.interrupted = true;
                }
            }
        }
    } else if (type == QLatin1String("orphan-killed")) {
        const QString sandbox = json.value(QLatin1String("sandboxId")).toString();
        if (r.isFinished() && r.state == CreationState::Ready && sandbox == r.sandboxId) {
            // The user's sandbox, killed as any other: not an orphan.
            r.killedAt = time;
            addEvent(r, CreationStep::Kind::Killed, time, sandbox);
        } else {
            r.orphansKilled << sandbox;
            addEvent(r, CreationStep::Kind::OrphanKilled, time, sandbox);
        }
    } else if (type == QLatin1String("kill-failed")) {
        addEvent(r, CreationStep::Kind::KillFailed, time,
            QStringLiteral("%1: %2").arg(json.value(QLatin1String("sandboxId")).toString(),
                json.value(QLatin1String("error")).toString()));
        r.timeline.last().failed = true;
    } else {
        return false;
    }
    m_raw[id].append(json);
    return true;
}

QByteArray CreationJournal::lineFor(QJsonObject record)
{
    record.insert(QStringLiteral("v"), formatVersion);
    if (!record.contains(QLatin1String("time")))
        record.insert(QStringLiteral("time"), isoNow());
    return QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
}

bool CreationJournal::append(QJsonObject record)
{
    if (!m_open) {
        qCWarning(lcJournal) << "journal not open; record dropped";
        m_errorString = tr("The journal %1 is not open").arg(m_filePath);
        return false;
    }
    const AppendResult result
        = appendNow(m_filePath, lockFilePath(), lineFor(std::move(record)), m_sync);
    return appended(result.error, result.lockError);
}

bool CreationJournal::appended(int error, const QString &lockError)
{
    if (!lockError.isEmpty()) {
        m_errorString = lockError;
        qCWarning(lcJournal) << m_errorString;
        return false;
    }
    if (error) {
        m_errorString
            = tr("Could not write to the journal %1: %2").arg(m_filePath, systemError(error));
        qCWarning(lcJournal) << "could not write the journal:" << std::strerror(error);
        return false;
    }
    refresh();
    return true;
}

JournalWriter *CreationJournal::writer()
{
    if (!m_writerThread) {
        m_writerThread = std::make_unique<QThread>();
        m_writerThread->setObjectName(QStringLiteral("journal writer"));
        m_writer = std::make_unique<JournalWriter>();
        m_writer->moveToThread(m_writerThread.get());
        m_writerThread->start();
    }
    return m_writer.get();
}

void CreationJournal::appendQueued(QJsonObject record, QObject *context, Written done)
{
    appendQueued(QList<QJsonObject> { std::move(record) }, context, std::move(done));
}

void CreationJournal::appendQueued(
    const QList<QJsonObject> &records, QObject *context, Written done)
{
    Q_ASSERT(context && context->thread() == thread());
    if (!m_open) {
        qCWarning(lcJournal) << "journal not open; record dropped";
        const QString notOpen = tr("The journal %1 is not open").arg(m_filePath);
        QMetaObject::invokeMethod(
            context,
            [this, notOpen, done = std::move(done)] {
                m_errorString = notOpen;
                done(false);
            },
            Qt::QueuedConnection);
        return;
    }
    QByteArray lines;
    for (const QJsonObject &record : records)
        lines += lineFor(record);
    m_queued.append({ std::move(lines), context, std::move(done) });
    if (!m_writerBusy)
        writeQueued();
}

void CreationJournal::writeQueued()
{
    // While one write and its fsync are on their way, the records of other creations
    // wait and then go together: with many creations at once the disk sets the pace,
    // and each record is still durable before its caller goes on.
    m_writerBusy = true;
    m_writing = std::exchange(m_queued, {});
    QByteArray lines;
    for (const QueuedRecord &record : std::as_const(m_writing))
        lines += record.line;
    // Only the file's names and the lines cross to the writer thread; the records in
    // memory, errorString(), the callbacks and the signals stay on this one.
    JournalWriter *const thread = writer();
    QMetaObject::invokeMethod(thread,
        [this, thread, path = m_filePath, lockPath = lockFilePath(), lines = std::move(lines),
            sync = m_sync]() mutable {
            thread->add({ path, lockPath, std::move(lines), std::move(sync),
                [this](const AppendResult &result) {
                    // Dropped by Qt if the journal is gone by then.
                    QMetaObject::invokeMethod(
                        this, [this, result] { queuedWritten(result.error, result.lockError); },
                        Qt::QueuedConnection);
                } });
        });
}

void CreationJournal::queuedWritten(int error, const QString &lockError)
{
    const QList<QueuedRecord> written = std::exchange(m_writing, {});
    const QPointer<CreationJournal> alive(this);
    const bool ok = appended(error, lockError);
    for (const QueuedRecord &record : written) {
        if (!alive)
            return; // a slot or callback ended what owned the journal
        if (record.context)
            record.done(ok);
    }
    if (!alive)
        return;
    m_writerBusy = false;
    if (!m_queued.isEmpty())
        writeQueued();
}

void CreationJournal::setSyncFunction(SyncFunction sync) { m_sync = std::move(sync); }

QJsonObject CreationJournal::intentRecord(const CreationIntent &intent)
{
    // Neither changes while this process runs: read /proc once.
    static const qint64 ownStartTicks = processStartTicks(QCoreApplication::applicationPid());
    static const QString bootId = currentBootId();
    QJsonArray servers;
    for (const QString &name : intent.mcpServers)
        servers.append(name);
    return { { QStringLiteral("type"), QStringLiteral("intent") },
        { QStringLiteral("creation"), intent.creationId },
        { QStringLiteral("time"), intent.time.isValid() ? isoUtc(intent.time) : isoNow() },
        { QStringLiteral("template"), intent.templateId },
        { QStringLiteral("mcpServers"), servers }, { QStringLiteral("install"), intent.installId },
        { QStringLiteral("timeout"), intent.timeoutSeconds },
        { QStringLiteral("pid"), qint64(QCoreApplication::applicationPid()) },
        { QStringLiteral("pidStart"), ownStartTicks }, { QStringLiteral("boot"), bootId },
        { QStringLiteral("host"), QHostInfo::localHostName() } };
}

QJsonObject CreationJournal::sandboxIdRecord(const QString &creationId, const QString &sandboxId)
{
    return { { QStringLiteral("type"), QStringLiteral("sandbox") },
        { QStringLiteral("creation"), creationId }, { QStringLiteral("sandboxId"), sandboxId } };
}

QJsonObject CreationJournal::stateRecord(const QString &creationId, CreationState state)
{
    return { { QStringLiteral("type"), QStringLiteral("state") },
        { QStringLiteral("creation"), creationId }, { QStringLiteral("state"), toString(state) } };
}

QJsonObject CreationJournal::foundRecord(const QString &creationId, const QStringList &sandboxIds)
{
    return { { QStringLiteral("type"), QStringLiteral("found") },
        { QStringLiteral("creation"), creationId },
        { QStringLiteral("sandboxIds"), QJsonArray::fromStringList(sandboxIds) } };
}

QJsonObject CreationJournal::gatewayStderrRecord(
    const QString &creationId, const QByteArray &stderrText)
{
    bool truncated = false;
    const QString text = capUtf8(stderrText, maxStderrBytes, &truncated);
    return { { QStringLiteral("type"), QStringLiteral("gateway-stderr") },
        { QStringLiteral("creation"), creationId }, { QStringLiteral("stderr"), text },
        { QStringLiteral("truncated"), truncated } };
}

QJsonObject CreationJournal::outcomeRecord(
    const QString &creationId, const CreationOutcome &outcome)
{
    QJsonObject json { { QStringLiteral("type"), QStringLiteral("outcome") },
        { QStringLiteral("creation"), creationId },
        { QStringLiteral("state"), toString(outcome.state) } };
    json.insert(QStringLiteral("error"),
        outcome.error.isEmpty() ? QJsonValue() : QJsonValue(outcome.error));
    json.insert(QStringLiteral("rollback"),
        outcome.rollback ? QJsonValue(rollbackToJson(*outcome.rollback)) : QJsonValue());
    json.insert(QStringLiteral("orphanReason"),
        outcome.orphanReason ? QJsonValue(toString(*outcome.orphanReason)) : QJsonValue());
    if (outcome.cancelled)
        json.insert(QStringLiteral("cancelled"), true);
    return json;
}

QJsonObject CreationJournal::orphanKilledRecord(const QString &creationId, const QString &sandboxId)
{
    return { { QStringLiteral("type"), QStringLiteral("orphan-killed") },
        { QStringLiteral("creation"), creationId }, { QStringLiteral("sandboxId"), sandboxId } };
}

QJsonObject CreationJournal::killFailedRecord(
    const QString &creationId, const QString &sandboxId, const QString &error)
{
    return { { QStringLiteral("type"), QStringLiteral("kill-failed") },
        { QStringLiteral("creation"), creationId }, { QStringLiteral("sandboxId"), sandboxId },
        { QStringLiteral("error"), error } };
}

void CreationJournal::recordLaterKill(const QString &sandboxId, const QString &error,
    const QString &creationTag, QObject *context, Written done)
{
    const auto owner = creationOwning(sandboxId, creationTag);
    if (!owner) {
        // Not one of ours: nothing to tell, and `done` still comes later, as promised.
        QMetaObject::invokeMethod(
            context, [done = std::move(done)] { done(true); }, Qt::QueuedConnection);
        return;
    }
    appendQueued(error.isEmpty() ? orphanKilledRecord(owner->creationId, sandboxId)
                                 : killFailedRecord(owner->creationId, sandboxId, error),
        context, std::move(done));
}

QList<CreationRecord> CreationJournal::creations() const
{
    QList<CreationRecord> list;
    list.reserve(m_order.size());
    for (const QString &id : m_order)
        list.append(m_records.value(id));
    return list;
}

QList<CreationRecord> CreationJournal::history() const
{
    QList<CreationRecord> list = creations();
    std::reverse(list.begin(), list.end());
    return list;
}

std::optional<CreationRecord> CreationJournal::creation(const QString &creationId) const
{
    const auto it = m_records.constFind(creationId);
    if (it == m_records.constEnd())
        return std::nullopt;
    return *it;
}

std::optional<CreationRecord> CreationJournal::creationOwning(
    const QString &sandboxId, const QString &creationTag) const
{
    if (!creationTag.isEmpty()) {
        if (auto r = creation(creationTag))
            return r;
    }
    for (auto it = m_order.crbegin(); it != m_order.crend(); ++it) {
        const CreationRecord r = m_records.value(*it);
        if (r.owns(sandboxId))
            return r;
    }
    return std::nullopt;
}

void CreationJournal::setActive(const QString &creationId, bool active)
{
    if (active)
        m_active.insert(creationId);
    else
        m_active.remove(creationId);
}

bool CreationJournal::writeAll(const QString &path, const QList<QJsonObject> &records)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        m_errorString = tr("Could not write the journal %1: %2").arg(path, file.errorString());
        return false;
    }
    for (const QJsonObject &record : records)
        file.write(QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n');
    // commit() syncs the data before it renames the file into place.
    if (!file.commit()) {
        m_errorString = tr("Could not write the journal %1: %2").arg(path, file.errorString());
        return false;
    }
    fsyncDirectory(QFileInfo(path).absolutePath());
    return true;
}

bool CreationJournal::compact(int keep)
{
    if (!m_open)
        return true;
    const JournalLock lock(lockFilePath());
    if (!lock.isLocked()) {
        m_errorString = lock.errorString(m_filePath, false);
        return false;
    }
    QSet<QString> changed;
    const bool ok = compactLocked(keep, &changed);
    emitChanged(changed);
    return ok;
}

bool CreationJournal::compactLocked(int keep, QSet<QString> *changed)
{
    // Lines other processes appended since our last read go into the rewrite too;
    // none can be appended until the rename, as they wait for the lock.
    catchUp(changed);
    QSet<QString> dropped;
    for (qsizetype i = 0; i < m_order.size() - keep; ++i) {
        const QString &id = m_order.at(i);
        if (!m_active.contains(id) && !m_records.value(id).mayHaveSandboxRunning())
            dropped.insert(id);
    }
    if (dropped.isEmpty())
        return true;
    QStringList kept;
    QList<QJsonObject> records;
    for (const QString &id : std::as_const(m_order)) {
        if (dropped.contains(id))
            continue;
        kept << id;
        records += m_raw.value(id);
    }
    if (!writeAll(m_filePath, records))
        return false;
    for (const QString &id : std::as_const(dropped)) {
        m_records.remove(id);
        m_raw.remove(id);
    }
    m_order = kept;
    holdCurrentFile(QFileInfo(m_filePath).size());
    qCDebug(lcJournal) << "compacted: dropped" << dropped.size() << "creations";
    return true;
}

} // namespace sd
