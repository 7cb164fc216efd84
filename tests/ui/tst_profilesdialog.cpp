#include "clilogin.h"
#include "localbackend.h"
#include "network/networkaccessmanager.h"
#include "otheruserbackend.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profilesdialog.h"
#include "uitest.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QStandardPaths>

#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QUuid>

using namespace sd;

/// Saving a profile in the dialog, against the real Secret Service (the suite runs
/// inside dbus-run-session with an unlocked gnome-keyring).
class TestProfilesDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void savesTheKeyInTheKeychainOnly();
    void savingAnUnencryptedProfileWarns();
    void testsASavedProfileWithTheKeychainsKey();
    void listsTheLocalProfileWithOnlyItsPortEditable();
    void localTestNeverSendsTheKeyToAnotherUser();
    void usesTheCliLoginInTwoClicks();
    void unusableCliLoginIsExplained();

private:
    /// Fresh stores for a dialog that offers the E2B CLI's login at a given path (by
    /// default a path with no login).
    struct Stores
    {
        QSettings settings;
        ProfileStore profiles { &settings };
        KeyStore keys;
        sd::NetworkAccessManager network;
    };
    void showDialog(Stores &stores, const QString &cliLoginPath = {});
    QLineEdit *field(const QString &accessibleName) const;
    QComboBox *kindBox() const;
    QPushButton *button(const QString &text) const;

    QTemporaryDir m_configDir;
    std::unique_ptr<ProfilesDialog> m_dialog;
};

void TestProfilesDialog::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_profilesdialog"));
}

void TestProfilesDialog::showDialog(Stores &stores, const QString &cliLoginPath)
{
    m_dialog = std::make_unique<ProfilesDialog>(&stores.profiles, &stores.keys, &stores.network);
    m_dialog->setCliLoginPath(cliLoginPath.isEmpty()
            ? m_configDir.filePath(QStringLiteral("no-e2b-cli/config.json"))
            : cliLoginPath);
    m_dialog->show();
}

QLineEdit *TestProfilesDialog::field(const QString &accessibleName) const
{
    const auto edits = m_dialog->findChildren<QLineEdit *>();
    for (QLineEdit *edit : edits) {
        if (edit->accessibleName() == accessibleName)
            return edit;
    }
    return nullptr;
}

QComboBox *TestProfilesDialog::kindBox() const
{
    for (QComboBox *combo : m_dialog->findChildren<QComboBox *>()) {
        if (combo->accessibleName() == QLatin1String("Kind"))
            return combo;
    }
    return nullptr;
}

QPushButton *TestProfilesDialog::button(const QString &text) const
{
    for (QPushButton *candidate : m_dialog->findChildren<QPushButton *>()) {
        if (candidate->text() == text)
            return candidate;
    }
    return nullptr;
}

