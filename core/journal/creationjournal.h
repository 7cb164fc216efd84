#pragma once

#include "creation/creationstate.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace sd {

class JournalWriter;

/// One step of a creation's timeline, rebuilt from the journal's records (each
/// record carries the time it was written, so no separate field is needed).
struct CreationStep
{
    enum class Kind
    {
        State, ///< the creation entered `state` (the intent is Allocating, the outcome final)
        SandboxKnown, ///< the create answer named the sandbox (`detail`)
        Found, ///< a search by creation tag found these sandboxes (`detail`)
        GatewayOutput, ///< the gateway process ended and its stderr was recorded
        OrphanKilled, ///< a sandbox of this creation was removed later as an orphan (`detail`)
        Killed, ///< the sandbox of this Ready creation was killed later (`detail`)
        KillFailed, ///< a later kill of a sandbox of this creation failed (`detail`: id, reason)
    };
    Kind kind = Kind::State;
    /// For State the state entered; for the other kinds the state they happened in.
    CreationState state = CreationState::Allocating;
    QDateTime time; ///< invalid when the record had no readable time
    QString detail; ///< sandbox ids, for the kinds that name some
    /// The step the creation failed in (the one a rollback interrupted), a rollback
    /// that failed, or a final state that is a failure of its own (RollbackFailed,
    /// Rejected). RolledBack is the rollback done, not a failure.
    bool failed = false;
    /// The step the user's cancel stopped (the one its rollback interrupted): neither
    /// done nor failed.
    bool interrupted = false;
};

/// What the journal knows about one creation, rebuilt from its records.
struct CreationRecord
{
    QString creationId;
    QString templateId;
    QStringList mcpServers; ///< names only, never option values
    QString installId;
    qint64 pid = 0; ///< the process that ran the creation
    /// When that process started (clock ticks after boot) and in which boot: a later
    /// process given the same pid is not the creator. -1 and empty in journals written
    /// before these were recorded, or where /proc could not tell.
    qint64 pidStartTicks = -1;
    QString bootId;
    QString host;
    int timeoutSeconds = 0;
    QDateTime startedAt;
    QDateTime updatedAt;
    QDateTime finishedAt; ///< invalid until the final record
    QString sandboxId; ///< empty until the create answer was read
    QStringList foundSandboxIds; ///< tagged sandboxes an ambiguous allocation's search found
    CreationState state = CreationState::Allocating; ///< the last recorded state
    QString error; ///< the first error, for people
    /// The user cancelled it (the outcome said so, or it ended Cancelled). A cancel
    /// whose rollback failed is still RollbackFailed: see endedCancelled().
    bool cancelled = false;
    QString gatewayStderr; ///< capped at CreationJournal::maxStderrBytes
    bool gatewayStderrTruncated = false;
    std::optional<RollbackReport> rollback;
    /// For RollbackFailed: why something may be left (rollback-failed or lost-response).
    std::optional<OrphanReason> orphanReason;
    QStringList orphansKilled; ///< sandboxes of this creation removed later as orphans
    /// When the sandbox of this Ready creation was killed later; invalid if it was not.
    QDateTime killedAt;
    /// Every state it passed through and what happened in between, oldest first.
    QList<CreationStep> timeline;

    bool isFinished() const { return finishedAt.isValid(); }
    /// Cancelled by the user with nothing left running: before anything was allocated
    /// (Cancelled), or after, with what it had made removed (RolledBack).
    bool endedCancelled() const
    {
        return isFinished()
            && (state == CreationState::Cancelled
                || (state == CreationState::RolledBack && cancelled));
    }
    /// How it ended, for people: Cancelled for a cancel whose rollback removed what it
    /// had made (the journal keeps RolledBack in `state`), else `state`.
    CreationState shownState() const { return endedCancelled() ? CreationState::Cancelled : state; }
    /// Finished in any state but Ready, unless the user cancelled it (rolled back,
    /// rollback failed, rejected).
    bool hasFailed() const
    {
        return isFinished() && state != CreationState::Ready && !endedCancelled();
    }
    bool hasMcp() const { return !mcpServers.isEmpty(); }
    /// True when `sandboxId` is one this creation produced (by id or through its search).
    bool owns(const QString &sandboxId) const;
    /// True when a sandbox of this creation may still run without being the user's:
    /// unfinished (in flight or interrupted), rollback failed or response lost (until
    /// each sandbox it knows was killed as an orphan), or Ready with duplicates whose
    /// removal was never confirmed. Compaction keeps these whatever their age.
    bool mayHaveSandboxRunning() const;
};

