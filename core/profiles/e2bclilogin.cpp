#include "e2bclilogin.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace sd {

namespace {
// The CLI writes a few hundred bytes; anything far larger is not its file.
constexpr qint64 maxFileBytes = 1024 * 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("sd::E2bCliLogin", text);
}

struct Shape
{
    E2bCliLogin::Owner owner;
    const char *key;
    const char *name;
    const char *id;
};
} // namespace

QString E2bCliLogin::defaultPath()
{
    return QDir::home().filePath(QStringLiteral(".e2b/config.json"));
}

E2bCliLogin E2bCliLogin::read(const QString &path)
{
    E2bCliLogin login;
    login.m_path = path;
    QFile file(path);
    if (!file.exists())
        return login;
    login.m_exists = true;
    if (!file.open(QIODevice::ReadOnly)) {
        login.m_problem = tr("%1 cannot be read: %2").arg(path, file.errorString());
        return login;
    }
    if (file.size() > maxFileBytes) {
        login.m_problem = tr("%1 is too large to be the E2B CLI's login.").arg(path);
        return login;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    // The parser's message may quote the file; it is not repeated.
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        login.m_problem = tr("%1 is not a JSON object.").arg(path);
        return login;
    }
    const QJsonObject config = document.object();
    const int version = config.value(QLatin1String("version")).toInt(0);
    static const Shape v2 { Owner::Project, "projectApiKey", "projectName", "projectId" };
    static const Shape v1 { Owner::Team, "teamApiKey", "teamName", "teamId" };
    const Shape *shape = version == 2 ? &v2 : version == 1 ? &v1 : nullptr;
    if (!shape) {
        login.m_problem = tr("%1 has a version this app does not know; run `e2b auth login` again.").arg(path);
        return login;
    }
    // Only these three fields are read: never the tokens or the email.
    const QJsonValue key = config.value(QLatin1String(shape->key));
    const QJsonValue name = config.value(QLatin1String(shape->name));
    const QJsonValue id = config.value(QLatin1String(shape->id));
    if (!key.isString() || key.toString().trimmed().isEmpty() || !name.isString() || !id.isString()) {
        login.m_problem = tr("%1 holds no API key with its %2; run `e2b auth login` again.")
                              .arg(path, shape->owner == Owner::Project ? tr("project") : tr("team"));
        return login;
    }
    login.m_owner = shape->owner;
    login.m_ownerName = name.toString();
    login.m_ownerId = id.toString();
    login.m_apiKey = key.toString().trimmed();
    return login;
}

QString E2bCliLogin::ownerDescription() const
{
    const QString name = m_ownerName.isEmpty() ? m_ownerId : m_ownerName;
    const QString named = m_ownerId.isEmpty() || m_ownerId == name
        ? QStringLiteral("“%1”").arg(name)
        : QStringLiteral("“%1” (%2)").arg(name, m_ownerId);
    return m_owner == Owner::Project ? tr("the project %1").arg(named) : tr("the team %1").arg(named);
}

} // namespace sd
