#pragma once

#include "messagebanner.h"

#include <QPointer>
#include <QProcessEnvironment>

class QAction;
class QSettings;

namespace sd {

class ImportKeyJob;
class Job;
class KeyStore;
class ProfileStore;

/// The hint shown above the list on the first launch: the app works on "Local
/// (this computer)" with no account, and cloud sandboxes need an E2B or self-hosted
/// profile. When E2B_API_KEY is set, or the E2B CLI is logged in (~/.e2b/config.json),
/// it offers to turn that key into an E2B profile (key in the keychain; the CLI's key
/// only once the user confirms). Once dismissed or acted on it never shows again (a
/// flag in QSettings; never the key).
class FirstRunHint : public MessageBanner
{
    Q_OBJECT

public:
    /// `settings`, `profiles` and `keys` are not owned and must outlive the hint.
    /// `cliLoginPath` is the E2B CLI's config.json (E2bCliLogin::defaultPath()).
    FirstRunHint(QSettings *settings, ProfileStore *profiles, KeyStore *keys, const QString &cliLoginPath,
                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                 QWidget *parent = nullptr);

    /// True until the hint has been dismissed or acted on.
    static bool isPending(const QSettings &settings);

    QAction *useKeyAction() const { return m_useKey; }
    QAction *useCliLoginAction() const { return m_useCliLogin; }
    QAction *profilesAction() const { return m_profiles; }
    QAction *dismissAction() const { return m_dismiss; }
    /// Whether an import of a key is running.
    bool isBusy() const { return m_job != nullptr; }

Q_SIGNALS:
    /// The profile holding the imported key is ready (new or found): switch to it.
    void profileReady(const QString &profileId);
    /// The user wants the Profiles dialog.
    void manageProfilesRequested();
    /// An import ended, well or not (the text says how).
    void importFinished(bool ok);

private:
    void useEnvironmentKey();
    void useCliLogin();
    /// Runs `job`, the key it imports named by `keyDescription`, and shows the outcome.
    void runImport(ImportKeyJob *job, const QString &keyDescription);
    void setImportActionsEnabled(bool enabled);
    void markDone();
    /// Adds `action` as a button with an object and accessible name.
    void addButton(QAction *action, const QString &objectName, const QString &accessibleName);

    QSettings *m_settings;
    ProfileStore *m_profileStore;
    KeyStore *m_keys;
    QString m_cliLoginPath;
    QAction *m_useKey = nullptr;
    QAction *m_useCliLogin = nullptr;
    QAction *m_profiles;
    QAction *m_dismiss;
    QPointer<Job> m_job;
};

} // namespace sd