/// The announcement written before a creation's first network call.
struct CreationIntent
{
    QString creationId;
    QString templateId;
    QStringList mcpServers; ///< names only
    QString installId;
    int timeoutSeconds = 0;
    QDateTime time; ///< invalid: now
};

/// How a creation ended, written once.
struct CreationOutcome
{
    CreationState state = CreationState::Ready;
    QString error; ///< the first error's sentence; empty for Ready
    std::optional<RollbackReport> rollback;
    std::optional<OrphanReason> orphanReason;
    /// The user cancelled it; written only when true, so readers of journals from
    /// before it (and older readers of new ones) see an ordinary outcome.
    bool cancelled = false;
};

/// Append-only, crash-safe record of every creation of one profile (JSON Lines).
///
/// A record is durable (written, fsync'd) when the call that writes it reports
/// success: the record...() functions return once it is, and appendQueued() writes
/// it on the journal's writer thread and calls back once it is, so a creation on the
/// GUI thread never waits for the disk and still starts the network call a record
/// announces only after that record would survive a crash or power loss. Records
/// never hold API keys, envd or gateway tokens, MCP option values or env values: the
/// API only accepts names, ids, states and already-redacted text.
///
/// open() replays the file: a torn last line (a crash while writing) is dropped with
/// a warning and everything before it kept; a file with damage elsewhere is renamed
/// aside (never deleted) and its readable records carried over into a fresh file.
/// Compaction at open() keeps the last maxCreations creations, and every older one
/// whose sandbox may still be running (CreationRecord::mayHaveSandboxRunning()).
///
/// Several processes may append to the same file (each append opens it with
/// O_APPEND); refresh() picks up what others wrote. Writers exclude each other with
/// an advisory flock() on lockFilePath(): each append, each compaction (read, write
/// the new file, fsync, rename) and the repairs at open() hold it, so no append can
/// land in a file that a compaction is about to replace. Queued records wait a few
/// seconds at most for the lock, on the writer thread, without sleeping: while a
/// process stopped (Ctrl+Z) holds it, they fail with an error that names that
/// process, rather than hang every other writer with it. Nothing on the caller's
/// thread waits for the lock (see open(), compact() and the record...() functions).
/// Readers take no lock; they notice a file replaced by a compaction by its identity
/// (device and inode of the path against the file they hold open) and read it again
/// from the start.
class CreationJournal : public QObject
{
    Q_OBJECT

public:
    static constexpr int maxCreations = 500;
    static constexpr int maxStderrBytes = 64 * 1024;

    /// `filePath` is the profile's journal, e.g. `<AppDataLocation>/journal/default.jsonl`.
    explicit CreationJournal(QString filePath, QObject *parent = nullptr);
    ~CreationJournal() override;

    /// `<AppDataLocation>/journal`.
    static QString defaultDirectory();
    /// Where earlier versions kept them (`sandbox-desk/sandbox-desk/journal`); Session
    /// moves a journal found there.
    static QString legacyDefaultDirectory();
    /// The file of a profile inside `directory` (the name is made file-system safe).
    static QString filePathFor(const QString &directory, const QString &profile);

    QString filePath() const { return m_filePath; }
    /// `<filePath>.lock`, the file writers flock() (never removed: removing it would
    /// let two processes lock two different files).
    QString lockFilePath() const;

    /// Creates the directory if needed, replays the file and compacts it. Returns false
    /// (errorString()) if the journal cannot be used at all. Holds the lock while it
    /// reads and repairs, so it never cuts another process's append short; while
    /// another process holds it, reads without repairing or compacting, and never waits.
    bool open();
    bool isOpen() const { return m_open; }
    QString errorString() const { return m_errorString; }
    /// Problems met while replaying (torn line, corrupt file renamed aside), for people.
    QStringList warnings() const { return m_warnings; }
    /// Where a corrupt file was moved, empty if none.
    QString corruptFileMovedTo() const { return m_movedAside; }

