#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"
#include "profiles/keystore.h"
#include "profiles/profile.h"

#include <QPointer>
#include <QProcessEnvironment>

namespace sd {

/// Turns the profile the user chose into the ConnectionSettings every API job
/// takes, key included:
///
///   Local    key from the local backend's key file; environment ignored
///   E2B,     E2B_API_KEY if set, else the session key, else the keychain;
///   Custom   then E2B_DOMAIN / E2B_API_URL / E2B_SANDBOX_URL on top
///
/// Fails (Rejected, with a sentence saying what to do) when no key is found.
class ResolveProfileJob : public Job
{
    Q_OBJECT

public:
    /// `keys` is not owned and must outlive the job (it is not needed for Local).
    ResolveProfileJob(KeyStore *keys, Profile profile, QObject *parent = nullptr);

    void setEnvironment(const QProcessEnvironment &env) { m_env = env; }
    /// Defaults to ProfileStore::localKeyFilePath().
    void setLocalKeyFile(const QString &path) { m_localKeyFile = path; }

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
    void resolveLocal();
    void finishWith(const QString &key, KeySource source);

    QPointer<KeyStore> m_keys;
    Profile m_profile;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    QString m_localKeyFile;
    ConnectionSettings m_settings;
    KeySource m_source = KeySource::None;
    QString m_notice;
    QPointer<ReadKeyJob> m_read;
};

} // namespace sd
