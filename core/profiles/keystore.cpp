#include "keystore.h"

#include "common/logging.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <qt6keychain/keychain.h>

namespace sd {

namespace {
// QtKeychain reports a missing Secret Service in several ways depending on the
// backend: NoBackendAvailable, or OtherError with the D-Bus failure as text
// ("Cannot autolaunch D-Bus without X11 $DISPLAY", "The name org.freedesktop.secrets
// was not provided by any .service files").
bool isUnavailable(QKeychain::Error error, const QString &errorString)
{
    if (error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented)
        return true;
    if (error != QKeychain::OtherError)
        return false;
    // "could not connect": the session bus address points at a socket that is gone.
    static const QRegularExpression dbus(
        QStringLiteral("d-?bus|autolaunch|secret service|org\\.freedesktop\\.secrets|"
                       "kwallet|not provided by any|no such interface|service unknown|"
                       "could not connect"),
        QRegularExpression::CaseInsensitiveOption);
    return dbus.match(errorString).hasMatch();
}
} // namespace

KeyStore::KeyStore(QObject *parent)
    : QObject(parent)
{ }

QString KeyStore::entryName(const QString &profileId)
{
    return QStringLiteral("api-key/") + profileId;
}

QString KeyStore::unavailableMessage()
{
    return tr("No keychain is available on this desktop (no D-Bus Secret Service); the key is "
              "kept for this session only or taken from E2B_API_KEY.");
}

void KeyStore::setSessionKey(const QString &profileId, const QString &key)
{
    m_sessionKeys.insert(profileId, key);
}

ReadKeyJob *KeyStore::readKey(const QString &profileId) { return new ReadKeyJob(this, profileId); }

WriteKeyJob *KeyStore::writeKey(const QString &profileId, const QString &key)
{
    return new WriteKeyJob(this, profileId, key);
}

DeleteKeyJob *KeyStore::deleteKey(const QString &profileId)
{
    return new DeleteKeyJob(this, profileId);
}

void KeyStore::setAvailability(Availability availability)
{
    if (m_availability == availability)
        return;
    m_availability = availability;
    Q_EMIT availabilityChanged(availability);
}

KeychainJob::KeychainJob(KeyStore *store, QString profileId, QObject *parent)
    : Job(parent)
    , m_store(store)
    , m_profileId(std::move(profileId))
{ }

KeychainJob::~KeychainJob()
{
    // The QtKeychain job cannot be stopped; let it end on its own (it deletes itself).
    if (m_job)
        m_job->disconnect(this);
}

void KeychainJob::runKeychainJob(QKeychain::Job *job)
{
    m_job = job;
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never a plain-text file
    job->setKey(KeyStore::entryName(m_profileId));
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job *finishedJob) {
        m_job = nullptr;
        const bool unavailable = isUnavailable(finishedJob->error(), finishedJob->errorString());
        if (unavailable) {
            qCInfo(lcProfiles) << "no keychain:" << finishedJob->errorString();
            m_sessionOnly = true;
            m_notice = KeyStore::unavailableMessage();
        }
        if (m_store) {
            if (unavailable)
                m_store->setAvailability(KeyStore::Availability::Unavailable);
            else if (finishedJob->error() == QKeychain::NoError
                || finishedJob->error() == QKeychain::EntryNotFound)
                m_store->setAvailability(KeyStore::Availability::Available);
        }
        keychainFinished(finishedJob, unavailable);
    });
    job->start();
}

bool KeychainJob::checkReady()
{
    if (!m_store) {
        emitError(Error::rejected(tr("The key store is gone.")));
        return false;
    }
    if (m_profileId.isEmpty() || m_profileId.contains(QLatin1Char('/'))) {
        emitError(
            Error::rejected(tr("The profile has no valid id; save it before storing its key.")));
        return false;
    }
    return true;
}

void KeychainJob::failWith(const QString &what, QKeychain::Job *job)
{
    emitError(Error::rejected(QStringLiteral("%1: %2").arg(what, job->errorString())));
}

void KeychainJob::doCancel()
{
    if (m_job) {
        m_job->disconnect(this);
        m_job = nullptr;
    }
    emitError(Error::cancelled());
}

ReadKeyJob::ReadKeyJob(KeyStore *store, QString profileId, QObject *parent)
    : KeychainJob(store, std::move(profileId), parent)
{ }

void ReadKeyJob::doStart()
{
    if (!checkReady())
        return;
    if (store()->hasSessionKey(profileId())) {
        m_key = store()->sessionKey(profileId());
        m_source = KeySource::Session;
        emitResult();
        return;
    }
    runKeychainJob(new QKeychain::ReadPasswordJob(store()->service()));
}

void ReadKeyJob::keychainFinished(QKeychain::Job *job, bool unavailable)
{
    if (unavailable || job->error() == QKeychain::EntryNotFound) {
        emitResult(); // found() is false
        return;
    }
    if (job->error() != QKeychain::NoError) {
        failWith(tr("The keychain could not be read"), job);
        return;
    }
    m_key = static_cast<QKeychain::ReadPasswordJob *>(job)->textData();
    m_source = m_key.isEmpty() ? KeySource::None : KeySource::Keychain;
    emitResult();
}

WriteKeyJob::WriteKeyJob(KeyStore *store, QString profileId, QString key, QObject *parent)
    : KeychainJob(store, std::move(profileId), parent)
    , m_key(std::move(key))
{ }

void WriteKeyJob::doStart()
{
    if (!checkReady())
        return;
    if (m_key.isEmpty()) {
        emitError(Error::rejected(tr("The API key is empty.")));
        return;
    }
    if (m_sessionOnlyRequested) {
        store()->setSessionKey(profileId(), m_key);
        m_sessionOnly = true;
        emitResult();
        return;
    }
    auto *job = new QKeychain::WritePasswordJob(store()->service());
    job->setTextData(m_key);
    runKeychainJob(job);
}

void WriteKeyJob::keychainFinished(QKeychain::Job *job, bool unavailable)
{
    if (!store()) {
        emitError(Error::rejected(tr("The key store is gone.")));
        return;
    }
    if (unavailable) {
        store()->setSessionKey(profileId(), m_key);
        emitResult();
        return;
    }
    if (job->error() != QKeychain::NoError) {
        failWith(tr("The keychain did not store the key"), job);
        return;
    }
    // The keychain is now where the key lives; a stale session copy must not win.
    store()->clearSessionKey(profileId());
    emitResult();
}

DeleteKeyJob::DeleteKeyJob(KeyStore *store, QString profileId, QObject *parent)
    : KeychainJob(store, std::move(profileId), parent)
{ }

void DeleteKeyJob::doStart()
{
    if (!checkReady())
        return;
    store()->clearSessionKey(profileId());
    runKeychainJob(new QKeychain::DeletePasswordJob(store()->service()));
}

void DeleteKeyJob::keychainFinished(QKeychain::Job *job, bool unavailable)
{
    if (unavailable || job->error() == QKeychain::NoError
        || job->error() == QKeychain::EntryNotFound) {
        emitResult();
        return;
    }
    failWith(tr("The keychain did not delete the key"), job);
}

} // namespace sd
