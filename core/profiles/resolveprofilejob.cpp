#include "resolveprofilejob.h"

namespace sd {

ResolveProfileJob::ResolveProfileJob(KeyStore *keys, Profile profile, QObject *parent)
    : Job(parent)
    , m_keys(keys)
    , m_profile(std::move(profile))
{ }

void ResolveProfileJob::doStart()
{
    if (const QString problem = m_profile.validate(); !problem.isEmpty()) {
        emitError(Error::rejected(problem));
        return;
    }
    if (m_profile.isLocal()) {
        // Its key must not go to a port someone else holds: LocalBackendStarter checks.
        emitError(Error::rejected(
            tr("The Local profile is reached through the local backend's starter, not here.")));
        return;
    }
    if (const QString key = m_env.value(QStringLiteral("E2B_API_KEY")).trimmed(); !key.isEmpty()) {
        finishWith(key, KeySource::Environment);
        return;
    }
    if (!m_keys) {
        emitError(Error::rejected(tr("The key store is gone.")));
        return;
    }
    m_read = new ReadKeyJob(m_keys, m_profile.id, this);
    m_read->setAutoDelete(false);
    connect(m_read, &Job::finished, this, [this] {
        ReadKeyJob *read = m_read;
        m_read = nullptr;
        read->deleteLater();
        m_notice = read->notice();
        if (read->hasError()) {
            emitError(read->error());
            return;
        }
        if (!read->found()) {
            const QString what = read->usedSessionOnly()
                ? read->notice() + QLatin1Char(' ')
                    + tr("Enter the API key of \"%1\" in the profile settings for this session, "
                         "or set E2B_API_KEY.")
                          .arg(m_profile.name)
                : tr("No API key is stored for \"%1\". Enter it in the profile settings.")
                      .arg(m_profile.name);
            emitError(Error::rejected(what));
            return;
        }
        finishWith(read->key(), read->source());
    });
    m_read->start();
}

void ResolveProfileJob::finishWith(const QString &key, KeySource source)
{
    m_settings = resolveConnectionSettings(m_profile, key, m_env);
    m_source = source;
    emitResult();
}

void ResolveProfileJob::doCancel()
{
    if (ReadKeyJob *read = abandonStep(m_read))
        read->deleteLater();
    emitError(Error::cancelled());
}

} // namespace sd
