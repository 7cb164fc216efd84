#pragma once

#include "api/connectionsettings.h"

#include <QMetaType>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <optional>

namespace sd {

/// Where the app talks to: the local backend, E2B's cloud (by domain), or a
/// self-hosted E2B (API URL and sandbox URL). A profile never holds its API key:
/// that lives in the keychain (KeyStore), or for Local in the backend's key file.
struct Profile
{
    enum class Kind
    {
        Local,
        E2B,
        Custom
    };

    static constexpr quint16 defaultLocalPort = 49900;

    QString id; ///< stable; names the profile's keychain entry
    QString name; ///< what the user sees
    Kind kind = Kind::E2B;
    QString domain = QStringLiteral("e2b.app"); ///< E2B (and Custom's sandbox hosts)
    QUrl apiUrl; ///< Custom and Local
    QUrl sandboxUrl; ///< Custom (optional) and Local

    /// The id of the always-present Local profile.
    static QString localId() { return QStringLiteral("local"); }
    /// "Local (this computer)" on http://127.0.0.1:`port`.
    static Profile local(quint16 port = defaultLocalPort);
    static Profile e2b(const QString &name, const QString &domain = QStringLiteral("e2b.app"));
    static Profile custom(const QString &name, const QUrl &apiUrl, const QUrl &sandboxUrl = {});

    bool isLocal() const { return kind == Kind::Local; }
    /// Local's port (from its API URL).
    quint16 localPort() const { return quint16(apiUrl.port(defaultLocalPort)); }

    /// Empty when the profile can be used, otherwise a sentence naming the problem.
    QString validate() const;

    /// Where this profile points, without a key and before environment overrides.
    ConnectionSettings connectionSettings() const;

    bool operator==(const Profile &other) const = default;
};

QString toString(Profile::Kind kind);
std::optional<Profile::Kind> profileKindFromString(const QString &text);

/// The settings to use for `profile` with `apiKey`, with the SDK's environment
/// variables (E2B_API_KEY, E2B_DOMAIN, E2B_API_URL, E2B_SANDBOX_URL) applied on top.
/// The Local profile ignores them: it is this computer's backend with its own key,
/// and a cloud key from the environment must not be sent to it (nor the local key
/// to wherever E2B_API_URL points).
ConnectionSettings resolveConnectionSettings(const Profile &profile, const QString &apiKey,
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

/// The E2B_* variables set in `env`, whether the profile in use takes them or not.
QStringList environmentVariablesSet(
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

/// The E2B_* variables set in `env` that resolveConnectionSettings() applies to
/// `profile` (so the UI can say what overrides the profile).
QStringList environmentOverrides(const Profile &profile,
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

} // namespace sd

Q_DECLARE_METATYPE(sd::Profile)
