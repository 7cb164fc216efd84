#include "clilogin.h"
#include "firstrunhint.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/saveprofilejob.h"
#include "uitest.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QUuid>

using namespace sd;

namespace {

constexpr int kWait = 20000;

using test::runJob;

// A fake key, different in every run so no earlier entry can answer for it.
QString fakeKey()
{
    return QStringLiteral("e2b_test_key_") + QUuid::createUuid().toString(QUuid::Id128);
}

QList<Profile> e2bProfiles(const MainWindow &window)
{
    QList<Profile> found;
    for (const Profile &profile : window.profiles()->profiles()) {
        if (profile.kind == Profile::Kind::E2B)
            found.append(profile);
    }
    return found;
}

using test::settingsFileContains;

/// Clicks `button` and waits for the hint's import to end; false when it did not
/// end or ended badly (the hint's text says why).
bool importBy(FirstRunHint *hint, QAbstractButton *button)
{
    QSignalSpy imported(hint, &FirstRunHint::importFinished);
    button->click();
    return imported.wait(kWait) && imported.first().at(0).toBool();
}

// Set in the child process of withoutKeychainTheHintSaysSo().
constexpr char kNoKeychainMarker[] = "SD_TEST_NO_KEYCHAIN";

} // namespace

/// The first-run hint against the real Secret Service (the suite runs inside
/// dbus-run-session with an unlocked gnome-keyring).
class TestFirstRunHint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void useEnvironmentKeyCreatesAProfile_data();
    void useEnvironmentKeyCreatesAProfile();
    void existingProfileWithTheKeyIsReused();
    void withoutKeyTheHintOnlyExplains();
    void withoutKeychainTheHintSaysSo();
    void cliLoginBecomesAProfileInTwoClicks_data();
    void cliLoginBecomesAProfileInTwoClicks();
    void cancellingTheCliConfirmationStoresNothing();
    void cliKeyAlreadyStoredIsReused();
    void unusableCliLoginIsExplained();

private:
    std::unique_ptr<MainWindow> makeWindow();
    /// Writes the E2B CLI's login for the next window; returns its path.
    QString writeCliLogin(const QByteArray &content);
    /// Clicks the hint's "Use the E2B CLI's login…" and returns the confirmation.
    QMessageBox *askForCliLogin();
    /// The hint's button for `objectName`, or null.
    QToolButton *hintButton(const QString &objectName) const;

    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_local;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
    KeyStore m_keys;
    QStringList m_createdProfiles;
    QString m_cliLoginPath;
};

void TestFirstRunHint::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_firstrunhint"));
    m_backend = std::make_unique<test::LocalBackend>();
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_local = test::backendSettings(*m_backend);
}

void TestFirstRunHint::init()
{
    QSettings().clear(); // a first launch
    m_cliLoginPath.clear();
    qunsetenv("E2B_API_KEY");
    qunsetenv("E2B_DOMAIN");
}

void TestFirstRunHint::cleanup()
{
    m_window.reset();
    qunsetenv("E2B_API_KEY");
    qunsetenv("E2B_DOMAIN");
    // Leave the keyring as it was.
    for (const QString &id : std::as_const(m_createdProfiles))
        runJob(m_keys.deleteKey(id));
    m_createdProfiles.clear();
}

std::unique_ptr<MainWindow> TestFirstRunHint::makeWindow()
{
    return test::makeWindow(m_local, m_journalDir.path(), false, m_cliLoginPath);
}

QString TestFirstRunHint::writeCliLogin(const QByteArray &content)
{
    m_cliLoginPath = m_configDir.filePath(QStringLiteral("home/.e2b/config.json"));
    return test::writeCliLogin(m_cliLoginPath, content) ? m_cliLoginPath : QString();
}

QMessageBox *TestFirstRunHint::askForCliLogin()
{
    QToolButton *use = hintButton(QStringLiteral("useCliLoginButton"));
    if (!use || !use->isVisible())
        return nullptr;
    use->click();
    return m_window->firstRunHint()->findChild<QMessageBox *>(QStringLiteral("cliLoginConfirmation"));
}

