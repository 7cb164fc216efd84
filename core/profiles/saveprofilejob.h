#pragma once

#include "common/job.h"
#include "profiles/profile.h"

#include <QPointer>

namespace sd {

class KeyStore;
class ProfileStore;
class WriteKeyJob;

/// Saves a profile and, when a key is given, stores that key in the keychain:
///
///   ProfileStore::save ──► (key?) KeyStore WriteKeyJob ──► finished
///
/// The profiles dialog and the first-run hint both add profiles this way, so a key
/// only ever goes to the KeyStore. When the profile was saved but its key was not,
/// profileId() is set and error() says why.
class SaveProfileJob : public Job
{
    Q_OBJECT

public:
    /// `profiles` and `keys` are not owned and must outlive the job. `key` may be
    /// empty (keep the stored one); it is a secret and never logged.
    SaveProfileJob(ProfileStore *profiles, KeyStore *keys, Profile profile, QString key,
                   QObject *parent = nullptr);

    /// The saved profile's id; empty when the profile itself could not be saved.
    QString profileId() const { return m_profileId; }
    /// True when a key was given and is now stored (keychain or session memory).
    bool keyStored() const { return m_keyStored; }
    /// A sentence worth showing even on success (e.g. no keychain); often empty.
    QString notice() const { return m_notice; }

protected:
    void doStart() override;
    void doCancel() override;

private:
    QPointer<ProfileStore> m_profiles;
    QPointer<KeyStore> m_keys;
    Profile m_profile;
    QString m_key; // secret: never log it
    QString m_profileId;
    QString m_notice;
    bool m_keyStored = false;
    QPointer<WriteKeyJob> m_write;
};

} // namespace sd
