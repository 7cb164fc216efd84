#include "saveprofilejob.h"

#include "profiles/keystore.h"
#include "profiles/profilestore.h"

namespace sd {

SaveProfileJob::SaveProfileJob(ProfileStore *profiles, KeyStore *keys, Profile profile, QString key,
                               QObject *parent)
    : Job(parent)
    , m_profiles(profiles)
    , m_keys(keys)
    , m_profile(std::move(profile))
    , m_key(std::move(key))
{
}

void SaveProfileJob::doStart()
{
    if (!m_profiles || !m_keys) {
        emitError(Error::rejected(tr("The profile store is gone.")));
        return;
    }
    if (const QString problem = m_profile.validate(); !problem.isEmpty()) {
        emitError(Error::rejected(problem));
        return;
    }
    QString problem;
    const QString id = m_profiles->save(m_profile, &problem);
    if (id.isEmpty()) {
        emitError(Error::rejected(problem));
        return;
    }
    m_profileId = id;
    if (m_key.isEmpty()) {
        emitResult();
        return;
    }
    WriteKeyJob *write = m_keys->writeKey(id, m_key);
    m_write = write;
    connect(write, &Job::finished, this, [this, write] {
        m_write = nullptr;
        m_notice = write->notice();
        if (write->hasError()) {
            emitError(write->error());
            return;
        }
        m_keyStored = true;
        emitResult();
    });
    write->start();
}

void SaveProfileJob::doCancel()
{
    // The keychain write cannot be stopped half way; stop listening to it.
    if (m_write)
        m_write->disconnect(this);
    emitError(Error::cancelled());
}

} // namespace sd