    /// Reads records other processes appended since the last read.
    void refresh();

    // The records, built once for both ways of writing them.
    static QJsonObject intentRecord(const CreationIntent &intent);
    static QJsonObject sandboxIdRecord(const QString &creationId, const QString &sandboxId);
    static QJsonObject stateRecord(const QString &creationId, CreationState state);
    static QJsonObject foundRecord(const QString &creationId, const QStringList &sandboxIds);
    static QJsonObject gatewayStderrRecord(const QString &creationId, const QByteArray &stderrText);
    static QJsonObject outcomeRecord(const QString &creationId, const CreationOutcome &outcome);
    /// A sandbox of this creation was killed later. Replay tells an orphan from the
    /// sandbox of a Ready creation (CreationStep::Kind::Killed) by the creation's state,
    /// so the record keeps the type every version reads.
    static QJsonObject orphanKilledRecord(const QString &creationId, const QString &sandboxId);
    /// A later kill of a sandbox of this creation failed; `error` is the sentence the
    /// user saw (the timeline keeps every attempt, not only the one that worked).
    static QJsonObject killFailedRecord(
        const QString &creationId, const QString &sandboxId, const QString &error);

    // Each writes on the calling thread and returns false if the record could not be
    // made durable; errorString() then names the file and the system's reason ("No
    // space left on device"). A record that failed is not left in the file, not even
    // in part. They never wait for another writer: while one holds the lock they fail
    // at once. Code on a thread that must stay responsive uses appendQueued().
    bool recordIntent(const CreationIntent &intent) { return append(intentRecord(intent)); }
    bool recordSandboxId(const QString &creationId, const QString &sandboxId)
    {
        return append(sandboxIdRecord(creationId, sandboxId));
    }
    bool recordState(const QString &creationId, CreationState state)
    {
        return append(stateRecord(creationId, state));
    }
    bool recordFound(const QString &creationId, const QStringList &sandboxIds)
    {
        return append(foundRecord(creationId, sandboxIds));
    }
    bool recordGatewayStderr(const QString &creationId, const QByteArray &stderrText)
    {
        return append(gatewayStderrRecord(creationId, stderrText));
    }
    bool recordOutcome(const QString &creationId, const CreationOutcome &outcome)
    {
        return append(outcomeRecord(creationId, outcome));
    }
    bool recordOrphanKilled(const QString &creationId, const QString &sandboxId)
    {
        return append(orphanKilledRecord(creationId, sandboxId));
    }
    bool recordKillFailed(const QString &creationId, const QString &sandboxId, const QString &error)
    {
        return append(killFailedRecord(creationId, sandboxId, error));
    }
    /// Called with true once a queued record is durable, false if it failed
    /// (errorString() says why, as for the record...() functions).
    using Written = std::function<void(bool written)>;

    /// The one way a kill made after a creation (from the window's list, "Kill all
    /// orphans", `--kill`, `--kill-orphans`) joins the timeline of the creation the
    /// sandbox belongs to (creationOwning() by id, or by `creationTag`): killed, or
    /// `error` when the kill failed. Written as appendQueued() writes; for a sandbox
    /// no journalled creation made nothing is written and `done` gets true, later too.
    void recordLaterKill(const QString &sandboxId, const QString &error,
        const QString &creationTag, QObject *context, Written done);

    /// Writes `record` (one of the ...Record() values) on the journal's writer thread,
    /// after every record queued before it, and never blocks the caller. `done` runs
    /// later on this journal's thread, after the records read back from the file were
    /// applied; it is not called once `context` is destroyed. Records still queued
    /// when the journal is destroyed are written before its destructor returns.
    /// Records queued while the writer is busy go to the file together, in one write
    /// and one fsync, and each `done` is called with that write's result.
    void appendQueued(QJsonObject record, QObject *context, Written done);
    /// appendQueued() for records that go together, in this order, in one write: one
    /// fsync for all of them, one `done`.
    void appendQueued(const QList<QJsonObject> &records, QObject *context, Written done);

