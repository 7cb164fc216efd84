#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <compare>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>

namespace sd::local {

enum class SandboxState
{
    Running,
    Paused
};

/// Why a sandbox ended; carried by SandboxRegistry::sandboxKilled().
enum class KillReason
{
    Requested, ///< DELETE /sandboxes/{id}
    Expired, ///< endAt passed
    Shutdown, ///< the server is quitting
};

/// A template the local backend can start. Fixed figures; no builds.
struct LocalTemplate
{
    QString templateId;
    QString alias;
    int cpuCount = 2;
    int memoryMB = 512;
    int diskSizeMB = 1024;
    QString envdVersion;
    QString buildId;
    QDateTime createdAt;
};

/// One sandbox as the control plane knows it.
struct SandboxRecord
{
    QString sandboxId; ///< 20 lowercase letters and digits
    QString templateId;
    QString alias;
    QString clientId;
    QString envdVersion;
    QString envdAccessToken; ///< secret: never logged
    QDateTime startedAt;
    QDateTime endAt; ///< frozen while paused
    int cpuCount = 0;
    int memoryMB = 0;
    int diskSizeMB = 0;
    QMap<QString, QString> metadata;
    QMap<QString, QString> envVars; ///< secret values: never logged
    std::optional<bool> allowInternetAccess;
    bool autoPause = false; ///< paused, not killed, when endAt passes
    bool autoResume = false; ///< a request to its envd resumes it when paused
    int timeoutSec = 0; ///< as created (0: the default); an auto-resume starts it afresh
    SandboxState state = SandboxState::Running;
    qint64 pausedRemainingMs = 0; ///< time left when paused
    quint64 sequence = 0; ///< creation order, a tie-break for equal startedAt
};

/// Where a sandbox sits in the list order: by start time, then creation order.
/// Unique per sandbox (the sequence is), so a page can resume strictly after one.
struct ListKey
{
    qint64 startedAtMs = 0; ///< ms since the epoch, UTC
    quint64 sequence = 0;

    friend auto operator<=>(const ListKey &, const ListKey &) = default;
    static ListKey of(const SandboxRecord &record)
    {
        return { record.startedAt.toMSecsSinceEpoch(), record.sequence };
    }
};

/// One lifecycle event, shaped like E2B's SandboxLogEntry.
struct SandboxEvent
{
    QDateTime timestamp;
    QString level; ///< debug, info, warn, error
    QString message;
    QMap<QString, QString> fields; ///< always holds "event" (created, paused, ...)
};

/// The sandboxes of the local backend and their lifetimes.
///
/// Owns every SandboxRecord, kills a sandbox when its endAt passes (one created with
/// autoPause is paused instead; a paused one does not expire), and keeps each sandbox's lifecycle
/// events for kEventRetentionMs after it ended so its logs can still be read.
///
/// Extension points for the data plane (processes, envd):
///  - connect to sandboxCreated / sandboxPaused / sandboxResumed / sandboxKilled to
///    start, SIGSTOP, SIGCONT and tear down a sandbox's processes;
///  - attach a per-sandbox runtime object with setRuntime(); the registry owns it and
///    deletes it (deleteLater) right after sandboxKilled() for that sandbox;
///  - addEvent() appends to a sandbox's log (e.g. "process started").
/// Input is validated by the caller (ControlPlane); the registry only clamps.
class SandboxRegistry : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultTimeoutSec = 300;
    static constexpr int kMaxTimeoutSec = 86400;
    static constexpr qint64 kEventRetentionMs = 3600 * 1000;
    static constexpr const char *kEnvdVersion = "0.5.2";

    using Clock = std::function<QDateTime()>;

    explicit SandboxRegistry(QObject *parent = nullptr);
    ~SandboxRegistry() override;

    /// Replaces the clock (tests). Default: QDateTime::currentDateTimeUtc().
    void setClock(Clock clock);
    QDateTime now() const;

    static const QList<LocalTemplate> &templates();
    /// By template ID or alias; nullptr when unknown.
    static const LocalTemplate *findTemplate(const QString &idOrAlias);
    /// 0 means the default; anything else is used as given (validated by the caller).
    static int effectiveTimeout(int seconds);

    struct CreateParams
    {
        QString templateId; ///< must name a known template
        int timeoutSec = 0; ///< 0: default
        QMap<QString, QString> metadata;
        QMap<QString, QString> envVars;
        std::optional<bool> allowInternetAccess;
        bool autoPause = false; ///< pause at the timeout instead of killing
        bool autoResume = false; ///< resume on a request to its envd (needs autoPause)
    };
    /// Creates a running sandbox and emits sandboxCreated().
    SandboxRecord create(const CreateParams &params);

    /// Benchmarks only: `count` running sandboxes as create() makes them, but without
    /// their lifecycle events or sandboxCreated(), and with expiry scheduled once at
    /// the end, so filling a registry with 50,000 costs O(n log n), not O(n²).
    void createManyForBenchmark(const CreateParams &params, int count);

    /// nullptr when unknown (or already ended).
    const SandboxRecord *find(const QString &sandboxId) const;
    QList<SandboxRecord> sandboxes() const;
    int count() const { return int(m_sandboxes.size()); }
    int pausedCount() const { return m_pausedCount; }
    int runningCount() const { return count() - m_pausedCount; }

