// Key storage against a real Secret Service (gnome-keyring inside dbus-run-session,
// see tools/with-keyring.sh), and the no-D-Bus path in a child process with the
// session bus stripped from its environment. The key never appears in the output:
// keys are compared with QVERIFY, never QCOMPARE (which prints both values).
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/resolveprofilejob.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <cstdio>

using namespace sd;

namespace {
QString randomKey()
{
    QString key = QStringLiteral("e2b_");
    for (int i = 0; i < 40; ++i)
        key += QLatin1Char("0123456789abcdef"[QRandomGenerator::global()->bounded(16)]);
    return key;
}

QString uniqueProfileId()
{
    return QStringLiteral("test-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

bool run(Job &job)
{
    job.setAutoDelete(false);
    QSignalSpy spy(&job, &Job::finished);
    job.start();
    if (!spy.wait(30000))
        return false;
    QCoreApplication::processEvents();
    return spy.count() == 1;
}

/// Child-process mode: with no D-Bus session, write, read and resolve a key, and
/// print what the jobs said as one JSON object. The key comes in SD_PROBE_KEY.
int probeWithoutDbus()
{
    const QString key = qEnvironmentVariable("SD_PROBE_KEY");
    KeyStore store;
    QJsonObject out;

    WriteKeyJob write(&store, QStringLiteral("probe"), key);
    run(write);
    out.insert("writeError", write.error().message());
    out.insert("writeSessionOnly", write.usedSessionOnly());
    out.insert("writeNotice", write.notice());
    out.insert("availability",
        store.availability() == KeyStore::Availability::Unavailable ? "unavailable" : "other");

    ReadKeyJob read(&store, QStringLiteral("probe"));
    run(read);
    out.insert("readError", read.error().message());
    out.insert("readFromSession", read.source() == KeySource::Session);
    out.insert("readMatches", read.key() == key);

    // A profile with no session key and no E2B_API_KEY: resolution must say why.
    Profile cloud = Profile::e2b(QStringLiteral("Cloud"));
    cloud.id = QStringLiteral("cloud");
    ResolveProfileJob resolve(&store, cloud);
    QProcessEnvironment env;
    resolve.setEnvironment(env);
    run(resolve);
    out.insert("resolveError", resolve.error().message());

    // With E2B_API_KEY set, resolution works without any keychain.
    ResolveProfileJob fromEnv(&store, cloud);
    env.insert(QStringLiteral("E2B_API_KEY"), key);
    fromEnv.setEnvironment(env);
    run(fromEnv);
    out.insert("envResolved",
        !fromEnv.hasError() && fromEnv.settings().apiKey == key
            && fromEnv.keySource() == KeySource::Environment);

    std::fputs(QJsonDocument(out).toJson(QJsonDocument::Compact).constData(), stdout);
    return 0;
}
} // namespace

class TestKeychain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(qEnvironmentVariableIsSet("DBUS_SESSION_BUS_ADDRESS"),
            "needs a session bus with a Secret Service: run under "
            "dbus-run-session -- tools/with-keyring.sh");
    }

    void storeReadDelete()
    {
        const QString profileId = uniqueProfileId();
        const QString key = randomKey();

        KeyStore writer;
        QCOMPARE(writer.service(), QStringLiteral("sandbox-desk"));
        WriteKeyJob write(&writer, profileId, key);
        QVERIFY(run(write));
        QVERIFY2(!write.hasError(), qPrintable(write.error().message()));
        QVERIFY2(!write.usedSessionOnly(), qPrintable(write.notice()));
        QVERIFY(write.notice().isEmpty());
        QVERIFY(writer.availability() == KeyStore::Availability::Available);
        QVERIFY(!writer.hasSessionKey(profileId));

        // A fresh store has no session copy: the key can only come from the keychain.
        KeyStore reader;
        ReadKeyJob read(&reader, profileId);
        QVERIFY(run(read));
        QVERIFY2(!read.hasError(), qPrintable(read.error().message()));
        QVERIFY(read.found());
        QVERIFY(read.source() == KeySource::Keychain);
        QVERIFY(read.key() == key);

        DeleteKeyJob remove(&reader, profileId);
        QVERIFY(run(remove));
        QVERIFY2(!remove.hasError(), qPrintable(remove.error().message()));

        ReadKeyJob readAgain(&reader, profileId);
        QVERIFY(run(readAgain));
        QVERIFY(!readAgain.hasError());
        QVERIFY(!readAgain.found());
        QVERIFY(readAgain.key().isEmpty());

        // Deleting what is not there is fine.
        DeleteKeyJob removeAgain(&reader, profileId);
        QVERIFY(run(removeAgain));
        QVERIFY2(!removeAgain.hasError(), qPrintable(removeAgain.error().message()));
    }

