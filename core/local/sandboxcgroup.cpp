#include "local/sandboxcgroup.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHash>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

void removeGroup(const QString &path)
{
    QDir group(path);
    for (const QString &child : group.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        ::rmdir(QFile::encodeName(group.filePath(child)).constData());
    ::rmdir(QFile::encodeName(path).constData());
}

/// Removes the empty groups that backends no longer running left beside ours, and
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
    // Empty once every process of the sandbox was reaped; a group still holding one
    // stays (the kernel refuses) and goes with the backend's group at its next start.
    for (const QString &dir : std::as_const(m_dirs))
        ::rmdir(QFile::encodeName(dir).constData());
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

std::optional<QList<int>> SandboxCgroup::openForJoining() const
{
    // Opened for each start and closed after it, not held: a backend with thousands
    // of idle sandboxes would otherwise hold three descriptors for each.
    QList<int> fds;
    for (const QString &dir : m_dirs) {
        const int fd = ::open(QFile::encodeName(dir + QStringLiteral("/cgroup.procs")).constData(),
            O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            qCWarning(lcLocal) << "cannot open" << dir << "cgroup.procs:" << std::strerror(errno);
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
        // "0" is the writing process itself. A process outside its group would escape
        // the limits and the kill that finds processes through the group: it never runs.
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
    QList<qint64> pids;
    for (const QByteArray &line : procs.readAll().split('\n')) {
        bool ok = false;
        const qint64 pid = line.toLongLong(&ok);
        if (ok && pid > 0)
            pids.append(pid);
    }
    return pids;
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