QToolButton *TestFirstRunHint::hintButton(const QString &objectName) const
{
    FirstRunHint *hint = m_window->firstRunHint();
    return hint ? hint->findChild<QToolButton *>(objectName) : nullptr;
}

void TestFirstRunHint::useEnvironmentKeyCreatesAProfile_data()
{
    QTest::addColumn<QString>("domainVariable");
    QTest::addColumn<QString>("expectedDomain");
    QTest::addColumn<QString>("expectedName");
    QTest::newRow("default domain") << QString() << QStringLiteral("e2b.app") << QStringLiteral("E2B");
    // .test never resolves: the switch to the profile fails without touching the network.
    QTest::newRow("E2B_DOMAIN") << QStringLiteral("sandboxes.example.test") << QStringLiteral("sandboxes.example.test")
                                << QStringLiteral("E2B (sandboxes.example.test)");
}

void TestFirstRunHint::useEnvironmentKeyCreatesAProfile()
{
    QFETCH(QString, domainVariable);
    QFETCH(QString, expectedDomain);
    QFETCH(QString, expectedName);
    const QString key = fakeKey();
    qputenv("E2B_API_KEY", key.toUtf8());
    if (!domainVariable.isEmpty())
        qputenv("E2B_DOMAIN", domainVariable.toUtf8());

    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY2(hint->text().contains(QStringLiteral("Local (this computer)")), qPrintable(hint->text()));
    QVERIFY(hint->text().contains(QStringLiteral("Profiles")));
    QVERIFY(!hint->text().contains(key));
    QVERIFY(hint->accessibleName().size() > 0);
    QToolButton *use = hintButton(QStringLiteral("useEnvironmentKeyButton"));
    QVERIFY(use);
    QVERIFY(use->isVisible());
    QCOMPARE(use->text(), QStringLiteral("Use E2B_API_KEY"));
    QVERIFY(!use->accessibleName().isEmpty());
    QVERIFY(e2bProfiles(*m_window).isEmpty());

    QVERIFY2(importBy(hint, use), qPrintable(hint->text()));

    // One new E2B profile on the domain, and the window switched to it.
    const QList<Profile> created = e2bProfiles(*m_window);
    QCOMPARE(created.size(), 1);
    const Profile profile = created.first();
    m_createdProfiles.append(profile.id);
    QCOMPARE(profile.domain, expectedDomain);
    QCOMPARE(profile.name, expectedName);
    QCOMPARE(m_window->profileId(), profile.id);
    auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("profileCombo"));
    QCOMPARE(combo->currentData().toString(), profile.id);
    QVERIFY2(hint->text().contains(expectedName), qPrintable(hint->text()));
    QVERIFY2(hint->text().contains(QStringLiteral("keychain")), qPrintable(hint->text()));
    QVERIFY(hint->type() == MessageBanner::Type::Positive);
    QVERIFY(!hint->text().contains(key));

    // The key is in the keychain (a fresh store reads it from there, not from memory)...
    KeyStore keys;
    std::unique_ptr<ReadKeyJob> read(keys.readKey(profile.id));
    QVERIFY(runJob(read.get()));
    QVERIFY(read->found());
    QVERIFY(read->source() == KeySource::Keychain);
    QVERIFY2(read->key() == key, "the keychain holds another key"); // never print a key
    // ...and nowhere in the settings file.
    QVERIFY(!settingsFileContains(key));
    QVERIFY(settingsFileContains(profile.id)); // the file is the one the profiles live in

    // The cloud is not reachable here (and would refuse a fake key): the window shows
    // why in its banner and keeps running.
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connectionState(), MainWindow::ConnectionState::Failed, 45000);
    QVERIFY(m_window->banner()->isVisible());
    QVERIFY(!m_window->banner()->text().isEmpty());
    QVERIFY(!m_window->banner()->text().contains(key));

    // The next launch shows no hint.
    m_window.reset();
    m_window = makeWindow();
    QVERIFY(!m_window->firstRunHint());
}

