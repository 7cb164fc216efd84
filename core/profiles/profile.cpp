#include "profile.h"

#include <QCoreApplication>

namespace sd {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("sd::Profile", text); }

const char *const environmentVariables[]
    = { "E2B_API_KEY", "E2B_DOMAIN", "E2B_API_URL", "E2B_SANDBOX_URL" };
} // namespace

Profile Profile::local(quint16 port)
{
    Profile p;
    p.id = localId();
    p.name = tr("Local (this computer)");
    p.kind = Kind::Local;
    p.domain.clear();
    p.apiUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    p.sandboxUrl = p.apiUrl;
    return p;
}

Profile Profile::e2b(const QString &name, const QString &domain)
{
    Profile p;
    p.name = name;
    p.kind = Kind::E2B;
    p.domain = domain;
    return p;
}

Profile Profile::custom(const QString &name, const QUrl &apiUrl, const QUrl &sandboxUrl)
{
    Profile p;
    p.name = name;
    p.kind = Kind::Custom;
    p.domain.clear();
    p.apiUrl = apiUrl;
    p.sandboxUrl = sandboxUrl;
    return p;
}

QString Profile::validate() const
{
    if (name.trimmed().isEmpty())
        return tr("The profile needs a name.");
    switch (kind) {
    case Kind::Local:
        if (!ConnectionSettings::isServerUrl(apiUrl) || apiUrl.port() <= 0
            || (apiUrl.host() != QLatin1String("127.0.0.1")
                && apiUrl.host() != QLatin1String("localhost")))
            return tr("The local backend is on this computer: its API URL is "
                      "http://127.0.0.1:PORT with a port between 1 and 65535.");
        return {};
    case Kind::E2B:
        if (domain.trimmed().isEmpty() || domain.contains(QLatin1Char('/'))
            || domain.contains(QLatin1Char(':')) || domain.contains(QLatin1Char(' ')))
            return tr("The domain \"%1\" is not a host name such as e2b.app.").arg(domain);
        return {};
    case Kind::Custom:
        if (!ConnectionSettings::isServerUrl(apiUrl))
            return tr("The API URL \"%1\" is not an http or https address.")
                .arg(apiUrl.toDisplayString());
        if (!sandboxUrl.isEmpty() && !ConnectionSettings::isServerUrl(sandboxUrl))
            return tr("The sandbox URL \"%1\" is not an http or https address.")
                .arg(sandboxUrl.toDisplayString());
        if (sandboxUrl.isEmpty() && domain.trimmed().isEmpty())
            return tr("A self-hosted profile needs a sandbox URL or a domain for the sandboxes.");
        return {};
    }
    return {};
}

ConnectionSettings Profile::connectionSettings() const
{
    ConnectionSettings settings;
    switch (kind) {
    case Kind::E2B:
        settings = ConnectionSettings::forDomain(domain);
        break;
    case Kind::Local:
    case Kind::Custom:
        settings.apiUrl = apiUrl;
        settings.sandboxUrl = sandboxUrl;
        settings.domain = domain;
        break;
    }
    return settings;
}

QString toString(Profile::Kind kind)
{
    switch (kind) {
    case Profile::Kind::Local:
        return QStringLiteral("local");
    case Profile::Kind::E2B:
        return QStringLiteral("e2b");
    case Profile::Kind::Custom:
        return QStringLiteral("custom");
    }
    return {};
}

std::optional<Profile::Kind> profileKindFromString(const QString &text)
{
    if (text == QLatin1String("local"))
        return Profile::Kind::Local;
    if (text == QLatin1String("e2b"))
        return Profile::Kind::E2B;
    if (text == QLatin1String("custom"))
        return Profile::Kind::Custom;
    return std::nullopt;
}

ConnectionSettings resolveConnectionSettings(
    const Profile &profile, const QString &apiKey, const QProcessEnvironment &env)
{
    ConnectionSettings settings = profile.connectionSettings();
    settings.apiKey = apiKey;
    if (profile.isLocal())
        return settings;
    return ConnectionSettings::withEnvironment(settings, env);
}

QStringList environmentVariablesSet(const QProcessEnvironment &env)
{
    QStringList names;
    for (const char *name : environmentVariables) {
        if (!env.value(QLatin1String(name)).trimmed().isEmpty())
            names << QLatin1String(name);
    }
    return names;
}

QStringList environmentOverrides(const Profile &profile, const QProcessEnvironment &env)
{
    return profile.isLocal() ? QStringList() : environmentVariablesSet(env);
}

} // namespace sd
