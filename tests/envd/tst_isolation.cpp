// What a sandbox's processes can see and how long they live: the bubblewrap jail
// (files of the host and of other sandboxes stay out of reach, processes die with
// the sandbox) and the unjailed mode, which says so.

#include "envdtestutil.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QUuid>

using namespace sd;
using namespace sd::test;

namespace {

// Host processes whose command line holds `needle`.
int hostProcessesWith(const QByteArray &needle)
{
    int count = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile file(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (file.open(QIODevice::ReadOnly) && file.readAll().replace('\0', ' ').contains(needle))
            ++count;
    }
    return count;
}

} // namespace

class TestIsolation : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;

    std::unique_ptr<StartProcessJob> run(LocalBackend *backend, const TestSandbox &sandbox, const QString &script)
    {
        auto job = std::make_unique<StartProcessJob>(&m_nam, targetFor(backend, sandbox),
                                                     StartProcessJob::shellCommand(script));
        job->setConnectTimeoutMs(120000);
        runJob(job.get(), 120000);
        return job;
    }

    // Starts a daemon that outlives its command, checks List shows it, kills the
    // sandbox and checks that the daemon and the sandbox directory are gone.
    void checkProcessesDieWithSandbox(LocalBackend *backend)
    {
        const TestSandbox sandbox = createSandbox(&m_nam, backend);
        QVERIFY(sandbox.isValid());
        const QString seconds = QString::number(600 + QRandomGenerator::global()->bounded(100000));
        const QByteArray needle = "sleep " + seconds.toLatin1();
        auto job = run(backend, sandbox,
                       QStringLiteral("setsid sleep %1 </dev/null >/dev/null 2>&1 & sleep %1 </dev/null >/dev/null 2>&1 & echo started")
                           .arg(seconds));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->stdoutData(), QByteArray("started\n"));
        QTRY_COMPARE_WITH_TIMEOUT(hostProcessesWith(needle), 2, 20000);
        // What a command leaves behind is still the sandbox's, and List shows it.
        const QList<ProcessInfo> listed = listProcesses(&m_nam, targetFor(backend, sandbox));
        int sleepers = 0;
        for (const ProcessInfo &p : listed) {
            if (p.config.cmd == QLatin1String("sleep") && p.config.args == QStringList{seconds})
                ++sleepers;
        }
        QCOMPARE(sleepers, 2);
        const QString dir = backend->stateDir() + QStringLiteral("/sandboxes/") + sandbox.id;
        QVERIFY(QFileInfo::exists(dir));

        QCOMPARE(apiCall(&m_nam, backend, "DELETE", QStringLiteral("/sandboxes/") + sandbox.id).status, 204);
        QTRY_COMPARE_WITH_TIMEOUT(hostProcessesWith(needle), 0, 20000);
        QVERIFY(!QFileInfo::exists(dir));
    }

