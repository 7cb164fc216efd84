#include "sandboxfiles.h"

#include "sandboxfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStringList>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sd::local {

namespace {

/// A descriptor closed when it goes out of scope.
class Fd
{
public:
    explicit Fd(int fd = -1)
        : m_fd(fd)
    { }
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }

private:
    int m_fd;
};

/// Opens `relative` inside the folder open at `rootFd` as if that folder were "/":
/// absolute symlinks and ".." stay inside it. Retried when the kernel reports a rename
/// racing the resolution (EAGAIN).
int openInRoot(int rootFd, const QByteArray &relative, quint64 flags, quint64 mode = 0)
{
    open_how how {};
    // openat2 refuses flags that do not go with O_PATH.
    how.flags = flags | O_CLOEXEC | ((flags & O_PATH) ? 0 : O_NOCTTY);
    how.mode = mode;
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
    int fd = -1;
    for (int attempt = 0; attempt < 8; ++attempt) {
        fd = int(::syscall(SYS_openat2, rootFd, relative.constData(), &how, sizeof how));
        if (fd >= 0 || errno != EAGAIN)
            break;
    }
    return fd;
}

/// `sandboxPath` (absolute, cleaned) relative to the sandbox root, for openInRoot().
QByteArray relativeToRoot(const QString &sandboxPath)
{
    const QByteArray encoded = QFile::encodeName(sandboxPath.mid(1));
    return encoded.isEmpty() ? QByteArrayLiteral(".") : encoded;
}

QString tr(const char *text)
{
    return QCoreApplication::translate("sd::local::SandboxFiles", text);
}

SandboxFiles::Result failure(SandboxFiles::Failure kind, const QString &message)
{
    return { kind, message };
}

