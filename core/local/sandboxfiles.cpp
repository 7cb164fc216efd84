#include "sandboxfiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStringList>

#include <cerrno>
#include <cstring>

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
    if (error == ENOENT || error == ENOTDIR)
        return failure(SandboxFiles::Failure::NotFound, tr("no file or folder at %1").arg(path));
    if (error == ENOSYS)
        return failure(SandboxFiles::Failure::Unsupported,
            tr("files need Linux 5.6 or later on the backend's computer (openat2)"));
    if (error == EISDIR)
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is a folder").arg(path));
    if (error == ENXIO || error == ELOOP)
        return failure(SandboxFiles::Failure::NotAFile, tr("%1 is not a regular file").arg(path));
    return failure(SandboxFiles::Failure::Other,
        tr("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error))));
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

} // namespace

SandboxFiles::SandboxFiles(QString root)
    : m_root(std::move(root))
{ }

QString SandboxFiles::sandboxPath(const QString &path)
{
    const QString absolute
        = path.startsWith(QLatin1Char('/')) ? path : QStringLiteral("/home/user/") + path;
    QString clean = QDir::cleanPath(absolute);
    // Above the root is the root, as in any path lookup.
    while (clean.startsWith(QLatin1String("/..")))
        clean = QDir::cleanPath(QLatin1Char('/') + clean.mid(3));
    return clean;
}

SandboxFiles::Result SandboxFiles::read(const QString &path, QByteArray *data) const
{
    const QString target = sandboxPath(path);
    const Fd root(::open(QFile::encodeName(m_root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
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
    if (target == QLatin1String("/"))
        return failure(Failure::NotAFile, tr("/ is a folder"));
    const Fd root(::open(QFile::encodeName(m_root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root.valid())
        return openFailure(target);

    // The missing parents, one at a time: each made in the folder its path resolves to
    // inside the sandbox (mkdirat never follows the name it makes).
    const QStringList parents
        = target.section(QLatin1Char('/'), 1, -2).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString made;
    for (const QString &name : parents) {
        const Fd parent(openInRoot(root.get(),
            relativeToRoot(made.isEmpty() ? QStringLiteral("/") : made), O_PATH | O_DIRECTORY));
        if (!parent.valid())
            return openFailure(made.isEmpty() ? QStringLiteral("/") : made);
        if (::mkdirat(parent.get(), QFile::encodeName(name).constData(), 0755) != 0
            && errno != EEXIST)
            return openFailure(made + QLatin1Char('/') + name);
        made += QLatin1Char('/') + name;
    }

    // Not truncated before it is known to be a regular file; non-blocking, for a FIFO.
    const Fd file(
        openInRoot(root.get(), relativeToRoot(target), O_WRONLY | O_CREAT | O_NONBLOCK, 0644));
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

} // namespace sd::local