private Q_SLOTS:
    void jailHidesTheHostHome()
    {
        LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("bwrap")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        QCOMPARE(apiCall(&m_nam, &backend, "GET", QStringLiteral("/health")).json().toObject()
                     .value(QStringLiteral("isolation")).toString(),
                 QStringLiteral("bwrap"));

        const QString secret = QUuid::createUuid().toString(QUuid::WithoutBraces);
        const QString planted = QDir::homePath() + QStringLiteral("/sd-planted-") + secret;
        QFile file(planted);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(secret.toUtf8());
        file.close();
        auto cleanup = qScopeGuard([&] { QFile::remove(planted); });

        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        auto job = run(&backend, sandbox, QStringLiteral("cat '%1'; ls -a \"$HOME\"; cat /etc/shadow").arg(planted));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QVERIFY(job->exitCode() != 0);
        QVERIFY(!job->stdoutData().contains(secret.toUtf8()));
        QVERIFY(!job->stdoutData().contains("sd-planted-"));
        QVERIFY2(job->stderrData().contains("No such file or directory"), job->stderrData().constData());

        // The backend's own state (other sandboxes included) is not mounted either.
        auto state = run(&backend, sandbox, QStringLiteral("ls '%1'").arg(backend.stateDir()));
        QVERIFY(state->exitCode() != 0);
        QVERIFY(state->stdoutData().isEmpty());
    }

    void sandboxesDoNotSeeEachOther()
    {
        LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("bwrap")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox a = createSandbox(&m_nam, &backend);
        const TestSandbox b = createSandbox(&m_nam, &backend);
        QVERIFY(a.isValid() && b.isValid());
        auto write = run(&backend, a, QStringLiteral("echo from-a > /home/user/a.txt; echo tmp-a > /tmp/a.txt; sleep 300 & echo ok"));
        QCOMPARE(write->stdoutData(), QByteArray("ok\n"));
        auto read = run(&backend, b, QStringLiteral("cat /home/user/a.txt /tmp/a.txt"));
        QVERIFY(read->exitCode() != 0);
        QVERIFY(read->stdoutData().isEmpty());
        auto files = run(&backend, b, QStringLiteral("ls -a /home/user /tmp"));
        QVERIFY2(!files->stdoutData().contains("a.txt"), files->stdoutData().constData());
        // a's background sleep is not among b's processes.
        auto processes = run(&backend, b, QStringLiteral("cat /proc/[0-9]*/cmdline | tr '\\0' ' '"));
        QVERIFY(!processes->stdoutData().isEmpty());
        QVERIFY2(!processes->stdoutData().contains("sleep 300"), processes->stdoutData().constData());
        // And a's files are really there for a.
        auto own = run(&backend, a, QStringLiteral("cat /home/user/a.txt /tmp/a.txt"));
        QCOMPARE(own->stdoutData(), QByteArray("from-a\ntmp-a\n"));
        auto ownProcesses = run(&backend, a, QStringLiteral("cat /proc/[0-9]*/cmdline | tr '\\0' ' '"));
        QVERIFY(ownProcesses->stdoutData().contains("sleep 300"));
    }

    void jailedProcessesDieWithTheSandbox()
    {
        LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("bwrap")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        checkProcessesDieWithSandbox(&backend);
    }

    void noInternetMeansNoNetwork()
    {
        LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("bwrap")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox sandbox = createSandbox(&m_nam, &backend, QStringLiteral("base"),
                                                  QJsonObject{{QStringLiteral("allow_internet_access"), false}});
        QVERIFY(sandbox.isValid());
        auto job = run(&backend, sandbox, QStringLiteral("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->stdoutData(), QByteArray("lo\n"));
    }

    void unjailedModeSaysSoAndStillCleansUp()
    {
        LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("none")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        QCOMPARE(apiCall(&m_nam, &backend, "GET", QStringLiteral("/health")).json().toObject()
                     .value(QStringLiteral("isolation")).toString(),
                 QStringLiteral("none"));
        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        QCOMPARE(apiCall(&m_nam, &backend, "GET", QStringLiteral("/sandboxes/") + sandbox.id).json().toObject()
                     .value(QStringLiteral("isolation")).toString(),
                 QStringLiteral("none"));
        const QString root = QDir(backend.stateDir()).canonicalPath() + QStringLiteral("/sandboxes/") + sandbox.id;
        auto job = run(&backend, sandbox, QStringLiteral("pwd -P; echo $HOME; echo $MCP_GATEWAY_DIR; mcp-gateway --config '{}'"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->stdoutData(), (root + QStringLiteral("/home/user\n") + root + QStringLiteral("/home/user\n") + root
                                     + QStringLiteral("/etc/mcp-gateway\n")).toUtf8());
        QCOMPARE(job->exitCode(), 127);
        QVERIFY(job->stderrData().contains("mcp-gateway: command not found"));
        checkProcessesDieWithSandbox(&backend);
    }
};

QTEST_GUILESS_MAIN(TestIsolation)
#include "tst_isolation.moc"