void TestFirstRunHint::existingProfileWithTheKeyIsReused()
{
    const QString key = fakeKey();
    // An E2B profile that already holds the key, as the profiles dialog stores one.
    KeyStore keys;
    QSettings settings;
    ProfileStore profiles(&settings);
    std::unique_ptr<SaveProfileJob> save(
        new SaveProfileJob(&profiles, &keys, Profile::e2b(QStringLiteral("My E2B")), key));
    QVERIFY(runJob(save.get()));
    QVERIFY(save->keyStored());
    const QString existing = save->profileId();
    m_createdProfiles.append(existing);

    qputenv("E2B_API_KEY", key.toUtf8());
    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(hint);
    QToolButton *use = hintButton(QStringLiteral("useEnvironmentKeyButton"));
    QVERIFY(use);
    QVERIFY2(importBy(hint, use), qPrintable(hint->text()));

    // No duplicate: the window uses the profile that had the key.
    const QList<Profile> e2b = e2bProfiles(*m_window);
    QCOMPARE(e2b.size(), 1);
    QCOMPARE(e2b.first().id, existing);
    QCOMPARE(m_window->profileId(), existing);
    QVERIFY2(hint->text().contains(QStringLiteral("already")), qPrintable(hint->text()));
    QVERIFY(hint->text().contains(QStringLiteral("My E2B")));

    m_window.reset();
    m_window = makeWindow();
    QVERIFY(!m_window->firstRunHint());
}

void TestFirstRunHint::withoutKeyTheHintOnlyExplains()
{
    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY(hint->text().contains(QStringLiteral("Local (this computer)")));
    QVERIFY(!hint->text().contains(QStringLiteral("E2B_API_KEY")));
    QVERIFY(!hintButton(QStringLiteral("useEnvironmentKeyButton")));
    QToolButton *dismiss = hintButton(QStringLiteral("dismissHintButton"));
    QVERIFY(dismiss);
    QVERIFY(dismiss->isVisible());
    QVERIFY(!dismiss->accessibleName().isEmpty());
    QVERIFY(hintButton(QStringLiteral("hintProfilesButton")));

    // Closing the window without an answer keeps the hint for the next launch.
    m_window.reset();
    m_window = makeWindow();
    QVERIFY(m_window->firstRunHint());

    m_window->firstRunHint()->findChild<QToolButton *>(QStringLiteral("dismissHintButton"))->click();
    QVERIFY(m_window->firstRunHint()->isHidden());
    QVERIFY(e2bProfiles(*m_window).isEmpty());
    QCOMPARE(m_window->profileId(), Profile::localId());

    // Dismissed for good: not on the next launch, even with a key set by then.
    m_window.reset();
    qputenv("E2B_API_KEY", fakeKey().toUtf8());
    m_window = makeWindow();
    QVERIFY(!m_window->firstRunHint());
}

void TestFirstRunHint::withoutKeychainTheHintSaysSo()
{
    // The keychain of this process is the suite's; a child with no D-Bus session
    // (and no display to autolaunch one) runs NoKeychainScenario instead.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(name));
    env.insert(QLatin1String(kNoKeychainMarker), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QProcess child;
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    QSignalSpy finished(&child, &QProcess::finished);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(finished.wait(120000));
    const QString output = QString::fromLocal8Bit(child.readAll());
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("PASS   : NoKeychainScenario::useEnvironmentKey()")), qPrintable(output));
}

void TestFirstRunHint::cliLoginBecomesAProfileInTwoClicks_data()
{
    QTest::addColumn<int>("version");
    QTest::addColumn<QString>("owner");
    QTest::newRow("project login") << 2 << QStringLiteral("the project “Data team sandbox” (prj-7f3a)");
    QTest::newRow("team login") << 1 << QStringLiteral("the team “Ada's team” (team-42)");
}

