#pragma once

#include "api/connectionsettings.h"
#include "api/sandbox.h"
#include "common/job.h"
#include "creation/creationstate.h"
#include "creation/retryingkilljob.h"
#include "envd/envdtarget.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace sd {

class CreationJournal;
struct CreationRecord;
class OrphanScanJob;

/// How sure we are that nobody looks after a sandbox. Certain: one of ours, and the
/// journal says so. Suspected: no journal record (another client's), only the look of
/// it (an MCP template with no gateway running); never removed in bulk.
enum class OrphanCertainty
{
    Certain,
    Suspected
};
QString toString(OrphanCertainty certainty);

/// A running or paused sandbox that nobody is looking after, and why we think so.
struct Orphan
{
    QString sandboxId;
    OrphanReason reason = OrphanReason::Interrupted;
    OrphanCertainty certainty = OrphanCertainty::Certain;
    QString evidence; ///< one or two sentences for people
    QString creationId; ///< our creation it came from, empty for gateway-down of others

    bool isSuspected() const { return certainty == OrphanCertainty::Suspected; }
};

/// What a bulk kill removes: the certain orphans, and the suspected ones only when
/// `includeSuspected` (someone chose them explicitly).
QList<Orphan> orphansToKill(const QList<Orphan> &orphans, bool includeSuspected);

/// Whether one entry of a process's argv names the gateway: `mcp-gateway` as a whole
/// path component (`/usr/local/bin/mcp-gateway`, `./mcp-gateway`), not a substring.
bool namesGateway(QStringView argument);

/// Flags orphans in a listed snapshot of sandboxes.
///
/// Journal rules (immediate, certain): rollback-failed, interrupted (a creation that
/// never reached a final state and whose sandbox is still there, by id or by its
/// `sandbox-desk.creation` tag), lost-response (tagged with one of our creations but
/// never known by id). Probe rule (asynchronous): gateway-down for running sandboxes
/// up longer than the grace in which no process names `mcp-gateway` in its argv.
/// For our own creations the journal decides whether a gateway was expected (it
/// asked for MCP; certain); for others the `mcp-gateway` template does (suspected).
/// The age is measured on the server's clock when the list's time is given. At most
/// 4 probes at a time, each result cached for a minute. Creations running in this
/// process, or unfinished in another live process on this host, are never flagged
/// nor probed. A sandbox gets at most one reason; the journal's come first.
class OrphanDetector : public QObject
{
    Q_OBJECT

public:
    /// `network` and `journal` are not owned and must outlive the detector.
    OrphanDetector(QNetworkAccessManager *network, ConnectionSettings settings,
        CreationJournal *journal, QObject *parent = nullptr);
    ~OrphanDetector() override;

    void setGatewayGrace(std::chrono::seconds grace) { m_grace = grace; }
    std::chrono::seconds gatewayGrace() const { return m_grace; }
    void setProbeCacheTtl(std::chrono::milliseconds ttl) { m_cacheTtl = ttl; }
    void setMaxConcurrentProbes(int count) { m_maxProbes = qMax(1, count); }
    int maxConcurrentProbes() const { return m_maxProbes; }
    void setProbeTimeout(std::chrono::milliseconds timeout) { m_probeTimeout = timeout; }
    /// For tests: what "now" is.
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

    /// The journal rules for one sandbox (no network).
    std::optional<Orphan> judgeByJournal(const Sandbox &sandbox) const;
    /// True when the gateway rule applies to the sandbox (a probe would be needed).
    /// `serverNow` is the server's time of the list (invalid: the detector's clock).
    bool needsGatewayProbe(const Sandbox &sandbox, const QDateTime &serverNow = {}) const;

    /// Judges a snapshot: journal rules plus gateway probes. `serverNow` is the time
    /// the server sent with the list (its `Date`); the grace is measured against it,
    /// and against the detector's clock only when it is invalid. The caller starts the
    /// job; it finishes when every probe has answered (or failed: not flagged).
    OrphanScanJob *scan(const QList<Sandbox> &sandboxes, QObject *parent = nullptr);
    OrphanScanJob *scan(
        const QList<Sandbox> &sandboxes, const QDateTime &serverNow, QObject *parent = nullptr);

