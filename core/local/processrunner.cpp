#include "processrunner.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QMutex>
#include <QScopeGuard>
#include <QSet>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QStorageInfo>
#include <QThread>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/nsfs.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sd::local {

namespace {

// Sandbox processes and jails not yet deleted; they delete themselves once QProcess
// has reaped them, which needs the event loop.
int liveProcesses = 0;

// Where the jail mounts the directory of the built mcp-gateway, read-only.
const QString JailGatewayDir = QStringLiteral("/opt/sandbox-desk/bin");
// Marks every unjailed process of a sandbox, so the whole tree can be found.
const QString SandboxMarker = QStringLiteral("SANDBOX_DESK_SANDBOX");
const QString DefaultPath
    = QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
// Host /etc entries a sandbox must not see (passwd and group are the jail's own).
const QStringList HiddenEtc { QStringLiteral("shadow"), QStringLiteral("shadow-"),
    QStringLiteral("gshadow"), QStringLiteral("gshadow-"), QStringLiteral("sudoers"),
    QStringLiteral("sudoers.d"), QStringLiteral("ssh"), QStringLiteral("mcp-gateway"),
    QStringLiteral("passwd"), QStringLiteral("group") };
// Who a jailed process is: E2B's sandbox user. Even a backend run by root starts its
// processes as this user in a user namespace of their own, with every capability
// dropped, so a read-only bind of the host's /usr cannot be made writable again.
const QString JailUid = QStringLiteral("1000");
const QByteArray JailPasswd = "root:x:0:0:root:/root:/bin/sh\n"
                              "user:x:1000:1000:user:/home/user:/bin/bash\n"
                              "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
const QByteArray JailGroup = "root:x:0:\nuser:x:1000:\nnogroup:x:65534:\n";
// bwrap options for a user namespace without capabilities (the jail and the probe).
// No user namespaces inside it: they would let a process make PID namespaces out of
// the jail's sight and reach kernel code that only a namespace's root reaches.
const QStringList UnprivilegedJail { QStringLiteral("--unshare-user"), QStringLiteral("--uid"),
    JailUid, QStringLiteral("--gid"), JailUid, QStringLiteral("--disable-userns"),
    QStringLiteral("--cap-drop"), QStringLiteral("ALL") };
// How often the groups of removed sandboxes are tried again while a killed process
// keeps one busy (it is gone within milliseconds unless the machine is stalled).
constexpr int RetiredGroupsIntervalMs = 1000;
// Output read from a process's pipe at once, and at most drained after it ended.
constexpr qsizetype OutputReadLimit = 256 * 1024;
constexpr qsizetype OutputDrainLimit = 1024 * 1024;
// The only variables a program on the host side of a jail (bwrap, nsenter) gets: the
// host's dynamic loader acts on LD_PRELOAD, LD_AUDIT and the like before the
// program enters any namespace.
const QString HostToolPath = QStringLiteral("/usr/bin:/bin");
// Carries one "NAME=VALUE" of a jailed process through nsenter under a name no
// loader or libc reads (SD_ENV_0, SD_ENV_1, ...).
const QString CarrierPrefix = QStringLiteral("SD_ENV_");
// Carries the command and each of its arguments the same way (SD_ARG_0, ...).
const QString ArgCarrierPrefix = QStringLiteral("SD_ARG_");
// Runs in the jail: turns the carriers back into `env -i` arguments, so neither the
// values nor the command's arguments (a gateway configuration with API keys, a
// `bash -c` script with a token) sit on nsenter's command line, which lives as long
// as the process and which every local user can read in /proc/PID/cmdline; a
// process's environment only its owner can read.
// $1: number of variables, $2: number of command words, $3: working directory.
QString jailEntryScript()
{
    return QStringLiteral("n=$1; a=$2; dir=$3; set --; "
                          "while [ \"$a\" -gt 0 ]; do a=$((a - 1)); "
                          "eval \"set -- \\\"\\$%2$a\\\" \\\"\\$@\\\"\"; done; "
                          "while [ \"$n\" -gt 0 ]; do n=$((n - 1)); "
                          "eval \"set -- \\\"\\$%1$n\\\" \\\"\\$@\\\"\"; done; "
                          "exec /usr/bin/env -i --chdir=\"$dir\" -- \"$@\"")
        .arg(CarrierPrefix, ArgCarrierPrefix);
}

// --- /proc reading ---

struct ProcStat
{
    qint64 pid = 0;
    qint64 ppid = 0;
    qint64 pgrp = 0;
    qint64 cpuTicks = 0;
    qint64 rssPages = 0;
};

bool readStat(qint64 pid, ProcStat *out)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = file.readAll();
    // The command name is in parentheses and may hold spaces; fields follow the last ')'.
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0)
        return false;
    const QList<QByteArray> f = line.mid(close + 2).split(' ');
    // f[0] is field 3 (state).
    if (f.size() < 22)
        return false;
    out->pid = pid;
    out->ppid = f[1].toLongLong();
    out->pgrp = f[2].toLongLong();
    out->cpuTicks = f[11].toLongLong() + f[12].toLongLong();
    out->rssPages = f[21].toLongLong();
    return true;
}

QList<qint64> allPids()
{
    QList<qint64> pids;
    const QStringList entries
        = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (ok)
            pids.append(pid);
    }
    return pids;
}

QString pidNamespaceOf(qint64 pid)
{
    // The link reads "pid:[inode]"; QFileInfo would turn it into a path.
    char buffer[64];
    const QByteArray path = QStringLiteral("/proc/%1/ns/pid").arg(pid).toLatin1();
    const ssize_t n = ::readlink(path.constData(), buffer, sizeof(buffer) - 1);
    return n > 0 ? QString::fromLatin1(buffer, n) : QString();
}

// What List reports of one process's command line, at most: a sandbox's process
// chooses its own, and could make each megabytes long.
constexpr qint64 MaxCmdlineBytes = 16 * 1024;

QStringList cmdline(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray data = file.read(MaxCmdlineBytes);
    // A process that rewrote its arguments in place (`mcp-gateway serve` does) leaves
    // the rest of the old ones as NUL bytes; they are not arguments.
    while (data.endsWith('\0'))
        data.chop(1);
    QStringList out;
    for (const QByteArray &part : data.split('\0'))
        out.append(QString::fromLocal8Bit(part));
    return out;
}

bool hasMarker(qint64 pid, const QByteArray &marker)
{
    QFile file(QStringLiteral("/proc/%1/environ").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray env = '\0' + file.readAll();
    return env.contains('\0' + marker + '\0');
}

QString signalStatus(int signal)
{
    // Go's os.ProcessState wording, as envd reports it.
    switch (signal) {
    case SIGKILL:
        return QStringLiteral("signal: killed");
    case SIGTERM:
        return QStringLiteral("signal: terminated");
    case SIGINT:
        return QStringLiteral("signal: interrupt");
    case SIGHUP:
        return QStringLiteral("signal: hangup");
    case SIGQUIT:
        return QStringLiteral("signal: quit");
    case SIGABRT:
        return QStringLiteral("signal: aborted");
    case SIGSEGV:
        return QStringLiteral("signal: segmentation fault");
    case SIGPIPE:
        return QStringLiteral("signal: broken pipe");
    default:
        return QStringLiteral("signal: %1").arg(signal);
    }
}

// Runs in the forked child before exec: its own session (so the group can be
// signalled as one) and death with the backend. No descriptor the backend holds or
// inherited reaches what it runs (the copies made after this, with dup2, do), and it
// gets a session keyring of its own, empty, instead of the backend's.
void detachChild()
{
    ::setsid();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    closeDescriptorsOnExec();
    ::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr);
}

