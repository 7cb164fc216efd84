// What one client's sandboxes may take of the machine: how many sandboxes exist at
// once, how many processes envd runs in each, and (where cgroups work) how many
// tasks a sandbox may hold at all, against the real sandbox-desk-local.

#include "envdtestutil.h"
#include "network/networkaccessmanager.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>

#include <csignal>

#include <memory>

using namespace sd;
using namespace sd::test;

class TestResourceLimits : public QObject
{
    Q_OBJECT

private:
    sd::NetworkAccessManager m_nam;

    /// Starts a process that runs until the sandbox dies; returns once it runs.
    std::unique_ptr<StartProcessJob> startSleeper(LocalBackend *backend, const TestSandbox &sandbox)
    {
        ProcessConfig config;
        config.cmd = QStringLiteral("/bin/sleep");
        config.args = QStringList { QStringLiteral("600") };
        auto job = std::make_unique<StartProcessJob>(&m_nam, targetFor(backend, sandbox), config);
        job->setAutoDelete(false);
        job->setKillOnCancel(true);
        QSignalSpy started(job.get(), &StartProcessJob::started);
        job->start();
        [&] { QVERIFY(started.wait(60000)); }();
        return job;
    }

    /// What /health says of the sandboxes' limits.
    QJsonObject resourcesOf(LocalBackend *backend)
    {
        return apiCall(&m_nam, backend, "GET", QStringLiteral("/health"))
            .json()
            .toObject()
            .value(QStringLiteral("resources"))
            .toObject();
    }

    /// The cgroup version the backend's sandboxes get ("v1", "v2"), or "none".
    QString cgroupOf(LocalBackend *backend)
    {
        return resourcesOf(backend).value(QStringLiteral("cgroup")).toString();
    }

    static bool isCgroupVersion(const QString &cgroup)
    {
        return cgroup == QLatin1String("v1") || cgroup == QLatin1String("v2");
    }

private Q_SLOTS:
    void sandboxesPastTheCountGet429()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
            QStringLiteral("--max-sandboxes"), QStringLiteral("2") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox a = createSandbox(&m_nam, &backend);
        const TestSandbox b = createSandbox(&m_nam, &backend);
        QVERIFY(a.isValid() && b.isValid());
        // A paused sandbox still counts: its processes are only stopped.
        QCOMPARE(apiCall(&m_nam, &backend, "POST",
                     QStringLiteral("/sandboxes/%1/pause").arg(b.id)).status, 204);

        const HttpResult refused = apiCall(&m_nam, &backend, "POST",
            QStringLiteral("/v2/sandboxes"), { { QStringLiteral("templateID"), QStringLiteral("base") } });
        QCOMPARE(refused.status, 429);
        const QJsonObject error = refused.json().toObject();
        QCOMPARE(error.value(QStringLiteral("code")).toInt(), 429);
        QCOMPARE(error.value(QStringLiteral("message")).toString(),
            QStringLiteral("too many sandboxes: this backend keeps at most 2 at once "
                           "(--max-sandboxes); kill one first"));
        // Nothing was made for the refused request.
        QCOMPARE(apiCall(&m_nam, &backend, "GET", QStringLiteral("/v2/sandboxes")).json().toArray().size(), 2);

