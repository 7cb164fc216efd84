#pragma once

#include "common/job.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace QKeychain {
class Job;
}

namespace sd {

class ReadKeyJob;
class WriteKeyJob;
class DeleteKeyJob;

/// Where an API key came from.
enum class KeySource
{
    None, ///< no key found
    Keychain, ///< the OS keychain (Secret Service through QtKeychain)
    Session, ///< typed in this session, kept in memory only
    Environment, ///< E2B_API_KEY
};

/// API keys of the profiles: in the OS keychain (QtKeychain, service
/// "sandbox-desk", one entry per profile), never in QSettings or a file.
///
/// With no keychain on the desktop (no D-Bus session, no Secret Service) nothing
/// fails: keys are kept in memory for this session only, and the jobs say so in
/// notice(). All access is asynchronous through the jobs below; each ends in one
/// finished() like every sd::Job.
class KeyStore : public QObject
{
    Q_OBJECT

public:
    enum class Availability
    {
        Unknown,
        Available,
        Unavailable
    };
    Q_ENUM(Availability)

    explicit KeyStore(QObject *parent = nullptr);

    /// The keychain service name; "sandbox-desk" unless a test picks its own.
    QString service() const { return m_service; }
    void setService(const QString &service) { m_service = service; }
    /// The keychain entry name of a profile's key.
    static QString entryName(const QString &profileId);

    /// What the last keychain access showed (Unknown before the first).
    Availability availability() const { return m_availability; }
    /// The sentence shown when no keychain is available.
    static QString unavailableMessage();

    /// Keys kept in memory for this session only (lost when the app quits).
    void setSessionKey(const QString &profileId, const QString &key);
    QString sessionKey(const QString &profileId) const { return m_sessionKeys.value(profileId); }
    bool hasSessionKey(const QString &profileId) const { return m_sessionKeys.contains(profileId); }
    void clearSessionKey(const QString &profileId) { m_sessionKeys.remove(profileId); }

    /// Convenience factories; the jobs are not started and delete themselves
    /// after finished() unless setAutoDelete(false).
    ReadKeyJob *readKey(const QString &profileId);
    WriteKeyJob *writeKey(const QString &profileId, const QString &key);
    DeleteKeyJob *deleteKey(const QString &profileId);

Q_SIGNALS:
    /// The keychain turned out to be there, or not.
    void availabilityChanged(sd::KeyStore::Availability availability);

private:
    friend class KeychainJob;
    void setAvailability(Availability availability);

    QString m_service = QStringLiteral("sandbox-desk");
    Availability m_availability = Availability::Unknown;
    QHash<QString, QString> m_sessionKeys; // secrets: never log them
};

/// Base of the key jobs: runs one QtKeychain job and maps its outcome.
class KeychainJob : public Job
{
    Q_OBJECT

public:
    ~KeychainJob() override;

    QString profileId() const { return m_profileId; }
    /// True when no keychain was reachable and session memory was used instead.
    bool usedSessionOnly() const { return m_sessionOnly; }
    /// A sentence worth showing the user even on success (e.g. no keychain); often empty.
    QString notice() const { return m_notice; }

protected:
    KeychainJob(KeyStore *store, QString profileId, QObject *parent);

    KeyStore *store() const { return m_store; }
    /// Starts `job` (configured by the subclass) and routes its end to keychainFinished().
    void runKeychainJob(QKeychain::Job *job);
    /// Called once the QtKeychain job ended; `unavailable` when there is no keychain.
    virtual void keychainFinished(QKeychain::Job *job, bool unavailable) = 0;
    /// Finishes with an error and returns false when there is no store or no valid id.
    bool checkReady();
    /// Finishes with the error a failing QtKeychain job reported.
    void failWith(const QString &what, QKeychain::Job *job);
    void doCancel() override;

    bool m_sessionOnly = false;
    QString m_notice;

private:
    QPointer<KeyStore> m_store;
    QString m_profileId;
    QPointer<QKeychain::Job> m_job;
};

/// Reads a profile's key: the session key if one was set, else the keychain.
/// "No key stored" is not an error: found() is false.
class ReadKeyJob : public KeychainJob
{
    Q_OBJECT

public:
    ReadKeyJob(KeyStore *store, QString profileId, QObject *parent = nullptr);

    bool found() const { return m_source != KeySource::None; }
    QString key() const { return m_key; } ///< secret: never log it
    KeySource source() const { return m_source; }

protected:
    void doStart() override;
    void keychainFinished(QKeychain::Job *job, bool unavailable) override;

private:
    QString m_key;
    KeySource m_source = KeySource::None;
};

/// Stores a profile's key in the keychain (and drops any session copy). With no
/// keychain, or with setSessionOnly(true), it keeps the key in memory for this
/// session; usedSessionOnly() and notice() tell.
class WriteKeyJob : public KeychainJob
{
    Q_OBJECT

public:
    WriteKeyJob(KeyStore *store, QString profileId, QString key, QObject *parent = nullptr);

    /// Keep the key in memory only, never touching the keychain.
    void setSessionOnly(bool sessionOnly) { m_sessionOnlyRequested = sessionOnly; }

protected:
    void doStart() override;
    void keychainFinished(QKeychain::Job *job, bool unavailable) override;

private:
    QString m_key; // secret: never log it
    bool m_sessionOnlyRequested = false;
};

/// Forgets a profile's key: the session copy and the keychain entry. A missing
/// entry, or no keychain at all, is success.
class DeleteKeyJob : public KeychainJob
{
    Q_OBJECT

public:
    DeleteKeyJob(KeyStore *store, QString profileId, QObject *parent = nullptr);

protected:
    void doStart() override;
    void keychainFinished(QKeychain::Job *job, bool unavailable) override;
};

} // namespace sd