#if defined(__x86_64__)
// A jailed process may not use the kernel's keyrings at all (add_key, request_key and
// keyctl fail with ENOSYS): the user keyring is the backend user's, shared with every
// sandbox and, run by root, with root's. Container runtimes deny them by default too.
// At namespace scope, constant: a forked child may not initialize a static.
const sock_filter DenyKeyringsFilter[] = {
    /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
    /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 6), // else 8
    /* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
    /* 3 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, ~0x40000000U), // x32 calls too
    /* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_add_key, 7, 0), // 12
    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_request_key, 6, 0), // 12
    /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_keyctl, 5, 0), // 12
    /* 7 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    // i386 programs: add_key 286, request_key 287, keyctl 288.
    /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 4), // else 13
    /* 9 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
    /* 10 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 286, 0, 2), // else 13
    /* 11 */ BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 288, 1, 0), // 13, else 12
    /* 12 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
    /* 13 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
#endif

void denyKeyrings()
{
#if defined(__x86_64__)
    sock_fprog program {};
    program.len = sizeof DenyKeyringsFilter / sizeof DenyKeyringsFilter[0];
    program.filter = const_cast<sock_filter *>(DenyKeyringsFilter);
    ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
#endif
}

// The same for a process entering a jail, which also can never gain privileges
// (setuid or file-capability binaries), as bwrap's own children cannot. Joining
// namespaces (nsenter) is not a gain and still works.
void detachJailedChild()
{
    detachChild();
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    denyKeyrings();
}

/// The children of `pid` now, from /proc.
QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> out;
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
    if (children.open(QIODevice::ReadOnly)) {
        for (const QByteArray &field : children.readAll().split(' ')) {
            if (const qint64 child = field.trimmed().toLongLong(); child > 0)
                out.append(child);
        }
    }
    return out;
}

QString nsenterPath() { return QStandardPaths::findExecutable(QStringLiteral("nsenter")); }

QString bwrapPath() { return QStandardPaths::findExecutable(QStringLiteral("bwrap")); }

QString slirpPath() { return QStandardPaths::findExecutable(QStringLiteral("slirp4netns")); }

// What a sandbox with internet access resolves names through: slirp4netns's DNS
// forwarder (the host's resolv.conf may name a loopback resolver the jail cannot reach).
const QByteArray JailResolvConf = "nameserver 10.0.2.3\n";

} // namespace

/// The user namespace that owns the `kind` ("ipc", "net") namespace of `pid`, opened
/// (close-on-exec); -1 when it cannot be told. Run by an ordinary user, bwrap makes the
/// jail's namespaces in one user namespace and runs the sandbox's user in another,
/// nested in it: what joins the others (nsenter, slirp4netns) may do so only from the
/// one that owns them. Run by root it may from where it is.
static int namespaceOwner(qint64 pid, const char *kind)
{
    const int ns = ::open(
        QFile::encodeName(QStringLiteral("/proc/%1/ns/%2").arg(pid).arg(QLatin1String(kind)))
            .constData(),
        O_RDONLY | O_CLOEXEC);
    if (ns < 0)
        return -1;
    const int owner = ::ioctl(ns, NS_GET_USERNS);
    ::close(ns);
    return owner;
}

void closeDescriptorsOnExec()
{
    if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = 3; fd < 4096; ++fd) // kernels before 5.11
            ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
}

QString isolationName(Isolation isolation)
{
    return isolation == Isolation::Bwrap ? QStringLiteral("bwrap") : QStringLiteral("none");
}

QString environmentNamesError(const QMap<QString, QString> &vars)
{
    for (auto it = vars.cbegin(); it != vars.cend(); ++it) {
        const QString &name = it.key();
        if (name.isEmpty() || name.contains(QLatin1Char('=')) || name.contains(QChar(0))) {
            QString shown = name;
            shown.replace(QChar(0), QStringLiteral("\\0"));
            return QObject::tr("environment variable name \"%1\" is not allowed: a name must "
                               "not be empty nor hold '=' or NUL")
                .arg(shown);
        }
    }
    return {};
}

namespace {

/// The size of the file system holding the sandbox folder `root`. Every sandbox's
/// folder lies in the same place, so one look serves them all for a while: QStorageInfo
/// reads the mount table each time, and a creation should not wait for that.
qint64 fileSystemSize(const QString &root)
{
    struct Cached
    {
        QString folder;
        qint64 size = 0;
        QDeadlineTimer fresh;
    };
    static QMutex mutex;
    static Cached cached;
    const QString folder = QFileInfo(root).path();
    const QMutexLocker lock(&mutex);
    if (cached.folder != folder || cached.fresh.hasExpired()) {
        const QStorageInfo storage(root);
        cached = { folder, storage.isValid() ? storage.bytesTotal() : 0,
            QDeadlineTimer(std::chrono::minutes(1)) };
    }
    return cached.size;
}

/// What under /etc not every user of the host may read: files without read permission
/// for others, folders without read and search permission for them. The sandbox's
/// user is the backend's (root, if root runs it), and would read them as their owner.
/// Found once per run, at the first jail, going no deeper than 8 folders.
struct PrivateEtc
{
    QStringList topLevel; ///< entries of /etc itself: not mounted
    QStringList folders; ///< further down: hidden under an empty folder
    QStringList files; ///< further down: hidden under /dev/null
};

const PrivateEtc &privateEtc()
{
    static const PrivateEtc found = [] {
        PrivateEtc out;
        const auto isPrivate = [](const struct stat &st) {
            return S_ISDIR(st.st_mode) ? (st.st_mode & (S_IROTH | S_IXOTH)) != (S_IROTH | S_IXOTH)
                                       : S_ISREG(st.st_mode) && !(st.st_mode & S_IROTH);
        };
        std::vector<std::pair<QString, int>> pending { { QStringLiteral("/etc"), 0 } };
        while (!pending.empty()) {
            const auto [folder, depth] = pending.back();
            pending.pop_back();
            const QStringList names = QDir(folder).entryList(
                QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
            for (const QString &name : names) {
                // Not mounted at all, or the sandbox's own.
                if (depth == 0 && HiddenEtc.contains(name))
                    continue;
                const QString path = folder + QLatin1Char('/') + name;
                struct stat st;
                if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
                    continue;
                if (isPrivate(st))
                    (depth == 0                   ? out.topLevel
                            : S_ISDIR(st.st_mode) ? out.folders
                                                  : out.files)
                        .append(path);
                else if (S_ISDIR(st.st_mode) && depth < 8)
                    pending.push_back({ path, depth + 1 });
            }
        }
        return out;
    }();
    return found;
}

QProcessEnvironment hostToolEnvironment()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), HostToolPath);
    return env;
}

} // namespace

// ---------------------------------------------------------------- SandboxProcess

SandboxProcess::SandboxProcess(
    sd::ProcessConfig config, QString tag, bool stdinOpen, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_tag(std::move(tag))
    , m_stdinOpen(stdinOpen)
{
    ++liveProcesses;
}

SandboxProcess::~SandboxProcess()
{
    closePipe(0);
    closePipe(1);
    --liveProcesses;
}

QString SandboxProcess::safeCommand() const
{
    // Only the program's name: arguments and variables hold secrets (`bash -c
    // "TOKEN=... cmd"`, a gateway config with API keys), and a script's first word
    // may be one of them.
    return QFileInfo(m_config.cmd).fileName();
}

void SandboxProcess::launch(const QString &program, const QStringList &arguments,
    const QProcessEnvironment &env, const QString &workingDir, bool jailed,
    const SandboxCgroup *cgroup, int enterFirst)
{
    const auto closeEnterFirst = qScopeGuard([enterFirst] {
        if (enterFirst >= 0)
            ::close(enterFirst);
    });
    // The output pipes are the backend's own, not QProcess's: QProcess reads whatever
    // the process writes as fast as it comes, so a client that stops reading would make
    // the backend buffer without bound. With its own pipes the backend can stop reading.
    int out[2] = { -1, -1 };
    int err[2] = { -1, -1 };
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        for (int fd : { out[0], out[1], err[0], err[1] }) {
            if (fd >= 0)
                ::close(fd);
        }
        QTimer::singleShot(0, this, [this] { fail(tr("no pipe for the process's output")); });
        return;
    }
    const std::optional<QList<int>> joinFds = cgroup->openForJoining();
    if (!joinFds) {
        for (int fd : { out[0], out[1], err[0], err[1] })
            ::close(fd);
        QTimer::singleShot(
            0, this, [this] { fail(tr("the sandbox's control group cannot be joined")); });
        return;
    }
    const int writeEnds[2] = { out[1], err[1] };
    for (int index : { 0, 1 }) {
        const int fd = index == 0 ? out[0] : err[0];
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        m_pipes[index].fd = fd;
        m_pipes[index].notifier = new QSocketNotifier(fd, QSocketNotifier::Read, this);
        // Read from started() on: a quick child's output can be ready before Qt reports
        // the start, and a stream's first event must be the start (the SDK insists).
        m_pipes[index].notifier->setEnabled(false);
        connect(m_pipes[index].notifier, &QSocketNotifier::activated, this,
            [this, index] { readPipe(index, OutputReadLimit); });
    }
    m_process = new QProcess(this);
    m_process->setProgram(program);
    m_process->setArguments(arguments);
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(workingDir);
    m_process->setProcessChannelMode(QProcess::ForwardedChannels);
    if (!m_stdinOpen)
        m_process->setStandardInputFile(QProcess::nullDevice());
    const int outWrite = writeEnds[0];
    const int errWrite = writeEnds[1];
    m_process->setChildProcessModifier([jailed, outWrite, errWrite, fds = *joinFds, enterFirst] {
        SandboxCgroup::joinFromChild(fds); // before anything runs: a fork bomb forks inside
        // Fails (EINVAL) where it is the namespace this process is in already.
        if (enterFirst >= 0)
            ::setns(enterFirst, CLONE_NEWUSER);
        if (jailed)
            detachJailedChild();
        else
            detachChild();
        // dup2 clears close-on-exec on the copies only.
        ::dup2(outWrite, STDOUT_FILENO);
        ::dup2(errWrite, STDERR_FILENO);
    });
    connect(m_process, &QProcess::started, this, [this] {
        m_pid = quint32(m_process->processId());
        Q_EMIT started(m_pid);
        updateReading();
    });
    connect(m_process, &QProcess::bytesWritten, this, [this] {
        if (m_process->bytesToWrite() == 0)
            Q_EMIT stdinTaken();
    });
    connect(m_process, &QProcess::finished, this, &SandboxProcess::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(m_process->errorString());
    });
    m_process->start();
    // The child has its copies now (QProcess forks in start()).
    ::close(outWrite);
    ::close(errWrite);
    SandboxCgroup::closeAfterJoining(*joinFds);
}

void SandboxProcess::readPipe(int index, qsizetype limit)
{
    OutputPipe &pipe = m_pipes[index];
    if (pipe.fd < 0)
        return;
    QByteArray data;
    char buffer[65536];
    bool atEnd = false;
    while (data.size() < limit) {
        const ssize_t n = ::read(pipe.fd, buffer, sizeof(buffer));
        if (n > 0) {
            data.append(buffer, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        atEnd = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
    }
    if (atEnd)
        closePipe(index);
    if (!data.isEmpty())
        Q_EMIT output(index == 1, data);
}

void SandboxProcess::closePipe(int index)
{
    OutputPipe &pipe = m_pipes[index];
    if (pipe.notifier) {
        pipe.notifier->setEnabled(false);
        pipe.notifier->deleteLater();
        pipe.notifier = nullptr;
    }
    if (pipe.fd >= 0)
        ::close(pipe.fd);
    pipe.fd = -1;
}

void SandboxProcess::holdOutput(QObject *holder)
{
    if (!holder || m_holders.contains(holder))
        return;
    m_holders.insert(holder);
    connect(holder, &QObject::destroyed, this, [this, holder] { releaseOutput(holder); });
    updateReading();
}

void SandboxProcess::releaseOutput(QObject *holder)
{
    if (!m_holders.remove(holder))
        return;
    disconnect(holder, &QObject::destroyed, this, nullptr);
    updateReading();
}

void SandboxProcess::updateReading()
{
    for (const OutputPipe &pipe : m_pipes) {
        if (pipe.notifier)
            pipe.notifier->setEnabled(m_pid != 0 && m_holders.isEmpty());
    }
}

void SandboxProcess::fail(const QString &reason)
{
    if (m_ended)
        return;
    Q_EMIT failedToStart(reason);
    m_ended = true;
    m_exitCode = -1;
    m_exited = false;
    m_status = reason;
    Q_EMIT ended(m_exitCode, m_exited, m_status);
    deleteLater();
}

void SandboxProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_ended)
        return;
    // Output still in the pipes comes before the end, held or not (a pipe holds
    // little); a daemon the process left writing to them keeps nothing open.
    readPipe(0, OutputDrainLimit);
    readPipe(1, OutputDrainLimit);
    closePipe(0);
    closePipe(1);
    m_ended = true;
    if (status == QProcess::NormalExit) {
        m_exitCode = exitCode;
        m_exited = true;
        m_status = QStringLiteral("exit status %1").arg(exitCode);
    } else {
        // On Unix, QProcess reports the terminating signal as the exit code of a crash.
        m_exitCode = -1;
        m_exited = false;
        m_status = signalStatus(exitCode);
    }
    Q_EMIT ended(m_exitCode, m_exited, m_status);
    deleteLater();
}

bool SandboxProcess::writeStdin(const QByteArray &data)
{
    if (!m_process || !isRunning() || !m_stdinOpen)
        return false;
    return m_process->write(data) == data.size();
}

bool SandboxProcess::closeStdin()
{
    if (!m_process || !isRunning() || !m_stdinOpen)
        return false;
    m_process->closeWriteChannel();
    return true;
}

void SandboxProcess::sendSignal(int signal)
{
    if (!isRunning())
        return;
    // The process leads its own session; the group holds what it started.
    ::kill(-pid_t(m_pid), signal);
}

// ---------------------------------------------------------------- SandboxRuntime

SandboxRuntime::SandboxRuntime(SandboxRuntimeConfig config, Isolation isolation, QString root,
    QString gatewayBinDir, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_isolation(isolation)
    , m_fs(std::move(root))
    , m_gatewayBinDir(std::move(gatewayBinDir))
{ }

SandboxRuntime::~SandboxRuntime() { stop(tr("the sandbox was removed")); }

bool SandboxRuntime::prepare(QString *error)
{
    QString profile;
    if (m_config.templateId == QLatin1String("mcp-gateway") && !m_gatewayBinDir.isEmpty()) {
        // A login shell resets PATH in /etc/profile; .profile puts the gateway back.
        const QString dir = m_isolation == Isolation::Bwrap ? JailGatewayDir : m_gatewayBinDir;
        profile = QStringLiteral("PATH=\"$PATH:%1\"\nexport PATH\n").arg(dir);
    }
    if (!m_fs.create(profile, error))
        return false;
    // The group and the jail come with the first process: a sandbox nobody runs
    // anything in costs a directory, not a group or a process.
    addSample(0, 0, m_fs.diskUsage()); // a fresh skeleton: a few folders
    return true;
}

bool SandboxRuntime::ensureGroup()
{
    if (!m_groupTried) {
        m_groupTried = true;
        if (m_config.maxTasks > 0
            && !m_cgroup.create(m_config.sandboxId,
                { m_config.maxTasks, m_config.memoryBytes, m_config.cpuCount }, &m_groupError))
            qCWarning(lcLocal).noquote()
                << "sandbox" << sandboxId() << "has no control group:" << m_groupError;
    }
    return m_groupError.isEmpty();
}

void SandboxRuntime::updateTaskLimit(int starting)
{
    if (!m_cgroup.isActive() || m_config.maxTasks <= 0)
        return;
    // bwrap outside the jail, bwrap as its pid 1, and the placeholder holding it open.
    constexpr int JailTasks = 3;
    const int helpers
        = (m_jail ? JailTasks : 0) + (m_network ? 1 : 0) + int(m_entered.size()) + starting;
    const int limit = m_config.maxTasks + helpers;
    if (limit == m_taskLimit)
        return;
    QString error;
    if (m_cgroup.setMaxTasks(limit, &error))
        m_taskLimit = limit;
    else
        qCWarning(lcLocal).noquote()
            << "sandbox" << sandboxId() << "keeps its old task limit:" << error;
}

void SandboxRuntime::startJail()
{
    QStringList args {
        QStringLiteral("--ro-bind"),
        QStringLiteral("/usr"),
        QStringLiteral("/usr"),
    };
    for (const char *link : { "bin", "sbin", "lib", "lib64", "lib32", "libx32" }) {
        const QString host = QStringLiteral("/") + QLatin1String(link);
        if (QFileInfo::exists(QStringLiteral("/usr/") + QLatin1String(link)))
            args << QStringLiteral("--symlink") << QStringLiteral("usr/") + QLatin1String(link)
                 << host;
    }
    // /etc read-only, entry by entry, so /etc/mcp-gateway can be the sandbox's own.
    const QStringList etc
        = QDir(QStringLiteral("/etc"))
              .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
    const PrivateEtc &hidden = privateEtc();
    for (const QString &entry : etc) {
        const QString path = QStringLiteral("/etc/") + entry;
        if (HiddenEtc.contains(entry) || hidden.topLevel.contains(path)
            || (m_config.allowInternetAccess && entry == QLatin1String("resolv.conf")))
            continue;
        args << QStringLiteral("--ro-bind-try") << path << path;
    }
    // What only its owner may read stays unread: an empty folder no one may open, an
    // empty file that cannot be opened (/dev/null, on a mount without devices).
    for (const QString &folder : hidden.folders)
        args << QStringLiteral("--perms") << QStringLiteral("0000") << QStringLiteral("--size")
             << QStringLiteral("4096") << QStringLiteral("--tmpfs") << folder;
    for (const QString &file : hidden.files)
        args << QStringLiteral("--ro-bind") << QStringLiteral("/dev/null") << file;
    QList<std::pair<QString, QByteArray>> ownEtc { { QStringLiteral("passwd"), JailPasswd },
        { QStringLiteral("group"), JailGroup } };
    if (m_config.allowInternetAccess)
        ownEtc.append({ QStringLiteral("resolv.conf"), JailResolvConf });
    for (const auto &[name, content] : std::as_const(ownEtc)) {
        const QString path = m_fs.root() + QStringLiteral("/etc/") + name;
        QFile file(path);
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(content);
        args << QStringLiteral("--ro-bind") << path << QStringLiteral("/etc/") + name;
    }
    args << UnprivilegedJail;
    args << QStringLiteral("--bind") << m_fs.gatewayDir() << QStringLiteral("/etc/mcp-gateway")
         << QStringLiteral("--bind") << m_fs.home() << QStringLiteral("/home/user")
         << QStringLiteral("--bind") << m_fs.tmp() << QStringLiteral("/tmp");
    // Only the gateway binary, not the rest of the build's bin folder.
    const QString gateway = m_gatewayBinDir + QStringLiteral("/mcp-gateway");
    if (m_config.templateId == QLatin1String("mcp-gateway") && !m_gatewayBinDir.isEmpty())
        args << QStringLiteral("--ro-bind") << QFileInfo(gateway).canonicalFilePath()
             << JailGatewayDir + QStringLiteral("/mcp-gateway");
    args << QStringLiteral("--proc")
         << QStringLiteral("/proc")
         // The keys of the backend's user are no sandbox's business, not even by name.
         << QStringLiteral("--ro-bind") << QStringLiteral("/dev/null")
         << QStringLiteral("/proc/keys") << QStringLiteral("--dev") << QStringLiteral("/dev")
         << QStringLiteral("--unshare-pid") << QStringLiteral("--unshare-ipc")
         << QStringLiteral("--die-with-parent") << QStringLiteral("--chdir")
         << QStringLiteral("/home/user");
    // Always a network namespace of its own: the host's would let a sandbox reach
    // every server on the host's loopback (this backend's port included) and every
    // abstract UNIX socket (X11's). Internet access, where allowed, comes through
    // slirp4netns once the namespace exists (startNetwork()).
    args << QStringLiteral("--unshare-net");
    // The jail's own command only holds the namespaces open.
    args << QStringLiteral("/bin/sh") << QStringLiteral("-c")
         << QStringLiteral("echo ready; exec sleep infinity");

    m_jail = new QProcess(this);
    updateTaskLimit();
    ++liveProcesses;
    connect(m_jail, &QObject::destroyed, [] { --liveProcesses; });
    m_jail->setProgram(bwrapPath());
    m_jail->setArguments(args);
    // The jail's own placeholder needs nothing of the backend's environment.
    m_jail->setProcessEnvironment(hostToolEnvironment());
    m_jail->setProcessChannelMode(QProcess::SeparateChannels);
    m_jail->setStandardInputFile(QProcess::nullDevice());
    const std::optional<QList<int>> joinFds = m_cgroup.openForJoining();
    m_jail->setChildProcessModifier([fds = joinFds.value_or(QList<int>())] {
        SandboxCgroup::joinFromChild(fds);
        detachChild();
    });
    connect(m_jail, &QProcess::readyReadStandardOutput, this, &SandboxRuntime::onJailOutput);
    connect(m_jail, &QProcess::readyReadStandardError, this, [this] {
        // bwrap's own complaint comes first; the rest is dropped, as on stdout.
        const QByteArray error = m_jail->readAllStandardError();
        if (!m_jailInit)
            m_jailStderr.append(error.left(JailStderrKept - m_jailStderr.size()));
    });
    connect(m_jail, &QProcess::finished, this, &SandboxRuntime::onJailFinished);
    connect(m_jail, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            onJailFinished();
    });
    if (joinFds) {
        m_jail->start();
        SandboxCgroup::closeAfterJoining(*joinFds);
    } else {
        // Never outside its group: the jail fails as a jail that could not start.
        QTimer::singleShot(0, this, [this] { onJailFinished(); });
    }
    qCInfo(lcLocal) << "sandbox" << sandboxId() << "jail starting";
}

void SandboxRuntime::onJailOutput()
{
    if (!m_jail)
        return;
    // Read, always: once the jail is up, what comes here is a sandbox's (its processes
    // can open the jail's own descriptors in /proc), and left unread it would pile up
    // in this process, outside the sandbox's memory limit.
    const QByteArray output = m_jail->readAllStandardOutput();
    if (m_jailInit || !output.contains("ready"))
        return;
    m_jailPid = m_jail->processId();
    // bwrap forks the namespace's pid 1; that child is what nsenter joins.
    m_jailInit = childrenOf(m_jailPid).value(0);
    if (m_jailInit <= 0) {
        m_jailError = tr("the sandbox's jail did not come up");
        m_jail->kill();
        return;
    }
    m_pidNamespace = pidNamespaceOf(m_jailInit);
    // The placeholder has said "ready", so it is there.
    m_jailPlaceholder = childrenOf(m_jailInit).value(0);
    qCInfo(lcLocal) << "sandbox" << sandboxId() << "jail ready, init pid" << m_jailInit;
    if (m_config.allowInternetAccess)
        startNetwork();
    else
        launchPending();
}

void SandboxRuntime::launchPending()
{
    const auto pending = std::exchange(m_pending, {});
    for (const QPointer<SandboxProcess> &process : pending) {
        if (process)
            launch(process);
    }
}

bool SandboxRuntime::jailReady() const
{
    return m_jailInit > 0 && (!m_config.allowInternetAccess || m_networkSettled);
}

void SandboxRuntime::startNetwork()
{
    const QString slirp = slirpPath();
    int ready[2] = { -1, -1 };
    if (slirp.isEmpty() || ::pipe2(ready, O_CLOEXEC) != 0) {
        // Fails closed: the sandbox runs, with loopback only.
        qCWarning(lcLocal) << "sandbox" << sandboxId()
                           << "has no internet access: slirp4netns is not installed";
        m_networkSettled = true;
        launchPending();
        return;
    }
    const int readyWrite = ready[1];
    m_networkReadyFd = ready[0];
    QStringList args { QStringLiteral("--configure"), QStringLiteral("--mtu=65520"),
        // 10.0.2.2 would otherwise be the host's 127.0.0.1.
        QStringLiteral("--disable-host-loopback"), QStringLiteral("--enable-seccomp"),
        QStringLiteral("--ready-fd"), QString::number(readyWrite),
        QStringLiteral("--netns-type=path") };
    // Run by root, slirp4netns has its capabilities in the network namespace already;
    // run by anyone else, it needs them from the user namespace that owns it (not the
    // sandbox user's, nested in that one), handed to it as a descriptor. There its own
    // mount sandbox cannot be made (it needs a group 0 that namespace does not map), so
    // it runs under its seccomp filter only.
    const int owner = ::geteuid() != 0 ? namespaceOwner(m_jailInit, "net") : -1;
    if (owner >= 0)
        args << QStringLiteral("--userns-path") << QStringLiteral("/proc/self/fd/%1").arg(owner);
    else
        args << QStringLiteral("--enable-sandbox");
    args << QStringLiteral("/proc/%1/ns/net").arg(m_jailInit) << QStringLiteral("tap0");

    m_network = new QProcess(this);
    updateTaskLimit();
    ++liveProcesses;
    connect(m_network, &QObject::destroyed, [] { --liveProcesses; });
    m_network->setProgram(slirp);
    m_network->setArguments(args);
    m_network->setProcessEnvironment(hostToolEnvironment());
    m_network->setStandardInputFile(QProcess::nullDevice());
    m_network->setProcessChannelMode(QProcess::MergedChannels);
    // In the sandbox's group: what it buffers for the sandbox's connections counts
    // against the sandbox's memory, not the backend's.
    const std::optional<QList<int>> joinFds = m_cgroup.openForJoining();
    m_network->setChildProcessModifier([readyWrite, owner, fds = joinFds.value_or(QList<int>())] {
        SandboxCgroup::joinFromChild(fds);
        detachChild();
        ::fcntl(readyWrite, F_SETFD, 0); // the descriptors it inherits
        if (owner >= 0)
            ::fcntl(owner, F_SETFD, 0);
    });
    // Its progress lines are of no use; reading them keeps the pipe from filling.
    QProcess *network = m_network;
    connect(network, &QProcess::readyRead, network, [network] { network->readAll(); });
    m_networkReady = new QSocketNotifier(m_networkReadyFd, QSocketNotifier::Read, this);
    connect(m_networkReady, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        const bool ok = ::read(m_networkReadyFd, &byte, 1) == 1;
        closeNetworkReadyFd();
        if (m_networkSettled || m_stopped)
            return;
        m_networkSettled = true;
        if (!ok)
            qCWarning(lcLocal) << "sandbox" << sandboxId()
                               << "has no internet access: slirp4netns did not come up";
        launchPending();
    });
    connect(m_network, &QProcess::finished, this, [this] {
        if (!m_stopped)
            qCWarning(lcLocal) << "sandbox" << sandboxId() << "lost its internet access";
    });
    m_network->start();
    ::close(readyWrite);
    if (owner >= 0)
        ::close(owner);
    if (joinFds)
        SandboxCgroup::closeAfterJoining(*joinFds);
}

void SandboxRuntime::closeNetworkReadyFd()
{
    if (m_networkReady) {
        m_networkReady->setEnabled(false);
        m_networkReady->deleteLater();
        m_networkReady = nullptr;
    }
    if (m_networkReadyFd >= 0)
        ::close(m_networkReadyFd);
    m_networkReadyFd = -1;
}

void SandboxRuntime::stopNetwork()
{
    closeNetworkReadyFd();
    if (!m_network)
        return;
    m_network->disconnect(this);
    QProcess *network = m_network;
    m_network = nullptr;
    updateTaskLimit();
    network->setParent(nullptr);
    // Let QProcess reap it; never wait here.
    connect(network, &QProcess::finished, network, &QObject::deleteLater);
    if (network->state() == QProcess::NotRunning)
        network->deleteLater();
    else
        network->kill();
}

void SandboxRuntime::onJailFinished()
{
    const bool wasUp = m_jailInit > 0;
    if (m_jailError.isEmpty()) {
        if (m_jail && !m_jailInit)
            m_jailStderr.append(m_jail->readAllStandardError().left(JailStderrKept));
        m_jailError = tr("the sandbox's jail ended: %1")
                          .arg(QString::fromLocal8Bit(m_jailStderr.trimmed().left(300)));
    }
    if (!m_stopped)
        qCWarning(lcLocal) << "sandbox" << sandboxId() << m_jailError;
    m_jailInit = 0;
    m_jailPlaceholder = 0;
    stopNetwork();
    const auto pending = std::exchange(m_pending, {});
    for (const QPointer<SandboxProcess> &process : pending) {
        if (process)
            process->fail(m_jailError);
    }
    if (wasUp && !m_stopped && m_jail) {
        // Ended from inside (`kill -9 -1` reaches its placeholder): as after a reboot,
        // the next command starts a new jail on the sandbox's folder, which is kept.
        // A jail that never came up stays failed, or each command would retry it.
        m_jailError.clear();
        m_jailStderr.clear();
        m_pidNamespace.clear();
        m_networkSettled = false; // the new jail's network comes up anew
        QProcess *jail = std::exchange(m_jail, nullptr);
        jail->disconnect(this);
        jail->deleteLater();
        updateTaskLimit();
    }
}

QProcessEnvironment SandboxRuntime::environmentFor(const sd::ProcessConfig &config) const
{
    QProcessEnvironment env;
    const bool jailed = m_isolation == Isolation::Bwrap;
    QString path = DefaultPath;
    if (m_config.templateId == QLatin1String("mcp-gateway") && !m_gatewayBinDir.isEmpty())
        path += QLatin1Char(':') + (jailed ? JailGatewayDir : m_gatewayBinDir);
    env.insert(QStringLiteral("PATH"), path);
    env.insert(QStringLiteral("HOME"), jailed ? QStringLiteral("/home/user") : m_fs.home());
    env.insert(QStringLiteral("USER"), QStringLiteral("user"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("E2B_SANDBOX"), QStringLiteral("true"));
    env.insert(QStringLiteral("E2B_SANDBOX_ID"), m_config.sandboxId);
    env.insert(QStringLiteral("E2B_TEMPLATE_ID"), m_config.templateId);
    if (!jailed) {
        env.insert(QStringLiteral("TMPDIR"), m_fs.tmp());
        env.insert(QStringLiteral("MCP_GATEWAY_DIR"), m_fs.gatewayDir());
        env.insert(SandboxMarker, m_config.sandboxId);
    }
    for (auto it = m_config.envVars.cbegin(); it != m_config.envVars.cend(); ++it)
        env.insert(it.key(), it.value());
    for (auto it = config.envs.cbegin(); it != config.envs.cend(); ++it)
        env.insert(it.key(), it.value());
    if (!jailed)
        env.insert(SandboxMarker, m_config.sandboxId); // a call cannot unmark itself
    return env;
}

SandboxProcess *SandboxRuntime::start(
    const sd::ProcessConfig &config, const QString &tag, bool stdinOpen)
{
    auto *process = new SandboxProcess(config, tag, stdinOpen, nullptr);
    m_processes.append(process);
    m_folderChanged = true;
    connect(process, &SandboxProcess::started, this, [this, process](quint32 pid) {
        qCInfo(lcLocal) << "sandbox" << sandboxId() << "process started" << process->safeCommand()
                        << "pid" << pid;
        Q_EMIT processStarted(pid, process->safeCommand());
    });
    connect(process, &SandboxProcess::ended, this,
        [this, process](int exitCode, bool, const QString &status) {
            qCInfo(lcLocal) << "sandbox" << sandboxId() << "process" << process->pid()
                            << "ended:" << status;
            m_processes.removeAll(process);
            m_folderChanged = true; // what it wrote last is measured by the next sample
            if (m_entered.remove(process))
                updateTaskLimit();
            Q_EMIT processEnded(process->pid(), process->safeCommand(), exitCode, status);
        });
    if (m_stopped) {
        QTimer::singleShot(0, process, [process] { process->fail(tr("the sandbox was killed")); });
    } else if (!ensureGroup()) {
        const QString error = tr("the sandbox's control group cannot be made: %1").arg(m_groupError);
        QTimer::singleShot(0, process, [process, error] { process->fail(error); });
    } else if (m_isolation == Isolation::Bwrap && !jailReady()) {
        if (m_jailError.isEmpty()) {
            if (!m_jail)
                startJail();
            m_pending.append(process);
        } else {
            const QString error = m_jailError;
            QTimer::singleShot(0, process, [process, error] { process->fail(error); });
        }
    } else {
        launch(process);
    }
    return process;
}

QStringList SandboxRuntime::jailedLaunchArguments(
    const sd::ProcessConfig &config, const QString &cwd, QProcessEnvironment *hostEnvironment) const
{
    QStringList args { QStringLiteral("--target"), QString::number(m_jailInit),
        QStringLiteral("--mount"), QStringLiteral("--pid"), QStringLiteral("--ipc"),
        QStringLiteral("--root"), QStringLiteral("--wd"), QStringLiteral("--net") };
    // The jail's user namespace maps the sandbox user to the backend's own uid; joining
    // it with the backend's credentials makes the process that user there, and a
    // process that is not root in its user namespace keeps no capability across exec.
    args << QStringLiteral("--user") << QStringLiteral("--preserve-credentials");
    *hostEnvironment = hostToolEnvironment();
    const QStringList vars = environmentFor(config).toStringList();
    for (qsizetype i = 0; i < vars.size(); ++i)
        hostEnvironment->insert(CarrierPrefix + QString::number(i), vars.at(i));
    const QStringList words = QStringList { config.cmd } + config.args;
    for (qsizetype i = 0; i < words.size(); ++i)
        hostEnvironment->insert(ArgCarrierPrefix + QString::number(i), words.at(i));
    // The working directory is only reachable inside the jail: env changes to it there.
    const QString absCwd
        = cwd.startsWith(QLatin1Char('/')) ? cwd : QStringLiteral("/home/user/") + cwd;
    args << QStringLiteral("--") << QStringLiteral("/bin/sh") << QStringLiteral("-c")
         << jailEntryScript() << QStringLiteral("sd-entry") << QString::number(vars.size())
         << QString::number(words.size()) << absCwd;
    return args;
}

void SandboxRuntime::launch(SandboxProcess *process)
{
    const sd::ProcessConfig &config = process->config();
    const QString cwd = config.cwd.isEmpty() ? QStringLiteral("/home/user") : config.cwd;
    m_launchedAny = true;
    if (m_isolation == Isolation::Bwrap) {
        QProcessEnvironment hostEnvironment;
        const QStringList args = jailedLaunchArguments(config, cwd, &hostEnvironment);
        updateTaskLimit(1);
        m_entered.insert(process);
        process->launch(nsenterPath(), args, hostEnvironment, m_fs.home(), true, &m_cgroup,
            namespaceOwner(m_jailInit, "ipc"));
    } else {
        const QString dir = m_fs.hostPath(cwd);
        process->launch(config.cmd, config.args, environmentFor(config), dir, false, &m_cgroup);
    }
}

QList<SandboxProcess *> SandboxRuntime::processes() const
{
    QList<SandboxProcess *> out;
    for (const QPointer<SandboxProcess> &p : m_processes) {
        if (p && p->isRunning())
            out.append(p);
    }
    return out;
}

SandboxProcess *SandboxRuntime::findByPid(quint32 pid) const
{
    for (SandboxProcess *p : processes()) {
        if (p->pid() == pid)
            return p;
    }
    return nullptr;
}

SandboxProcess *SandboxRuntime::findByTag(const QString &tag) const
{
    for (SandboxProcess *p : processes()) {
        if (!tag.isEmpty() && p->tag() == tag)
            return p;
    }
    return nullptr;
}

QString SandboxRuntime::pidNamespace() const { return m_jailInit > 0 ? m_pidNamespace : QString(); }

QString SandboxRuntime::metricsKey() const
{
    if (m_isolation == Isolation::Bwrap)
        return pidNamespace();
    // Empty (no walk of the host's processes for it) until it ran something.
    return m_launchedAny ? m_config.sandboxId : QString();
}

QList<qint64> SandboxRuntime::jailPids() const
{
    QList<qint64> pids;
    for (qint64 pid : { m_jailInit, m_jailPlaceholder }) {
        if (pid > 0)
            pids.append(pid);
    }
    return pids;
}

bool SandboxRuntime::takeFolderChanged()
{
    return std::exchange(m_folderChanged, false) || !m_processes.isEmpty();
}

QList<qint64> SandboxRuntime::sandboxPids() const
{
    QList<qint64> out;
    // The sandbox's own group, where it has one, lists its processes (each joins it
    // before it runs anything, children inherit it) without reading every host
    // process; the tests below still decide which of them are the sandbox's own.
    const std::optional<QList<qint64>> grouped = m_cgroup.processes();
    if (m_isolation == Isolation::Bwrap) {
        const QString ns = pidNamespace();
        if (ns.isEmpty())
            return out;
        for (qint64 pid : grouped ? *grouped : allPids()) {
            if (pidNamespaceOf(pid) == ns)
                out.append(pid);
        }
        return out;
    }
    // The marker scan reads every host process's environment (tens of ms on a busy
    // host, twice per kill): a sandbox that never ran anything has nothing to find.
    if (!m_launchedAny)
        return out;
    const QByteArray marker = (SandboxMarker + QLatin1Char('=') + m_config.sandboxId).toUtf8();
    const qint64 self = QCoreApplication::applicationPid();
    for (qint64 pid : grouped ? *grouped : allPids()) {
        if (pid != self && hasMarker(pid, marker))
            out.append(pid);
    }
    return out;
}

QList<qint64> SandboxRuntime::pausedPids() const
{
    // Everything in the sandbox's group, where it has one: a process that made a PID
    // namespace of its own (unshare) is not in the jail's, and must stop too. Not the
    // host-side nsenter of a jailed command: it stops itself when its child stops and
    // continues it when continued, so stopped from here as well, it would stop itself
    // again once resumed, and for good.
    const std::optional<QList<qint64>> grouped = m_cgroup.processes();
    if (!grouped)
        return sandboxPids();
    if (m_isolation != Isolation::Bwrap)
        return *grouped;
    QSet<qint64> entering;
    for (const SandboxProcess *p : processes())
        entering.insert(p->pid());
    QList<qint64> out;
    for (qint64 pid : *grouped) {
        if (!entering.contains(pid))
            out.append(pid);
    }
    return out;
}

QList<sd::ProcessInfo> SandboxRuntime::listProcesses() const
{
    QList<sd::ProcessInfo> out;
    QSet<qint64> known;
    for (SandboxProcess *p : processes()) {
        sd::ProcessInfo info;
        info.config = p->config();
        info.pid = p->pid();
        info.tag = p->tag();
        out.append(info);
        known.insert(p->pid());
    }
    // Processes left behind by a command (a daemon such as `mcp-gateway serve`):
    // the top of each tree that no envd process owns any more.
    const QList<qint64> pids = sandboxPids();
    const QSet<qint64> members(pids.cbegin(), pids.cend());
    for (qint64 pid : pids) {
        ProcStat stat;
        if (pid == m_jailInit || !readStat(pid, &stat))
            continue;
        const bool orphan = m_isolation == Isolation::Bwrap
            ? stat.ppid == m_jailInit
            : !members.contains(stat.ppid) && !known.contains(stat.ppid);
        if (!orphan || known.contains(pid))
            continue;
        const QStringList argv = cmdline(pid);
        // The jail's own placeholder is not a process of the user's.
        if (argv.isEmpty()
            || argv == QStringList { QStringLiteral("sleep"), QStringLiteral("infinity") })
            continue;
        sd::ProcessInfo info;
        info.config.cmd = argv.first();
        info.config.args = argv.mid(1);
        info.pid = quint32(pid);
        out.append(info);
    }
    return out;
}

bool SandboxRuntime::signalPid(quint32 pid, int signal)
{
    if (SandboxProcess *p = findByPid(pid)) {
        p->sendSignal(signal);
        return true;
    }
    if (pid == 0 || qint64(pid) == m_jailInit || !sandboxPids().contains(qint64(pid)))
        return false;
    ::kill(pid_t(pid), signal);
    return true;
}

void SandboxRuntime::pause()
{
    if (m_paused || m_stopped)
        return;
    m_paused = true;
    // Twice: a child forked between the first scan and its parent's stop is caught
    // by the second.
    for (int pass = 0; pass < 2; ++pass) {
        for (qint64 pid : pausedPids())
            ::kill(pid_t(pid), SIGSTOP);
    }
    // Unjailed processes started by us are in the marker set already; a jailed one's
    // nsenter stops itself when its child stops.
    qCInfo(lcLocal) << "sandbox" << sandboxId() << "paused";
}

void SandboxRuntime::resume()
{
    if (!m_paused || m_stopped)
        return;
    m_paused = false;
    for (qint64 pid : pausedPids())
        ::kill(pid_t(pid), SIGCONT);
    for (SandboxProcess *p : processes())
        ::kill(pid_t(p->pid()), SIGCONT);
    qCInfo(lcLocal) << "sandbox" << sandboxId() << "resumed";
}

void SandboxRuntime::stop(const QString &reason)
{
    if (m_stopped)
        return;
    m_stopped = true;
    Q_EMIT stopping(reason);
    const QList<qint64> pids = sandboxPids();
    // Freeze first so nothing forks away between the scan and the kill.
    for (qint64 pid : pids)
        ::kill(pid_t(pid), SIGSTOP);
    if (m_jailInit > 0)
        ::kill(pid_t(m_jailInit), SIGKILL); // the namespace dies with its pid 1
    for (qint64 pid : pids)
        ::kill(pid_t(pid), SIGKILL);
    for (SandboxProcess *p : processes())
        ::kill(-pid_t(p->pid()), SIGKILL);
    if (m_jail && m_jail->state() != QProcess::NotRunning) {
        // A jail still being set up: bwrap's child, the namespace's pid 1 to be, has
        // not yet been told to die with bwrap and would wait for it for ever, as root.
        const QList<qint64> settingUp = childrenOf(m_jail->processId());
        m_jail->kill();
        for (qint64 pid : settingUp)
            ::kill(pid_t(pid), SIGKILL);
    }
    // Whatever the scans above could not see is still in the sandbox's group.
    m_cgroup.killAll();
    stopNetwork();
    if (m_isolation == Isolation::None) {
        // Catch what forked between the two scans.
        for (qint64 pid : sandboxPids())
            ::kill(pid_t(pid), SIGKILL);
    }
    const auto pending = std::exchange(m_pending, {});
    for (const QPointer<SandboxProcess> &process : pending) {
        if (process)
            process->fail(reason);
    }
    if (m_jail) {
        // Let QProcess reap it; never wait here.
        m_jail->disconnect(this);
        QProcess *jail = m_jail;
        jail->setParent(nullptr);
        connect(jail, &QProcess::finished, jail, &QObject::deleteLater);
        if (jail->state() == QProcess::NotRunning)
            jail->deleteLater();
        m_jail = nullptr;
    }
    m_fs.remove();
    qCInfo(lcLocal) << "sandbox" << sandboxId() << "stopped:" << reason;
}

void SandboxRuntime::addSample(qint64 ticks, qint64 rss, std::optional<qint64> diskUsed)
{
    if (m_stopped)
        return;
    SandboxMetric sample;
    sample.timestamp = QDateTime::currentDateTimeUtc();
    sample.cpuCount = m_config.cpuCount > 0 ? m_config.cpuCount : QThread::idealThreadCount();
    sample.memUsed = rss * ::sysconf(_SC_PAGESIZE);
    sample.memTotal = m_config.memoryBytes > 0
        ? m_config.memoryBytes
        : qint64(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
    if (m_lastCpuTicks >= 0 && m_lastCpuTime.isValid()) {
        const double seconds = m_lastCpuTime.msecsTo(sample.timestamp) / 1000.0;
        const double used
            = double(qMax<qint64>(0, ticks - m_lastCpuTicks)) / ::sysconf(_SC_CLK_TCK);
        if (seconds > 0)
            sample.cpuUsedPct = qMin(100.0, 100.0 * used / (seconds * sample.cpuCount));
    }
    m_lastCpuTicks = ticks;
    m_lastCpuTime = sample.timestamp;
    sample.diskUsed = diskUsed.value_or(m_metrics.isEmpty() ? 0 : m_metrics.constLast().diskUsed);
    sample.diskTotal = fileSystemSize(m_fs.root());
    m_metrics.append(sample);
}

// ---------------------------------------------------------------- ProcessRunner

bool ProcessRunner::bwrapAvailable() { return !bwrapPath().isEmpty() && !nsenterPath().isEmpty(); }

bool ProcessRunner::probeBwrap(QString *error)
{
    if (!bwrapAvailable()) {
        *error = tr("bwrap or nsenter is not installed");
        return false;
    }
    QProcess probe;
    probe.setProcessEnvironment(hostToolEnvironment());
    probe.start(bwrapPath(),
        QStringList { QStringLiteral("--ro-bind"), QStringLiteral("/usr"), QStringLiteral("/usr"),
            QStringLiteral("--symlink"), QStringLiteral("usr/bin"), QStringLiteral("/bin"),
            QStringLiteral("--symlink"), QStringLiteral("usr/lib"), QStringLiteral("/lib"),
            QStringLiteral("--symlink"), QStringLiteral("usr/lib64"), QStringLiteral("/lib64"),
            QStringLiteral("--proc"), QStringLiteral("/proc"), QStringLiteral("--dev"),
            QStringLiteral("/dev"), QStringLiteral("--unshare-pid") }
            + UnprivilegedJail
            + QStringList { QStringLiteral("--die-with-parent"), QStringLiteral("/bin/true") });
    if (!probe.waitForFinished(10000) || probe.exitStatus() != QProcess::NormalExit
        || probe.exitCode() != 0) {
        *error = tr("bwrap cannot build a jail here: %1")
                     .arg(QString::fromLocal8Bit(probe.readAllStandardError().trimmed()));
        probe.kill();
        probe.waitForFinished(1000);
        return false;
    }
    return true;
}

ProcessRunner::ProcessRunner(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    sweepLeftovers();
    m_retiredGroupsTimer.setInterval(RetiredGroupsIntervalMs);
    connect(&m_retiredGroupsTimer, &QTimer::timeout, this, [this] {
        SandboxCgroup::removeRetired();
        if (!SandboxCgroup::hasRetired())
            m_retiredGroupsTimer.stop();
    });
    // Groups an earlier backend left with processes in them (killed at its start).
    removeRetiredGroupsLater();
    // The mcp-gateway template's PATH gets a folder holding only the gateway (a link
    // to the built binary), not every binary of the build.
    const QString binary = m_options.gatewayBinDir + QStringLiteral("/mcp-gateway");
    m_gatewayDir.clear();
    if (!m_options.gatewayBinDir.isEmpty() && QFileInfo(binary).isExecutable()) {
        const QString dir = QDir(m_options.stateDir).filePath(QStringLiteral("gateway-bin"));
        QDir().mkpath(dir);
        const QString link = dir + QStringLiteral("/mcp-gateway");
        QFile::remove(link);
        if (QFile::link(QFileInfo(binary).canonicalFilePath(), link))
            m_gatewayDir = dir;
    } else {
        qCWarning(lcLocal).noquote() << "no mcp-gateway next to the backend:"
                                     << "the mcp-gateway template cannot start a gateway";
    }
}

void ProcessRunner::sweepLeftovers()
{
    if (m_options.stateDir.isEmpty())
        return;
    // A backend that ended without stopping its sandboxes (killed, crashed) left their
    // folders behind, gateway configurations with their API keys included. Sandboxes
    // do not outlive the backend, so whatever is there is left over; but a second
    // backend on the same state folder must not lose its sandboxes, hence the lock.
    m_stateLock = std::make_unique<QLockFile>(
        QDir(m_options.stateDir).filePath(QStringLiteral("backend.lock")));
    m_stateLock->setStaleLockTime(0);
    if (!m_stateLock->tryLock(0)) {
        qCWarning(lcLocal) << "another backend uses" << m_options.stateDir
                           << ": its sandbox folders are left alone";
        return;
    }
    // Moved aside whole, in one rename, and deleted on the removal pool: however many
    // sandboxes the earlier run left, this one serves at once. Folders moved aside by a
    // run stopped before it had deleted them are deleted the same way.
    const QDir state(m_options.stateDir);
    const QString asidePrefix = QStringLiteral(".removed-sandboxes-");
    const QByteArray sandboxes = QFile::encodeName(state.filePath(QStringLiteral("sandboxes")));
    const QByteArray aside = QFile::encodeName(
        state.filePath(asidePrefix + QUuid::createUuid().toString(QUuid::WithoutBraces)));
    if (::rename(sandboxes.constData(), aside.constData()) != 0 && errno != ENOENT) {
        qCWarning(lcLocal).noquote() << "could not move the sandbox folders an earlier run left:"
                                     << QString::fromLocal8Bit(std::strerror(errno));
    }
    const QStringList leftovers = state.entryList(
        { asidePrefix + QLatin1Char('*') }, QDir::AllEntries | QDir::Hidden | QDir::System);
    for (const QString &name : leftovers)
        SandboxFs::removeTreesLater(state.filePath(name));
    if (!leftovers.isEmpty())
        qCInfo(lcLocal) << "removing the sandbox folders left from an earlier run";
}

ProcessRunner::Usage ProcessRunner::walkProcesses(
    QSet<QString> keys, QSet<qint64> jailPids, Isolation isolation, int maxProcesses)
{
    Usage usage;
    for (const QString &key : std::as_const(keys))
        usage.byKey.insert(key, { 0, 0 });
    if (keys.isEmpty())
        return usage;
    // One pass over /proc for every sandbox: sandboxes times processes would not scale.
    const QByteArray marker = '\0' + SandboxMarker.toLatin1() + '=';
    const QList<qint64> pids = allPids();
    for (qint64 pid : pids) {
        if (usage.walked >= maxProcesses) {
            usage.cut = true;
            break;
        }
        ++usage.walked;
        QString key;
        if (isolation == Isolation::Bwrap) {
            key = pidNamespaceOf(pid);
        } else {
            QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
            if (!environ.open(QIODevice::ReadOnly))
                continue;
            const QByteArray env = '\0' + environ.readAll();
            const qsizetype at = env.indexOf(marker);
            if (at < 0)
                continue;
            const qsizetype start = at + marker.size();
            const qsizetype end = env.indexOf('\0', start);
            key = QString::fromLatin1(env.mid(start, end < 0 ? -1 : end - start));
        }
        auto it = usage.byKey.find(key);
        ProcStat stat;
        if (it == usage.byKey.end() || !readStat(pid, &stat))
            continue;
        it->first += stat.cpuTicks;
        it->second += stat.rssPages;
        if (!jailPids.contains(pid))
            usage.liveKeys.insert(key);
    }
    return usage;
}

ProcessRunner::Usage ProcessRunner::measure(
    QList<Folder> folders, QSet<qint64> jailPids, Isolation isolation, int maxProcesses)
{
    QSet<QString> keys;
    for (const Folder &folder : std::as_const(folders)) {
        if (!folder.key.isEmpty())
            keys.insert(folder.key);
    }
    Usage usage = walkProcesses(std::move(keys), std::move(jailPids), isolation, maxProcesses);
    for (const Folder &folder : std::as_const(folders)) {
        const bool mayBeWriting
            = !folder.key.isEmpty() && (usage.cut || usage.liveKeys.contains(folder.key));
        if (folder.changed || mayBeWriting)
            usage.diskByRoot.insert(folder.root, SandboxFs::diskUsage(folder.root));
    }
    return usage;
}

bool ProcessRunner::sampleAll()
{
    if (m_sampling)
        return false; // the last walk is still going: this tick is skipped, not queued
    m_runtimes.removeAll(nullptr);
    QList<Folder> folders;
    QSet<qint64> jailPids;
    for (const QPointer<SandboxRuntime> &runtime : std::as_const(m_runtimes)) {
        folders.append(
            { runtime->fs().root(), runtime->metricsKey(), runtime->takeFolderChanged() });
        for (qint64 pid : runtime->jailPids())
            jailPids.insert(pid);
    }
    // The walk reads a file or two per host process and the folders that may have
    // changed: off the thread that serves requests.
    auto *watcher = new QFutureWatcher<Usage>(this);
    m_sampling = watcher;
    connect(watcher, &QFutureWatcher<Usage>::finished, this, [this, watcher] {
        m_sampling = nullptr; // the next tick may start a walk even before this one is deleted
        watcher->deleteLater();
        applySample(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(
        &ProcessRunner::measure, folders, jailPids, m_options.isolation, m_maxProcessesPerSample));
    return true;
}

void ProcessRunner::applySample(const Usage &usage)
{
    m_lastSampleWalked = usage.walked;
    m_lastSampleFolders = int(usage.diskByRoot.size());
    if (usage.walked >= m_maxProcessesPerSample)
        qCDebug(lcLocal) << "metrics sample stopped after" << usage.walked << "processes";
    m_runtimes.removeAll(nullptr);
    for (const QPointer<SandboxRuntime> &runtime : std::as_const(m_runtimes)) {
        const auto [ticks, rss] = usage.byKey.value(runtime->metricsKey(), { 0, 0 });
        // A sandbox created while the walk was out keeps what it measured at creation.
        // Measured while something of its own ran: measured again once nothing does.
        if (usage.liveKeys.contains(runtime->metricsKey()))
            runtime->m_folderChanged = true;
        const auto disk = usage.diskByRoot.constFind(runtime->fs().root());
        runtime->addSample(ticks, rss,
            disk != usage.diskByRoot.cend() ? std::optional<qint64>(*disk) : std::nullopt);
    }
    Q_EMIT sampled();
}

void ProcessRunner::removeRetiredGroupsLater()
{
    if (SandboxCgroup::hasRetired() && !m_retiredGroupsTimer.isActive())
        m_retiredGroupsTimer.start();
}

bool ProcessRunner::hasLiveProcesses() { return liveProcesses > 0; }

bool ProcessRunner::jailHasEtcFolder(const QString &path)
{
    const QString etc = QStringLiteral("/etc");
    if (path == etc)
        return true;
    if (!path.startsWith(etc + QLatin1Char('/'))
        || HiddenEtc.contains(path.section(QLatin1Char('/'), 2, 2)))
        return false;
    // Covered where it or a folder above it is not for everyone; a folder covered is
    // an empty one no one may enter.
    const PrivateEtc &hidden = privateEtc();
    for (QString at = path; at != etc; at = at.section(QLatin1Char('/'), 0, -2)) {
        if (hidden.topLevel.contains(at) || hidden.folders.contains(at)
            || hidden.files.contains(at))
            return false;
    }
    const QFileInfo info(path);
    // A link is followed in the jail, which has the host's /usr and /etc but not the rest.
    const QString target = info.canonicalFilePath();
    return info.isDir()
        && (target == path || target.startsWith(QLatin1String("/usr/"))
            || (target.startsWith(etc + QLatin1Char('/')) && target != path
                && jailHasEtcFolder(target)));
}

SandboxRuntime *ProcessRunner::create(const SandboxRuntimeConfig &config, QString *error)
{
    const QString root
        = QDir(m_options.stateDir).filePath(QStringLiteral("sandboxes/") + config.sandboxId);
    SandboxRuntimeConfig withLimits = config;
    withLimits.maxTasks = m_options.maxTasksPerSandbox;
    auto *runtime
        = new SandboxRuntime(withLimits, m_options.isolation, root, m_gatewayDir, nullptr);
    if (!runtime->prepare(error)) {
        delete runtime;
        return nullptr;
    }
    m_runtimes.append(runtime);
    // Its group goes with it once what it killed has exited.
    connect(runtime, &QObject::destroyed, this, &ProcessRunner::removeRetiredGroupsLater);
    if (!m_metricsTimer.isActive()) {
        m_metricsTimer.setInterval(m_options.metricsIntervalMs);
        connect(&m_metricsTimer, &QTimer::timeout, this, &ProcessRunner::sampleAll,
            Qt::UniqueConnection);
        m_metricsTimer.start();
    }
    return runtime;
}

} // namespace sd::local
