#include "sandboxfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThreadPool>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sd::local {

namespace {

/// Where removed trees are deleted: apart from Qt's global pool, whose usage walks
/// must not wait behind a mass kill, and wider than it, since each deletion mostly
/// waits for the disk (on a filesystem mounted with `discard`, every freed block).
/// Destroyed at exit, after it has finished every deletion handed to it: a stopped
/// backend leaves no sandbox folder behind.
class RemovalPool : public QThreadPool
{
public:
    RemovalPool() { setMaxThreadCount(8); }
};

QThreadPool &removalPool()
{
    static RemovalPool pool;
    return pool;
}

} // namespace

SandboxFs::SandboxFs(QString root)
    : m_root(std::move(root))
{ }

QString SandboxFs::home() const { return m_root + QStringLiteral("/home/user"); }

QString SandboxFs::tmp() const { return m_root + QStringLiteral("/tmp"); }

QString SandboxFs::gatewayDir() const { return m_root + QStringLiteral("/etc/mcp-gateway"); }

bool SandboxFs::create(const QString &profileLines, QString *error)
{
    const auto failed = [error](const QString &path) {
        *error = QCoreApplication::translate(
            "sd::local::SandboxFs", "could not create the sandbox directory %1")
                     .arg(path);
        return false;
    };
    // The folder of every sandbox and each sandbox's own are the owner's alone from the
    // moment they exist: a descriptor another local user opened between a mkdir and a
    // later chmod would outlive the chmod, and with it reach a sandbox's files and the
    // setuid files a sandbox run by root can make.
    const QString all = QFileInfo(m_root).absolutePath();
    if (!QDir().mkpath(QFileInfo(all).absolutePath()))
        return failed(all);
    for (const QString &path : { all, m_root }) {
        const QByteArray native = QFile::encodeName(path);
        if (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST)
            return failed(path);
        if (::chmod(native.constData(), 0700) != 0)
            return failed(path);
    }
    QDir dir;
    for (const QString &path : { home(), tmp(), gatewayDir() }) {
        if (!dir.mkpath(path))
            return failed(path);
    }
    // /tmp is world-writable with the sticky bit, as on any Linux.
    ::chmod(QFile::encodeName(tmp()).constData(), 01777);
    QFile profile(home() + QStringLiteral("/.profile"));
    if (profile.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        profile.write("# Written by sandbox-desk-local when the sandbox was created.\n");
        profile.write(profileLines.toUtf8());
    }
    return true;
}

void SandboxFs::remove()
{
    if (m_root.isEmpty())
        return;
    // One unlink per entry: a tree of any size holds every other request back for as
    // long as it takes. Moved out of the way at once (a rename within its folder, so
    // the sandbox's files, gateway keys included, are gone from their place before the
    // kill is answered), it is deleted on a worker thread; a backend stopped before
    // that sweeps it at its next start, as any leftover.
    const QFileInfo root(m_root);
    const QString removed = root.absolutePath() + QStringLiteral("/.removed-") + root.fileName();
    const bool moved = ::rename(QFile::encodeName(m_root).constData(),
                           QFile::encodeName(removed).constData())
        == 0;
    removeTreeLater(moved ? removed : m_root);
}

void SandboxFs::removeTreeLater(const QString &path)
{
    removalPool().start([path] { removeTree(path); });
}

