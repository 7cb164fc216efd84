#include "connectionsettings.h"

namespace sd {

ConnectionSettings ConnectionSettings::forDomain(const QString &domain)
{
    ConnectionSettings settings;
    settings.domain = domain;
    settings.apiUrl = QUrl(QStringLiteral("https://api.") + domain);
    return settings;
}

ConnectionSettings ConnectionSettings::withEnvironment(
    ConnectionSettings base, const QProcessEnvironment &env)
{
    const auto value
        = [&env](const char *name) { return env.value(QLatin1String(name)).trimmed(); };
    if (const QString domain = value("E2B_DOMAIN"); !domain.isEmpty()) {
        const QUrl derived = QUrl(QStringLiteral("https://api.") + base.domain);
        const bool apiFollowsDomain = base.apiUrl.isEmpty() || base.apiUrl == derived;
        base.domain = domain;
        if (apiFollowsDomain)
            base.apiUrl = QUrl(QStringLiteral("https://api.") + domain);
    }
    if (const QString url = value("E2B_API_URL"); !url.isEmpty())
        base.apiUrl = QUrl(url);
    if (const QString url = value("E2B_SANDBOX_URL"); !url.isEmpty())
        base.sandboxUrl = QUrl(url);
    if (const QString key = value("E2B_API_KEY"); !key.isEmpty())
        base.apiKey = key;
    return base;
}

QUrl ConnectionSettings::envdUrl(const QString &sandboxId, const QString &sandboxDomain) const
{
    if (!sandboxUrl.isEmpty())
        return sandboxUrl;
    const QString host = sandboxDomain.isEmpty() ? domain : sandboxDomain;
    return QUrl(QStringLiteral("https://%1-%2.%3").arg(envdPort).arg(sandboxId, host));
}

QUrl ConnectionSettings::mcpUrl(const QString &sandboxId, const QString &sandboxDomain) const
{
    const QString host = sandboxDomain.isEmpty() ? domain : sandboxDomain;
    return QUrl(QStringLiteral("https://%1-%2.%3/mcp").arg(mcpPort).arg(sandboxId, host));
}

} // namespace sd
