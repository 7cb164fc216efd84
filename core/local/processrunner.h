#pragma once

#include "api/sandbox.h"
#include "envd/processconfig.h"
#include "local/sandboxcgroup.h"
#include "local/sandboxfs.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QLockFile>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QSet>
#include <QSocketNotifier>
#include <QTimer>

#include <QFutureWatcher>
#include <QHash>
#include <QSet>

#include <memory>
#include <optional>

namespace sd::local {

/// Marks every descriptor above stderr close-on-exec, so nothing held or inherited
/// reaches a program started later. Async-signal-safe: a forked child may call it.
void closeDescriptorsOnExec();

/// How a sandbox's processes are kept apart from the host.
enum class Isolation
{
    None, ///< processes run unjailed in the sandbox directory
    Bwrap, ///< one bubblewrap jail per sandbox (own mount, PID and network namespace)
};
QString isolationName(Isolation isolation);

/// Why `vars` cannot be a process's environment: a sentence naming the first bad
/// variable name (empty, or holding '=' or NUL), or empty when every name is fine.
QString environmentNamesError(const QMap<QString, QString> &vars);

/// What a sandbox's processes need to know about it.
struct SandboxRuntimeConfig
{
    QString sandboxId;
    QString templateId;
    QMap<QString, QString> envVars; ///< secret values: never logged
    bool allowInternetAccess = true;
    int cpuCount = 0; ///< for metrics; 0: the host's
    qint64 memoryBytes = 0; ///< for metrics, and its cgroup's limit; 0: the host's
    int maxTasks = 0; ///< its cgroup's pids.max; 0: no cgroup
};

class SandboxRuntime;

/// One process started through envd's Start. Owned by its SandboxRuntime until it
/// ends, then deleted (deleteLater) after ended(). pid() is the host pid of the
/// process the backend started (in a jail: the `nsenter` that runs it in the
/// sandbox's namespaces); it is the handle clients use for SendSignal and Connect.
class SandboxProcess : public QObject
{
    Q_OBJECT

public:
    ~SandboxProcess() override;

    quint32 pid() const { return m_pid; }
    const sd::ProcessConfig &config() const { return m_config; }
    QString tag() const { return m_tag; }
    bool isRunning() const { return m_pid != 0 && !m_ended; }
    bool hasEnded() const { return m_ended; }
    int exitCode() const { return m_exitCode; }
    bool exited() const { return m_exited; }
    QString status() const { return m_status; }
    /// The program's name for logs, without arguments or variables (they hold secrets).
    QString safeCommand() const;

    /// Stops reading the process's output while any holder asks (a stream whose client
    /// does not keep up): its pipe fills and the process blocks on its next write, as it
    /// would on a slow terminal. A holder that is destroyed lets go.
    void holdOutput(QObject *holder);
    void releaseOutput(QObject *holder);
    bool isOutputHeld() const { return !m_holders.isEmpty(); }

    bool writeStdin(const QByteArray &data);
    /// Input written but not yet taken by the process's pipe (it is not reading).
    qint64 stdinBacklog() const { return m_process ? m_process->bytesToWrite() : 0; }
    bool closeStdin();
    /// Sends `signal` to the process and everything it started (its process group).
    void sendSignal(int signal);

Q_SIGNALS:
    /// The process runs (pid() is known now).
    void started(quint32 pid);
    /// It could not start at all; ended() follows.
    void failedToStart(const QString &reason);
    /// The process's pipe took all the input written so far.
    void stdinTaken();
    /// Output as it is produced.
    void output(bool isStderr, const QByteArray &data);
    /// Emitted once. exited false means a signal ended it (status "signal: killed").
    void ended(int exitCode, bool exited, const QString &status);

private:
    friend class SandboxRuntime;
    SandboxProcess(sd::ProcessConfig config, QString tag, bool stdinOpen, QObject *parent);
    /// `cgroup` (the sandbox's, may be inactive) is joined by the child before it runs,
    /// then the user namespace `enterFirst` when there is one (it is closed after).
    void launch(const QString &program, const QStringList &arguments,
        const QProcessEnvironment &env, const QString &workingDir, bool jailed,
        const SandboxCgroup *cgroup, int enterFirst = -1);
    void fail(const QString &reason);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    /// Reads what the pipe holds, up to `limit` bytes, and emits it as one output().
    void readPipe(int index, qsizetype limit);
    void closePipe(int index);
    void updateReading();