    /// How many probes have been sent over the detector's life (tests check the cache).
    int probesSent() const { return m_probesSent; }
    /// How many probe results are kept (tests check that expired ones go).
    int cachedProbes() const { return int(m_cache.size()); }
    /// The most probes that were ever in flight at once.
    int peakConcurrentProbes() const { return m_peakProbes; }

Q_SIGNALS:
    /// A gateway probe of this sandbox answered (or failed); its result is cached.
    void probeFinished(const QString &sandboxId);

private:
    friend class OrphanScanJob;
    struct ProbeResult
    {
        bool reached = false;
        bool gatewayRunning = false;
        int processCount = 0;
        QString error;
        QDateTime at;
    };

    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }
    std::optional<ProbeResult> cachedProbe(const QString &sandboxId) const;
    bool isFresh(const ProbeResult &result, const QDateTime &at) const;
    void requestProbe(const Sandbox &sandbox);
    void pumpProbes();
    void probeProcessTable(const QString &sandboxId, const EnvdTarget &target, int listed);
    void probeDone(const QString &sandboxId, const ProbeResult &result);
    Orphan gatewayDown(const Sandbox &sandbox, const ProbeResult &probe, const QDateTime &at) const;
    std::optional<CreationRecord> ownRecord(const Sandbox &sandbox) const;

    QNetworkAccessManager *m_network;
    ConnectionSettings m_settings;
    QPointer<CreationJournal> m_journal;
    std::chrono::seconds m_grace { 120 };
    std::chrono::milliseconds m_cacheTtl { 60000 };
    std::chrono::milliseconds m_probeTimeout { 15000 };
    int m_maxProbes = 4;
    std::function<QDateTime()> m_clock;
    QHash<QString, ProbeResult> m_cache;
    QList<Sandbox> m_queue;
    QHash<QString, QPointer<Job>> m_running;
    int m_probesSent = 0;
    int m_peakProbes = 0;
};

/// One judgement of a listed snapshot. orphans() in the order of the snapshot.
class OrphanScanJob : public Job
{
    Q_OBJECT

public:
    QList<Orphan> orphans() const;
    std::optional<Orphan> orphanFor(const QString &sandboxId) const;

protected:
    void doStart() override;
    void doCancel() override;

private:
    friend class OrphanDetector;
    OrphanScanJob(
        OrphanDetector *detector, QList<Sandbox> sandboxes, QDateTime serverNow, QObject *parent);
    void onProbeFinished(const QString &sandboxId);
    void finishIfDone();

    QPointer<OrphanDetector> m_detector;
    QList<Sandbox> m_sandboxes;
    QDateTime m_serverNow;
    QHash<QString, Orphan> m_orphans;
    QHash<QString, Sandbox> m_waiting;
};

/// Kills a set of orphans ("kill all orphans"), or of sandboxes named by id
/// (`--kill`), each with the rollback's retries, and reports each. A kill that fails
/// does not stop the others.
class KillOrphansJob : public Job
{
    Q_OBJECT

public:
    struct Failure
    {
        QString sandboxId;
        QString error;
    };

    /// `journal` may be null; when set, each kill of a sandbox of one of our creations
    /// joins that creation's timeline (CreationJournal::recordLaterKill()).
    KillOrphansJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        CreationJournal *journal, QList<Orphan> orphans, RetryPolicy policy = {},
        QObject *parent = nullptr);

    /// Gone now, including those the server no longer knew (see notFound()).
    QStringList killed() const { return m_killed; }
    /// Of killed(), the ones the server answered 404 for: gone before this job asked.
    QStringList notFound() const { return m_notFound; }
    QList<Failure> failed() const { return m_failed; }

Q_SIGNALS:
    /// One orphan is done; `error` is empty when it is gone.
    void orphanDone(const QString &sandboxId, const QString &error);

protected:
    void doStart() override;
    void doCancel() override;

private:
    void next();
    /// Runs m_recorded, if set, and clears it.
    void goOnAfterRecord();

    QNetworkAccessManager *m_network;
    ConnectionSettings m_settings;
    QPointer<CreationJournal> m_journal;
    QList<Orphan> m_orphans;
    RetryPolicy m_policy;
    int m_index = 0;
    QPointer<Job> m_current;
    /// Set while the journal writes the record of the kill that just ended: goes on.
    std::function<void()> m_recorded;
    QStringList m_killed;
    QStringList m_notFound;
    QList<Failure> m_failed;
};

} // namespace sd