void TestFirstRunHint::cliLoginBecomesAProfileInTwoClicks()
{
    QFETCH(int, version);
    QFETCH(QString, owner);
    const QString key = fakeKey();
    const QString token = fakeKey();
    const QString path = writeCliLogin(QJsonDocument(test::cliLoginJson(version, key, token)).toJson());
    QVERIFY(!path.isEmpty());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();

    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(hint);
    QVERIFY2(hint->text().contains(QStringLiteral("The E2B CLI is logged in with ") + owner), qPrintable(hint->text()));
    QVERIFY(!hint->text().contains(key));
    QVERIFY(!hintButton(QStringLiteral("useEnvironmentKeyButton"))); // no E2B_API_KEY here

    // Click one: the question names the project or team and the file, not the key.
    QMessageBox *confirmation = askForCliLogin();
    QVERIFY(confirmation);
    QVERIFY(confirmation->isVisible());
    QVERIFY2(confirmation->text().contains(owner), qPrintable(confirmation->text()));
    QVERIFY(confirmation->text().contains(path));
    QVERIFY(confirmation->text().contains(QStringLiteral("keychain")));
    QVERIFY(!confirmation->text().contains(key));
    QVERIFY(!confirmation->informativeText().contains(token));
    QVERIFY(e2bProfiles(*m_window).isEmpty()); // nothing copied before the answer

    // Click two.
    auto *copy = confirmation->findChild<QPushButton *>(QStringLiteral("copyCliKeyButton"));
    QVERIFY(copy);
    QVERIFY2(importBy(hint, copy), qPrintable(hint->text()));

    const QList<Profile> created = e2bProfiles(*m_window);
    QCOMPARE(created.size(), 1);
    const Profile profile = created.first();
    m_createdProfiles.append(profile.id);
    QCOMPARE(profile.name, QStringLiteral("E2B"));
    QCOMPARE(profile.domain, QStringLiteral("e2b.app"));
    QCOMPARE(m_window->profileId(), profile.id);
    QVERIFY2(hint->text().contains(QStringLiteral("Added the profile \"E2B\" with the E2B CLI's key for ") + owner),
             qPrintable(hint->text()));
    QVERIFY(hint->type() == MessageBanner::Type::Positive);
    QVERIFY(!hint->text().contains(key));

    KeyStore keys;
    std::unique_ptr<ReadKeyJob> read(keys.readKey(profile.id));
    QVERIFY(runJob(read.get()));
    QVERIFY(read->source() == KeySource::Keychain);
    QVERIFY2(read->key() == key, "the keychain holds another key");
    QVERIFY(!settingsFileContains(key));
    QVERIFY(!settingsFileContains(token));
    // The CLI's file is as it was.
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll() == before);

    m_window.reset();
    m_window = makeWindow();
    QVERIFY(!m_window->firstRunHint());
}

void TestFirstRunHint::cancellingTheCliConfirmationStoresNothing()
{
    const QString key = fakeKey();
    QVERIFY(!writeCliLogin(QJsonDocument(test::cliLoginJson(2, key, fakeKey())).toJson()).isEmpty());
    m_window = makeWindow();
    QMessageBox *confirmation = askForCliLogin();
    QVERIFY(confirmation);
    QPointer<QMessageBox> guard(confirmation);
    confirmation->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!guard);
    QCoreApplication::processEvents();
    QVERIFY(e2bProfiles(*m_window).isEmpty());
    QCOMPARE(m_window->profileId(), Profile::localId());
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(!hint->isBusy());
    // Still offered, here and on the next launch.
    QVERIFY(hintButton(QStringLiteral("useCliLoginButton"))->isEnabled());
    m_window.reset();
    m_window = makeWindow();
    QVERIFY(m_window->firstRunHint());
    QVERIFY(hintButton(QStringLiteral("useCliLoginButton")));
}

