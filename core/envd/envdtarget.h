#pragma once

#include <QNetworkRequest>
#include <QString>
#include <QUrl>

namespace sd {

/// Where and as whom envd calls go.
///
/// Two shapes, as with E2B: one shared URL for every sandbox (the sandbox is named
/// by the `E2b-Sandbox-Id` / `E2b-Sandbox-Port: 49983` headers, what the SDK does
/// when E2B_SANDBOX_URL is set), or a per-sandbox host `https://49983-<id>.<domain>`.
struct EnvdTarget
{
    QUrl url;
    QString sandboxId;
    QString accessToken; ///< the sandbox's envdAccessToken; never logged
    QString user = QStringLiteral("root");

    /// The per-sandbox host URL E2B uses: `https://49983-<id>.<domain>`.
    static EnvdTarget forSandboxHost(const QString &domain, const QString &sandboxId,
                                     const QString &accessToken, bool https = true);
    /// One URL for every sandbox (routing by headers).
    static EnvdTarget forSharedUrl(const QUrl &url, const QString &sandboxId,
                                   const QString &accessToken);

    /// True when the host already names the sandbox (`49983-<id>.`).
    bool isPerSandboxHost() const;
    /// The endpoint of one RPC method, e.g. `process.Process/Start`.
    QUrl methodUrl(const QString &method) const;
    /// Sets the routing and auth headers (and User-Agent) on a request.
    void applyHeaders(QNetworkRequest *request) const;
};

inline constexpr int EnvdPort = 49983;

} // namespace sd
