#pragma once

#include "profiles/profile.h"

#include <QDialog>
#include <QPointer>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QNetworkAccessManager;
class QPushButton;

namespace sd {

class Job;
class KeyStore;
class ProfileStore;

/// Lists every profile and adds, edits and removes the E2B and self-hosted ones; the
/// Local profile is shown too, with only its port editable. The API key is entered
/// here once and goes to the OS keychain (KeyStore), never to QSettings; the field
/// stays empty for a stored key ("leave empty to keep"). "Test connection" lists one
/// page of sandboxes with what the form says and reports success or the server's
/// message. When the E2B CLI is logged in (~/.e2b/config.json), "Use the E2B CLI's
/// login…" turns its key into an E2B profile once the user confirms.
class ProfilesDialog : public QDialog
{
    Q_OBJECT

public:
    ProfilesDialog(ProfileStore *profiles, KeyStore *keys, QNetworkAccessManager *network,
                   QWidget *parent = nullptr);

    QString testResult() const;
    /// The E2B CLI's config.json to offer (default: E2bCliLogin::defaultPath()).
    void setCliLoginPath(const QString &path);

Q_SIGNALS:
    /// A profile was saved (with its key, when one was typed).
    void profileSaved(const QString &profileId);

private:
    enum class Tone
    {
        Neutral,
        Success,
        Warning,
        Failure
    };

    void reloadList(const QString &selectId = {});
    /// Plain text: results quote what servers answered and what the user typed.
    void showResult(const QString &text, Tone tone = Tone::Neutral);
    void showProfile(const QString &profileId);
    Profile profileFromForm() const;
    void updateKindFields();
    void save();
    void remove();
    void testConnection();
    void testWith(const ConnectionSettings &settings);
    void updateCliLogin();
    void importCliLogin();

    ProfileStore *m_profiles;
    KeyStore *m_keys;
    QNetworkAccessManager *m_network;
    QListWidget *m_list;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QLineEdit *m_domain;
    QLineEdit *m_apiUrl;
    QLineEdit *m_sandboxUrl;
    QLineEdit *m_key;
    QLabel *m_keyHint;
    QLabel *m_result;
    QPushButton *m_save;
    QPushButton *m_remove;
    QPushButton *m_test;
    QPushButton *m_importCliLogin;
    QLabel *m_cliLogin;
    QString m_cliLoginPath;
    QString m_editingId;
    QPointer<Job> m_testJob;
    QPointer<Job> m_importJob;
};

} // namespace sd
