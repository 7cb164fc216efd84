#include "sandboxfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QThreadPool>

#include <cstdio>

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
    QDir dir;
    for (const QString &path : { home(), tmp(), gatewayDir() }) {
        if (!dir.mkpath(path)) {
            *error = QCoreApplication::translate(
                "sd::local::SandboxFs", "could not create the sandbox directory %1")
                         .arg(path);
            return false;
        }
    }
    QFile::setPermissions(
        m_root, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    // /tmp is world-writable, as on any Linux.
    QFile::setPermissions(tmp(), QFileDevice::Permissions(0x7777));
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
    removalPool().start([path = moved ? removed : m_root] { QDir(path).removeRecursively(); });
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
    qint64 total = 0;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
        QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

} // namespace sd::local
