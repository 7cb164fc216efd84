#pragma once

#include "common/job.h"
#include "profiles/profile.h"

#include <QPointer>

namespace sd {

class E2bCliLogin;
class KeyStore;
class ProfileStore;

/// Turns an API key found outside the app (E2B_API_KEY, the E2B CLI's login) into
/// an E2B profile whose key lives in the keychain, unless a profile already has it:
///
///   E2B profiles on the domain ──► read each key ──► same key? ──► that profile
///                                                     │ none
///                                                     ▼
///                                  SaveProfileJob(E2B profile, key) ──► the new one
///
/// The domain is E2B_DOMAIN when set, else e2b.app (the CLI's file names none).
/// Fails (Rejected) when there is no key.
class ImportKeyJob : public Job
{
    Q_OBJECT

public:
    /// The key of E2B_API_KEY in `env`. `profiles` and `keys` are not owned and must
    /// outlive the job (as for every constructor here).
    static ImportKeyJob *fromEnvironment(ProfileStore *profiles, KeyStore *keys,
                                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                                         QObject *parent = nullptr);
    /// The key of the E2B CLI's login (read beforehand; see E2bCliLogin).
    static ImportKeyJob *fromCliLogin(ProfileStore *profiles, KeyStore *keys, const E2bCliLogin &login,
                                      const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                                      QObject *parent = nullptr);

    /// The profile that now holds the key (new or found); empty when none does.
    QString profileId() const { return m_profileId; }
    QString profileName() const { return m_profileName; }
    /// False when an existing profile already had the key.
    bool created() const { return m_created; }
    /// A sentence worth showing even on success (e.g. no keychain); often empty.
    QString notice() const { return m_notice; }

    /// Whether `env` has a key worth offering.
    static bool hasEnvironmentKey(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

protected:
    void doStart() override;
    void doCancel() override;

private:
    /// `missingKey` is the sentence for an empty `key`.
    ImportKeyJob(ProfileStore *profiles, KeyStore *keys, QString key, const QProcessEnvironment &env,
                 QString missingKey, QObject *parent);

    void checkNext();
    void createProfile();
    QString freeName(const QString &wanted) const;

    QPointer<ProfileStore> m_profiles;
    QPointer<KeyStore> m_keys;
    QString m_key; // secret: never log it
    QString m_domain;
    QString m_missingKey;
    QList<Profile> m_candidates;
    QPointer<Job> m_step;
    QString m_profileId;
    QString m_profileName;
    QString m_notice;
    bool m_created = false;
};

} // namespace sd
