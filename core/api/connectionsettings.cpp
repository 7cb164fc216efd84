#include "connectionsettings.h"

#include <QCoreApplication>
#include <QHostAddress>

namespace sd {

namespace {
bool sentInClear(const QUrl &url)
{
    if (url.scheme() != QLatin1String("http") || url.host().isEmpty())
        return false;
    // A name is only known to stay here when it is "localhost": others resolve anywhere.
    if (url.host().compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return false;
    const QHostAddress address(url.host());
    return address.isNull() || !address.isLoopback();
}
} // namespace

bool ConnectionSettings::isServerUrl(const QUrl &url)
{
    return url.isValid() && !url.host().isEmpty()
        && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"));
}

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

QString ConnectionSettings::cleartextHost() const
{
    for (const QUrl &url : { apiUrl, sandboxUrl }) {
        if (sentInClear(url))
            return url.host();
    }
    return {};
}

QString ConnectionSettings::cleartextWarning() const
{
    const QString host = cleartextHost();
    if (host.isEmpty())
        return {};
    return QCoreApplication::translate("sd::ConnectionSettings",
        "The API key and the sandboxes' access tokens go to %1 unencrypted (http://): anyone "
        "on the network in between can read and use them. Use an https:// URL unless that "
        "network is yours alone.")
        .arg(host);
}

} // namespace sd
