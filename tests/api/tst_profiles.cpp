// Profiles in QSettings, their resolution into ConnectionSettings (environment
// overrides like the official SDK), and the local backend's key file.
#include "local/apikeyfile.h"
#include "profiles/profilestore.h"
#include "profiles/resolveprofilejob.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

namespace {
bool run(Job &job)
{
    job.setAutoDelete(false);
    QSignalSpy spy(&job, &Job::finished);
    job.start();
    if (!spy.wait(20000))
        return false;
    QCoreApplication::processEvents();
    return spy.count() == 1;
}

QProcessEnvironment environment(const QList<QPair<QString, QString>> &values)
{
    QProcessEnvironment env;
    for (const auto &[name, value] : values)
        env.insert(name, value);
    return env;
}
} // namespace

class TestProfiles : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_settings = std::make_unique<QSettings>(
            m_dir->filePath(QStringLiteral("sandbox-desk.ini")), QSettings::IniFormat);
    }

    void cleanup()
    {
        m_settings.reset();
        m_dir.reset();
    }

    void localIsAlwaysThere()
    {
        ProfileStore store(m_settings.get());
        const QList<Profile> profiles = store.profiles();
        QCOMPARE(profiles.size(), 1);
        const Profile &local = profiles.first();
        QCOMPARE(local.id, QStringLiteral("local"));
        QCOMPARE(local.name, QStringLiteral("Local (this computer)"));
        QVERIFY(local.isLocal());
        QCOMPARE(local.apiUrl, QUrl(QStringLiteral("http://127.0.0.1:49900")));
        QCOMPARE(local.sandboxUrl, local.apiUrl);
        QCOMPARE(store.lastUsed().id, QStringLiteral("local"));
        QVERIFY(!store.remove(QStringLiteral("local")));
        QCOMPARE(store.profiles().size(), 1);
    }

    void localPortCanChange()
    {
        ProfileStore store(m_settings.get());
        QSignalSpy changed(&store, &ProfileStore::profilesChanged);
        QCOMPARE(store.save(Profile::local(50123)), QStringLiteral("local"));
        QCOMPARE(changed.count(), 1);
        ProfileStore reopened(m_settings.get());
        QCOMPARE(reopened.localProfile().apiUrl, QUrl(QStringLiteral("http://127.0.0.1:50123")));
        QCOMPARE(reopened.localProfile().connectionSettings().sandboxUrl,
            QUrl(QStringLiteral("http://127.0.0.1:50123")));
    }

    // What a person types after --profile: an id, a name in any case, or "Local".
    void findByIdOrNameWithoutCase()
    {
        ProfileStore store(m_settings.get());
        store.save(Profile::local(50124));
        const QString workId = store.save(Profile::e2b(QStringLiteral("Work Account")));
        QVERIFY(!workId.isEmpty());
        for (const char *local : { "Local", "local", "LOCAL", "Local (this computer)", " local " }) {
            const auto found = store.find(QString::fromLatin1(local));
            QVERIFY2(found && found->isLocal(), local);
            QCOMPARE(found->localPort(), quint16(50124));
        }
        for (const QString &work : { workId, workId.toUpper(), QStringLiteral("work account"),
                 QStringLiteral("WORK ACCOUNT") }) {
            const auto found = store.find(work);
            QVERIFY2(found, qPrintable(work));
            QCOMPARE(found->id, workId);
        }
        QVERIFY(!store.find(QStringLiteral("Work")));
        QVERIFY(!store.find(QString()));
    }

    void addUpdateRemove()
    {
        ProfileStore store(m_settings.get());
        QString problem;
        const QString cloudId = store.save(
            Profile::e2b(QStringLiteral("Work"), QStringLiteral("e2b.example")), &problem);
        QVERIFY2(!cloudId.isEmpty(), qPrintable(problem));
        const QString customId = store.save(
            Profile::custom(QStringLiteral("Lab"), QUrl(QStringLiteral("https://api.lab.test")),
                QUrl(QStringLiteral("https://sbx.lab.test"))),
            &problem);
        QVERIFY2(!customId.isEmpty(), qPrintable(problem));
        QVERIFY(cloudId != customId);

        // Local first, then by name; everything survives a reopen.
        ProfileStore reopened(m_settings.get());
        const QList<Profile> profiles = reopened.profiles();
        QCOMPARE(profiles.size(), 3);
        QCOMPARE(profiles.at(0).id, QStringLiteral("local"));
        QCOMPARE(profiles.at(1).name, QStringLiteral("Lab"));
        QCOMPARE(profiles.at(2).name, QStringLiteral("Work"));
        QVERIFY(profiles.at(1).kind == Profile::Kind::Custom);
        QCOMPARE(profiles.at(1).apiUrl, QUrl(QStringLiteral("https://api.lab.test")));
        QCOMPARE(profiles.at(1).sandboxUrl, QUrl(QStringLiteral("https://sbx.lab.test")));
        QVERIFY(profiles.at(2).kind == Profile::Kind::E2B);
        QCOMPARE(profiles.at(2).domain, QStringLiteral("e2b.example"));

        Profile renamed = *reopened.profile(cloudId);
        renamed.name = QStringLiteral("Work (EU)");
        QCOMPARE(reopened.save(renamed), cloudId);
        QCOMPARE(reopened.profile(cloudId)->name, QStringLiteral("Work (EU)"));
        QCOMPARE(reopened.profiles().size(), 3);

        reopened.setLastUsed(customId);
        QCOMPARE(ProfileStore(m_settings.get()).lastUsed().id, customId);
        QVERIFY(reopened.remove(customId));
        QVERIFY(!reopened.profile(customId));
        QCOMPARE(reopened.lastUsed().id, QStringLiteral("local"));
        QCOMPARE(reopened.profiles().size(), 2);
    }

    void invalidProfilesAreRefused_data()
    {
        QTest::addColumn<Profile>("profile");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no name") << Profile::e2b(QString()) << "needs a name";
        QTest::newRow("domain with scheme")
            << Profile::e2b(QStringLiteral("x"), QStringLiteral("https://e2b.app"))
            << "is not a host name";
        QTest::newRow("custom without URL")
            << Profile::custom(QStringLiteral("x"), QUrl()) << "is not an http";
        QTest::newRow("custom ftp")
            << Profile::custom(QStringLiteral("x"), QUrl(QStringLiteral("ftp://h/")))
            << "is not an http";
        QTest::newRow("custom without sandbox URL or domain")
            << Profile::custom(QStringLiteral("x"), QUrl(QStringLiteral("https://api.h")))
            << "sandbox URL";
    }

    void invalidProfilesAreRefused()
    {
        QFETCH(Profile, profile);
        QFETCH(QString, problem);
        ProfileStore store(m_settings.get());
        QString why;
        QVERIFY(store.save(profile, &why).isEmpty());
        QVERIFY2(why.contains(problem), qPrintable(why));
        QCOMPARE(store.profiles().size(), 1);
    }

    void settingsNeverHoldAKey()
    {
        // The profile value type has no key field at all; check the file anyway.
        ProfileStore store(m_settings.get());
        store.save(Profile::e2b(QStringLiteral("Cloud")));
        m_settings->sync();
        QFile file(m_settings->fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll().toLower();
        QVERIFY(content.contains("cloud"));
        QVERIFY(!content.contains("key="));
        QVERIFY(!content.contains("e2b_"));
    }

    void environmentOverrides_data()
    {
        QTest::addColumn<Profile>("profile");
        QTest::addColumn<QProcessEnvironment>("env");
        QTest::addColumn<QUrl>("apiUrl");
        QTest::addColumn<QUrl>("sandboxUrl");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<QString>("key");

        const Profile cloud = Profile::e2b(QStringLiteral("Cloud"));
        QTest::newRow("cloud, no env")
            << cloud << QProcessEnvironment() << QUrl("https://api.e2b.app") << QUrl() << "e2b.app"
            << "stored";
        QTest::newRow("cloud, E2B_DOMAIN") << cloud << environment({ { "E2B_DOMAIN", "e2b.dev" } })
                                           << QUrl("https://api.e2b.dev") << QUrl() << "e2b.dev"
                                           << "stored";
        QTest::newRow("cloud, E2B_API_URL wins over domain")
            << cloud
            << environment(
                   { { "E2B_DOMAIN", "e2b.dev" }, { "E2B_API_URL", "http://127.0.0.1:3000" } })
            << QUrl("http://127.0.0.1:3000") << QUrl() << "e2b.dev"
            << "stored";
        QTest::newRow("cloud, every variable")
            << cloud
            << environment({ { "E2B_API_URL", "http://127.0.0.1:3000" },
                   { "E2B_SANDBOX_URL", "http://127.0.0.1:3001" }, { "E2B_API_KEY", "from-env" } })
            << QUrl("http://127.0.0.1:3000") << QUrl("http://127.0.0.1:3001") << "e2b.app"
            << "from-env";
        const Profile custom = Profile::custom(
            QStringLiteral("Lab"), QUrl("https://api.lab.test"), QUrl("https://sbx.lab.test"));
        QTest::newRow("custom keeps its URLs without env")
            << custom << QProcessEnvironment() << QUrl("https://api.lab.test")
            << QUrl("https://sbx.lab.test") << ""
            << "stored";
        QTest::newRow("custom, E2B_DOMAIN does not move an explicit API URL")
            << custom << environment({ { "E2B_DOMAIN", "e2b.dev" } })
            << QUrl("https://api.lab.test") << QUrl("https://sbx.lab.test") << "e2b.dev"
            << "stored";
        QTest::newRow("local ignores the environment")
            << Profile::local(49900)
            << environment(
                   { { "E2B_API_URL", "https://api.e2b.app" }, { "E2B_API_KEY", "cloud-key" } })
            << QUrl("http://127.0.0.1:49900") << QUrl("http://127.0.0.1:49900") << ""
            << "stored";
    }

    void environmentOverrides()
    {
        QFETCH(Profile, profile);
        QFETCH(QProcessEnvironment, env);
        QFETCH(QUrl, apiUrl);
        QFETCH(QUrl, sandboxUrl);
        QFETCH(QString, domain);
        QFETCH(QString, key);
        const ConnectionSettings s
            = resolveConnectionSettings(profile, QStringLiteral("stored"), env);
        QCOMPARE(s.apiUrl, apiUrl);
        QCOMPARE(s.sandboxUrl, sandboxUrl);
        QCOMPARE(s.domain, domain);
        QVERIFY(s.apiKey == key);
        QCOMPARE(
            sd::environmentOverrides(profile, env).isEmpty(), profile.isLocal() || env.isEmpty());
    }

    // Only a URL that sends the key over plain http:// to another computer is flagged;
    // a host name may resolve anywhere, so only "localhost" counts as this computer.
    void cleartextHostIsAnotherComputerOverHttp_data()
    {
        QTest::addColumn<QString>("apiUrl");
        QTest::addColumn<QString>("sandboxUrl");
        QTest::addColumn<QString>("host");
        const auto row
            = [](const char *name, const char *api, const char *sandboxes, const char *host) {
                  QTest::newRow(name) << QString::fromLatin1(api) << QString::fromLatin1(sandboxes)
                                      << QString::fromLatin1(host);
              };
        row("E2B cloud", "https://api.e2b.app", "", "");
        row("loopback", "http://127.0.0.1:49983", "http://127.0.0.1:49983", "");
        row("all of 127/8", "http://127.3.2.1:80", "", "");
        row("localhost", "http://LocalHost:3000", "", "");
        row("IPv6 loopback", "http://[::1]:3000", "", "");
        row("https elsewhere", "https://e2b.lab.test", "https://10.0.0.5", "");
        row("http API elsewhere", "http://e2b.lab.test", "", "e2b.lab.test");
        row("http sandboxes elsewhere", "https://e2b.lab.test", "http://10.0.0.5:8080", "10.0.0.5");
        row("IPv6 elsewhere", "http://[2001:db8::1]:80", "", "2001:db8::1");
        row("any address", "http://0.0.0.0:3000", "", "0.0.0.0");
        row("a name like localhost", "http://localhost.lab.test", "", "localhost.lab.test");
    }

    void cleartextHostIsAnotherComputerOverHttp()
    {
        QFETCH(QString, apiUrl);
        QFETCH(QString, sandboxUrl);
        QFETCH(QString, host);
        ConnectionSettings settings;
        settings.apiUrl = QUrl(apiUrl);
        settings.sandboxUrl = QUrl(sandboxUrl);
        QCOMPARE(settings.cleartextHost(), host);
        QCOMPARE(settings.cleartextWarning().isEmpty(), host.isEmpty());
        if (!host.isEmpty())
            QVERIFY(settings.cleartextWarning().contains(
                host + QStringLiteral(" unencrypted (http://)")));
    }

    // The Local profile's key is read only after a check of who holds its port
    // (LocalBackendStarter); resolving it here would skip that check.
    void resolveRefusesTheLocalProfile()
    {
        const QByteArray dataHome = qgetenv("XDG_DATA_HOME");
        const auto restore = qScopeGuard([dataHome] {
            if (dataHome.isNull())
                qunsetenv("XDG_DATA_HOME");
            else
                qputenv("XDG_DATA_HOME", dataHome);
        });
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir->filePath(QStringLiteral("data"))));
        const QString path = ProfileStore::localKeyFilePath();
        QVERIFY(path.startsWith(m_dir->path()));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("local-key-123\n");
        file.close();

        ResolveProfileJob job(nullptr, Profile::local(50200));
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::Rejected);
        QVERIFY(job.settings().apiKey.isEmpty());
    }

    void defaultLocalKeyFileLocation()
    {
        // The app reads the very file the backend writes.
        QVERIFY(ProfileStore::localKeyFilePath().endsWith(
            QStringLiteral("/sandbox-desk/local-api-key")));
        QCOMPARE(ProfileStore::localKeyFilePath(), local::ApiKeyFile::defaultPath());
    }

    void keyJobsNeedAProfileId()
    {
        KeyStore keys;
        WriteKeyJob write(&keys, QString(), QStringLiteral("k"));
        QVERIFY(run(write));
        QCOMPARE(write.error().kind(), Error::Kind::Rejected);
        QVERIFY(!keys.hasSessionKey(QString()));
    }

    void resolveCloudPrefersTheEnvironmentKey()
    {
        KeyStore keys;
        Profile cloud = Profile::e2b(QStringLiteral("Cloud"));
        cloud.id = QStringLiteral("cloud");
        keys.setSessionKey(cloud.id, QStringLiteral("session-key"));
        ResolveProfileJob job(&keys, cloud);
        job.setEnvironment(environment({ { "E2B_API_KEY", "env-key" } }));
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QVERIFY(job.keySource() == KeySource::Environment);
        QVERIFY(job.settings().apiKey == QStringLiteral("env-key"));
        QCOMPARE(job.environmentOverrides(), QStringList { QStringLiteral("E2B_API_KEY") });
    }

    void resolveCloudUsesTheSessionKey()
    {
        KeyStore keys;
        Profile cloud = Profile::e2b(QStringLiteral("Cloud"), QStringLiteral("e2b.dev"));
        cloud.id = QStringLiteral("cloud");
        keys.setSessionKey(cloud.id, QStringLiteral("session-key"));
        ResolveProfileJob job(&keys, cloud);
        job.setEnvironment(QProcessEnvironment());
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QVERIFY(job.keySource() == KeySource::Session);
        QVERIFY(job.settings().apiKey == QStringLiteral("session-key"));
        QCOMPARE(job.settings().apiUrl, QUrl(QStringLiteral("https://api.e2b.dev")));
    }

    void resolveCancelFinishesOnce()
    {
        KeyStore keys;
        Profile cloud = Profile::e2b(QStringLiteral("Cloud"));
        cloud.id = QStringLiteral("cloud");
        ResolveProfileJob job(&keys, cloud);
        job.setAutoDelete(false);
        job.setEnvironment(QProcessEnvironment());
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        job.cancel();
        job.cancel();
        QTest::qWait(100);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
