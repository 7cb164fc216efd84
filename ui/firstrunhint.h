#pragma once

#include "messagebanner.h"

#include <QPointer>
#include <QProcessEnvironment>

class QAction;
class QSettings;

namespace sd {

class Job;
class KeyStore;
class ProfileStore;

/// The hint shown above the list on the first launch: the app works on "Local
/// (this computer)" with no account, and cloud sandboxes need an E2B or self-hosted
/// profile. When E2B_API_KEY is set it offers to turn that key into an E2B profile
/// (key in the keychain). Once dismissed or acted on it never shows again (a flag in
/// QSettings; never the key).
class FirstRunHint : public MessageBanner
{
    Q_OBJECT

public:
    /// `settings`, `profiles` and `keys` are not owned and must outlive the hint.
    FirstRunHint(QSettings *settings, ProfileStore *profiles, KeyStore *keys,
                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                 QWidget *parent = nullptr);

    /// True until the hint has been dismissed or acted on.
    static bool isPending(const QSettings &settings);

    QAction *useKeyAction() const { return m_useKey; }
    QAction *profilesAction() const { return m_profiles; }
    QAction *dismissAction() const { return m_dismiss; }
    /// Whether the import of E2B_API_KEY is running.
    bool isBusy() const { return m_job != nullptr; }

Q_SIGNALS:
    /// The profile holding E2B_API_KEY is ready (new or found): switch to it.
    void profileReady(const QString &profileId);
    /// The user wants the Profiles dialog.
    void manageProfilesRequested();
    /// The import of E2B_API_KEY ended, well or not (the text says how).
    void importFinished(bool ok);

private:
    void useEnvironmentKey();
    void markDone();
    /// Adds `action` as a button with an object and accessible name.
    void addButton(QAction *action, const QString &objectName, const QString &accessibleName);

    QSettings *m_settings;
    ProfileStore *m_profileStore;
    KeyStore *m_keys;
    QAction *m_useKey = nullptr;
    QAction *m_profiles;
    QAction *m_dismiss;
    QPointer<Job> m_job;
};

} // namespace sd