void SandboxFs::removeTreesLater(const QString &folder)
{
    removalPool().start([folder] {
        const QStringList names = QDir(folder).entryList(
            QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        // The last one out deletes the folder: the entries, then this task.
        const auto left = std::make_shared<std::atomic<qsizetype>>(names.size() + 1);
        const auto leave = [folder, left] {
            if (--*left == 0)
                removeTree(folder);
        };
        for (const QString &name : names) {
            removalPool().start([path = folder + QLatin1Char('/') + name, leave] {
                removeTree(path);
                leave();
            });
        }
        leave();
    });
}

namespace {

/// Directories open at once while a tree is deleted: one deeper than that is moved up
/// to the tree's top (a rename within it) and deleted from there later.
constexpr size_t maxOpenDepth = 32;

/// How every directory of a sandbox's tree is opened: never through a symlink.
constexpr int directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

/// The entries of the directory open at `fd`, which it takes (closed on failure).
DIR *directoryStream(int fd)
{
    if (fd < 0)
        return nullptr;
    DIR *dir = ::fdopendir(fd);
    if (!dir)
        ::close(fd);
    return dir;
}

/// Opens the directory `name` in `parentFd` to delete its entries. A directory its
/// process made unreadable is made readable first; AT_SYMLINK_NOFOLLOW: should it
/// have become a symlink, no target is changed.
DIR *openForRemoval(int parentFd, const char *name)
{
    int fd = ::openat(parentFd, name, directoryFlags);
    if (fd < 0 && errno == EACCES && ::fchmodat(parentFd, name, 0700, AT_SYMLINK_NOFOLLOW) == 0)
        fd = ::openat(parentFd, name, directoryFlags);
    if (fd >= 0)
        ::fchmod(fd, 0700); // its entries may be unlinked
    return directoryStream(fd);
}

struct OpenDirectory
{
    DIR *dir = nullptr;
    QByteArray name; ///< in the directory below it in the stack
    int fd() const { return ::dirfd(dir); }
};

/// Empties the directory `top` (which it closes). Everything is reached through
/// descriptors of directories opened here, and every entry is first unlinked as what
/// it is now, not as readdir() saw it: an entry swapped for a symlink is removed,
/// never followed. True when it is empty.
bool emptyDirectory(DIR *top)
{
    std::vector<OpenDirectory> stack;
    bool ok = true;
    int movedUp = 0;
    quint64 nextDeepName = 0;
    do {
        // A pass reads the top again: directories moved up in the last one are there.
        movedUp = 0;
        ::rewinddir(top);
        stack.push_back({ top, {} });
        while (!stack.empty()) {
            const OpenDirectory &current = stack.back();
            errno = 0;
            const dirent *entry = ::readdir(current.dir);
            if (!entry) {
                if (errno != 0)
                    ok = false;
                if (stack.size() == 1) {
                    stack.pop_back(); // the top: kept open for the next pass
                    break;
                }
                const QByteArray name = current.name;
                ::closedir(current.dir);
                stack.pop_back();
                if (::unlinkat(stack.back().fd(), name.constData(), AT_REMOVEDIR) != 0
                    && errno != ENOENT)
                    ok = false;
                continue;
            }
            const QByteArray name(entry->d_name);
            if (name == "." || name == "..")
                continue;
            const int parentFd = current.fd();
            if (::unlinkat(parentFd, name.constData(), 0) == 0 || errno == ENOENT)
                continue;
            if (errno != EISDIR) {
                ok = false;
                continue;
            }
            if (stack.size() >= maxOpenDepth) {
                // Deeper than the descriptors kept open: take it from the top later.
                bool moved = false;
                for (int tries = 0; tries < 100 && !moved; ++tries) {
                    const QByteArray deep = ".deep-" + QByteArray::number(nextDeepName++);
                    moved = ::renameat2(parentFd, name.constData(), ::dirfd(top), deep.constData(),
                                RENAME_NOREPLACE)
                        == 0;
                    if (!moved && errno != EEXIST)
                        break;
                }
                if (moved)
                    ++movedUp;
                else
                    ok = false;
                continue;
            }
            DIR *child = openForRemoval(parentFd, name.constData());
            if (!child) {
                // Gone, or no longer a directory (swapped for a symlink): unlink it as
                // it is now.
                if (errno != ENOENT && ::unlinkat(parentFd, name.constData(), 0) != 0
                    && errno != ENOENT)
                    ok = false;
                continue;
            }
            stack.push_back({ child, name });
        }
    } while (movedUp > 0);
    ::closedir(top);
    return ok;
}

} // namespace

bool SandboxFs::removeTree(const QString &path)
{
    return removeTreeAt(AT_FDCWD, QFile::encodeName(path).constData());
}

bool SandboxFs::removeTreeAt(int parentFd, const char *name)
{
    DIR *top = openForRemoval(parentFd, name);
    if (!top) {
        // Not there, or not a directory (a symlink included): unlinked as it is.
        return errno == ENOENT || ::unlinkat(parentFd, name, 0) == 0 || errno == ENOENT;
    }
    const bool emptied = emptyDirectory(top);
    return (::unlinkat(parentFd, name, AT_REMOVEDIR) == 0 || errno == ENOENT) && emptied;
}

QString SandboxFs::hostPath(const QString &sandboxPath) const
{
    if (sandboxPath.isEmpty())
        return home();
    const QString clean = QDir::cleanPath(sandboxPath.startsWith(QLatin1Char('/'))
            ? sandboxPath
            : QStringLiteral("/home/user/") + sandboxPath);
    // cleanPath keeps a leading "/.." out of the root: "/../x" becomes "/x"... except
    // on odd input, so check the prefix anyway.
    const QString host = QDir::cleanPath(m_root + clean);
    return host.startsWith(m_root) ? host : home();
}

qint64 SandboxFs::diskUsage(const QString &root)
{
    // Through directories opened here, as removeTree() goes: one swapped for a symlink
    // while the walk runs is not followed out of the sandbox. Deeper than the
    // descriptors it keeps open, nothing is counted.
    DIR *top = directoryStream(::open(QFile::encodeName(root).constData(), directoryFlags));
    if (!top)
        return 0;
    qint64 total = 0;
    std::vector<DIR *> stack { top };
    while (!stack.empty()) {
        DIR *const current = stack.back();
        const dirent *entry = ::readdir(current);
        if (!entry) {
            ::closedir(current);
            stack.pop_back();
            continue;
        }
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        struct stat info = {};
        if (::fstatat(::dirfd(current), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISREG(info.st_mode)) {
            total += info.st_size;
        } else if (S_ISDIR(info.st_mode) && stack.size() < maxOpenDepth) {
            if (DIR *child
                = directoryStream(::openat(::dirfd(current), entry->d_name, directoryFlags)))
                stack.push_back(child);
        }
    }
    return total;
}

} // namespace sd::local
