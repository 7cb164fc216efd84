#include "importkeyjob.h"

#include "profiles/e2bclilogin.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/saveprofilejob.h"

#include <QSet>

namespace sd {

namespace {
const QString keyVariable = QStringLiteral("E2B_API_KEY");
const QString domainVariable = QStringLiteral("E2B_DOMAIN");
const QString defaultDomain = QStringLiteral("e2b.app");
} // namespace

ImportKeyJob::ImportKeyJob(ProfileStore *profiles, KeyStore *keys, QString key, const QProcessEnvironment &env,
                           QString missingKey, QObject *parent)
    : Job(parent)
    , m_profiles(profiles)
    , m_keys(keys)
    , m_key(std::move(key))
    , m_domain(env.value(domainVariable).trimmed())
    , m_missingKey(std::move(missingKey))
{
    if (m_domain.isEmpty())
        m_domain = defaultDomain;
}

ImportKeyJob *ImportKeyJob::fromEnvironment(ProfileStore *profiles, KeyStore *keys, const QProcessEnvironment &env,
                                            QObject *parent)
{
    return new ImportKeyJob(profiles, keys, env.value(keyVariable).trimmed(), env, tr("E2B_API_KEY is not set."),
                            parent);
}

ImportKeyJob *ImportKeyJob::fromCliLogin(ProfileStore *profiles, KeyStore *keys, const E2bCliLogin &login,
                                         const QProcessEnvironment &env, QObject *parent)
{
    const QString missing = login.exists() ? login.problem()
                                           : tr("The E2B CLI is not logged in (%1 does not exist).").arg(login.path());
    return new ImportKeyJob(profiles, keys, login.isUsable() ? login.apiKey() : QString(), env, missing, parent);
}

bool ImportKeyJob::hasEnvironmentKey(const QProcessEnvironment &env)
{
    return !env.value(keyVariable).trimmed().isEmpty();
}

void ImportKeyJob::doStart()
{
    if (m_key.isEmpty()) {
        emitError(Error::rejected(m_missingKey));
        return;
    }
    if (!m_profiles || !m_keys) {
        emitError(Error::rejected(tr("The profile store is gone.")));
        return;
    }
    for (const Profile &profile : m_profiles->profiles()) {
        if (profile.kind == Profile::Kind::E2B && profile.domain == m_domain)
            m_candidates.append(profile);
    }
    checkNext();
}

void ImportKeyJob::checkNext()
{
    if (m_candidates.isEmpty()) {
        createProfile();
        return;
    }
    const Profile candidate = m_candidates.takeFirst();
    auto *read = m_keys->readKey(candidate.id);
    m_step = read;
    connect(read, &Job::finished, this, [this, read, candidate] {
        m_step = nullptr;
        // A profile whose key cannot be read is simply not a match.
        if (!read->hasError() && read->found() && read->key() == m_key) {
            m_profileId = candidate.id;
            m_profileName = candidate.name;
            m_notice = read->notice();
            emitResult();
            return;
        }
        checkNext();
    });
    read->start();
}

void ImportKeyJob::createProfile()
{
    const Profile profile = Profile::e2b(
        freeName(m_domain == defaultDomain ? tr("E2B") : tr("E2B (%1)").arg(m_domain)), m_domain);
    auto *save = new SaveProfileJob(m_profiles, m_keys, profile, m_key, this);
    m_step = save;
    connect(save, &Job::finished, this, [this, save, name = profile.name] {
        m_step = nullptr;
        m_profileId = save->profileId();
        m_profileName = name;
        m_created = !m_profileId.isEmpty();
        m_notice = save->notice();
        if (save->hasError()) {
            emitError(save->error());
            return;
        }
        emitResult();
    });
    save->start();
}

QString ImportKeyJob::freeName(const QString &wanted) const
{
    QSet<QString> taken;
    for (const Profile &profile : m_profiles->profiles())
        taken.insert(profile.name);
    QString name = wanted;
    for (int n = 2; taken.contains(name); ++n)
        name = QStringLiteral("%1 %2").arg(wanted).arg(n);
    return name;
}

void ImportKeyJob::doCancel()
{
    abandonStep(m_step);
    emitError(Error::cancelled());
}

} // namespace sd
