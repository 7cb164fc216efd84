#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"
#include "profiles/keystore.h"
#include "profiles/profile.h"

#include <QPointer>
#include <QProcessEnvironment>

namespace sd {

/// Turns an E2B or Custom profile into the ConnectionSettings every API job takes,
/// key included: E2B_API_KEY if set, else the session key, else the keychain; then
/// E2B_DOMAIN / E2B_API_URL / E2B_SANDBOX_URL on top.
///
/// Fails (Rejected, with a sentence saying what to do) when no key is found. The Local
/// profile is not resolved here: LocalBackendStarter reads its key, and only after it
/// has checked that this user's backend holds the port.
class ResolveProfileJob : public Job
{
    Q_OBJECT

public:
    /// `keys` is not owned and must outlive the job.
    ResolveProfileJob(KeyStore *keys, Profile profile, QObject *parent = nullptr);

    void setEnvironment(const QProcessEnvironment &env) { m_env = env; }

    const Profile &profile() const { return m_profile; }
    /// Valid after a successful finish; apiKey is a secret: never log it.
    const ConnectionSettings &settings() const { return m_settings; }
    KeySource keySource() const { return m_source; }
    /// The E2B_* variables that override the profile.
    QStringList environmentOverrides() const { return sd::environmentOverrides(m_profile, m_env); }
    /// A sentence worth showing even on success (e.g. no keychain); often empty.
    QString notice() const { return m_notice; }

protected:
    void doStart() override;
    void doCancel() override;

private:
    void finishWith(const QString &key, KeySource source);

    QPointer<KeyStore> m_keys;
    Profile m_profile;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    ConnectionSettings m_settings;
    KeySource m_source = KeySource::None;
    QString m_notice;
    QPointer<ReadKeyJob> m_read;
};

} // namespace sd
