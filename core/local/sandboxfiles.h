#pragma once

#include <QByteArray>
#include <QString>

namespace sd::local {

/// A sandbox's files as its processes see them, read and written by the backend for
/// envd's `/files`. The folder is the sandbox's, so anything in it may have been put
/// there by hostile code: every path is resolved inside it (openat2 RESOLVE_IN_ROOT),
/// so a symlink or ".." a process left leads back into the sandbox, never out to the
/// host; only regular files are read or written, never opened blocking.
class SandboxFiles
{
public:
    /// `root` is the sandbox's folder (SandboxFs::root()).
    explicit SandboxFiles(QString root);

    enum class Failure
    {
        None,
        NotFound,
        NotAFile,
        TooLarge,
        Unsupported,
        Other
    };

    struct Result
    {
        Failure failure = Failure::None;
        QString message; ///< for the caller, naming the path as the sandbox sees it
        bool ok() const { return failure == Failure::None; }
    };

    /// Files larger than this are not read whole into a reply.
    static constexpr qint64 MaxReadBytes = 256 * 1024 * 1024;

    /// The path as the sandbox's processes name it: absolute, or relative to
    /// /home/user; cleaned, so "a/../b" is "/home/user/b".
    static QString sandboxPath(const QString &path);

    /// Reads the regular file at `path` (a sandbox path) into `data`.
    Result read(const QString &path, QByteArray *data) const;
    /// Writes `data` to `path`, replacing the file, and makes its missing parent
    /// folders.
    Result write(const QString &path, const QByteArray &data) const;

private:
    QString m_root;
};

} // namespace sd::local
