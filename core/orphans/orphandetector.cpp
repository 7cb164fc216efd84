#include "orphandetector.h"

#include "api/sandboxjobs.h"
#include "common/logging.h"
#include "common/processidentity.h"
#include "creation/envdaccess.h"
#include "envd/processjobs.h"
#include "journal/creationjournal.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace sd {

namespace {

const QString creationTag = QStringLiteral("sandbox-desk.creation");
const QString gatewayTemplate = QStringLiteral("mcp-gateway");

QString timeText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODate) : OrphanDetector::tr("an unknown time");
}

/// Whether the process that ran a creation still lives (same host only).
bool creatorAlive(const CreationRecord &record)
{
    if (record.pid <= 0 || record.host != QHostInfo::localHostName())
        return false;
    if (record.pid == QCoreApplication::applicationPid())
        return false; // us, but not active: a previous run that had our pid
    // A process that has the pid now is the creator only if it started in the same
    // boot at the same time: pids are reused, from the bottom again after a reboot.
    // What the record or /proc cannot tell falls back to whether the pid lives.
    if (!record.bootId.isEmpty() && record.bootId != currentBootId())
        return false;
    const qint64 startTicks = processStartTicks(record.pid);
    if (record.pidStartTicks >= 0 && startTicks >= 0 && startTicks != record.pidStartTicks)
        return false;
    return ::kill(pid_t(record.pid), 0) == 0 || errno == EPERM;
}

bool mentionsGateway(const ProcessInfo &process)
{
    if (namesGateway(process.config.cmd))
        return true;
    return std::any_of(process.config.args.begin(), process.config.args.end(),
        [](const QString &arg) { return namesGateway(arg); });
}

/// Lines of "PID ARGV" (argv NUL-separated) with one that names the gateway, pid 1
/// aside: the sandbox's init or jail names the gateway's folders in its own argv.
bool processTableNamesGateway(const QByteArray &table)
{
    for (const QByteArray &line : table.split('\n')) {
        const qsizetype space = line.indexOf(' ');
        if (space <= 0 || line.left(space) == "1")
            continue;
        QByteArray argv = line.mid(space + 1);
        argv.replace('\0', ' ');
        if (namesGateway(QString::fromUtf8(argv)))
            return true;
    }
    return false;
}

/// Lists the process table as lines of "PID ARGV" (argv NUL-separated). Sandbox code
/// may rewrite any file in its home, so no shell runs (a login shell would read
/// ~/.profile and could print a gateway that is not there): programs by absolute
/// path with their argv, and a fixed environment. Its own argv does not name the
/// gateway, or it would find itself.
ProcessConfig processTableCommand()
{
    ProcessConfig config;
    config.cmd = QStringLiteral("/usr/bin/find");
    config.args = QStringList { QStringLiteral("/proc"), QStringLiteral("-mindepth"),
        QStringLiteral("1"), QStringLiteral("-maxdepth"), QStringLiteral("1"),
        QStringLiteral("-regex"), QStringLiteral("/proc/[0-9]+"), QStringLiteral("-printf"),
        QStringLiteral("\\n%f "), QStringLiteral("-exec"), QStringLiteral("/bin/cat"),
        QStringLiteral("{}/cmdline"), QStringLiteral(";") };
    config.envs = { { QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin") },
        { QStringLiteral("LC_ALL"), QStringLiteral("C") } };
    config.cwd = QStringLiteral("/");
    return config;
}

} // namespace

QString toString(OrphanCertainty certainty)
{
    return certainty == OrphanCertainty::Suspected ? QStringLiteral("suspected")
                                                   : QStringLiteral("certain");
}

QList<Orphan> orphansToKill(const QList<Orphan> &orphans, bool includeSuspected)
{
    QList<Orphan> chosen;
    std::copy_if(orphans.begin(), orphans.end(), std::back_inserter(chosen),
        [includeSuspected](const Orphan &o) { return includeSuspected || !o.isSuspected(); });
    return chosen;
}