    struct OutputPipe
    {
        int fd = -1; ///< read end, non-blocking; -1 once closed
        QSocketNotifier *notifier = nullptr;
    };
    OutputPipe m_pipes[2]; ///< stdout, stderr
    QSet<QObject *> m_holders;

    sd::ProcessConfig m_config;
    QString m_tag;
    bool m_stdinOpen = false;
    QProcess *m_process = nullptr;
    quint32 m_pid = 0;
    bool m_ended = false;
    int m_exitCode = -1;
    bool m_exited = false;
    QString m_status;
};

/// The running side of one sandbox: its directory, its jail and its processes.
///
/// In Bwrap mode a long-lived `bwrap ... sleep infinity` holds the sandbox's mount
/// and PID namespaces; every process is started with `nsenter` into them, so all
/// processes of a sandbox share one filesystem view and one PID namespace, and a
/// process that daemonizes stays in the sandbox. Killing the jail kills the
/// namespace and with it every process. In None mode processes run directly, each
/// in its own session, marked by an environment variable so the whole tree can be
/// found, paused and killed.
class SandboxRuntime : public QObject
{
    Q_OBJECT

public:
    ~SandboxRuntime() override;

    QString sandboxId() const { return m_config.sandboxId; }
    const SandboxRuntimeConfig &config() const { return m_config; }
    Isolation isolation() const { return m_isolation; }
    const SandboxFs &fs() const { return m_fs; }
    bool isPaused() const { return m_paused; }
    bool isStopped() const { return m_stopped; }
    /// Its folder changed from outside its processes (envd's /files): the next sample
    /// measures it.
    void markFolderChanged() { m_folderChanged = true; }

    /// Starts a process; it may start a little later when the jail is still coming
    /// up. Watch started()/failedToStart()/ended() on the result.
    SandboxProcess *start(const sd::ProcessConfig &config, const QString &tag, bool stdinOpen);

    /// Running envd-started processes.
    QList<SandboxProcess *> processes() const;
    SandboxProcess *findByPid(quint32 pid) const;
    SandboxProcess *findByTag(const QString &tag) const;
    /// Everything running in the sandbox, including processes left behind by a
    /// command (daemons), as List reports it.
    QList<sd::ProcessInfo> listProcesses() const;
    /// Signals an envd process (its group) or any other process of the sandbox.
    /// False when no such process lives in this sandbox.
    bool signalPid(quint32 pid, int signal);

    void pause();
    void resume();
    /// Kills every process and the jail, and removes the directory. Emits stopping()
    /// first. Idempotent.
    void stop(const QString &reason);

    /// Samples kept since the sandbox started (every 5 s, taken by the
    /// ProcessRunner), oldest first.
    QList<SandboxMetric> metrics() const { return m_metrics; }