        QCOMPARE(apiCall(&m_nam, &backend, "DELETE", QStringLiteral("/sandboxes/%1").arg(a.id)).status, 204);
        QVERIFY(createSandbox(&m_nam, &backend).isValid());
    }

    void processesPastTheCountGetResourceExhausted()
    {
        // Unjailed, so the two processes are all the sandbox holds (a jail's own
        // tasks would count against pids.max too).
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
            QStringLiteral("--max-processes-per-sandbox"), QStringLiteral("2") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        auto first = startSleeper(&backend, sandbox);
        auto second = startSleeper(&backend, sandbox);

        ProcessConfig trueConfig;
        trueConfig.cmd = QStringLiteral("/bin/true");
        StartProcessJob third(&m_nam, targetFor(&backend, sandbox), trueConfig);
        QVERIFY(runJob(&third));
        QVERIFY(third.hasError());
        QCOMPARE(third.error().rpcCode(), QStringLiteral("resource_exhausted"));
        QVERIFY2(third.error().message().contains(QLatin1String("--max-processes-per-sandbox")),
            qPrintable(third.error().message()));
        QCOMPARE(listProcesses(&m_nam, targetFor(&backend, sandbox)).size(), 2);

        // One ends: there is room again.
        second->cancel();
        // A login shell would fork more than pids.max (2) leaves it.
        StartProcessJob fourth(&m_nam, targetFor(&backend, sandbox), trueConfig);
        QTRY_VERIFY_WITH_TIMEOUT(
            listProcesses(&m_nam, targetFor(&backend, sandbox)).size() == 1, 30000);
        QVERIFY(runJob(&fourth));
        QVERIFY2(!fourth.hasError(), qPrintable(fourth.error().message()));
        QCOMPARE(fourth.exitCode(), 0);
    }

    void healthTellsTheLimits()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
            QStringLiteral("--max-sandboxes"), QStringLiteral("7"),
            QStringLiteral("--max-processes-per-sandbox"), QStringLiteral("99") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QJsonObject resources = resourcesOf(&backend);
        QCOMPARE(resources.value(QStringLiteral("maxSandboxes")).toInt(), 7);
        QCOMPARE(resources.value(QStringLiteral("maxProcessesPerSandbox")).toInt(), 99);
        const QString cgroup = resources.value(QStringLiteral("cgroup")).toString();
        QVERIFY2(cgroup == QLatin1String("v1") || cgroup == QLatin1String("v2")
                || cgroup == QLatin1String("none"),
            qPrintable(cgroup));
        // Where there are none, /health says why.
        QCOMPARE(resources.value(QStringLiteral("cgroupUnavailable")).toString().isEmpty(),
            cgroup != QLatin1String("none"));
    }

    void forkBombIsHeldToPidsMax()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("bwrap"),
            QStringLiteral("--max-processes-per-sandbox"), QStringLiteral("64") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QString cgroup = cgroupOf(&backend);
        // This machine kind has writable cgroup v1 hierarchies (as root); a machine
        // without any reports "none" at /health, which healthTellsTheLimits checks.
        QVERIFY2(isCgroupVersion(cgroup), qPrintable(cgroup));

        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        // 300 background processes asked for, one line each that started; dash stops
        // at the first fork the kernel refuses (with no cgroup, all 300 start).
        ProcessConfig bomb;
        bomb.cmd = QStringLiteral("/bin/sh");
        bomb.args = QStringList { QStringLiteral("-c"),
            QStringLiteral("i=0; while [ $i -lt 300 ]; do sleep 600 & echo started; "
                           "i=$((i + 1)); done") };
        StartProcessJob job(&m_nam, targetFor(&backend, sandbox), bomb);
        job.setConnectTimeoutMs(120000);
        QVERIFY(runJob(&job, 120000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        const int started = int(job.stdoutData().count("started"));
        QVERIFY2(started > 0 && started < 64, qPrintable(QString::number(started)));
        QVERIFY(job.exitCode() != 0);
        QVERIFY2(job.stderrData().contains("fork"), job.stderrData().constData());

        // The backend still answers, and the sandbox dies whole.
        QCOMPARE(apiCall(&m_nam, &backend, "GET", QStringLiteral("/health")).status, 200);
        QCOMPARE(apiCall(&m_nam, &backend, "DELETE", QStringLiteral("/sandboxes/%1").arg(sandbox.id))
                     .status,
            204);
        const TestSandbox next = createSandbox(&m_nam, &backend);
        StartProcessJob echo(&m_nam, targetFor(&backend, next),
            StartProcessJob::shellCommand(QStringLiteral("echo fine")));
        echo.setConnectTimeoutMs(120000);
        QVERIFY(runJob(&echo, 120000));
        QVERIFY2(!echo.hasError(), qPrintable(echo.error().message()));
        QCOMPARE(echo.stdoutData(), QByteArray("fine\n"));
    }

    /// The limit counts what the sandbox runs, not the backend's helpers in its group
    /// (the jail, its network, the way each command enters it): with 3, a command gets
    /// exactly 3 tasks, its shell and two children, and internet access still comes up.
    /// Those helpers had counted too, so a limit of 4 ran nothing at all.
    void smallTaskLimitCountsOnlyTheSandboxsOwn()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("bwrap"),
            QStringLiteral("--max-processes-per-sandbox"), QStringLiteral("3") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QString cgroup = cgroupOf(&backend);
        QVERIFY2(isCgroupVersion(cgroup), qPrintable(cgroup));

        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        ProcessConfig tasks;
        tasks.cmd = QStringLiteral("/bin/sh");
        tasks.args = QStringList { QStringLiteral("-c"),
            QStringLiteral("grep -q tap0 /proc/net/dev && echo network; "
                           "sleep 30 >/dev/null 2>&1 & sleep 30 >/dev/null 2>&1 & echo two; "
                           "sleep 30 >/dev/null 2>&1 & echo three") };
        StartProcessJob job(&m_nam, targetFor(&backend, sandbox), tasks);
        job.setConnectTimeoutMs(120000);
        QVERIFY(runJob(&job, 120000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(job.stdoutData(), QByteArray("network\ntwo\n"));
        QVERIFY(job.exitCode() != 0);
        QVERIFY2(job.stderrData().contains("fork"), job.stderrData().constData());
    }

    /// Idle sandboxes hold no descriptors for their cgroups (a backend of 10,000
    /// sandboxes held three for each, past a 20,000 limit); a process still joins its
    /// sandbox's group, and a kill finds it there.
    void idleSandboxesHoldNoDescriptors()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        QVERIFY2(resourcesOf(&backend).value(QStringLiteral("cgroup")).toString() != QLatin1String("none"),
            "this machine kind has writable cgroups (as root)");
        const QString fdDir = QStringLiteral("/proc/%1/fd").arg(backend.process()->processId());
        const auto openFiles = [&fdDir] {
            return QDir(fdDir).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot).size();
        };
        const TestSandbox first = createSandbox(&m_nam, &backend);
        QVERIFY(first.isValid());
        const auto before = openFiles();
        QList<TestSandbox> more;
        for (int i = 0; i < 20; ++i) {
            more.append(createSandbox(&m_nam, &backend));
            QVERIFY(more.last().isValid());
        }
        const auto after = openFiles();
        QVERIFY2(after - before < 20, qPrintable(QStringLiteral("%1 descriptors before, %2 after 20 sandboxes").arg(before).arg(after)));

        const auto sleeper = startSleeper(&backend, first);
        QVERIFY(sleeper);
        QFile cgroup(QStringLiteral("/proc/%1/cgroup").arg(sleeper->pid()));
        QVERIFY(cgroup.open(QIODevice::ReadOnly));
        const QByteArray groups = cgroup.readAll();
        QVERIFY2(groups.contains(first.id.toUtf8()), groups.constData());
        QCOMPARE(apiCall(&m_nam, &backend, "DELETE", QStringLiteral("/sandboxes/%1").arg(first.id)).status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(::kill(pid_t(sleeper->pid()), 0) != 0, 30000);
    }

    /// A sandbox's group comes with its first process: one that never runs anything
    /// costs no mkdir and rmdir per hierarchy (most of a create-and-kill cycle's time
    /// in the backend went there).
    void groupComesWithTheFirstProcess()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        QVERIFY2(resourcesOf(&backend).value(QStringLiteral("cgroup")).toString() != QLatin1String("none"),
            "this machine kind has writable cgroups (as root)");
        const TestSandbox idle = createSandbox(&m_nam, &backend);
        const TestSandbox busy = createSandbox(&m_nam, &backend);
        QVERIFY(idle.isValid() && busy.isValid());

        const auto sleeper = startSleeper(&backend, busy);
        QVERIFY(sleeper);
        QFile cgroup(QStringLiteral("/proc/%1/cgroup").arg(sleeper->pid()));
        QVERIFY(cgroup.open(QIODevice::ReadOnly));
        // "N:pids:/path" (v1) or "0::/path" (v2): where the busy sandbox's group is.
        QString groupDir;
        for (const QByteArray &line : cgroup.readAll().split('\n')) {
            const QList<QByteArray> fields = line.split(':');
            if (fields.size() == 3 && fields.at(2).endsWith('/' + busy.id.toUtf8())
                && (fields.at(1) == "pids" || fields.at(1).isEmpty()))
                groupDir = QStringLiteral("/sys/fs/cgroup/") + QString::fromUtf8(fields.at(1))
                    + QString::fromUtf8(fields.at(2));
        }
        QVERIFY2(QFileInfo(groupDir).isDir(), qPrintable(groupDir));
        const QString idleDir = QFileInfo(groupDir).path() + QLatin1Char('/') + idle.id;
        QVERIFY2(!QFileInfo::exists(idleDir), qPrintable(idleDir + QStringLiteral(" exists")));
    }
};

QTEST_GUILESS_MAIN(TestResourceLimits)
#include "tst_resourcelimits.moc"