    /// Calls `visit` on the sandboxes in list order (ascending or descending ListKey),
    /// starting strictly after `after` when given, until `visit` returns false.
    /// Finding the start costs O(log n), each step O(1): a page of the list costs what
    /// it holds, not what the registry holds. `visit` must not change the registry.
    void visitInOrder(bool ascending, const std::optional<ListKey> &after,
        const std::function<bool(const SandboxRecord &)> &visit) const;

    enum class Result
    {
        Ok,
        NotFound,
        Conflict
    };

    /// Ends a sandbox; false when unknown. Emits sandboxKilled().
    bool kill(const QString &id, KillReason reason = KillReason::Requested);
    /// Ends every sandbox (server shutdown).
    void killAll(KillReason reason = KillReason::Shutdown);
    /// endAt = now + seconds (0: default). A paused sandbox keeps the time for resume.
    Result setTimeout(const QString &sandboxId, int seconds);
    /// Conflict when already paused.
    Result pause(const QString &sandboxId) { return pause(sandboxId, false); }
    /// Conflict when not paused. Without a timeout the time left at pause is restored.
    Result resume(const QString &sandboxId, std::optional<int> timeoutSec);
    /// A request reached a paused sandbox created with autoResume: resumes it with its
    /// timeout from creation, counted from now, as E2B does. Conflict when it is not
    /// paused or not auto-resumable.
    Result resumeOnRequest(const QString &sandboxId);

    enum class ConnectResult
    {
        NotFound,
        WasRunning,
        Resumed
    };
    /// Resumes a paused sandbox and extends (never shortens) its time to `timeoutSec`.
    ConnectResult connectTo(const QString &sandboxId, int timeoutSec);

    /// Lifecycle events of a live or recently ended sandbox; nullopt when unknown.
    std::optional<QList<SandboxEvent>> events(const QString &sandboxId) const;
    void addEvent(const QString &sandboxId, const QString &event, const QString &message,
        const QMap<QString, QString> &fields = {}, const QString &level = QStringLiteral("info"));

    /// Per-sandbox runtime state of the data plane. Takes ownership; replaces (and
    /// deletes) a previous one. Ignored (and deleted) when the sandbox is unknown.
    void setRuntime(const QString &sandboxId, QObject *runtime);
    QObject *runtime(const QString &sandboxId) const;

Q_SIGNALS:
    void sandboxCreated(const QString &sandboxId);
    /// After this the record is gone; runtime(sandboxId) is still valid while it is emitted.
    void sandboxKilled(const QString &sandboxId, sd::local::KillReason reason);
    void sandboxPaused(const QString &sandboxId);
    void sandboxResumed(const QString &sandboxId);
    void sandboxTimeoutChanged(const QString &sandboxId, const QDateTime &endAt);

private:
    QString newSandboxId() const;
    /// `atTimeout`: its endAt passed and it was created with autoPause.
    Result pause(const QString &sandboxId, bool atTimeout);
    /// A new record from `tmpl` and `params`, started at `startedAt`, in both indexes.
    const SandboxRecord &addRecord(const LocalTemplate &tmpl, const CreateParams &params,
        const QDateTime &startedAt);
    /// Every change of a record's state or end time goes through here, so the expiry
    /// order stays in step with the records.
    void setLifetime(SandboxRecord &record, SandboxState state, const QDateTime &endAt);
    /// A paused record running again until `endAt`, with `message` as its event.
    void resumeUntil(SandboxRecord &record, const QDateTime &endAt, const QString &message);
    void scheduleExpiry();
    void expireDue();
    void pruneEvents();

    Clock m_clock;
    /// Node-based: a record stays at its address until it ends, so the list order can
    /// point at it. A page of the list then walks records, not lookups by ID (which cost
    /// half of a page at 10,000 sandboxes, each one a cache miss).
    std::unordered_map<QString, SandboxRecord> m_sandboxes;
    std::map<ListKey, const SandboxRecord *> m_listOrder; ///< all of m_sandboxes, in list order
    /// The running sandboxes by end time (ms since the epoch, then creation order): the
    /// next expiry is the first, not a look at every sandbox after each change.
    std::map<std::pair<qint64, quint64>, const SandboxRecord *> m_expiryOrder;
    int m_pausedCount = 0;
    QHash<QString, QList<SandboxEvent>> m_events; ///< kept an hour after the end
    /// The sandboxes of m_events that ended, in the order they did: pruning looks at
    /// the oldest only, not at every log.
    std::deque<std::pair<QDateTime, QString>> m_ended;
    QHash<QString, QPointer<QObject>> m_runtimes;
    QList<QPointer<QObject>> m_dyingRuntimes; ///< deleteLater() issued, maybe not yet run
    qsizetype m_dyingPruneAt = 64; ///< m_dyingRuntimes' size at which it is next pruned
    QTimer m_expiryTimer;
    QString m_clientId;
    quint64 m_nextSequence = 1;
};

QString killReasonName(KillReason reason);
QString sandboxStateName(SandboxState state);

} // namespace sd::local
