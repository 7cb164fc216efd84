#pragma once

#include "profiles/profile.h"

#include <QList>
#include <QObject>

class QSettings;

namespace sd {

/// The user's profiles, kept in QSettings (names and URLs only: keys live in the
/// keychain, see KeyStore). "Local (this computer)" is always there and cannot be
/// removed; only its port can change.
class ProfileStore : public QObject
{
    Q_OBJECT

public:
    /// Reads and writes `settings` (not owned; must outlive the store).
    explicit ProfileStore(QSettings *settings, QObject *parent = nullptr);

    /// Local first, then the others sorted by name.
    QList<Profile> profiles() const;
    std::optional<Profile> profile(const QString &id) const;
    /// The profile a person means by `nameOrId`: an id, or a name compared without
    /// case; "local" (any case) always means the Local profile.
    std::optional<Profile> find(const QString &nameOrId) const;
    Profile localProfile() const;

    /// Adds `profile` (an empty id gets a new one) or updates the one with its id.
    /// Returns the stored profile's id, or an empty string with the reason in `problem`.
    QString save(const Profile &profile, QString *problem = nullptr);
    /// Removes a profile (not Local). The caller deletes its key (DeleteKeyJob).
    bool remove(const QString &id);

    /// The profile the user worked with last; Local when none or it was removed.
    Profile lastUsed() const;
    void setLastUsed(const QString &id);

    /// The file where sandbox-desk-local keeps its generated key:
    /// <GenericDataLocation>/sandbox-desk/local-api-key.
    static QString localKeyFilePath();

Q_SIGNALS:
    /// A profile was added, changed or removed.
    void profilesChanged();

private:
    QSettings *m_settings;
};

} // namespace sd
