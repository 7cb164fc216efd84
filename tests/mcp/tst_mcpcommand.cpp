#include "mcp/mcpcommand.h"

#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

// Runs commands through a real /bin/bash -c, as envd does, with a fake `mcp-gateway`
// first on PATH that records the arguments it received (NUL-separated).
class TestMcpCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString marker() const { return m_dir.filePath(QStringLiteral("MARKER")); }
    QString argvFile() const { return m_dir.filePath(QStringLiteral("argv")); }

    // Runs \a command in bash -c; returns the fake gateway's argv, or fails the test.
    QList<QByteArray> runThroughBash(const QString &command, int *exitCode)
    {
        QFile::remove(argvFile());
        QProcess bash;
        QProcessEnvironment env;
        env.insert(QStringLiteral("PATH"),
            m_dir.filePath(QStringLiteral("fakebin")) + QStringLiteral(":/usr/bin:/bin"));
        env.insert(QStringLiteral("ARGV_OUT"), argvFile());
        bash.setProcessEnvironment(env);
        bash.setWorkingDirectory(m_dir.path()); // a relative `touch MARKER` lands here
        bash.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), command });
        if (!bash.waitForFinished(60000))
            return {};
        *exitCode = bash.exitCode();
        QFile out(argvFile());
        if (!out.open(QIODevice::ReadOnly))
            return {};
        QList<QByteArray> args = out.readAll().split('\0');
        args.removeLast(); // after the last NUL
        return args;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("fakebin")));
        QFile fake(m_dir.filePath(QStringLiteral("fakebin/mcp-gateway")));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > \"$ARGV_OUT\"\n");
        fake.close();
        QVERIFY(fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }

    void quote_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain") << "abc"
                               << "'abc'";
        QTest::newRow("empty") << ""
                               << "''";
        QTest::newRow("one quote") << "a'b"
                                   << "'a'\"'\"'b'";
        QTest::newRow("only quotes") << "''"
                                     << "''\"'\"''\"'\"''";
    }

    void quote()
    {
        QFETCH(QString, value);
        QFETCH(QString, quoted);
        QCOMPARE(sd::shellSingleQuote(value), quoted);
    }

    void command()
    {
        const QJsonObject config { { "b", QJsonObject { { "k", "it's" } } },
            { "a", QJsonObject {} } };
        QCOMPARE(sd::mcpConfigJson(config), QByteArray("{\"a\":{},\"b\":{\"k\":\"it's\"}}"));
        QCOMPARE(sd::mcpGatewayCommand(config),
            QStringLiteral("mcp-gateway --config '{\"a\":{},\"b\":{\"k\":\"it'\"'\"'s\"}}'"));
    }

    void shellRoundTrip_data()
    {
        QTest::addColumn<QString>("value");
        const QString m = marker();
        QTest::newRow("quote break-out") << QStringLiteral("'; touch %1; '").arg(m);
        QTest::newRow("command substitution") << QStringLiteral("$(touch %1)").arg(m);
        QTest::newRow("relative substitution") << QStringLiteral("$(touch MARKER)");
        QTest::newRow("backticks") << QStringLiteral("`touch %1`").arg(m);
        QTest::newRow("double quotes") << QStringLiteral("\"; touch %1; \"").arg(m);
        QTest::newRow("newline") << QStringLiteral("x\ntouch %1\n").arg(m);
        QTest::newRow("sdk quote sequence") << QStringLiteral("'\"'\"'; touch %1 #").arg(m);
        QTest::newRow("variables and globs") << QStringLiteral("$HOME ${PATH} * ? [a] ~ !! \\");
        QTest::newRow("unicode") << QStringLiteral("Grüße, 日本語, 🚀, \u00a0");
        QTest::newRow("control characters") << QStringLiteral("a\tb\rc\x01");
    }

    // The SDK's way: config JSON, single-quoted, through bash -c. Whatever a value
    // holds, the gateway must receive exactly the JSON and nothing may execute.
    void shellRoundTrip()
    {
        QFETCH(QString, value);
        QFile::remove(marker());
        const QJsonObject config { { "browserbase",
                                       QJsonObject { { "apiKey", value }, { "projectId", "p" } } },
            { "airtable", QJsonObject { { "airtableApiKey", value }, { "nodeenv", "n" } } } };
        int exitCode = -1;
        const QList<QByteArray> args = runThroughBash(sd::mcpGatewayCommand(config), &exitCode);
        QCOMPARE(exitCode, 0);
        QCOMPARE(args.size(), 2);
        QCOMPARE(args.at(0), QByteArray("--config"));
        QCOMPARE(args.at(1), sd::mcpConfigJson(config));
        QCOMPARE(QJsonDocument::fromJson(args.at(1)).object(), config);
        QVERIFY2(!QFile::exists(marker()), "a config value was executed by the shell");
    }

    // The quoting alone, with raw values (real newlines, not JSON escapes).
    void rawValueRoundTrip_data() { shellRoundTrip_data(); }

    void rawValueRoundTrip()
    {
        QFETCH(QString, value);
        QFile::remove(marker());
        int exitCode = -1;
        const QList<QByteArray> args = runThroughBash(
            QStringLiteral("mcp-gateway ") + sd::shellSingleQuote(value), &exitCode);
        QCOMPARE(exitCode, 0);
        QCOMPARE(args.size(), 1);
        QCOMPARE(QString::fromUtf8(args.at(0)), value);
        QVERIFY2(!QFile::exists(marker()), "a value was executed by the shell");
    }

    void argumentLimit()
    {
        QCOMPARE(sd::MaxArgStrLen, 131072);
        QVERIFY(sd::argumentSizeError(QString(131071, QLatin1Char('x'))).isEmpty());
        const QString tooLong = sd::argumentSizeError(QString(131072, QLatin1Char('x')));
        QVERIFY(!tooLong.isEmpty());
        QVERIFY2(
            tooLong.contains(QLatin1String("131073")) && tooLong.contains(QLatin1String("131072")),
            qPrintable(tooLong));
        // Bytes, not characters: "é" is two bytes in UTF-8.
        QVERIFY(sd::argumentSizeError(QString(65535, QChar(0xe9))).isEmpty());
        QVERIFY(!sd::argumentSizeError(QString(65536, QChar(0xe9))).isEmpty());
    }

    // The limit is the kernel's: the largest accepted command really runs, one byte
    // more and bash cannot even be started.
    void argumentLimitMatchesKernel()
    {
        const QString prefix = QStringLiteral("exit 7 #");
        const QString fits
            = prefix + QString(sd::MaxArgStrLen - 1 - prefix.size(), QLatin1Char('x'));
        QVERIFY(sd::argumentSizeError(fits).isEmpty());
        QProcess ok;
        ok.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), fits });
        QVERIFY(ok.waitForFinished(60000));
        QCOMPARE(ok.exitCode(), 7);

        const QString tooBig = fits + QLatin1Char('x');
        QVERIFY(!sd::argumentSizeError(tooBig).isEmpty());
        QProcess refused;
        refused.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), tooBig });
        QVERIFY(!refused.waitForStarted(60000));
        QCOMPARE(refused.error(), QProcess::FailedToStart);
    }
};

QTEST_GUILESS_MAIN(TestMcpCommand)
#include "tst_mcpcommand.moc"