    void overwriteReplacesTheKey()
    {
        const QString profileId = uniqueProfileId();
        const QString first = randomKey();
        const QString second = randomKey();
        KeyStore store;
        store.setSessionKey(profileId, first);
        WriteKeyJob write(&store, profileId, second);
        QVERIFY(run(write));
        QVERIFY(!write.hasError());
        // The keychain is now the source; the stale session copy is gone.
        QVERIFY(!store.hasSessionKey(profileId));
        ReadKeyJob read(&store, profileId);
        QVERIFY(run(read));
        QVERIFY(read.key() == second);
        DeleteKeyJob cleanup(&store, profileId);
        QVERIFY(run(cleanup));
        QVERIFY(!cleanup.hasError());
    }

    void resolveTakesTheKeyFromTheKeychain()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        ProfileStore profiles(&settings);
        QString problem;
        const QString id = profiles.save(Profile::custom(QStringLiteral("Self-hosted"),
                                             QUrl(QStringLiteral("https://api.example.test")),
                                             QUrl(QStringLiteral("https://sandbox.example.test"))),
            &problem);
        QVERIFY2(!id.isEmpty(), qPrintable(problem));
        const QString key = randomKey();

        KeyStore store;
        WriteKeyJob write(&store, id, key);
        QVERIFY(run(write));
        QVERIFY(!write.hasError());

        ResolveProfileJob resolve(&store, *profiles.profile(id));
        resolve.setEnvironment(QProcessEnvironment());
        QVERIFY(run(resolve));
        QVERIFY2(!resolve.hasError(), qPrintable(resolve.error().message()));
        QVERIFY(resolve.keySource() == KeySource::Keychain);
        QVERIFY(resolve.settings().apiKey == key);
        QCOMPARE(resolve.settings().apiUrl, QUrl(QStringLiteral("https://api.example.test")));

        // The key is in the keychain, never in the settings file or next to it.
        settings.sync();
        QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray content = file.readAll();
            QVERIFY2(!content.contains(key.toUtf8()), qPrintable(file.fileName()));
            ++files;
        }
        QVERIFY(files >= 1);
        QVERIFY(QFile(settings.fileName()).size() > 0);

        DeleteKeyJob cleanup(&store, id);
        QVERIFY(run(cleanup));
    }

    void noDbusGivesAClearMessage_data()
    {
        QTest::addColumn<QString>("busAddress");
        QTest::newRow("no session bus") << QString();
        // A session whose bus has gone away (a stale address in the environment).
        QTest::newRow("bus address points nowhere")
            << QStringLiteral("unix:path=/nonexistent/sandbox-desk-test/bus");
    }

    void noDbusGivesAClearMessage()
    {
        QFETCH(QString, busAddress);
        const QString key = randomKey();
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : { "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY",
                 "XDG_RUNTIME_DIR", "E2B_API_KEY" })
            env.remove(QLatin1String(name));
        if (!busAddress.isEmpty())
            env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), busAddress);
        env.insert(QStringLiteral("SD_PROBE_KEY"), key);
        child.setProcessEnvironment(env);
        child.start(
            QCoreApplication::applicationFilePath(), { QStringLiteral("--probe-without-dbus") });
        QVERIFY(child.waitForFinished(60000));
        const QByteArray out = child.readAllStandardOutput();
        const QByteArray err = child.readAllStandardError();
        QVERIFY2(!out.contains(key.toUtf8()) && !err.contains(key.toUtf8()),
            "the key leaked into output");
        QCOMPARE(child.exitCode(), 0);
        const QJsonObject result = QJsonDocument::fromJson(out).object();
        QVERIFY2(!result.isEmpty(), err.constData());

        const QString sentence = KeyStore::unavailableMessage();
        QCOMPARE(sentence,
            QStringLiteral("No keychain is available on this desktop (no D-Bus Secret "
                           "Service); the key is kept for this session only or taken "
                           "from E2B_API_KEY."));
        QCOMPARE(result.value("writeError").toString(), QString());
        QVERIFY(result.value("writeSessionOnly").toBool());
        QCOMPARE(result.value("writeNotice").toString(), sentence);
        QCOMPARE(result.value("availability").toString(), QStringLiteral("unavailable"));
        QCOMPARE(result.value("readError").toString(), QString());
        QVERIFY(result.value("readFromSession").toBool());
        QVERIFY(result.value("readMatches").toBool());
        const QString resolveError = result.value("resolveError").toString();
        QVERIFY2(resolveError.startsWith(sentence), qPrintable(resolveError));
        QVERIFY(resolveError.contains(QStringLiteral("E2B_API_KEY")));
        QVERIFY(result.value("envResolved").toBool());
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc > 1 && qstrcmp(argv[1], "--probe-without-dbus") == 0)
        return probeWithoutDbus();
    TestKeychain test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_keychain.moc"
