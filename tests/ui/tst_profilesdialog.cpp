#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profilesdialog.h"
#include "uitest.h"
#include "localbackend.h"

#include <QDir>
#include <QFile>
#include <QListWidget>
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
    void listsTheLocalProfileWithOnlyItsPortEditable();

private:
    QLineEdit *field(const QString &accessibleName) const;
    QPushButton *button(const QString &text) const;

    QTemporaryDir m_configDir;
    std::unique_ptr<ProfilesDialog> m_dialog;
};

void TestProfilesDialog::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_profilesdialog"));
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

    QSettings settings;
    ProfileStore profiles(&settings);
    KeyStore keys;
    QNetworkAccessManager network;
    m_dialog = std::make_unique<ProfilesDialog>(&profiles, &keys, &network);
    m_dialog->show();
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
    QCOMPARE(profiles.localProfile().localPort(), quint16(49900));

    apiUrl->setText(QStringLiteral("http://127.0.0.1:%1").arg(backend.port()));
    QSignalSpy saved(m_dialog.get(), &ProfilesDialog::profileSaved);
    button(QStringLiteral("&Save"))->click();
    QVERIFY(saved.wait(20000));
    QCOMPARE(saved.first().at(0).toString(), Profile::localId());
    QCOMPARE(profiles.localProfile().localPort(), backend.port());

    list->setCurrentRow(0);
    QCOMPARE(apiUrl->text(), QStringLiteral("http://127.0.0.1:%1").arg(backend.port()));
    button(QStringLiteral("&Test connection"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog->testResult().contains(QStringLiteral("Connected")), 20000);
    QVERIFY(!m_dialog->testResult().contains(backend.apiKey()));
    QVERIFY(!test::settingsFileContains(backend.apiKey()));
}

void TestProfilesDialog::savesTheKeyInTheKeychainOnly()
{
    QSettings settings;
    ProfileStore profiles(&settings);
    KeyStore keys;
    QNetworkAccessManager network;
    m_dialog = std::make_unique<ProfilesDialog>(&profiles, &keys, &network);
    m_dialog->show();

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
    const std::optional<Profile> profile = profiles.profile(id);
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

QTEST_MAIN(TestProfilesDialog)
#include "tst_profilesdialog.moc"
