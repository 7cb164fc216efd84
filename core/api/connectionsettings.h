#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

namespace sd {

/// Where the control plane and the sandboxes' envd are, and the key to use.
/// Resolved like the official SDK: E2B_API_KEY, E2B_DOMAIN (default e2b.app, API at
/// https://api.<domain>), E2B_API_URL, E2B_SANDBOX_URL override what a profile says.
struct ConnectionSettings
{
    QUrl apiUrl;
    /// One URL serving every sandbox's envd (routed by the E2b-Sandbox-Id header).
    /// Empty: each sandbox is reached at https://49983-<id>.<domain>.
    QUrl sandboxUrl;
    QString domain = QStringLiteral("e2b.app");
    QString apiKey; ///< secret: never log it

    static constexpr int envdPort = 49983;
    static constexpr int mcpPort = 50005;

    /// Whether `url` can name an API or sandbox server: http or https, with a host.
    static bool isServerUrl(const QUrl &url);

    /// Settings for E2B's cloud at `domain`.
    static ConnectionSettings forDomain(const QString &domain);
    /// `base` with every E2B_* variable set in `env` applied on top.
    static ConnectionSettings withEnvironment(ConnectionSettings base,
        const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

    /// The envd URL of a sandbox; `sandboxDomain` is the domain the server gave it.
    QUrl envdUrl(const QString &sandboxId, const QString &sandboxDomain = {}) const;
    /// True when envd is reached through the shared sandbox URL (needs routing headers).
    bool routesEnvdByHeader() const { return !sandboxUrl.isEmpty(); }
    /// The public URL of a sandbox's MCP gateway: https://50005-<id>.<domain>/mcp.
    QUrl mcpUrl(const QString &sandboxId, const QString &sandboxDomain = {}) const;

    /// The host that gets the key and the sandboxes' tokens over plain http:// (the API
    /// URL or the shared sandbox URL naming another computer); empty when every URL is
    /// https:// or stays on this computer.
    QString cleartextHost() const;
    /// Says that whoever is on the network can read the key on its way to
    /// cleartextHost(), and how to avoid it; empty when cleartextHost() is.
    QString cleartextWarning() const;
};

} // namespace sd
