// The command line of sandbox-desk-local: listen refusal, the API key file, the
// ready line and a clean shutdown.

#include "httpclient.h"
#include "localbackend.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace sd::test;

namespace {

/// A sandbox-desk-local started with exactly the given arguments and a private
/// XDG_DATA_HOME, so the key file never lands in the real home folder.
class Run
{
public:
    explicit Run(const QString &dataHome)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        m_process.setProcessEnvironment(env);
        m_process.setProgram(LocalBackend::binary(QStringLiteral("sandbox-desk-local")));
    }
    ~Run()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }

    void start(const QStringList &args)
    {
        m_process.setArguments(args);
        m_process.start();
    }

    /// Waits for the "listening" line; the URL, or an empty one when it exited first.
    QUrl waitListening()
    {
        for (int i = 0; i < 200; ++i) {
            m_stdout += m_process.readAllStandardOutput();
            const qsizetype at = m_stdout.indexOf("listening ");
            if (at >= 0 && m_stdout.indexOf('\n', at) > at)
                return QUrl(QString::fromLatin1(
                    m_stdout.mid(at + 10, m_stdout.indexOf('\n', at) - at - 10)));
            if (m_process.state() == QProcess::NotRunning)
                return {};
            m_process.waitForReadyRead(100);
        }
        return {};
    }

    bool waitExit() { return m_process.waitForFinished(20000); }
    QByteArray stdOut() { return m_stdout += m_process.readAllStandardOutput(); }
    QByteArray stdErr() { return m_stderr += m_process.readAllStandardError(); }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

} // namespace

class TestLocalOptions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listenRefusedWithoutApiKey_data();
    void listenRefusedWithoutApiKey();
    void listenAllowedWithApiKey();
    void keyFileCreatedPrivateAndReused();
    void readyLineIsTheOnlyStdout();
    void sigtermKillsSandboxesAndQuits();
    void badOptions_data();
    void badOptions();
};

void TestLocalOptions::listenRefusedWithoutApiKey_data()
{
    QTest::addColumn<QString>("address");
    QTest::newRow("every IPv4 address") << QStringLiteral("0.0.0.0");
    QTest::newRow("every IPv6 address") << QStringLiteral("::");
    QTest::newRow("a LAN address") << QStringLiteral("192.168.1.10");
}

void TestLocalOptions::listenRefusedWithoutApiKey()
{
    QFETCH(QString, address);
    QTemporaryDir home;
    QTemporaryDir state;
    Run run(home.path());
    run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--listen"), address,
        QStringLiteral("--state-dir"), state.path() });
    QVERIFY(run.waitExit());
    QCOMPARE(run.process().exitCode(), 2);
    QVERIFY(!run.stdOut().contains("listening"));
    const QByteArray err = run.stdErr();
    QVERIFY2(err.contains("refusing") && err.contains("--api-key"), err.constData());
    QVERIFY(!QFile::exists(home.path() + QStringLiteral("/sandbox-desk/local-api-key")));
}

void TestLocalOptions::listenAllowedWithApiKey()
{
    QTemporaryDir home;
    QTemporaryDir state;
    Run run(home.path());
    run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--listen"),
        QStringLiteral("0.0.0.0"), QStringLiteral("--api-key"), QStringLiteral("e2b_explicit"),
        QStringLiteral("--state-dir"), state.path() });
    const QUrl url = run.waitListening();
    QVERIFY2(url.isValid() && url.port() > 0, run.stdErr().constData());
    QUrl loopback = url;
    loopback.setHost(QStringLiteral("127.0.0.1"));
    HttpClient client(loopback, QStringLiteral("e2b_explicit"));
    QCOMPARE(client.get(QStringLiteral("/v2/sandboxes")).status, 200);
}

void TestLocalOptions::keyFileCreatedPrivateAndReused()
{
    QTemporaryDir home;
    QTemporaryDir state;
    const QString keyPath = home.path() + QStringLiteral("/sandbox-desk/local-api-key");
    QString key;
    {
        Run run(home.path());
        run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--state-dir"),
            state.path() });
        const QUrl url = run.waitListening();
        QVERIFY2(url.isValid(), run.stdErr().constData());

        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(keyPath).constData(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0600);
        QFile file(keyPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        key = QString::fromUtf8(file.readAll()).trimmed();
        QVERIFY(QRegularExpression(QStringLiteral("^e2b_[0-9a-f]{40}$")).match(key).hasMatch());

        // It says where the key is, never the key itself.
        HttpClient client(url, key);
        QCOMPARE(client.get(QStringLiteral("/v2/sandboxes")).status, 200);
        HttpClient stranger(url, QStringLiteral("e2b_other"));
        QCOMPARE(stranger.get(QStringLiteral("/v2/sandboxes")).status, 401);
        run.process().terminate();
        QVERIFY(run.waitExit());
        const QByteArray err = run.stdErr();
        QVERIFY2(err.contains(keyPath.toUtf8()), "stderr names the key file");
        QVERIFY(!err.contains(key.toUtf8()));
        QVERIFY(!run.stdOut().contains(key.toUtf8()));
    }
    {
        // A second start reuses the stored key.
        Run run(home.path());
        run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--state-dir"),
            state.path() });
        const QUrl url = run.waitListening();
        QVERIFY(url.isValid());
        HttpClient client(url, key);
        QCOMPARE(client.get(QStringLiteral("/v2/sandboxes")).status, 200);
    }
}

