// The E2B CLI's login (~/.e2b/config.json) read and imported as an E2B profile, with
// the key going to a real Secret Service (gnome-keyring inside dbus-run-session, see
// tools/with-keyring.sh). Keys are compared with QVERIFY, never QCOMPARE (which
// prints both values).
#include "profiles/e2bclilogin.h"
#include "profiles/importkeyjob.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/saveprofilejob.h"
#include "clilogin.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace sd;

namespace {

QString uniqueSecret(const char *prefix)
{
    return QLatin1String(prefix) + QUuid::createUuid().toString(QUuid::Id128);
}

using test::cliLoginJson;

bool run(Job *job)
{
    job->setAutoDelete(false);
    QSignalSpy spy(job, &Job::finished);
    job->start();
    if (!spy.wait(30000))
        return false;
    return spy.count() == 1;
}

struct FileState
{
    QByteArray sha;
    QDateTime modified;
    QFile::Permissions permissions;
    bool operator==(const FileState &) const = default;
};

FileState fileState(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QFileInfo info(path);
    return { QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256), info.lastModified(),
             info.permissions() };
}

} // namespace

class TestCliLogin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void readsAProjectLogin();
    void readsATeamLogin();
    void missingFileIsNoLogin();
    void unusableFilesSayWhy_data();
    void unusableFilesSayWhy();
    void importStoresTheKeyInTheKeychain_data();
    void importStoresTheKeyInTheKeychain();
    void keyAlreadyStoredIsReused();
    void unusableLoginImportsNothing();

private:
    QString writeConfig(const QByteArray &content);
    QString writeConfig(const QJsonObject &config) { return writeConfig(QJsonDocument(config).toJson()); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    KeyStore m_keys;
    QStringList m_createdProfiles;
};

void TestCliLogin::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("sandbox-desk.ini")), QSettings::IniFormat);
    qunsetenv("E2B_DOMAIN");
}

void TestCliLogin::cleanup()
{
    qunsetenv("E2B_DOMAIN");
    // Leave the keyring as it was.
    for (const QString &id : std::as_const(m_createdProfiles)) {
        std::unique_ptr<DeleteKeyJob> remove(m_keys.deleteKey(id));
        run(remove.get());
    }
    m_createdProfiles.clear();
}

QString TestCliLogin::writeConfig(const QByteArray &content)
{
    const QString path = m_dir->filePath(QStringLiteral(".e2b/config.json"));
    return test::writeCliLogin(path, content) ? path : QString();
}

void TestCliLogin::readsAProjectLogin()
{
    const QString key = uniqueSecret("e2b_");
    const QString token = uniqueSecret("sk_e2b_");
    const QString path = writeConfig(cliLoginJson(2, key, token));
    const FileState before = fileState(path);

    const E2bCliLogin login = E2bCliLogin::read(path);
    QVERIFY(login.exists());
    QVERIFY2(login.isUsable(), qPrintable(login.problem()));
    QVERIFY(login.owner() == E2bCliLogin::Owner::Project);
    QCOMPARE(login.ownerName(), QStringLiteral("Data team sandbox"));
    QCOMPARE(login.ownerId(), QStringLiteral("prj-7f3a"));
    QVERIFY(login.apiKey() == key);
    QCOMPARE(login.ownerDescription(), QStringLiteral("the project “Data team sandbox” (prj-7f3a)"));
    QVERIFY(!login.ownerDescription().contains(key));
    QVERIFY(fileState(path) == before);
}

void TestCliLogin::readsATeamLogin()
{
    const QString key = uniqueSecret("e2b_");
    const QString path = writeConfig(cliLoginJson(1, key, uniqueSecret("sk_e2b_")));
    const E2bCliLogin login = E2bCliLogin::read(path);
    QVERIFY2(login.isUsable(), qPrintable(login.problem()));
    QVERIFY(login.owner() == E2bCliLogin::Owner::Team);
    QCOMPARE(login.ownerName(), QStringLiteral("Ada's team"));
    QCOMPARE(login.ownerId(), QStringLiteral("team-42"));
    QVERIFY(login.apiKey() == key);
    QCOMPARE(login.ownerDescription(), QStringLiteral("the team “Ada's team” (team-42)"));
}

void TestCliLogin::missingFileIsNoLogin()
{
    const E2bCliLogin login = E2bCliLogin::read(m_dir->filePath(QStringLiteral(".e2b/config.json")));
    QVERIFY(!login.exists());
    QVERIFY(!login.isUsable());
    QVERIFY(login.apiKey().isEmpty());
    QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral(".e2b")))); // nothing created
}