bool namesGateway(QStringView argument)
{
    // An argument may be a whole shell command (`sh -c "exec mcp-gateway --config …"`),
    // so each word counts; a word names the gateway when its last path component is
    // the gateway's name, whatever runs it (an interpreter, a wrapper, a shell).
    static const QRegularExpression separators(QStringLiteral("[\\s'\"=;&|()<>`]+"));
    const auto words = argument.toString().split(separators, Qt::SkipEmptyParts);
    return std::any_of(words.begin(), words.end(), [](const QString &word) {
        return QStringView(word).mid(word.lastIndexOf(QLatin1Char('/')) + 1) == gatewayTemplate;
    });
}

OrphanDetector::OrphanDetector(QNetworkAccessManager *network, ConnectionSettings settings,
    CreationJournal *journal, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_settings(std::move(settings))
    , m_journal(journal)
{ }

OrphanDetector::~OrphanDetector()
{
    for (const QPointer<Job> &job : std::as_const(m_running)) {
        if (job)
            job->disconnect(this);
    }
}

std::optional<Orphan> OrphanDetector::judgeByJournal(const Sandbox &sandbox) const
{
    const std::optional<CreationRecord> found = ownRecord(sandbox);
    if (!found)
        return std::nullopt;
    const CreationRecord &r = *found;
    if (m_journal->isActive(r.creationId))
        return std::nullopt; // in flight in this process
    Orphan orphan;
    orphan.sandboxId = sandbox.sandboxId;
    orphan.creationId = r.creationId;
    const bool knownById = r.owns(sandbox.sandboxId);

    if (!r.isFinished()) {
        if (creatorAlive(r))
            return std::nullopt; // another process is still working on it
        orphan.reason = OrphanReason::Interrupted;
        orphan.evidence
            = tr("Creation %1 (template %2) started at %3 and stopped while %4; it never "
                 "finished (the app was closed, killed or crashed). Found by its %5.")
                  .arg(r.creationId, r.templateId, timeText(r.startedAt), toString(r.state),
                      knownById ? tr("id in the journal") : tr("creation tag"));
        return orphan;
    }
    if (!knownById) {
        orphan.reason = OrphanReason::LostResponse;
        orphan.evidence
            = tr("Tagged with creation %1 (started at %2, ended %3), but the creation never "
                 "learned this sandbox's id: the server's answer was lost.")
                  .arg(r.creationId, timeText(r.startedAt), toString(r.state));
        return orphan;
    }
    if (r.state == CreationState::Ready && sandbox.sandboxId == r.sandboxId)
        return std::nullopt;
    orphan.reason = OrphanReason::RollbackFailed;
    if (r.state == CreationState::RollbackFailed) {
        orphan.evidence = tr("Creation %1 failed (%2) and removing the sandbox failed too (%3).")
                              .arg(r.creationId, r.error,
                                  r.rollback && !r.rollback->error.isEmpty() ? r.rollback->error
                                                                             : tr("no details"));
    } else if (sandbox.sandboxId != r.sandboxId) {
        orphan.evidence
            = tr("A sandbox creation %1 found under its tag and tried to remove (a duplicate or "
                 "the answer to a lost response) is still there.")
                  .arg(r.creationId);
    } else {
        orphan.evidence = tr("Creation %1 ended %2 at %3, yet the sandbox is still there.")
                              .arg(r.creationId, toString(r.state), timeText(r.finishedAt));
    }
    return orphan;
}

std::optional<CreationRecord> OrphanDetector::ownRecord(const Sandbox &sandbox) const
{
    if (!m_journal)
        return std::nullopt;
    return m_journal->creationOwning(sandbox.sandboxId, sandbox.metadata.value(creationTag));
}

bool OrphanDetector::needsGatewayProbe(const Sandbox &sandbox, const QDateTime &serverNow) const
{
    if (sandbox.state != SandboxState::Running)
        return false; // a paused sandbox runs nothing; envd cannot be asked
    bool withMcp = sandbox.templateId == gatewayTemplate || sandbox.alias == gatewayTemplate;
    if (const std::optional<CreationRecord> r = ownRecord(sandbox)) {
        if (m_journal->isActive(r->creationId))
            return false;
        if (!r->isFinished() && creatorAlive(*r))
            return false; // in flight in another process: its gateway may be starting
        // Ours: the journal knows whether a gateway was asked for; the template
        // only hints at it (an mcp-gateway sandbox may be created without MCP).
        withMcp = r->hasMcp();
    }
    if (!withMcp)
        return false;
    if (!sandbox.startedAt.isValid())
        return true;
    const QDateTime at = serverNow.isValid() ? serverNow : now();
    return sandbox.startedAt.secsTo(at) >= qint64(m_grace.count());
}

// A result is fresh while it is younger than its lifetime, so a lifetime of zero
// means no cache even when a scan follows a probe within the same millisecond.
bool OrphanDetector::isFresh(const ProbeResult &result, const QDateTime &at) const
{
    return result.at.msecsTo(at) < m_cacheTtl.count();
}

std::optional<OrphanDetector::ProbeResult> OrphanDetector::cachedProbe(
    const QString &sandboxId) const
{
    const auto it = m_cache.constFind(sandboxId);
    if (it == m_cache.constEnd() || !isFresh(*it, now()))
        return std::nullopt;
    return *it;
}

void OrphanDetector::requestProbe(const Sandbox &sandbox)
{
    if (m_running.contains(sandbox.sandboxId))
        return;
    for (const Sandbox &queued : std::as_const(m_queue)) {
        if (queued.sandboxId == sandbox.sandboxId)
            return;
    }
    m_queue.append(sandbox);
    pumpProbes();
}

void OrphanDetector::pumpProbes()
{
    while (m_running.size() < m_maxProbes && !m_queue.isEmpty()) {
        const Sandbox sandbox = m_queue.takeFirst();
        const QString id = sandbox.sandboxId;
        ++m_probesSent;
        // The list does not carry the envd token; the detail does.
        auto *detail = new GetSandboxJob(m_network, m_settings, id, this);
        detail->setTimeout(m_probeTimeout);
        m_running.insert(id, detail);
        m_peakProbes = qMax(m_peakProbes, int(m_running.size()));
        connect(detail, &Job::finished, this, [this, detail, id] {
            if (detail->hasError()) {
                probeDone(id, { false, false, 0, detail->error().message(), now() });
                return;
            }
            const EnvdTarget target = envdTargetFor(m_settings, detail->sandbox());
            auto *list = new ListProcessesJob(m_network, target, this);
            list->setRequestTimeoutMs(int(m_probeTimeout.count()));
            m_running.insert(id, list);
            connect(list, &Job::finished, this, [this, list, id, target] {
                if (list->hasError()) {
                    probeDone(id, { false, false, 0, list->error().message(), now() });
                    return;
                }
                const QList<ProcessInfo> processes = list->processes();
                if (std::any_of(processes.begin(), processes.end(), mentionsGateway)) {
                    probeDone(id, { true, true, int(processes.size()), {}, now() });
                    return;
                }
                // envd lists only what it started; a gateway that daemonised (as
                // `mcp-gateway --config` does) is only seen in the process table.
                probeProcessTable(id, target, int(processes.size()));
            });
            list->start();
        });
        detail->start();
    }
}

void OrphanDetector::probeProcessTable(const QString &id, const EnvdTarget &target, int listed)
{
    auto *job = new StartProcessJob(m_network, target, processTableCommand(), this);
    job->setConnectTimeoutMs(int(m_probeTimeout.count()));
    m_running.insert(id, job);
    QTimer::singleShot(m_probeTimeout, job, [job] { job->cancel(); });
    connect(job, &Job::finished, this, [this, job, id, listed] {
        if (job->hasError() || job->exitCode() != 0 || job->stdoutData().isEmpty()) {
            const QString error = job->hasError() ? job->error().message()
                                                  : tr("the process table could not be read");
            probeDone(id, { false, false, listed, error, now() });
            return;
        }
        probeDone(id, { true, processTableNamesGateway(job->stdoutData()), listed, {}, now() });
    });
    job->start();
}

void OrphanDetector::probeDone(const QString &sandboxId, const ProbeResult &result)
{
    if (!result.reached)
        qCDebug(lcOrphans) << "gateway probe of" << sandboxId << "failed:" << result.error;
    m_running.remove(sandboxId);
    // Results past their lifetime are never read again: drop them, or the cache would
    // grow by one entry per sandbox ever probed.
    const QDateTime at = now();
    m_cache.removeIf(
        [this, &at](const QHash<QString, ProbeResult>::iterator &it) { return !isFresh(*it, at); });
    m_cache.insert(sandboxId, result);
    Q_EMIT probeFinished(sandboxId);
    pumpProbes();
}

Orphan OrphanDetector::gatewayDown(
    const Sandbox &sandbox, const ProbeResult &probe, const QDateTime &at) const
{
    Orphan orphan;
    orphan.sandboxId = sandbox.sandboxId;
    orphan.reason = OrphanReason::GatewayDown;
    orphan.creationId = sandbox.metadata.value(creationTag);
    const QDateTime reference = at.isValid() ? at : now();
    const qint64 minutes
        = sandbox.startedAt.isValid() ? sandbox.startedAt.secsTo(reference) / 60 : -1;
    // "0 min" reads as a fault for a sandbox started seconds ago.
    const QString upFor = minutes < 0
        ? OrphanDetector::tr("an unknown time", "how long it has been up")
        : minutes == 0 ? OrphanDetector::tr("less than a minute")
                       : OrphanDetector::tr("%n minute(s)", nullptr, int(minutes));
    if (const std::optional<CreationRecord> r = ownRecord(sandbox)) {
        orphan.creationId = r->creationId;
        orphan.evidence = OrphanDetector::tr(
            "Our creation %1 asked for MCP (%2); the sandbox has been up for %3 "
            "and no mcp-gateway process runs in it (envd lists %n process(es)): "
            "its gateway is gone.",
            nullptr, int(probe.processCount))
                              .arg(r->creationId, r->mcpServers.join(QStringLiteral(", ")), upFor);
        return orphan;
    }
    orphan.certainty = OrphanCertainty::Suspected;
    orphan.evidence = OrphanDetector::tr(
        "Suspected: not created by this app (no journal record), template %1, up "
        "for %2, and no mcp-gateway process runs in it (envd lists %n "
        "process(es)), as older SDKs leave a sandbox whose MCP gateway failed to "
        "start. It may still be in use.",
        nullptr, int(probe.processCount))
                          .arg(sandbox.templateId, upFor);
    return orphan;
}

OrphanScanJob *OrphanDetector::scan(const QList<Sandbox> &sandboxes, QObject *parent)
{
    return scan(sandboxes, QDateTime(), parent);
}

OrphanScanJob *OrphanDetector::scan(
    const QList<Sandbox> &sandboxes, const QDateTime &serverNow, QObject *parent)
{
    return new OrphanScanJob(this, sandboxes, serverNow, parent);
}

OrphanScanJob::OrphanScanJob(
    OrphanDetector *detector, QList<Sandbox> sandboxes, QDateTime serverNow, QObject *parent)
    : Job(parent)
    , m_detector(detector)
    , m_sandboxes(std::move(sandboxes))
    , m_serverNow(std::move(serverNow))
{ }

void OrphanScanJob::doStart()
{
    if (!m_detector) {
        emitResult();
        return;
    }
    if (m_detector->m_journal)
        m_detector->m_journal->refresh(); // what other processes wrote since
    connect(m_detector, &OrphanDetector::probeFinished, this, &OrphanScanJob::onProbeFinished);
    QList<Sandbox> toProbe;
    for (const Sandbox &sandbox : std::as_const(m_sandboxes)) {
        if (auto orphan = m_detector->judgeByJournal(sandbox)) {
            m_orphans.insert(sandbox.sandboxId, *orphan);
            continue;
        }
        if (!m_detector->needsGatewayProbe(sandbox, m_serverNow))
            continue;
        if (auto cached = m_detector->cachedProbe(sandbox.sandboxId)) {
            if (cached->reached && !cached->gatewayRunning)
                m_orphans.insert(
                    sandbox.sandboxId, m_detector->gatewayDown(sandbox, *cached, m_serverNow));
            continue;
        }
        m_waiting.insert(sandbox.sandboxId, sandbox);
        toProbe.append(sandbox);
    }
    for (const Sandbox &sandbox : std::as_const(toProbe))
        m_detector->requestProbe(sandbox);
    finishIfDone();
}

void OrphanScanJob::onProbeFinished(const QString &sandboxId)
{
    const auto it = m_waiting.find(sandboxId);
    if (it == m_waiting.end() || !m_detector)
        return;
    const Sandbox sandbox = *it;
    m_waiting.erase(it);
    const auto probe = m_detector->m_cache.value(sandboxId);
    if (probe.reached && !probe.gatewayRunning)
        m_orphans.insert(sandboxId, m_detector->gatewayDown(sandbox, probe, m_serverNow));
    finishIfDone();
}

void OrphanScanJob::finishIfDone()
{
    if (m_waiting.isEmpty())
        emitResult();
}

void OrphanScanJob::doCancel()
{
    // Probes keep running and fill the cache for the next scan.
    emitError(Error::cancelled());
}

QList<Orphan> OrphanScanJob::orphans() const
{
    QList<Orphan> list;
    for (const Sandbox &sandbox : m_sandboxes) {
        const auto it = m_orphans.constFind(sandbox.sandboxId);
        if (it != m_orphans.constEnd())
            list.append(*it);
    }
    return list;
}

std::optional<Orphan> OrphanScanJob::orphanFor(const QString &sandboxId) const
{
    const auto it = m_orphans.constFind(sandboxId);
    if (it == m_orphans.constEnd())
        return std::nullopt;
    return *it;
}

KillOrphansJob::KillOrphansJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
    CreationJournal *journal, QList<Orphan> orphans, RetryPolicy policy, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_settings(settings)
    , m_journal(journal)
    , m_orphans(std::move(orphans))
    , m_policy(std::move(policy))
{ }

void KillOrphansJob::doStart()
{
    // A journal closed under a record it had queued never calls back: go on without.
    if (m_journal)
        connect(m_journal, &QObject::destroyed, this, &KillOrphansJob::goOnAfterRecord);
    next();
}

void KillOrphansJob::goOnAfterRecord()
{
    // Once: the journal's callback and its destruction may both come.
    if (m_recorded)
        std::exchange(m_recorded, {})();
}

void KillOrphansJob::doCancel()
{
    // The kill on the wire and its record finish; the rest are not started.
    if (!m_current && !m_recorded)
        emitError(Error::cancelled());
}

void KillOrphansJob::next()
{
    if (isCancelRequested()) {
        emitError(Error::cancelled());
        return;
    }
    if (m_index >= m_orphans.size()) {
        if (!m_failed.isEmpty())
            setError(Error::rejected(
                tr("%n orphan(s) could not be removed", nullptr, int(m_failed.size()))));
        emitResult();
        return;
    }
    const Orphan orphan = m_orphans.at(m_index++);
    auto *job = new RetryingKillJob(m_network, m_settings, orphan.sandboxId, m_policy, this);
    m_current = job;
    connect(job, &Job::finished, this, [this, job, orphan] {
        m_current = nullptr;
        const QString error = job->hasError() ? job->error().message() : QString();
        if (error.isEmpty()) {
            m_killed.append(orphan.sandboxId);
            if (job->wasAlreadyGone())
                m_notFound.append(orphan.sandboxId);
        } else {
            m_failed.append({ orphan.sandboxId, error });
        }
        // The next kill starts once this one's record is durable (on the journal's
        // writer thread), so what the job reports is what the journal says.
        m_recorded = [this, sandboxId = orphan.sandboxId, error] {
            Q_EMIT orphanDone(sandboxId, error);
            next();
        };
        if (!m_journal) {
            goOnAfterRecord();
            return;
        }
        m_journal->recordLaterKill(orphan.sandboxId, error, orphan.creationId, this,
            [this](bool) { goOnAfterRecord(); });
    });
    job->start();
}

} // namespace sd