/// The failure of an open of `path` that set errno.
SandboxFiles::Result openFailure(const QString &path)
{
    const int error = errno;
    if (error == ENOENT)
        return failure(SandboxFiles::Failure::NotFound, tr("no file or folder at %1").arg(path));
    if (error == ENOTDIR)
        return failure(SandboxFiles::Failure::NotAFolder,
            tr("%1 is not a folder, or a folder on its path is a file").arg(path));
    if (error == ENOSYS)
        return failure(SandboxFiles::Failure::Unsupported,
            tr("files need Linux 5.6 or later on the backend's computer (openat2)"));
    if (error == EISDIR)
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is a folder").arg(path));
    if (error == EEXIST || error == ENOTEMPTY)
        return failure(SandboxFiles::Failure::AlreadyExists, tr("%1 already exists").arg(path));
    if (error == ENXIO || error == ELOOP)
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is not a regular file").arg(path));
    return failure(SandboxFiles::Failure::Other,
        tr("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error))));
}

/// Refused unless `path` (a cleaned sandbox path) is in one of the sandbox's own
/// folders, or, with `folderItself`, one of those folders itself: in the jail each is
/// mounted in its place, so it cannot be removed or moved, only emptied.
SandboxFiles::Result checkReach(const QString &path, bool folderItself)
{
    const QStringList &own = SandboxFiles::ownFolders();
    for (const QString &folder : own) {
        if (path == folder) {
            if (folderItself)
                return {};
            return failure(SandboxFiles::Failure::PermissionDenied,
                tr("%1 is one of the sandbox's own folders; it cannot be removed or moved, "
                   "only what is in it")
                    .arg(path));
        }
        if (path.startsWith(folder) && path.at(folder.size()) == QLatin1Char('/'))
            return {};
    }
    return failure(SandboxFiles::Failure::PermissionDenied,
        tr("%1 is outside the sandbox's own folders (%2): in a local sandbox the rest is the "
           "host's, read-only. Use a path in one of them")
            .arg(path, own.join(QStringLiteral(", "))));
}

/// Checks that `fd` (opened for `path`) is a regular file.
SandboxFiles::Result checkRegular(int fd, const QString &path, struct stat *st)
{
    if (::fstat(fd, st) != 0)
        return openFailure(path);
    if (S_ISDIR(st->st_mode))
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is a folder").arg(path));
    if (!S_ISREG(st->st_mode))
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is not a regular file").arg(path));
    return {};
}

int openRoot(const QString &root)
{
    return ::open(QFile::encodeName(root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/// The folder holding `sandboxPath` ("/" for "/x") and the entry's name in it.
QString parentOf(const QString &sandboxPath)
{
    const QString parent = sandboxPath.section(QLatin1Char('/'), 0, -2);
    return parent.isEmpty() ? QStringLiteral("/") : parent;
}

/// The folder holding `sandboxPath`, opened (O_PATH) inside the sandbox.
int openParent(int rootFd, const QString &sandboxPath)
{
    return openInRoot(rootFd, relativeToRoot(parentOf(sandboxPath)), O_PATH | O_DIRECTORY);
}

QByteArray nameOf(const QString &sandboxPath)
{
    return QFile::encodeName(sandboxPath.section(QLatin1Char('/'), -1));
}

/// Makes each missing folder of `folder` (a sandbox path), one at a time, in the folder
/// its parent resolves to (mkdirat never follows the name it makes). With
/// `refuseExisting`, `folder` itself must not be there yet.
SandboxFiles::Result makeFolders(int rootFd, const QString &folder, bool refuseExisting)
{
    const QStringList names = folder.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString made;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString at = made.isEmpty() ? QStringLiteral("/") : made;
        const Fd parent(openInRoot(rootFd, relativeToRoot(at), O_PATH | O_DIRECTORY));
        if (!parent.valid())
            return openFailure(at);
        made += QLatin1Char('/') + names.at(i);
        if (::mkdirat(parent.get(), QFile::encodeName(names.at(i)).constData(), 0755) == 0)
            continue;
        if (errno != EEXIST)
            return openFailure(made);
        if (refuseExisting && i == names.size() - 1) {
            struct stat st;
            const bool folder
                = ::fstatat(parent.get(), QFile::encodeName(names.at(i)).constData(), &st, 0) == 0
                && S_ISDIR(st.st_mode);
            if (!folder)
                return failure(SandboxFiles::Failure::NotAFolder,
                    tr("%1 exists and is not a folder").arg(made));
            return failure(SandboxFiles::Failure::AlreadyExists, tr("%1 already exists").arg(made));
        }
    }
    return {};
}

QString permissionsText(mode_t mode)
{
    QString text(10, QLatin1Char('-'));
    text[0] = S_ISDIR(mode) ? QLatin1Char('d')
        : S_ISLNK(mode)     ? QLatin1Char('L')
                            : QLatin1Char('-');
    static const char letters[] = "rwxrwxrwx";
    for (int bit = 0; bit < 9; ++bit) {
        if (mode & (0400 >> bit))
            text[bit + 1] = QLatin1Char(letters[bit]);
    }
    return text;
}

/// The entry `name` of the folder open at `dirFd`, itself (not what a symlink names).
SandboxFiles::Result entryAt(
    int dirFd, const char *name, const QString &path, SandboxFiles::Entry *entry)
{
    struct stat st;
    if (::fstatat(dirFd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return openFailure(path);
    using Type = SandboxFiles::Entry::Type;
    entry->name = path.section(QLatin1Char('/'), -1);
    entry->path = path;
    entry->type = S_ISREG(st.st_mode) ? Type::File
        : S_ISDIR(st.st_mode)         ? Type::Folder
        : S_ISLNK(st.st_mode)         ? Type::Symlink
                                      : Type::Other;
    entry->size = st.st_size;
    entry->mode = st.st_mode & 07777;
    entry->permissions = permissionsText(st.st_mode);
    // The backend's own user is the sandbox's user inside the jail.
    entry->owner = st.st_uid == ::geteuid() ? QStringLiteral("user") : QString::number(st.st_uid);
    entry->group = st.st_gid == ::getegid() ? QStringLiteral("user") : QString::number(st.st_gid);
    entry->modified = QDateTime::fromMSecsSinceEpoch(
        qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000, Qt::UTC);
    entry->symlinkTarget.clear();
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        const ssize_t n = ::readlinkat(dirFd, name, target, sizeof target);
        if (n > 0)
            entry->symlinkTarget = QFile::decodeName(QByteArray(target, int(n)));
    }
    return {};
}

} // namespace

SandboxFiles::SandboxFiles(QString root)
    : m_root(std::move(root))
{ }

const QStringList &SandboxFiles::ownFolders()
{
    static const QStringList folders { QStringLiteral("/home/user"), QStringLiteral("/tmp"),
        QStringLiteral("/etc/mcp-gateway") };
    return folders;
}

QString SandboxFiles::sandboxPath(const QString &path)
{
    // "~" is the user's home, as envd expands it; root's is the same here (it runs as
    // the sandbox's user).
    const bool home = path == QLatin1String("~") || path.startsWith(QLatin1String("~/"));
    const QString absolute = home           ? QStringLiteral("/home/user") + path.mid(1)
        : path.startsWith(QLatin1Char('/')) ? path
                                            : QStringLiteral("/home/user/") + path;
    QString clean = QDir::cleanPath(absolute);
    // Above the root is the root, as in any path lookup.
    while (clean.startsWith(QLatin1String("/..")))
        clean = QDir::cleanPath(QLatin1Char('/') + clean.mid(3));
    return clean;
}

SandboxFiles::Result SandboxFiles::read(const QString &path, QByteArray *data) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, true); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);
    // Non-blocking: a FIFO a process left in place of the file must not hold the backend.
    const Fd file(openInRoot(root.get(), relativeToRoot(target), O_RDONLY | O_NONBLOCK));
    if (!file.valid())
        return openFailure(target);
    struct stat st;
    if (Result regular = checkRegular(file.get(), target, &st); !regular.ok())
        return regular;
    if (st.st_size > MaxReadBytes)
        return failure(Failure::TooLarge,
            tr("%1 is larger than %2 MiB, more than a reply holds; read it in pieces with a "
               "command")
                .arg(target)
                .arg(MaxReadBytes / (1024 * 1024)));
    data->clear();
    data->reserve(qsizetype(st.st_size));
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return openFailure(target);
        if (n == 0)
            break;
        if (data->size() + n > MaxReadBytes) // grew while read
            return failure(Failure::TooLarge,
                tr("%1 grew past %2 MiB while it was read")
                    .arg(target)
                    .arg(MaxReadBytes / (1024 * 1024)));
        data->append(buffer, n);
    }
    return {};
}