void TestLocalOptions::readyLineIsTheOnlyStdout()
{
    QTemporaryDir home;
    QTemporaryDir state;
    Run run(home.path());
    run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--api-key"),
        QStringLiteral("e2b_x"), QStringLiteral("--state-dir"), state.path() });
    const QUrl url = run.waitListening();
    QVERIFY(url.isValid());
    HttpClient client(url, QStringLiteral("e2b_x"));
    QCOMPARE(client
                 .post(QStringLiteral("/v2/sandboxes"),
                     { { QStringLiteral("templateID"), QStringLiteral("base") } })
                 .status,
        201);
    run.process().terminate();
    QVERIFY(run.waitExit());
    const QByteArray out = run.stdOut();
    QVERIFY2(QRegularExpression(QStringLiteral("^listening http://127\\.0\\.0\\.1:\\d+\\n$"))
                 .match(QString::fromLatin1(out))
                 .hasMatch(),
        out.constData());
}

void TestLocalOptions::sigtermKillsSandboxesAndQuits()
{
    QTemporaryDir home;
    QTemporaryDir state;
    Run run(home.path());
    run.start({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--api-key"),
        QStringLiteral("e2b_x"), QStringLiteral("--state-dir"), state.path() });
    const QUrl url = run.waitListening();
    QVERIFY(url.isValid());
    HttpClient client(url, QStringLiteral("e2b_x"));
    const QString id = client.create().value(QStringLiteral("sandboxID")).toString();
    QVERIFY(!id.isEmpty());
    run.process().terminate(); // SIGTERM
    QVERIFY(run.waitExit());
    QCOMPARE(run.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(run.process().exitCode(), 0);
    const QByteArray err = run.stdErr();
    QVERIFY2(err.contains(id.toLatin1() + " shutdown"), err.constData());
}

void TestLocalOptions::badOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("mentions");
    QTest::newRow("port out of range") << QStringList { QStringLiteral("--port"),
        QStringLiteral("70000") } << QByteArray("--port");
    QTest::newRow("listen not an address") << QStringList { QStringLiteral("--listen"),
        QStringLiteral("example.org") } << QByteArray("--listen");
    QTest::newRow("unknown isolation") << QStringList { QStringLiteral("--isolation"),
        QStringLiteral("docker") } << QByteArray("--isolation");
    QTest::newRow("empty api key")
        << QStringList { QStringLiteral("--api-key"), QString() } << QByteArray("--api-key");
    QTest::newRow("limit beyond its type")
        << QStringList { QStringLiteral("--max-sandboxes"), QStringLiteral("99999999999999") }
        << QByteArray("--max-sandboxes must be a whole number from 1 to 2147483647 (got "
                      "\"99999999999999\")");
    QTest::newRow("limit not a whole number")
        << QStringList { QStringLiteral("--idle-timeout-ms"), QStringLiteral("1e300") }
        << QByteArray(
               "--idle-timeout-ms must be a whole number from 1 to 2147483647 (got \"1e300\")");
    QTest::newRow("limit a word")
        << QStringList { QStringLiteral("--max-body-bytes"), QStringLiteral("abc") }
        << QByteArray("--max-body-bytes must be a whole number from 1 to 9223372036854775807 "
                      "(got \"abc\")");
    QTest::newRow("limit 0") << QStringList { QStringLiteral("--max-connections"),
        QStringLiteral("0") } << QByteArray("--max-connections must be a whole number from 1");
    QTest::newRow("limit negative")
        << QStringList { QStringLiteral("--max-processes-per-sandbox"), QStringLiteral("-1") }
        << QByteArray("--max-processes-per-sandbox must be a whole number from 1");
    QTest::newRow("empty host name") << QStringList { QStringLiteral("--allow-host"), QString() }
                                     << QByteArray("--allow-host needs a DNS name");
}

void TestLocalOptions::badOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, mentions);
    QTemporaryDir home;
    QTemporaryDir state;
    Run run(home.path());
    run.start(args + QStringList { QStringLiteral("--state-dir"), state.path() });
    QVERIFY(run.waitExit());
    QCOMPARE(run.process().exitCode(), 2);
    QVERIFY(!run.stdOut().contains("listening"));
    QVERIFY2(run.stdErr().contains(mentions), run.stdErr().constData());
    // Refused before anything was made: no key file, nothing in the state folder.
    QVERIFY(QDir(home.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
    QVERIFY(QDir(state.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
}

QTEST_GUILESS_MAIN(TestLocalOptions)
#include "tst_localoptions.moc"