// Local is listed like any profile; its port can change, nothing else, and "Test
// connection" uses the key the local backend keeps in its key file.
void TestProfilesDialog::listsTheLocalProfileWithOnlyItsPortEditable()
{
    test::LocalBackend backend;
    QVERIFY2(backend.start(), qPrintable(backend.errorString()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_configDir.filePath(QStringLiteral("data"))));
    const QString keyFile = ProfileStore::localKeyFilePath();
    QVERIFY(keyFile.startsWith(m_configDir.path()));
    QVERIFY(QDir().mkpath(QFileInfo(keyFile).path()));
    QFile file(keyFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(backend.apiKey().toUtf8());
    file.close();

    Stores stores;
    showDialog(stores);
    auto *list = m_dialog->findChild<QListWidget *>();
    QVERIFY(list);
    QVERIFY(list->count() >= 1);
    QCOMPARE(list->item(0)->text(), QStringLiteral("Local (this computer)"));
    list->setCurrentRow(0);

    QLineEdit *name = field(QStringLiteral("Name"));
    QLineEdit *apiUrl = field(QStringLiteral("API URL"));
    QLineEdit *keyEdit = field(QStringLiteral("API key"));
    QVERIFY(name && apiUrl && keyEdit);
    QVERIFY(name->isReadOnly());
    QVERIFY(!keyEdit->isEnabled());
    QVERIFY(apiUrl->isEnabled());
    QVERIFY(!button(QStringLiteral("&Remove"))->isEnabled());
    QCOMPARE(apiUrl->text(), QStringLiteral("http://127.0.0.1:49900"));

    // Another computer is refused with a sentence; the stored port stays.
    apiUrl->setText(QStringLiteral("http://example.test:8080"));
    button(QStringLiteral("&Save"))->click();
    QTRY_VERIFY(m_dialog->testResult().contains(QStringLiteral("http://127.0.0.1:PORT")));
    QCOMPARE(stores.profiles.localProfile().localPort(), quint16(49900));

    apiUrl->setText(QStringLiteral("http://127.0.0.1:%1").arg(backend.port()));
    QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
    button(QStringLiteral("&Save"))->click();
    QVERIFY(saved.wait(20000));
    QCOMPARE(saved.first().at(0).toString(), Profile::localId());
    QCOMPARE(stores.profiles.localProfile().localPort(), backend.port());

    list->setCurrentRow(0);
    QCOMPARE(apiUrl->text(), QStringLiteral("http://127.0.0.1:%1").arg(backend.port()));
    button(QStringLiteral("&Test connection"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog->testResult().contains(QStringLiteral("Connected")), 20000);
    QVERIFY(!m_dialog->testResult().contains(backend.apiKey()));
    QVERIFY(!test::settingsFileContains(backend.apiKey()));
}

// "Test connection" on the Local profile with a port another user's program holds:
// refused with who holds it, and that program is asked nothing but /health.
void TestProfilesDialog::localTestNeverSendsTheKeyToAnotherUser()
{
    // Only root can start a listener as another user; CI runs as root.
    if (!test::OtherUserBackend::canStart())
        QSKIP("starting a listener as another user needs root");
    test::OtherUserBackend other;
    QVERIFY2(other.start(), qPrintable(other.errorString()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_configDir.filePath(QStringLiteral("data"))));
    const QString keyFile = ProfileStore::localKeyFilePath();
    QVERIFY(QDir().mkpath(QFileInfo(keyFile).path()));
    QFile file(keyFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("e2b_local_key_of_this_user_5a0c");
    file.close();

    Stores stores;
    showDialog(stores, m_configDir.filePath(QStringLiteral("no-cli-login.json")));
    auto *list = m_dialog->findChild<QListWidget *>();
    QVERIFY(list);
    list->setCurrentRow(0);
    QLineEdit *apiUrl = field(QStringLiteral("API URL"));
    QVERIFY(apiUrl);
    apiUrl->setText(QStringLiteral("http://127.0.0.1:%1").arg(other.port()));
    button(QStringLiteral("&Test connection"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog->testResult().contains(QStringLiteral(
                                 "Port %1 is held by another user's program (uid 65534)")
                                                                 .arg(other.port())),
        20000);
    const QByteArray seen = other.output();
    QVERIFY2(seen.contains("GET /health"), seen.constData());
    QVERIFY2(!seen.contains(" /v2/sandboxes") && !seen.contains(" /sandboxes"), seen.constData());
}

void TestProfilesDialog::savesTheKeyInTheKeychainOnly()
{
    Stores stores;
    showDialog(stores);

    const QString key = QStringLiteral("e2b_test_key_") + QUuid::createUuid().toString(QUuid::Id128);
    QLineEdit *name = field(QStringLiteral("Name"));
    QLineEdit *domain = field(QStringLiteral("Domain"));
    auto *keyEdit = m_dialog->findChild<QLineEdit *>(QStringLiteral("apiKeyEdit"));
    QVERIFY(name && domain && keyEdit);
    QCOMPARE(keyEdit->echoMode(), QLineEdit::Password);
    name->setText(QStringLiteral("Team cloud"));
    domain->setText(QStringLiteral("team.example.test"));
    keyEdit->setText(key);

    QPushButton *save = nullptr;
    for (QPushButton *button : m_dialog->findChildren<QPushButton *>()) {
        if (button->text() == QLatin1String("&Save"))
            save = button;
    }
    QVERIFY(save);
    QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
    save->click();
    QVERIFY(saved.wait(20000));
    const QString id = saved.first().at(0).toString();
    const std::optional<Profile> profile = stores.profiles.profile(id);
    QVERIFY(profile);
    QCOMPARE(profile->name, QStringLiteral("Team cloud"));
    QCOMPARE(profile->domain, QStringLiteral("team.example.test"));
    QVERIFY(profile->kind == Profile::Kind::E2B);
    QCOMPARE(m_dialog->testResult(), QStringLiteral("Saved; the key is in the keychain."));
    QVERIFY(keyEdit->text().isEmpty()); // not left on screen

    KeyStore fresh;
    std::unique_ptr<ReadKeyJob> read(fresh.readKey(id));
    QVERIFY(test::runJob(read.get()));
    QVERIFY(read->source() == KeySource::Keychain);
    QVERIFY2(read->key() == key, "the keychain holds another key"); // never print a key
    QVERIFY(test::settingsFileContains(id));
    QVERIFY(!test::settingsFileContains(key));

    // Leave the keyring as it was.
    QVERIFY(test::runJob(fresh.deleteKey(id)));
}

// "Test connection" on a saved profile, in a later session, with no key typed: the
// key is the keychain's.
void TestProfilesDialog::testsASavedProfileWithTheKeychainsKey()
{
    test::LocalBackend backend;
    QVERIFY2(backend.start(), qPrintable(backend.errorString()));
    QString id;
    {
        Stores stores;
        showDialog(stores);
        QComboBox *kind = kindBox();
        QVERIFY(kind);
        kind->setCurrentIndex(kind->findData(int(Profile::Kind::Custom)));
        field(QStringLiteral("Name"))->setText(QStringLiteral("Saved key"));
        field(QStringLiteral("API URL"))->setText(backend.url().toString());
        field(QStringLiteral("Sandbox URL"))->setText(backend.url().toString());
        field(QStringLiteral("API key"))->setText(backend.apiKey());
        QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
        button(QStringLiteral("&Save"))->click();
        QVERIFY(saved.wait(20000));
        id = saved.first().at(0).toString();
        QCOMPARE(m_dialog->testResult(), QStringLiteral("Saved; the key is in the keychain."));
        m_dialog.reset();
    }

    // A new session: nothing typed, nothing kept in memory.
    Stores stores;
    showDialog(stores);
    QVERIFY(!stores.keys.hasSessionKey(id));
    auto *list = m_dialog->findChild<QListWidget *>();
    QListWidgetItem *item = nullptr;
    for (int row = 0; row < list->count(); ++row) {
        if (list->item(row)->data(Qt::UserRole).toString() == id)
            item = list->item(row);
    }
    QVERIFY(item);
    list->setCurrentItem(item);
    QVERIFY(field(QStringLiteral("API key"))->text().isEmpty());
    button(QStringLiteral("&Test connection"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog->testResult().startsWith(QStringLiteral("Connected")), 20000);
    QVERIFY(!m_dialog->testResult().contains(backend.apiKey()));

    // With no key stored, the dialog says so.
    KeyStore fresh;
    QVERIFY(test::runJob(fresh.deleteKey(id)));
    button(QStringLiteral("&Test connection"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(
        m_dialog->testResult().contains(QStringLiteral("No key is stored")), 20000);
    m_dialog.reset();
    stores.profiles.remove(id);
}

// A self-hosted API on plain http:// elsewhere is allowed (a lab network may need it),
// with the risk said where the profile is made.
void TestProfilesDialog::savingAnUnencryptedProfileWarns()
{
    Stores stores;
    showDialog(stores);

    QComboBox *kind = kindBox();
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(int(Profile::Kind::Custom)));
    field(QStringLiteral("Name"))->setText(QStringLiteral("Lab"));
    field(QStringLiteral("API URL"))->setText(QStringLiteral("http://e2b.lab.test:3000"));
    field(QStringLiteral("Sandbox URL"))->setText(QStringLiteral("http://e2b.lab.test:5007"));
    QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
    button(QStringLiteral("&Save"))->click();
    QVERIFY(saved.wait(20000));
    QCOMPARE(m_dialog->testResult(),
        QStringLiteral(
            "Saved. The API key and the sandboxes' access tokens go to e2b.lab.test unencrypted "
            "(http://): anyone on the network in between can read and use them. Use an https:// "
            "URL unless that network is yours alone."));
    QVERIFY(stores.profiles.profile(saved.first().at(0).toString()));

    // The same profile on https:// saves without a word of it.
    field(QStringLiteral("API URL"))->setText(QStringLiteral("https://e2b.lab.test"));
    field(QStringLiteral("Sandbox URL"))->setText(QStringLiteral("https://e2b.lab.test:5007"));
    button(QStringLiteral("&Save"))->click();
    QVERIFY(saved.wait(20000));
    QCOMPARE(m_dialog->testResult(), QStringLiteral("Saved."));
    stores.profiles.remove(saved.first().at(0).toString());
}

// A team login (the CLI's version 1 file): the dialog names the team, asks, and the
// key goes to the keychain as an E2B profile; the file stays as it was.
void TestProfilesDialog::usesTheCliLoginInTwoClicks()
{
    const QString key = QStringLiteral("e2b_test_key_") + QUuid::createUuid().toString(QUuid::Id128);
    const QString path = m_configDir.filePath(QStringLiteral("home/.e2b/config.json"));
    const QByteArray content = QJsonDocument(test::cliLoginJson(1, key, QStringLiteral("sk_e2b_token"))).toJson();
    QVERIFY(test::writeCliLogin(path, content));
    Stores stores;
    ProfileStore &profiles = stores.profiles;
    showDialog(stores, path);
    const int before = profiles.profiles().size();

    auto *label = m_dialog->findChild<QLabel *>(QStringLiteral("cliLoginLabel"));
    QVERIFY(label && label->isVisible());
    QCOMPARE(label->text(), QStringLiteral("The E2B CLI is logged in with the team “Ada's team” (team-42)."));
    auto *use = m_dialog->findChild<QPushButton *>(QStringLiteral("importCliLoginButton"));
    QVERIFY(use && use->isVisible() && use->isEnabled());
    use->click();
    auto *confirmation = m_dialog->findChild<QMessageBox *>(QStringLiteral("cliLoginConfirmation"));
    QVERIFY(confirmation);
    QVERIFY(confirmation->text().contains(QStringLiteral("the team “Ada's team” (team-42)")));
    QCOMPARE(profiles.profiles().size(), before);

    QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
    confirmation->findChild<QPushButton *>(QStringLiteral("copyCliKeyButton"))->click();
    QVERIFY(saved.wait(20000));
    const QString id = saved.first().at(0).toString();
    const std::optional<Profile> profile = profiles.profile(id);
    QVERIFY(profile);
    QVERIFY(profile->kind == Profile::Kind::E2B);
    QCOMPARE(profiles.profiles().size(), before + 1);
    QCOMPARE(m_dialog->findChild<QListWidget *>()->currentItem()->data(Qt::UserRole).toString(), id);
    QCOMPARE(m_dialog->testResult(), QStringLiteral("Added the profile \"%1\" with the E2B CLI's key for the team "
                                                    "“Ada's team” (team-42), stored in the system keychain.")
                                         .arg(profile->name));

    KeyStore fresh;
    std::unique_ptr<ReadKeyJob> read(fresh.readKey(id));
    QVERIFY(test::runJob(read.get()));
    QVERIFY(read->source() == KeySource::Keychain);
    QVERIFY2(read->key() == key, "the keychain holds another key");
    QVERIFY(!test::settingsFileContains(key));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll() == content);

    // Asked again, the same key finds its profile instead of making a second.
    use->click();
    confirmation = m_dialog->findChild<QMessageBox *>(QStringLiteral("cliLoginConfirmation"));
    QVERIFY(confirmation);
    QSignalSpy again(m_dialog.get(), &ProfilesDialog::profileSaved);
    confirmation->findChild<QPushButton *>(QStringLiteral("copyCliKeyButton"))->click();
    QVERIFY(again.wait(20000));
    QCOMPARE(again.first().at(0).toString(), id);
    QCOMPARE(profiles.profiles().size(), before + 1);
    QVERIFY2(m_dialog->testResult().contains(QStringLiteral("already has the E2B CLI's key")),
             qPrintable(m_dialog->testResult()));

    QVERIFY(test::runJob(fresh.deleteKey(id)));
    profiles.remove(id);
}

void TestProfilesDialog::unusableCliLoginIsExplained()
{
    const QString path = m_configDir.filePath(QStringLiteral("broken/.e2b/config.json"));
    QJsonObject config = test::cliLoginJson(2, QStringLiteral("e2b_x"), QStringLiteral("sk_e2b_token"));
    config.insert(QStringLiteral("version"), 7);
    QVERIFY(test::writeCliLogin(path, QJsonDocument(config).toJson()));
    Stores stores;
    showDialog(stores, path);
    auto *use = m_dialog->findChild<QPushButton *>(QStringLiteral("importCliLoginButton"));
    QVERIFY(use && use->isVisible());
    QVERIFY(!use->isEnabled());
    auto *label = m_dialog->findChild<QLabel *>(QStringLiteral("cliLoginLabel"));
    QVERIFY2(label->text().contains(QStringLiteral("has a version this app does not know")), qPrintable(label->text()));

    // No file: nothing offered.
    m_dialog->setCliLoginPath(m_configDir.filePath(QStringLiteral("nowhere/config.json")));
    QVERIFY(use->isHidden());
    QVERIFY(label->isHidden());
}

QTEST_MAIN(TestProfilesDialog)
#include "tst_profilesdialog.moc"