void TestCliLogin::unusableFilesSayWhy_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expectedProblem");
    const QString key = QStringLiteral("e2b_planted_key_0123456789");
    QJsonObject v2 = cliLoginJson(2, key, QStringLiteral("sk_e2b_token"));
    QTest::newRow("not JSON") << QByteArray("{\"version\": 2, \"projectApiKey\": \"" + key.toUtf8() + "\"")
                              << QStringLiteral("is not a JSON object");
    QTest::newRow("an array") << QByteArray("[1, 2]") << QStringLiteral("is not a JSON object");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("is not a JSON object");
    QJsonObject v3 = v2;
    v3.insert(QStringLiteral("version"), 3);
    QTest::newRow("unknown version") << QJsonDocument(v3).toJson() << QStringLiteral("version this app does not know");
    QJsonObject noVersion = v2;
    noVersion.remove(QStringLiteral("version"));
    QTest::newRow("no version") << QJsonDocument(noVersion).toJson() << QStringLiteral("version this app does not know");
    QJsonObject noKey = v2;
    noKey.remove(QStringLiteral("projectApiKey"));
    QTest::newRow("no key") << QJsonDocument(noKey).toJson() << QStringLiteral("holds no API key with its project");
    QJsonObject numberKey = v2;
    numberKey.insert(QStringLiteral("projectApiKey"), 12345);
    QTest::newRow("key not a string") << QJsonDocument(numberKey).toJson()
                                      << QStringLiteral("holds no API key with its project");
    QJsonObject noProject = v2;
    noProject.remove(QStringLiteral("projectName"));
    QTest::newRow("no project name") << QJsonDocument(noProject).toJson()
                                     << QStringLiteral("holds no API key with its project");
    // Version 1's fields under version 2 are not the CLI's shape either.
    QJsonObject mixed = cliLoginJson(1, key, QStringLiteral("sk_e2b_token"));
    mixed.insert(QStringLiteral("version"), 2);
    QTest::newRow("team fields under version 2") << QJsonDocument(mixed).toJson()
                                                 << QStringLiteral("holds no API key with its project");
    QJsonObject teamWithoutKey = cliLoginJson(1, key, QStringLiteral("sk_e2b_token"));
    teamWithoutKey.insert(QStringLiteral("teamApiKey"), QStringLiteral("  "));
    QTest::newRow("blank team key") << QJsonDocument(teamWithoutKey).toJson()
                                    << QStringLiteral("holds no API key with its team");
}

void TestCliLogin::unusableFilesSayWhy()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expectedProblem);
    const QString path = writeConfig(content);
    QVERIFY(!path.isEmpty());
    const FileState before = fileState(path);
    const E2bCliLogin login = E2bCliLogin::read(path);
    QVERIFY(login.exists());
    QVERIFY(!login.isUsable());
    QVERIFY(login.apiKey().isEmpty());
    QVERIFY2(login.problem().contains(expectedProblem), qPrintable(login.problem()));
    QVERIFY2(login.problem().contains(path), qPrintable(login.problem()));
    QVERIFY(!login.problem().contains(QStringLiteral("e2b_planted_key")));
    QVERIFY(!login.problem().contains(QStringLiteral("sk_e2b_token")));
    QVERIFY(fileState(path) == before);
}

void TestCliLogin::importStoresTheKeyInTheKeychain_data()
{
    QTest::addColumn<int>("version");
    QTest::addColumn<QString>("domainVariable");
    QTest::addColumn<QString>("expectedDomain");
    QTest::addColumn<QString>("expectedName");
    QTest::newRow("project login") << 2 << QString() << QStringLiteral("e2b.app") << QStringLiteral("E2B");
    QTest::newRow("team login") << 1 << QString() << QStringLiteral("e2b.app") << QStringLiteral("E2B");
    // The file names no domain: the CLI (and so the profile) takes E2B_DOMAIN.
    QTest::newRow("E2B_DOMAIN") << 2 << QStringLiteral("sandboxes.example.test")
                                << QStringLiteral("sandboxes.example.test")
                                << QStringLiteral("E2B (sandboxes.example.test)");
}