    /// Makes a written record durable: `::fsync` unless replaced. Tests replace it to
    /// see which thread syncs, or to hold a record back; it runs on the thread that
    /// writes (the writer thread for appendQueued()), so it must be thread-safe. Set
    /// it before writing.
    using SyncFunction = std::function<int(int fd)>;
    void setSyncFunction(SyncFunction sync);

    /// How many creations are known.
    qsizetype count() const { return m_order.size(); }
    /// Every known creation, oldest first.
    QList<CreationRecord> creations() const;
    /// Every known creation, newest first (the history view).
    QList<CreationRecord> history() const;
    std::optional<CreationRecord> creation(const QString &creationId) const;
    /// The creation a sandbox belongs to, by its id (journal) or by its creation tag.
    std::optional<CreationRecord> creationOwning(
        const QString &sandboxId, const QString &creationTag = {}) const;

    /// Creations that run in this process now: never judged as interrupted.
    void setActive(const QString &creationId, bool active);
    bool isActive(const QString &creationId) const { return m_active.contains(creationId); }

    /// Rewrites the file with the last `keep` creations and every older one whose sandbox
    /// may still be running. Does not rewrite when nothing can go. Returns false on
    /// failure (errorString()), at once when another process holds the lock.
    bool compact(int keep = maxCreations);

Q_SIGNALS:
    /// A creation's record changed (by this process or, after refresh(), another).
    void creationChanged(const QString &creationId);

private:
    bool append(QJsonObject record);
    /// The line `record` is written as (format version and time added).
    static QByteArray lineFor(QJsonObject record);
    /// Takes in what an append did on any thread; true if the record was written.
    /// `lockError` is why the lock was not had, empty if it was.
    bool appended(int error, const QString &lockError);
    JournalWriter *writer();
    /// Hands every queued record to the writer thread, as one write.
    void writeQueued();
    /// Takes in the writer's result for the records writeQueued() handed over.
    void queuedWritten(int error, const QString &lockError);
    /// Applies one record; returns false if it is not a usable journal record.
    bool apply(const QJsonObject &record);
    void replay(const QByteArray &data, qint64 *goodEnd, bool *corrupt, int *badLines);
    bool writeAll(const QString &path, const QList<QJsonObject> &records);
    void clearRecords();
    /// Replays the file, and repairs it when the caller holds the lock (`locked`).
    bool load(bool locked);
    /// Holds the file now at filePath() open for reading, from `offset` on.
    bool holdCurrentFile(qint64 offset);
    /// Reads what was appended since the last read, or everything again when the
    /// file was replaced. Takes no lock and never writes. Adds the creations it
    /// touched to `changed`.
    void catchUp(QSet<QString> *changed);
    /// The caller holds the lock.
    bool compactLocked(int keep, QSet<QString> *changed);
    void emitChanged(const QSet<QString> &changed);

    QString m_filePath;
    bool m_open = false;
    QString m_errorString;
    QStringList m_warnings;
    QString m_movedAside;
    /// The file read so far, held open so that its inode cannot be reused while we
    /// compare it with the one at filePath().
    QFile m_readFile;
    qint64 m_readOffset = 0;
    QList<QString> m_order; ///< creation ids, oldest first
    QHash<QString, CreationRecord> m_records;
    QHash<QString, QList<QJsonObject>> m_raw; ///< each creation's records, for compaction
    QSet<QString> m_active;
    SyncFunction m_sync;
    std::unique_ptr<QThread> m_writerThread; ///< started by the first appendQueued()
    std::unique_ptr<JournalWriter> m_writer; ///< lives in m_writerThread; queued writes run there
    struct QueuedRecord
    {
        QByteArray line;
        QPointer<QObject> context;
        Written done;
    };
    QList<QueuedRecord> m_queued; ///< waiting for the writer to finish the records it has
    QList<QueuedRecord> m_writing; ///< with the writer now
    bool m_writerBusy = false;
};

} // namespace sd