SandboxFiles::Result SandboxFiles::write(const QString &path, const QByteArray &data) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, true); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);

    if (Result made = makeFolders(root.get(), parentOf(target), false); !made.ok())
        return made;

    // Not truncated before it is known to be a regular file; non-blocking, for a FIFO.
    const Fd file(
        openInRoot(root.get(), relativeToRoot(target), O_WRONLY | O_CREAT | O_NONBLOCK, 0644));
    if (!file.valid() && errno == ENOTDIR) // its folders are there: one is a file
        return failure(Failure::NotAFolder, tr("%1 is not a folder").arg(parentOf(target)));
    if (!file.valid())
        return openFailure(target);
    struct stat st;
    if (Result regular = checkRegular(file.get(), target, &st); !regular.ok())
        return regular;
    if (::ftruncate(file.get(), 0) != 0)
        return openFailure(target);
    for (qsizetype done = 0; done < data.size();) {
        const ssize_t n = ::write(file.get(), data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return openFailure(target);
        done += n;
    }
    return {};
}

SandboxFiles::Result SandboxFiles::stat(const QString &path, Entry *entry) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, true); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);
    const Fd parent(openParent(root.get(), target));
    if (!parent.valid())
        return openFailure(target);
    return entryAt(parent.get(), nameOf(target).constData(), target, entry);
}

SandboxFiles::Result SandboxFiles::makeDir(const QString &path, Entry *entry) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, true); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);
    if (Result made = makeFolders(root.get(), target, true); !made.ok())
        return made;
    return stat(target, entry);
}