    /// Host pids of every process of the sandbox (jail included).
    QList<qint64> sandboxPids() const;
    /// What pause() stops: every process in the sandbox's group, else sandboxPids().
    QList<qint64> pausedPids() const;

Q_SIGNALS:
    /// The sandbox is being torn down; streams should end with `reason`.
    void stopping(const QString &reason);
    void processStarted(quint32 pid, const QString &command);
    void processEnded(quint32 pid, const QString &command, int exitCode, const QString &status);

private:
    friend class ProcessRunner;
    SandboxRuntime(SandboxRuntimeConfig config, Isolation isolation, QString root,
        QString gatewayBinDir, QObject *parent);
    bool prepare(QString *error);
    void startJail();
    void onJailOutput();
    void onJailFinished();
    /// Whether processes can start in the jail: it is up and, with internet access,
    /// its network is configured (or known to be unavailable).
    bool jailReady() const;
    void launchPending();
    /// Gives the jail's network namespace internet access through slirp4netns.
    void startNetwork();
    void stopNetwork();
    void closeNetworkReadyFd();
    void launch(SandboxProcess *process);
    /// Makes the sandbox's control group, once, before its first process: a sandbox
    /// that never runs anything costs no group. False (why in m_groupError) when it
    /// cannot be made; then nothing may start.
    bool ensureGroup();
    QProcessEnvironment environmentFor(const sd::ProcessConfig &config) const;
    /// nsenter's command line and environment to run `config` in the jail.
    QStringList jailedLaunchArguments(const sd::ProcessConfig &config, const QString &cwd,
        QProcessEnvironment *hostEnvironment) const;
    QString pidNamespace() const;
    /// What ties a host process to this sandbox in a /proc scan: the jail's PID
    /// namespace, or the sandbox ID in the marker variable (empty before either exists:
    /// no process can be tied to it yet).
    QString metricsKey() const;
    /// The jail's own processes, its pid 1 and the placeholder that holds the namespaces:
    /// they never write to the sandbox's folder.
    QList<qint64> jailPids() const;
    /// Whether the folder may have changed since the last sample took this; clears the
    /// mark. Only the sandbox's processes write there: the mark is set when one starts or
    /// ends, and holds while an envd process runs or waits for the jail.
    bool takeFolderChanged();
    /// Sets `pids.max` to the tasks the sandbox's own processes may hold (maxTasks) plus
    /// the backend's helpers in its group: the jail's, slirp4netns, and the host-side
    /// nsenter of each jailed command, `starting` of them about to be forked.
    void updateTaskLimit(int starting = 0);
    /// Adds a sample from the CPU ticks and resident pages of all its processes and
    /// the bytes in its folder (none measured: the last sample's).
    void addSample(qint64 ticks, qint64 rssPages, std::optional<qint64> diskUsed);

    SandboxRuntimeConfig m_config;
    Isolation m_isolation;
    SandboxFs m_fs;
    SandboxCgroup m_cgroup; ///< inactive when the machine has none for sandboxes
    bool m_groupTried = false; ///< ensureGroup() ran
    QString m_groupError; ///< why the group could not be made
    QString m_gatewayBinDir;
    QPointer<QProcess> m_jail;
    qint64 m_jailPid = 0; ///< the outer bwrap
    qint64 m_jailInit = 0; ///< pid 1 of the sandbox's namespace (host pid)
    qint64 m_jailPlaceholder = 0; ///< its child, `sleep infinity` (host pid)
    QString m_jailError;
    static constexpr qsizetype JailStderrKept = 1024;
    QByteArray m_jailStderr; ///< what bwrap said before the jail was up
    QPointer<QProcess> m_network; ///< slirp4netns, with internet access
    int m_networkReadyFd = -1; ///< read end of its --ready-fd pipe
    QPointer<QSocketNotifier> m_networkReady;
    bool m_networkSettled = false; ///< configured, or known to be unavailable
    QList<QPointer<SandboxProcess>> m_processes;
    QList<QPointer<SandboxProcess>> m_pending; ///< waiting for the jail
    QSet<SandboxProcess *> m_entered; ///< jailed processes launched and not yet ended
    int m_taskLimit = 0; ///< pids.max as last written; 0: not yet
    bool m_paused = false;
    bool m_stopped = false;
    /// A process was launched: only then can a host process carry this sandbox's marker.
    bool m_launchedAny = false;
    bool m_folderChanged = false; ///< see takeFolderChanged()
    QString m_pidNamespace; ///< "pid:[inode]" of the jail
    QList<SandboxMetric> m_metrics;
    qint64 m_lastCpuTicks = -1;
    QDateTime m_lastCpuTime;
};

/// Creates and ends the runtimes of all sandboxes.
class ProcessRunner : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString stateDir;
        Isolation isolation = Isolation::None;
        /// Directory of the built `mcp-gateway` (put on PATH of template mcp-gateway).
        QString gatewayBinDir;
        /// Tasks one sandbox may hold (pids.max of its cgroup); 0: no cgroups.
        int maxTasksPerSandbox = 0;
        /// How often every sandbox gets a metrics sample.
        int metricsIntervalMs = 5000;
    };

    explicit ProcessRunner(Options options, QObject *parent = nullptr);

    Isolation isolation() const { return m_options.isolation; }
    /// Whether bwrap and nsenter are installed (not whether they work).
    static bool bwrapAvailable();
    /// Blocking check that bwrap can really build a jail here; only for startup,
    /// before the event loop serves anything.
    static bool probeBwrap(QString *error);
    /// Whether any sandbox process or jail is still waiting to be reaped and deleted
    /// (a shutdown lets the event loop run until none is, so nothing is left behind).
    static bool hasLiveProcesses();
    /// Whether a jailed process finds a folder at `path`, a path under the jail's /etc
    /// other than the sandbox's own /etc/mcp-gateway: the host's, unless the jail leaves
    /// it out or covers it (what only root may read there).
    static bool jailHasEtcFolder(const QString &path);

    /// Creates the sandbox's directory (and jail); the caller owns the result
    /// (e.g. through SandboxRegistry::setRuntime()). nullptr with `error` on failure.
    SandboxRuntime *create(const SandboxRuntimeConfig &config, QString *error);

    /// At most this many host processes are read per metrics sample (default 8192);
    /// past it a sample undercounts rather than taking longer.
    void setMaxProcessesPerSample(int count) { m_maxProcessesPerSample = qMax(1, count); }
    /// Host processes the last finished sample read.
    int lastSampleWalked() const { return m_lastSampleWalked; }
    /// Sandbox folders the last finished sample measured: only those a process of their
    /// sandbox could have written to since they were last measured (the others keep their
    /// last size).
    int lastSampleFolders() const { return m_lastSampleFolders; }
    /// Starts a sample now instead of at the next tick; sampled() tells when it is in.
    /// False when a walk is already in flight: its sample, taken with the settings it
    /// started with, comes first, and nothing new starts.
    bool sampleNow() { return sampleAll(); }

