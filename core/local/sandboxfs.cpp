#include "sandboxfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace sd::local {

SandboxFs::SandboxFs(QString root)
    : m_root(std::move(root))
{
}

QString SandboxFs::home() const
{
    return m_root + QStringLiteral("/home/user");
}

QString SandboxFs::tmp() const
{
    return m_root + QStringLiteral("/tmp");
}

QString SandboxFs::gatewayDir() const
{
    return m_root + QStringLiteral("/etc/mcp-gateway");
}

bool SandboxFs::create(const QString &profileLines, QString *error)
{
    QDir dir;
    for (const QString &path : {home(), tmp(), gatewayDir()}) {
        if (!dir.mkpath(path)) {
            *error = QCoreApplication::translate("sd::local::SandboxFs",
                                                 "could not create the sandbox directory %1")
                         .arg(path);
            return false;
        }
    }
    QFile::setPermissions(m_root, QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                      | QFileDevice::ExeOwner);
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
    if (!m_root.isEmpty())
        QDir(m_root).removeRecursively();
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

qint64 SandboxFs::diskUsage() const
{
    qint64 total = 0;
    QDirIterator it(m_root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

} // namespace sd::local