SandboxFiles::Result SandboxFiles::list(const QString &path, int depth, QList<Entry> *entries) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, true); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);
    // The folder itself may be reached through a symlink (inside the sandbox); below
    // it, nothing is followed.
    const int top = openInRoot(root.get(), relativeToRoot(target), O_RDONLY | O_DIRECTORY);
    if (top < 0 && errno == ENOTDIR)
        return failure(Failure::NotAFolder, tr("%1 is not a folder").arg(target));
    if (top < 0)
        return openFailure(target);
    struct Level
    {
        DIR *dir;
        QString path;
        int depth;
    };
    std::vector<Level> stack;
    DIR *topDir = ::fdopendir(top);
    if (!topDir) {
        ::close(top);
        return openFailure(target);
    }
    stack.push_back({ topDir, target, 1 });
    entries->clear();
    Result result;
    while (!stack.empty() && result.ok()) {
        Level &level = stack.back();
        const dirent *found = ::readdir(level.dir);
        if (!found) {
            ::closedir(level.dir);
            stack.pop_back();
            continue;
        }
        const QByteArray name(found->d_name);
        if (name == "." || name == "..")
            continue;
        if (entries->size() >= MaxListEntries) {
            result = failure(Failure::TooLarge,
                tr("%1 holds more than %2 entries; list a folder further down, or with a "
                   "smaller depth")
                    .arg(target)
                    .arg(MaxListEntries));
            break;
        }
        Entry entry;
        const QString entryPath = level.path + QLatin1Char('/') + QFile::decodeName(name);
        if (!entryAt(::dirfd(level.dir), name.constData(), entryPath, &entry).ok())
            continue; // gone since it was listed
        entries->append(entry);
        if (entry.type != Entry::Type::Folder || level.depth >= std::min(depth, MaxListDepth))
            continue;
        const int child = ::openat(
            ::dirfd(level.dir), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *childDir = child >= 0 ? ::fdopendir(child) : nullptr;
        if (!childDir) {
            if (child >= 0)
                ::close(child);
            continue; // unreadable, or replaced by a symlink since: not gone into
        }
        const int childDepth = level.depth + 1;
        stack.push_back({ childDir, entryPath, childDepth });
    }
    for (const Level &level : stack)
        ::closedir(level.dir);
    return result;
}

SandboxFiles::Result SandboxFiles::remove(const QString &path) const
{
    const QString target = sandboxPath(path);
    if (Result reach = checkReach(target, false); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(target);
    // Nothing there is what was asked for, as envd's RemoveAll has it.
    const Fd parent(openParent(root.get(), target));
    if (!parent.valid())
        return errno == ENOENT ? Result() : openFailure(target);
    const QByteArray name = nameOf(target);
    struct stat st;
    if (::fstatat(parent.get(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? Result() : openFailure(target);
    if (S_ISDIR(st.st_mode)) {
        // A folder of any size: gone from its place at once (moved to the sandbox's
        // root, which its processes do not see), deleted on the removal pool.
        const QString aside
            = QStringLiteral(".removed-files-") + QUuid::createUuid().toString(QUuid::Id128);
        if (::renameat(
                parent.get(), name.constData(), root.get(), QFile::encodeName(aside).constData())
            == 0) {
            SandboxFs::removeTreeLater(m_root + QLatin1Char('/') + aside);
            return {};
        }
    }
    if (!SandboxFs::removeTreeAt(parent.get(), name.constData()))
        return failure(Failure::Other, tr("%1 could not be removed completely").arg(target));
    return {};
}

SandboxFiles::Result SandboxFiles::move(const QString &from, const QString &to, Entry *entry) const
{
    const QString source = sandboxPath(from);
    const QString destination = sandboxPath(to);
    if (Result reach = checkReach(source, false); !reach.ok())
        return reach;
    if (Result reach = checkReach(destination, false); !reach.ok())
        return reach;
    const Fd root(openRoot(m_root));
    if (!root.valid())
        return openFailure(source);
    const Fd sourceParent(openParent(root.get(), source));
    if (!sourceParent.valid())
        return openFailure(source);
    if (Result made = makeFolders(root.get(), parentOf(destination), false); !made.ok())
        return made;
    const Fd destinationParent(openParent(root.get(), destination));
    if (!destinationParent.valid())
        return openFailure(destination);
    if (::renameat(sourceParent.get(), nameOf(source).constData(), destinationParent.get(),
            nameOf(destination).constData())
        != 0)
        return openFailure(errno == ENOENT ? source : destination);
    return entryAt(destinationParent.get(), nameOf(destination).constData(), destination, entry);
}

} // namespace sd::local