Q_SIGNALS:
    /// A sample was added to every sandbox's metrics.
    void sampled();

private:
    /// A sandbox folder as a sample starts: its metrics key (empty when no process can
    /// be tied to it yet) and whether it is known to have changed
    /// (SandboxRuntime::takeFolderChanged()).
    struct Folder
    {
        QString root;
        QString key;
        bool changed = false;
    };
    /// CPU ticks and resident pages per metrics key, from one walk over /proc.
    struct Usage
    {
        QHash<QString, QPair<qint64, qint64>> byKey;
        /// Keys with a process of their own alive (a daemon left behind counts; the
        /// jail's processes do not).
        QSet<QString> liveKeys;
        int walked = 0;
        bool cut = false; ///< the walk stopped at its limit: liveKeys may lack some
        QHash<QString, qint64> diskByRoot; ///< bytes in each folder measured
    };
    /// Runs on a worker thread: reads only /proc, touches no object.
    static Usage walkProcesses(
        QSet<QString> keys, QSet<qint64> jailPids, Isolation isolation, int maxProcesses);
    /// Runs on a worker thread: the processes' walk, then the size of each folder that
    /// changed or whose sandbox has a process alive (at 10,000 sandboxes measuring every
    /// folder took about a second of CPU per sample).
    static Usage measure(
        QList<Folder> folders, QSet<qint64> jailPids, Isolation isolation, int maxProcesses);
    bool sampleAll();
    void applySample(const Usage &usage);
    /// Removes the sandbox folders an earlier backend left in the state folder.
    void sweepLeftovers();
    /// Keeps trying to remove the groups of removed sandboxes while any is left.
    void removeRetiredGroupsLater();

    Options m_options;
    QList<QPointer<SandboxRuntime>> m_runtimes;
    QTimer m_metricsTimer;
    QTimer m_retiredGroupsTimer;
    /// The walk in flight, if any; deleting it (with the runner) drops its result.
    QPointer<QFutureWatcher<Usage>> m_sampling;
    int m_maxProcessesPerSample = 8192;
    int m_lastSampleWalked = 0;
    int m_lastSampleFolders = 0;
    QString m_gatewayDir; ///< holds only a link to mcp-gateway; empty when there is none
    std::unique_ptr<QLockFile> m_stateLock; ///< held while this backend uses the state folder
};

} // namespace sd::local