void TestFirstRunHint::cliKeyAlreadyStoredIsReused()
{
    const QString key = fakeKey();
    KeyStore keys;
    QSettings settings;
    ProfileStore profiles(&settings);
    std::unique_ptr<SaveProfileJob> save(
        new SaveProfileJob(&profiles, &keys, Profile::e2b(QStringLiteral("My E2B")), key));
    QVERIFY(runJob(save.get()));
    const QString existing = save->profileId();
    m_createdProfiles.append(existing);
    QVERIFY(!writeCliLogin(QJsonDocument(test::cliLoginJson(2, key, fakeKey())).toJson()).isEmpty());

    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QMessageBox *confirmation = askForCliLogin();
    QVERIFY(confirmation);
    auto *copy = confirmation->findChild<QPushButton *>(QStringLiteral("copyCliKeyButton"));
    QVERIFY(copy);
    QVERIFY2(importBy(hint, copy), qPrintable(hint->text()));

    const QList<Profile> e2b = e2bProfiles(*m_window);
    QCOMPARE(e2b.size(), 1);
    QCOMPARE(e2b.first().id, existing);
    QCOMPARE(m_window->profileId(), existing);
    QCOMPARE(hint->text(), QStringLiteral("The profile \"My E2B\" already has the E2B CLI's key for the project "
                                          "“Data team sandbox” (prj-7f3a); switched to it."));
}

void TestFirstRunHint::unusableCliLoginIsExplained()
{
    const QString path = writeCliLogin(QByteArray("{\"version\": 2, \"projectApiKey\": \"e2b_cut"));
    QVERIFY(!path.isEmpty());
    m_window = makeWindow();
    FirstRunHint *hint = m_window->firstRunHint();
    QVERIFY(hint);
    QVERIFY2(hint->text().contains(QStringLiteral("The E2B CLI's login cannot be used: %1 is not a JSON object.")
                                       .arg(path)),
             qPrintable(hint->text()));
    QVERIFY(!hint->text().contains(QStringLiteral("e2b_cut")));
    QVERIFY(!hintButton(QStringLiteral("useCliLoginButton")));
}

/// Run in a child process with no keychain: the hint still makes the profile, keeps
/// the key for this session only, and says so with the KeyStore's sentence.
class NoKeychainScenario : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_configDir.isValid());
        test::useTestSettings(m_configDir.path(), QStringLiteral("tst_firstrunhint_nokeychain"));
        QVERIFY2(m_backend.start(), qPrintable(m_backend.errorString()));
    }

    void useEnvironmentKey()
    {
        const QString key = fakeKey();
        qputenv("E2B_API_KEY", key.toUtf8());
        auto window = test::makeWindow(test::backendSettings(m_backend), m_journalDir.path());
        FirstRunHint *hint = window->firstRunHint();
        QVERIFY(hint);
        auto *use = hint->findChild<QToolButton *>(QStringLiteral("useEnvironmentKeyButton"));
        QVERIFY(use);
        QVERIFY2(importBy(hint, use), qPrintable(hint->text()));
        QVERIFY2(hint->text().contains(KeyStore::unavailableMessage()), qPrintable(hint->text()));
        QVERIFY(hint->type() == MessageBanner::Type::Warning);
        const QList<Profile> created = e2bProfiles(*window);
        QCOMPARE(created.size(), 1);
        QCOMPARE(window->profileId(), created.first().id);
        QVERIFY(!settingsFileContains(key));
        window.reset();
        QVERIFY(!test::makeWindow(test::backendSettings(m_backend), m_journalDir.path())->firstRunHint());
    }

private:
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
    test::LocalBackend m_backend;
};

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTEST_SET_MAIN_SOURCE_PATH
    if (qEnvironmentVariableIsSet(kNoKeychainMarker)) {
        NoKeychainScenario scenario;
        return QTest::qExec(&scenario, argc, argv);
    }
    TestFirstRunHint test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_firstrunhint.moc"
