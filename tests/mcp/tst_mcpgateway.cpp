#include "localbackend.h"
#include "mcp/mcpcommand.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace {

const QByteArray Token = "tok-7f3a9c1e-5b2d-4c8e-9a1f-secret";
const QByteArray OptionSecret = "opt-v4lue-n3ver-pr1nted";

// Config text with OptionSecret in place of each SECRET.
QByteArray withSecret(const char *json) { return QByteArray(json).replace("SECRET", OptionSecret); }

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Whether a process is gone (or a zombie nobody has reaped yet: it no longer runs).
bool processGone(pid_t pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype paren = text.lastIndexOf(')');
    return paren < 0 || text.mid(paren + 2, 1) == "Z";
}

} // namespace

// The real mcp-gateway binary, run as envd would run it.
class TestMcpGateway : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_dir; // MCP_GATEWAY_DIR of the current test
    QList<pid_t> m_servePids;
    bool m_secretPrinted = false;

    QString gateway() const
    {
        return sd::test::LocalBackend::binary(QStringLiteral("mcp-gateway"));
    }

    QProcessEnvironment env(bool withToken = true) const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("MCP_GATEWAY_DIR"), m_dir);
        e.remove(QStringLiteral("GATEWAY_ACCESS_TOKEN"));
        if (withToken)
            e.insert(QStringLiteral("GATEWAY_ACCESS_TOKEN"), QString::fromLatin1(Token));
        e.insert(QStringLiteral("PATH"),
            QFileInfo(gateway()).absolutePath() + QStringLiteral(":/usr/bin:/bin"));
        return e;
    }

    Run run(const QString &program, const QStringList &args, const QProcessEnvironment &e)
    {
        QProcess p;
        p.setProcessEnvironment(e);
        p.start(program, args);
        Run r;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        // Whatever happened, no secret may be printed; checked in cleanup().
        for (const QByteArray &secret : { Token, OptionSecret }) {
            if (r.out.contains(secret) || r.err.contains(secret))
                m_secretPrinted = true;
        }
        rememberServe();
        return r;
    }

    Run gatewayRun(const QByteArray &config, bool withToken = true)
    {
        return run(
            gateway(), { QStringLiteral("--config"), QString::fromUtf8(config) }, env(withToken));
    }

    pid_t servePid() const
    {
        QFile f(QDir(m_dir).filePath(QStringLiteral("gateway.pid")));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        return pid_t(f.readAll().trimmed().toLongLong());
    }

    void rememberServe()
    {
        const pid_t pid = servePid();
        if (pid > 0 && !m_servePids.contains(pid))
            m_servePids.append(pid);
    }

    QByteArray cmdline(pid_t pid) const
    {
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    static int mode(const QString &path)
    {
        struct stat st
        { };
        if (::stat(QFile::encodeName(path).constData(), &st) != 0)
            return -1;
        return int(st.st_mode & 07777);
    }

    QByteArray validConfig() const
    {
        return withSecret(R"({"airtable":{"airtableApiKey":"SECRET","nodeenv":"production"},)"
                          R"("jetbrains":{"port":63342}})");
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void init()
    {
        static int n = 0;
        m_dir = m_tmp.filePath(
            QStringLiteral("gw%1/etc/mcp-gateway").arg(++n)); // created by the gateway
    }

    void cleanup()
    {
        for (pid_t pid : std::as_const(m_servePids)) {
            if (!processGone(pid) && cmdline(pid).contains("serve"))
                ::kill(pid, SIGKILL);
        }
        m_servePids.clear();
        const bool printed = std::exchange(m_secretPrinted, false);
        QVERIFY2(!printed, "mcp-gateway printed the token or an option value");
    }

    void startsAndStoresToken()
    {
        const Run r = gatewayRun(validConfig());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("MCP gateway started with 2 servers\n"));
        QCOMPARE(r.err, QByteArray());

        const QString tokenPath = QDir(m_dir).filePath(QStringLiteral(".token"));
        QFile token(tokenPath);
        QVERIFY(token.open(QIODevice::ReadOnly));
        QCOMPARE(token.readAll(), Token);
        QCOMPARE(mode(tokenPath), 0600);

        const QString configPath = QDir(m_dir).filePath(QStringLiteral("config.json"));
        QFile config(configPath);
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(config.readAll()).object(),
            QJsonDocument::fromJson(validConfig()).object());
        QCOMPARE(mode(configPath), 0600);
    }

    void leavesServeRunning()
    {
        const Run r = gatewayRun(validConfig());
        QCOMPARE(r.exitCode, 0);
        const pid_t pid = servePid();
        QVERIFY(pid > 0);
        QVERIFY(!processGone(pid));
        const QList<QByteArray> argv = cmdline(pid).split('\0');
        QVERIFY(argv.size() >= 2);
        QVERIFY2(argv.at(0).endsWith("mcp-gateway"), argv.at(0).constData());
        QCOMPARE(argv.at(1), QByteArray("serve"));
        // No setsid(): it stays in our session and process group, so a kill of the
        // sandbox's process group reaches it.
        QCOMPARE(::getsid(pid), ::getsid(0));
        QCOMPARE(::getpgid(pid), ::getpgid(0));

        // It stops on SIGTERM.
        QCOMPARE(::kill(pid, SIGTERM), 0);
        QTRY_VERIFY_WITH_TIMEOUT(processGone(pid), 30000);
    }

    void generatesTokenWhenUnset()
    {
        const Run r = gatewayRun(validConfig(), false);
        QCOMPARE(r.exitCode, 0);
        QFile token(QDir(m_dir).filePath(QStringLiteral(".token")));
        QVERIFY(token.open(QIODevice::ReadOnly));
        const QByteArray generated = token.readAll();
        QCOMPARE(generated.size(), 36); // a UUID
        QVERIFY(!r.out.contains(generated) && !r.err.contains(generated));
    }

    void tightensExistingTokenFile()
    {
        QVERIFY(QDir().mkpath(m_dir));
        const QString tokenPath = QDir(m_dir).filePath(QStringLiteral(".token"));
        QFile old(tokenPath);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("an older, longer token that must be replaced entirely");
        old.close();
        QVERIFY(::chmod(QFile::encodeName(tokenPath).constData(), 0644) == 0);

        QCOMPARE(gatewayRun(validConfig()).exitCode, 0);
        QCOMPARE(mode(tokenPath), 0600);
        QFile token(tokenPath);
        QVERIFY(token.open(QIODevice::ReadOnly));
        QCOMPARE(token.readAll(), Token);
    }

    void brokenJson_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QByteArray>("where");
        QTest::newRow("trailing comma")
            << QByteArray("{\"airtable\":\n {\"nodeenv\":\"x\",}}") << QByteArray("line 2, column");
        QTest::newRow("not json") << QByteArray("mcp") << QByteArray("line 1, column");
        QTest::newRow("array") << QByteArray("[]") << QByteArray("must be a JSON object");
        QTest::newRow("string") << QByteArray("\"x\"") << QByteArray("must be a JSON object");
    }

    void brokenJson()
    {
        QFETCH(QByteArray, config);
        QFETCH(QByteArray, where);
        const Run r = gatewayRun(config);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(where), r.err.constData());
        QCOMPARE(r.out, QByteArray());
        QVERIFY(!QFile::exists(QDir(m_dir).filePath(QStringLiteral(".token"))));
        QCOMPARE(servePid(), 0);
    }

    void invalidServer_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QList<QByteArray>>("names");
        QTest::newRow("missing required") << withSecret(R"({"airtable":{"nodeenv":"SECRET"}})")
                                          << QList<QByteArray> { "airtable", "airtableApiKey" };
        QTest::newRow("missing several")
            << QByteArray(R"({"browserbase":{}})")
            << QList<QByteArray> { "browserbase", "apiKey", "geminiApiKey", "projectId" };
        QTest::newRow("wrong type") << withSecret(R"({"jetbrains":{"port":"SECRET"}})")
                                    << QList<QByteArray> { "jetbrains", "port", "integer" };
        QTest::newRow("not an object")
            << QByteArray(R"({"jetbrains":5})") << QList<QByteArray> { "jetbrains" };
    }

    void invalidServer()
    {
        QFETCH(QByteArray, config);
        QFETCH(QList<QByteArray>, names);
        const Run r = gatewayRun(config);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray());
        for (const QByteArray &name : names)
            QVERIFY2(r.err.contains(name), r.err.constData());
        QVERIFY(!QFile::exists(QDir(m_dir).filePath(QStringLiteral(".token"))));
        QCOMPARE(servePid(), 0);
    }

    void unknownServerWarns()
    {
        const Run r = gatewayRun(withSecret(R"({"someNewServer":{"key":"SECRET"}})"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("warning") && r.err.contains("someNewServer"), r.err.constData());
        QCOMPARE(r.out, QByteArray("MCP gateway started with 1 server\n"));
        QVERIFY(servePid() > 0);
    }

    void usage()
    {
        const Run none = run(gateway(), {}, env());
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("--config"));
        const Run help = run(gateway(), { QStringLiteral("--help") }, env());
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("Usage: mcp-gateway --config JSON"));
    }

    // As the SDK runs it: bash -c with the single-quoted config. Hostile values are
    // stored verbatim and execute nothing; command substitution around the gateway
    // returns, so the serve process does not hold the caller's output open.
    void throughShellAsTheSdk()
    {
        const QString marker = m_tmp.filePath(QStringLiteral("MARKER"));
        const QString hostile
            = QStringLiteral("'; touch %1; ' $(touch %1) `touch %1` \"\n'\"'\"' ü").arg(marker);
        const QJsonObject config { { "airtable",
            QJsonObject { { "airtableApiKey", hostile },
                { "nodeenv", QString::fromLatin1(OptionSecret) } } } };
        const QString command
            = QStringLiteral("out=$(%1); status=$?; echo \"[$out]\"; exit $status")
                  .arg(sd::mcpGatewayCommand(config));
        const Run r = run(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), command }, env());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[MCP gateway started with 1 server]\n"));
        QVERIFY2(!QFile::exists(marker), "a config value was executed by the shell");

        QFile stored(QDir(m_dir).filePath(QStringLiteral("config.json")));
        QVERIFY(stored.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(stored.readAll()).object(), config);
        QVERIFY(!processGone(servePid()));
    }
};

QTEST_GUILESS_MAIN(TestMcpGateway)
#include "tst_mcpgateway.moc"
