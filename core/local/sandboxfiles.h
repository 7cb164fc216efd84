#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace sd::local {

/// A sandbox's files as its processes see them, read and written by the backend for
/// envd's `/files`. The folder is the sandbox's, so anything in it may have been put
/// there by hostile code: every path is resolved inside it (openat2 RESOLVE_IN_ROOT),
/// so a symlink or ".." a process left leads back into the sandbox, never out to the
/// host; only regular files are read or written, never opened blocking.
///
/// Only the folders the sandbox's processes can write are reached (ownFolders()); the
/// rest of what they see is the host's, read-only, so a file written there through
/// this class would be one no process could see.
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
        NotAFolder,
        AlreadyExists,
        PermissionDenied,
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

    /// What envd's EntryInfo says of a file, folder or symlink.
    struct Entry
    {
        enum class Type
        {
            File,
            Folder,
            Symlink,
            Other
        };
        QString name;
        QString path; ///< as the sandbox sees it
        Type type = Type::Other;
        qint64 size = 0;
        quint32 mode = 0; ///< permission bits
        QString permissions; ///< as `ls -l` shows them: "-rw-r--r--"
        QString owner;
        QString group;
        QDateTime modified;
        QString symlinkTarget; ///< for a symlink: its target, as written in the sandbox
    };

    /// Files larger than this are not read whole into a reply.
    static constexpr qint64 MaxReadBytes = 256 * 1024 * 1024;
    /// Folders below the one listed that a listing goes into, at most.
    static constexpr int MaxListDepth = 32;
    /// Entries a listing returns, at most.
    static constexpr int MaxListEntries = 100000;

    /// The folders this class reaches, as the sandbox's processes see them.
    static const QStringList &ownFolders();

    /// The path as the sandbox's processes name it: absolute, or relative to
    /// /home/user, where "~" is too; cleaned, so "a/../b" is "/home/user/b".
    static QString sandboxPath(const QString &path);

    /// Reads the regular file at `path` (a sandbox path) into `data`.
    Result read(const QString &path, QByteArray *data) const;
    /// Writes `data` to `path`, replacing the file, and makes its missing parent
    /// folders.
    Result write(const QString &path, const QByteArray &data) const;
    /// The entry at `path` itself (a symlink is not followed).
    Result stat(const QString &path, Entry *entry) const;
    /// Makes the folder `path` and its missing parents; AlreadyExists if it is there.
    Result makeDir(const QString &path, Entry *entry) const;
    /// The entries of the folder `path`, and of its folders down to `depth` levels
    /// (1: its own entries); symlinks are listed, never followed.
    Result list(const QString &path, int depth, QList<Entry> *entries) const;
    /// Deletes the file, symlink or folder (with everything in it) at `path`; nothing
    /// there is no failure. A folder is gone from its place on return and deleted on
    /// SandboxFs's removal pool.
    Result remove(const QString &path) const;
    /// Renames `from` to `to`, replacing a file there.
    Result move(const QString &from, const QString &to, Entry *entry) const;

private:
    QString m_root;
};

} // namespace sd::local
