#include "profilestore.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace sd {

namespace {
const QString groupName = QStringLiteral("Profiles");
const QString lastUsedKey = QStringLiteral("LastUsedProfile");
const QString localPortKey = QStringLiteral("LocalPort");

std::optional<Profile> readProfile(QSettings &settings, const QString &id)
{
    settings.beginGroup(groupName + QLatin1Char('/') + id);
    Profile p;
    p.id = id;
    p.name = settings.value(QStringLiteral("name")).toString();
    const auto kind = profileKindFromString(settings.value(QStringLiteral("kind")).toString());
    p.domain = settings.value(QStringLiteral("domain")).toString();
    p.apiUrl = settings.value(QStringLiteral("apiUrl")).toUrl();
    p.sandboxUrl = settings.value(QStringLiteral("sandboxUrl")).toUrl();
    settings.endGroup();
    if (!kind || *kind == Profile::Kind::Local)
        return std::nullopt;
    p.kind = *kind;
    if (!p.validate().isEmpty())
        return std::nullopt;
    return p;
}
} // namespace

ProfileStore::ProfileStore(QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
{ }

QString ProfileStore::localKeyFilePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/sandbox-desk/local-api-key");
}

Profile ProfileStore::localProfile() const
{
    bool ok = false;
    const int port = m_settings->value(localPortKey).toInt(&ok);
    return Profile::local(
        ok && port > 0 && port < 65536 ? quint16(port) : Profile::defaultLocalPort);
}

QList<Profile> ProfileStore::profiles() const
{
    QList<Profile> others;
    m_settings->beginGroup(groupName);
    const QStringList ids = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &id : ids) {
        if (const auto p = readProfile(*m_settings, id))
            others.append(*p);
        else
            qCWarning(lcProfiles) << "ignoring unreadable profile" << id;
    }
    std::sort(others.begin(), others.end(), [](const Profile &a, const Profile &b) {
        return QString::localeAwareCompare(a.name, b.name) < 0;
    });
    return QList<Profile> { localProfile() } + others;
}

std::optional<Profile> ProfileStore::profile(const QString &id) const
{
    if (id == Profile::localId())
        return localProfile();
    if (id.isEmpty() || id.contains(QLatin1Char('/')))
        return std::nullopt;
    m_settings->beginGroup(groupName);
    const bool known = m_settings->childGroups().contains(id);
    m_settings->endGroup();
    if (!known)
        return std::nullopt;
    return readProfile(*m_settings, id);
}

std::optional<Profile> ProfileStore::find(const QString &nameOrId) const
{
    const QString wanted = nameOrId.trimmed();
    if (wanted.compare(Profile::localId(), Qt::CaseInsensitive) == 0)
        return localProfile();
    if (const auto byId = profile(wanted))
        return byId;
    for (const Profile &p : profiles()) {
        if (p.name.compare(wanted, Qt::CaseInsensitive) == 0
            || p.id.compare(wanted, Qt::CaseInsensitive) == 0)
            return p;
    }
    return std::nullopt;
}

QString ProfileStore::save(const Profile &profile, QString *problem)
{
    if (const QString invalid = profile.validate(); !invalid.isEmpty()) {
        if (problem)
            *problem = invalid;
        return {};
    }
    if (profile.isLocal() || profile.id == Profile::localId()) {
        if (!profile.isLocal() || (!profile.id.isEmpty() && profile.id != Profile::localId())) {
            if (problem)
                *problem = QCoreApplication::translate(
                    "sd::ProfileStore", "The local profile cannot be replaced.");
            return {};
        }
        m_settings->setValue(localPortKey, profile.localPort());
        Q_EMIT profilesChanged();
        return Profile::localId();
    }
    QString id = profile.id;
    if (id.isEmpty())
        id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (id.contains(QLatin1Char('/'))) {
        if (problem)
            *problem
                = QCoreApplication::translate("sd::ProfileStore", "The profile id is not valid.");
        return {};
    }
    m_settings->beginGroup(groupName + QLatin1Char('/') + id);
    m_settings->setValue(QStringLiteral("name"), profile.name.trimmed());
    m_settings->setValue(QStringLiteral("kind"), toString(profile.kind));
    m_settings->setValue(QStringLiteral("domain"), profile.domain.trimmed());
    m_settings->setValue(QStringLiteral("apiUrl"), profile.apiUrl);
    m_settings->setValue(QStringLiteral("sandboxUrl"), profile.sandboxUrl);
    m_settings->endGroup();
    Q_EMIT profilesChanged();
    return id;
}

bool ProfileStore::remove(const QString &id)
{
    if (id == Profile::localId() || !profile(id))
        return false;
    m_settings->remove(groupName + QLatin1Char('/') + id);
    if (m_settings->value(lastUsedKey).toString() == id)
        m_settings->remove(lastUsedKey);
    Q_EMIT profilesChanged();
    return true;
}

Profile ProfileStore::lastUsed() const
{
    const auto p = profile(m_settings->value(lastUsedKey).toString());
    return p ? *p : localProfile();
}

void ProfileStore::setLastUsed(const QString &id) { m_settings->setValue(lastUsedKey, id); }

} // namespace sd