void TestCliLogin::importStoresTheKeyInTheKeychain()
{
    QFETCH(int, version);
    QFETCH(QString, domainVariable);
    QFETCH(QString, expectedDomain);
    QFETCH(QString, expectedName);
    if (!domainVariable.isEmpty())
        qputenv("E2B_DOMAIN", domainVariable.toUtf8());
    const QString key = uniqueSecret("e2b_");
    const QString path = writeConfig(cliLoginJson(version, key, uniqueSecret("sk_e2b_")));
    const FileState before = fileState(path);
    ProfileStore profiles(m_settings.get());

    std::unique_ptr<ImportKeyJob> job(ImportKeyJob::fromCliLogin(&profiles, &m_keys, E2bCliLogin::read(path)));
    QVERIFY(run(job.get()));
    if (!job->profileId().isEmpty())
        m_createdProfiles.append(job->profileId());
    QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    QVERIFY(job->created());
    QVERIFY(job->notice().isEmpty()); // the keychain took it
    const std::optional<Profile> profile = profiles.profile(job->profileId());
    QVERIFY(profile);
    QVERIFY(profile->kind == Profile::Kind::E2B);
    QCOMPARE(profile->domain, expectedDomain);
    QCOMPARE(profile->name, expectedName);

    // In the keychain: a fresh store reads it from there, not from memory.
    KeyStore fresh;
    std::unique_ptr<ReadKeyJob> read(fresh.readKey(profile->id));
    QVERIFY(run(read.get()));
    QVERIFY(read->found());
    QVERIFY(read->source() == KeySource::Keychain);
    QVERIFY2(read->key() == key, "the keychain holds another key");
    // Never in the settings file, and the CLI's file is as it was.
    m_settings->sync();
    QFile ini(m_settings->fileName());
    QVERIFY(ini.open(QIODevice::ReadOnly));
    QVERIFY(!ini.readAll().contains(key.toUtf8()));
    QVERIFY(fileState(path) == before);
}

void TestCliLogin::keyAlreadyStoredIsReused()
{
    const QString key = uniqueSecret("e2b_");
    const QString path = writeConfig(cliLoginJson(2, key, uniqueSecret("sk_e2b_")));
    ProfileStore profiles(m_settings.get());
    std::unique_ptr<SaveProfileJob> save(
        new SaveProfileJob(&profiles, &m_keys, Profile::e2b(QStringLiteral("My E2B")), key));
    QVERIFY(run(save.get()));
    QVERIFY(save->keyStored());
    m_createdProfiles.append(save->profileId());
    // Another E2B profile on the domain with another key is passed over.
    std::unique_ptr<SaveProfileJob> other(
        new SaveProfileJob(&profiles, &m_keys, Profile::e2b(QStringLiteral("Other")), uniqueSecret("e2b_")));
    QVERIFY(run(other.get()));
    m_createdProfiles.append(other->profileId());
    const int before = profiles.profiles().size();

    std::unique_ptr<ImportKeyJob> job(ImportKeyJob::fromCliLogin(&profiles, &m_keys, E2bCliLogin::read(path)));
    QVERIFY(run(job.get()));
    QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
    QVERIFY(!job->created());
    QCOMPARE(job->profileId(), save->profileId());
    QCOMPARE(job->profileName(), QStringLiteral("My E2B"));
    QCOMPARE(profiles.profiles().size(), before);
}

void TestCliLogin::unusableLoginImportsNothing()
{
    const QString path = writeConfig(QByteArray("{\"version\": 2, \"projectApiKey\": "));
    ProfileStore profiles(m_settings.get());
    const int before = profiles.profiles().size();
    std::unique_ptr<ImportKeyJob> job(ImportKeyJob::fromCliLogin(&profiles, &m_keys, E2bCliLogin::read(path)));
    QVERIFY(run(job.get()));
    QVERIFY(job->hasError());
    QVERIFY(job->error().kind() == Error::Kind::Rejected);
    QVERIFY2(job->error().message().contains(QStringLiteral("is not a JSON object")),
             qPrintable(job->error().message()));
    QVERIFY(job->profileId().isEmpty());
    QCOMPARE(profiles.profiles().size(), before);

    // No file at all: the sentence says the CLI is not logged in.
    std::unique_ptr<ImportKeyJob> none(ImportKeyJob::fromCliLogin(
        &profiles, &m_keys, E2bCliLogin::read(m_dir->filePath(QStringLiteral("nowhere/config.json")))));
    QVERIFY(run(none.get()));
    QVERIFY2(none->error().message().contains(QStringLiteral("not logged in")), qPrintable(none->error().message()));
    QCOMPARE(profiles.profiles().size(), before);
}

QTEST_GUILESS_MAIN(TestCliLogin)
#include "tst_clilogin.moc"
