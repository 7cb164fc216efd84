#pragma once

#include <QString>

namespace sd::local {

/// The directory that is one sandbox's filesystem, under the backend's state dir:
/// `home/user` (the working directory), `tmp` and `etc/mcp-gateway`, mounted at
/// `/home/user`, `/tmp` and `/etc/mcp-gateway` inside the jail.
class SandboxFs
{
public:
    SandboxFs() = default;
    explicit SandboxFs(QString root);

    /// Creates the tree (mode 0700 on the root). `profileLines` go to
    /// home/user/.profile, which a login shell reads after /etc/profile.
    bool create(const QString &profileLines, QString *error);
    /// Deletes the whole tree: moved aside now, deleted on a worker thread.
    void remove();
    /// Deletes the tree at `path` without following a symlink, even one that a process
    /// still running in it puts in place of a directory while this runs: it descends
    /// only through directories it opened itself, and unlinks whatever else it finds.
    /// False if something could not be deleted. Touches no object: any thread may call it.
    static bool removeTree(const QString &path);
    /// The same for the entry `name` of the directory open at `parentFd`.
    static bool removeTreeAt(int parentFd, const char *name);
    /// removeTree() on a worker thread, one of a pool the process waits for at exit.
    static void removeTreeLater(const QString &path);
    /// The same for a folder of many trees (every sandbox's): its entries are deleted
    /// side by side on that pool, the folder itself once they are gone.
    static void removeTreesLater(const QString &folder);

    QString root() const { return m_root; }
    QString home() const;
    QString tmp() const;
    QString gatewayDir() const;
    /// The host path for a path as a process inside the sandbox names it:
    /// absolute paths are taken from the sandbox root, relative ones from /home/user.
    QString hostPath(const QString &sandboxPath) const;
    /// Bytes used by the tree (file sizes); reads the directory, so keep it rare.
    qint64 diskUsage() const { return diskUsage(m_root); }
    /// The same for the tree at `root`; touches no object, so any thread may call it.
    static qint64 diskUsage(const QString &root);

private:
    QString m_root;
};

} // namespace sd::local
