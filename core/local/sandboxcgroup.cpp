#include "local/sandboxcgroup.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QSet>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

namespace sd::local {

namespace {

/// Where this backend's sandbox groups go, per hierarchy, and how to limit them.
struct Layout
{
    QString version; ///< "v1", "v2"; empty when unavailable
    QString reason; ///< why not, when unavailable
    QString pidsParent, memoryParent, cpuParent; ///< v1: the backend's group in each
    QString unifiedParent; ///< v2
};

bool writeFile(const QString &path, const QByteArray &text, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) || file.write(text) != text.size()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

/// The mount point of each hierarchy by controller ("pids", "memory", "cpu"; "" for v2).
QHash<QString, QString> cgroupMounts()
{
    QHash<QString, QString> mounts;
    const QList<QByteArray> lines = readFile(QStringLiteral("/proc/self/mountinfo")).split('\n');
    for (const QByteArray &line : lines) {
        // ... mountpoint ... - fstype source superoptions
        const qsizetype dash = line.indexOf(" - ");
        if (dash < 0)
            continue;
        const QList<QByteArray> head = line.left(dash).split(' ');
        const QList<QByteArray> tail = line.mid(dash + 3).split(' ');
        if (head.size() < 5 || tail.size() < 3)
            continue;
        const QString mountPoint = QString::fromUtf8(head.at(4));
        if (tail.at(0) == "cgroup2") {
            mounts.insert(QString(), mountPoint);
        } else if (tail.at(0) == "cgroup") {
            for (const QByteArray &option : tail.at(2).split(',')) {
                if (option == "pids" || option == "memory" || option == "cpu")
                    mounts.insert(QString::fromLatin1(option), mountPoint);
            }
        }
    }
    return mounts;
}

/// This process's group per controller, from /proc/self/cgroup ("" for v2).
QHash<QString, QString> ownGroups()
{
    QHash<QString, QString> groups;
    const QList<QByteArray> lines = readFile(QStringLiteral("/proc/self/cgroup")).split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.split(':');
        if (fields.size() < 3)
            continue;
        const QString path = QString::fromUtf8(line.mid(fields.at(0).size() + fields.at(1).size() + 2));
        for (const QByteArray &controller : fields.at(1).split(','))
            groups.insert(QString::fromLatin1(controller), path);
    }
    return groups;
}

QString backendGroupName()
{
    return QStringLiteral("sandbox-desk-local-%1").arg(QCoreApplication::applicationPid());
}

Layout detect()
{
    Layout layout;
    const QHash<QString, QString> mounts = cgroupMounts();
    const QHash<QString, QString> own = ownGroups();
    const auto parentIn = [&](const QString &controller) {
        const QString mount = mounts.value(controller);
        return QDir::cleanPath(mount + QLatin1Char('/') + own.value(controller)) + QLatin1Char('/')
            + backendGroupName();
    };
    if (mounts.contains(QStringLiteral("pids"))) {
        layout.version = QStringLiteral("v1");
        layout.pidsParent = parentIn(QStringLiteral("pids"));
        if (mounts.contains(QStringLiteral("memory")))
            layout.memoryParent = parentIn(QStringLiteral("memory"));
        if (mounts.contains(QStringLiteral("cpu")))
            layout.cpuParent = parentIn(QStringLiteral("cpu"));
        return layout;
    }
    const QString unified = mounts.value(QString());
    if (!unified.isEmpty()
        && readFile(unified + QStringLiteral("/cgroup.controllers")).contains("pids")) {
        layout.version = QStringLiteral("v2");
        layout.unifiedParent = parentIn(QString());
        return layout;
    }
    layout.reason = QStringLiteral("no cgroup hierarchy with the pids controller is mounted");
    return layout;
}

/// Makes `dir` (the backend's group) once; with v2 enables the controllers for its
/// children, which the kernel allows only where the parent holds no process.
bool ensureParent(const QString &dir, bool unified, QString *error)
{
    if (!QFileInfo::exists(dir) && ::mkdir(QFile::encodeName(dir).constData(), 0755) != 0) {
        *error = QStringLiteral("cannot make %1: %2").arg(dir, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (!unified)
        return true;
    const QString above = QFileInfo(dir).path();
    return writeFile(above + QStringLiteral("/cgroup.subtree_control"), "+pids +memory +cpu", error)
        && writeFile(dir + QStringLiteral("/cgroup.subtree_control"), "+pids +memory +cpu", error);
}

QStringList parents(const Layout &l)
{
    QStringList dirs { l.pidsParent, l.memoryParent, l.cpuParent, l.unifiedParent };
    dirs.removeAll(QString());
    return dirs;
}

/// The pids of a cgroup.procs file's text.
QList<qint64> parsePids(const QByteArray &procs)
{
    QList<qint64> pids;
    for (const QByteArray &line : procs.split('\n')) {
        bool ok = false;
        const qint64 pid = line.toLongLong(&ok);
        if (ok && pid > 0)
            pids.append(pid);
    }
    return pids;
}

/// The pids in a group's cgroup.procs now.
QSet<qint64> groupProcesses(const QString &dir)
{
    const QList<qint64> pids = parsePids(readFile(dir + QStringLiteral("/cgroup.procs")));
    return QSet<qint64>(pids.cbegin(), pids.cend());
}

/// SIGKILLs every process in the group at `dir`, whatever it is doing: a jail still
/// being set up included, whose namespace's pid 1 no other scan finds yet.
void killGroup(const QString &dir)
{
    // cgroup v2 kills the whole group at once, forks in flight included.
    const QString killFile = dir + QStringLiteral("/cgroup.kill");
    if (QFileInfo::exists(killFile) && writeFile(killFile, "1", nullptr))
        return;
    // Else pid by pid, a few passes for what forked in between (pids.max bounds it).
    // A pid read from the file may have been reused since: each is pinned first and
    // signalled only if the group still lists it once pinned. (The system calls
    // themselves: this glibc's <sys/pidfd.h> declares the wrappers without C linkage.)
    for (int pass = 0; pass < 3; ++pass) {
        const QSet<qint64> listed = groupProcesses(dir);
        if (listed.isEmpty())
            return;
        QList<std::pair<qint64, int>> pinned;
        for (qint64 pid : listed) {
            const int fd = int(::syscall(SYS_pidfd_open, pid_t(pid), 0U));
            if (fd >= 0)
                pinned.append({ pid, fd });
        }
        const QSet<qint64> stillListed = groupProcesses(dir);
        for (const auto &[pid, fd] : std::as_const(pinned)) {
            if (stillListed.contains(pid))
                ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0U);
            ::close(fd);
        }
    }
}

/// Groups that still held processes when they were to be removed (just killed, not
/// yet gone), children before their parents; removeRetired() tries them again.
QStringList &retiredGroups()
{
    static QStringList dirs;
    return dirs;
}

/// Kills what is in the group and removes it; retires it when the kernel refuses
/// (a killed process not yet gone). ENOENT counts as removed.
void killAndRemove(const QString &dir)
{
    killGroup(dir);
    if (::rmdir(QFile::encodeName(dir).constData()) != 0 && errno != ENOENT
        && !retiredGroups().contains(dir))
        retiredGroups().append(dir);
}

/// A backend's group and the sandbox groups in it: nothing in them survives.
void removeGroup(const QString &path)
{
    QDir group(path);
    for (const QString &child : group.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        killAndRemove(group.filePath(child));
    killAndRemove(path);
}

/// Removes the groups that backends no longer running left beside ours (killing
/// what their sandboxes left running: sandboxes never outlive their backend), and
/// ours when this one ends.
void sweepGroups(const Layout &l)
{
    for (const QString &parent : parents(l)) {
        QDir above(QFileInfo(parent).path());
        const QStringList stale = above.entryList(
            { QStringLiteral("sandbox-desk-local-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &name : stale) {
            const qint64 pid = name.section(QLatin1Char('-'), -1).toLongLong();
            if (pid <= 0 || pid == QCoreApplication::applicationPid()
                || ::kill(pid_t(pid), 0) == 0 || errno == EPERM)
                continue;
            removeGroup(above.filePath(name));
        }
    }
}

void removeOwnGroups()
{
    for (const QString &parent : parents(detect()))
        removeGroup(parent);
}

const Layout &layout()
{
    static const Layout found = [] {
        Layout l = detect();
        if (l.version.isEmpty())
            return l;
        sweepGroups(l);
        qAddPostRoutine(removeOwnGroups);
        // Try it: a group with a limit, then gone again.
        SandboxCgroup probe;
        QString error;
        if (!probe.create(QStringLiteral("probe"), { 16, 0, 0 }, &error)) {
            l.version.clear();
            l.reason = error;
        }
        return l;
    }();
    return found;
}

} // namespace

QString SandboxCgroup::unavailableReason() { return layout().reason; }

QString SandboxCgroup::version() { return layout().version; }

SandboxCgroup::~SandboxCgroup()
{
    // The sandbox is gone, so is whatever still runs in its group. A process just
    // killed keeps the group busy until it has exited: removeRetired() tries again.
    for (const QString &dir : std::as_const(m_dirs))
        killAndRemove(dir);
}

void SandboxCgroup::killAll() const
{
    // Every hierarchy holds every process of the sandbox; the pids one is enough.
    if (!m_dirs.isEmpty())
        killGroup(m_pidsDir.isEmpty() ? m_dirs.first() : m_pidsDir);
}

bool SandboxCgroup::hasRetired() { return !retiredGroups().isEmpty(); }

void SandboxCgroup::removeRetired()
{
    const QStringList dirs = std::exchange(retiredGroups(), {});
    for (const QString &dir : dirs)
        killAndRemove(dir);
}

bool SandboxCgroup::create(const QString &sandboxId, const Limits &limits, QString *error)
{
    // The probe runs while layout() is being decided, on what detect() found.
    const Layout l = sandboxId == QLatin1String("probe") ? detect() : layout();
    if (l.version.isEmpty()) {
        *error = l.reason;
        return false;
    }
    const bool unified = l.version == QLatin1String("v2");
    struct Group
    {
        QString parent;
        QList<QPair<QString, QByteArray>> settings;
    };
    QList<Group> groups;
    const QByteArray tasks = QByteArray::number(limits.maxTasks);
    const qint64 period = 100000;
    const QByteArray quota = QByteArray::number(qint64(limits.cpuCount) * period);
    if (unified) {
        Group g { l.unifiedParent, { { QStringLiteral("pids.max"), tasks } } };
        if (limits.memoryBytes > 0)
            g.settings.append({ QStringLiteral("memory.max"), QByteArray::number(limits.memoryBytes) });
        if (limits.cpuCount > 0)
            g.settings.append({ QStringLiteral("cpu.max"), quota + ' ' + QByteArray::number(period) });
        groups.append(g);
    } else {
        groups.append({ l.pidsParent, { { QStringLiteral("pids.max"), tasks } } });
        if (!l.memoryParent.isEmpty() && limits.memoryBytes > 0)
            groups.append({ l.memoryParent,
                { { QStringLiteral("memory.limit_in_bytes"), QByteArray::number(limits.memoryBytes) } } });
        if (!l.cpuParent.isEmpty() && limits.cpuCount > 0)
            groups.append({ l.cpuParent,
                { { QStringLiteral("cpu.cfs_period_us"), QByteArray::number(period) },
                    { QStringLiteral("cpu.cfs_quota_us"), quota } } });
    }
    for (const Group &g : std::as_const(groups)) {
        if (!ensureParent(g.parent, unified, error))
            return false;
        const QString dir = g.parent + QLatin1Char('/') + sandboxId;
        if (::mkdir(QFile::encodeName(dir).constData(), 0755) != 0 && errno != EEXIST) {
            *error = QStringLiteral("cannot make %1: %2").arg(dir, QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        m_dirs.append(dir);
        if (g.parent == l.pidsParent || unified)
            m_pidsDir = dir;
        for (const auto &[file, value] : g.settings) {
            if (!writeFile(dir + QLatin1Char('/') + file, value, error))
                return false;
        }
    }
    return true;
}

bool SandboxCgroup::setMaxTasks(int maxTasks, QString *error) const
{
    return m_pidsDir.isEmpty()
        || writeFile(m_pidsDir + QStringLiteral("/pids.max"), QByteArray::number(maxTasks), error);
}

std::optional<QList<int>> SandboxCgroup::openForJoining() const
{
    // Opened for each start and closed after it, not held: a backend with thousands
    // of idle sandboxes would otherwise hold three descriptors for each.
    //
    // With v1, through `tasks`: the child that writes is its process's only thread, so
    // moving the thread moves the process, and the kernel moves a thread that moves
    // itself without the system-wide lock a write to `cgroup.procs` takes. That lock
    // waits for an RCU grace period whenever no other move happened just before: a
    // command started after a quiet moment waited 6 to 14 ms for it on this project's
    // machines, and 0.2 to 0.6 ms through `tasks`. v2 has no such file for a process
    // that is not in a threaded group.
    const QString file = layout().version == QLatin1String("v1") ? QStringLiteral("/tasks")
                                                                 : QStringLiteral("/cgroup.procs");
    QList<int> fds;
    for (const QString &dir : m_dirs) {
        const int fd = ::open(QFile::encodeName(dir + file).constData(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            qCWarning(lcLocal) << "cannot open" << dir + file << std::strerror(errno);
            closeAfterJoining(fds);
            return std::nullopt;
        }
        fds.append(fd);
    }
    return fds;
}

void SandboxCgroup::closeAfterJoining(const QList<int> &fds)
{
    for (int fd : fds)
        ::close(fd);
}

void SandboxCgroup::joinFromChild(const QList<int> &fds)
{
    for (int fd : fds) {
        // "0" is the writer itself: its thread through `tasks`, its process through
        // `cgroup.procs`, one and the same in a forked child. A process outside its
        // group would escape the limits and the kill that finds processes through the
        // group: it never runs.
        if (::write(fd, "0", 1) != 1)
            ::_exit(127);
    }
}

std::optional<QList<qint64>> SandboxCgroup::processes() const
{
    if (m_dirs.isEmpty())
        return std::nullopt;
    // Any of its hierarchies holds every process: each joins them all.
    QFile procs((m_pidsDir.isEmpty() ? m_dirs.first() : m_pidsDir) + QStringLiteral("/cgroup.procs"));
    if (!procs.open(QIODevice::ReadOnly))
        return std::nullopt;
    return parsePids(procs.readAll());
}

int SandboxCgroup::taskCount() const
{
    if (m_pidsDir.isEmpty())
        return -1;
    bool ok = false;
    const int count = readFile(m_pidsDir + QStringLiteral("/pids.current")).toInt(&ok);
    return ok ? count : -1;
}

} // namespace sd::local
