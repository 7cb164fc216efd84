#include "local/apikeyfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>

namespace sd::local {

namespace {

constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

} // namespace

QString ApiKeyFile::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/sandbox-desk/local-api-key");
}

QString ApiKeyFile::generateKey()
{
    QByteArray bytes(20, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
    return QStringLiteral("e2b_") + QString::fromLatin1(bytes.toHex());
}

QString ApiKeyFile::loadOrCreate(const QString &path, QString *error)
{
    QFile file(path);
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read the API key file %1: %2").arg(path, file.errorString());
            return {};
        }
        const QString key = QString::fromUtf8(file.readAll()).trimmed();
        file.close();
        if (key.isEmpty()) {
            *error = QStringLiteral("the API key file %1 is empty; delete it to get a new key").arg(path);
            return {};
        }
        if ((file.permissions() & ~(kOwnerOnly | QFileDevice::ReadUser | QFileDevice::WriteUser)) != 0)
            file.setPermissions(kOwnerOnly);
        return key;
    }

    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create the folder %1").arg(dir);
        return {};
    }
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    // Created with 0600 from the start, so the key is never readable by others.
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, kOwnerOnly)) {
        *error = QStringLiteral("cannot create the API key file %1: %2").arg(path, file.errorString());
        return {};
    }
    const QString key = generateKey();
    if (file.write(key.toUtf8() + '\n') < 0 || !file.flush()) {
        *error = QStringLiteral("cannot write the API key file %1: %2").arg(path, file.errorString());
        file.remove();
        return {};
    }
    return key;
}

} // namespace sd::local
