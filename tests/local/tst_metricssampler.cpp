// The metrics sampler of the local backend's data plane, in process: its walk over
// /proc and the sandbox folders runs off the main thread, reads at most the processes
// it is allowed, measures only the folders a sandbox's processes could have written
// to, and what it reports still adds up.

#include "local/processrunner.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sd::local;

class TestMetricsSampler : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_state;
    std::unique_ptr<ProcessRunner> m_runner;
    QList<SandboxRuntime *> m_runtimes;

    /// Samples come only when a test takes them: the timer's would take a folder's
    /// "changed" mark between a test's steps.
    static ProcessRunner::Options options(const QString &stateDir, Isolation isolation)
    {
        return { stateDir, isolation, {}, 0, 3600 * 1000 };
    }

    /// A sandbox whose id starts with `name`; the rest is random, so that another run
    /// of this test at the same time counts and stops only its own processes.
    SandboxRuntime *newRuntime(const QString &name)
    {
        SandboxRuntimeConfig config;
        config.sandboxId = name
            + QString::number(QRandomGenerator::global()->bounded(Q_UINT64_C(1) << 60), 36)
                  .rightJustified(20 - name.size(), u'0')
                  .right(20 - name.size());
        config.templateId = QStringLiteral("base");
        QString error;
        SandboxRuntime *runtime = m_runner->create(config, &error);
        [&] { QVERIFY2(runtime, qPrintable(error)); }();
        m_runtimes.append(runtime);
        return runtime;
    }

    static SandboxProcess *startScript(SandboxRuntime *runtime, const QString &script)
    {
        sd::ProcessConfig config;
        config.cmd = QStringLiteral("/bin/sh");
        config.args = QStringList { QStringLiteral("-c"), script };
        return runtime->start(config, {}, false);
    }

    void startAndWait(SandboxRuntime *runtime, const QString &script)
    {
        QSignalSpy started(startScript(runtime, script), &SandboxProcess::started);
        QVERIFY(started.wait(30000));
    }

    /// Runs `script` in the sandbox to its end.
    void run(SandboxRuntime *runtime, const QString &script)
    {
        QSignalSpy ended(startScript(runtime, script), &SandboxProcess::ended);
        QVERIFY(ended.wait(30000));
        QCOMPARE(ended.first().at(0).toInt(), 0);
    }

    /// Takes one sample with the current settings and waits for it, without blocking the
    /// thread it is taken on. A timer tick's walk may be in flight: it is let finish
    /// first, so the sample waited for is the one started here.
    void sample()
    {
        QSignalSpy sampled(m_runner.get(), &ProcessRunner::sampled);
        while (!m_runner->sampleNow())
            QVERIFY(sampled.wait(30000)); // the walk in flight comes in first
        sampled.clear(); // an earlier walk's; ours cannot have come in yet
        QVERIFY(sampled.wait(30000));
    }

private Q_SLOTS:
    void init()
    {
        m_runner = std::make_unique<ProcessRunner>(options(m_state.path(), Isolation::None));
    }

    void onlyFoldersThatMayHaveChangedAreMeasured_data()
    {
        QTest::addColumn<Isolation>("isolation");
        QTest::newRow("none") << Isolation::None;
        // A jailed sandbox keeps its jail after its command: the jail writes nothing.
        QTest::newRow("bwrap") << Isolation::Bwrap;
    }

    // At 10,000 sandboxes, measuring every folder every 5 s cost about a second of CPU.
    // Only a sandbox's own processes write to its folder (the local backend has no file
    // API), so a folder is measured after one of them started or ended, and while one
    // is alive, a daemon left behind included; then once more after they are gone.
    void onlyFoldersThatMayHaveChangedAreMeasured()
    {
        QFETCH(Isolation, isolation);
        if (isolation == Isolation::Bwrap) {
            QString error;
            QVERIFY2(ProcessRunner::probeBwrap(&error), qPrintable(error));
            m_runner = std::make_unique<ProcessRunner>(options(m_state.path(), isolation));
        }
        SandboxRuntime *idle = newRuntime(QStringLiteral("metricsquiet"));
        SandboxRuntime *busy = newRuntime(QStringLiteral("metricswrite"));
        const qint64 idleSize = idle->metrics().constLast().diskUsed;
        // Both were measured as they were made. A first command (which also brings up the
        // jail, with its /etc files) gets the busy one measured once more; then, its
        // command over and only its jail left, neither is.
        run(busy, QStringLiteral("true"));
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 1);
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 0);
        const qint64 busySize = busy->metrics().constLast().diskUsed;

        // A command that wrote and ended: its folder once, with what it wrote.
        run(busy, QStringLiteral("head -c 100000 /dev/zero > \"$HOME/data.bin\""));
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 1);
        QCOMPARE(busy->metrics().constLast().diskUsed, busySize + 100000);
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 0);
        QCOMPARE(busy->metrics().constLast().diskUsed, busySize + 100000);

        // A daemon the command left behind writes once it is told to, long after the
        // command ended: its folder is measured while it lives.
        const QString go = busy->fs().home() + QStringLiteral("/go");
        run(busy,
            QStringLiteral("(while [ ! -e \"$HOME/go\" ]; do sleep 0.05; done; "
                           "head -c 50000 /dev/zero > \"$HOME/late.bin\"; exec sleep 600) "
                           "</dev/null >/dev/null 2>&1 &"));
        sample();
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 1);
        QCOMPARE(busy->metrics().constLast().diskUsed, busySize + 100000);
        QFile signal(go);
        QVERIFY(signal.open(QIODevice::WriteOnly)); // empty: it adds no byte
        signal.close();
        const QString late = busy->fs().home() + QStringLiteral("/late.bin");
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(late).size(), qint64(50000), 30000);
        sample();
        QCOMPARE(m_runner->lastSampleFolders(), 1);
        QCOMPARE(busy->metrics().constLast().diskUsed, busySize + 150000);
        QCOMPARE(idle->metrics().constLast().diskUsed, idleSize);
    }

    void cleanup()
    {
        for (SandboxRuntime *runtime : std::as_const(m_runtimes))
            runtime->stop(QStringLiteral("test over"));
        qDeleteAll(m_runtimes);
        m_runtimes.clear();
        m_runner.reset();
        // A stopped sandbox's folder is deleted on a worker thread: let it finish, or
        // the state folder cannot be removed after the last test.
        QTRY_COMPARE_WITH_TIMEOUT(
            QDir(m_state.path() + QStringLiteral("/sandboxes"))
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList(), 30000);
    }

    void memoryAndCpuStillAddUp()
    {
        SandboxRuntime *busy = newRuntime(QStringLiteral("metricsbusy"));
        SandboxRuntime *idle = newRuntime(QStringLiteral("metricsidle"));
        // 30 MB held in a shell variable, then a loop that keeps a CPU busy.
        startAndWait(busy,
            QStringLiteral("x=$(head -c 30000000 /dev/zero | tr '\\0' a); "
                           "while :; do :; done"));
        // A plain loop, not QTRY_VERIFY: that evaluates its condition once more after it
        // held, and a sample taken a few ms after the last one may span no CPU tick.
        const QDeadlineTimer deadline(60000);
        for (;;) {
            sample();
            const sd::SandboxMetric last = busy->metrics().constLast();
            if (last.memUsed >= 30000000 && last.cpuUsedPct > 0)
                break;
            QVERIFY2(!deadline.hasExpired(),
                qPrintable(QStringLiteral("last sample: %1 bytes, %2% CPU")
                        .arg(last.memUsed)
                        .arg(last.cpuUsedPct)));
            QTest::qWait(50);
        }
        QCOMPARE(idle->metrics().constLast().memUsed, 0);
        QCOMPARE(idle->metrics().constLast().cpuUsedPct, 0.0);
    }

    void diskUsageComesWithTheWalk()
    {
        // The folder is measured by the walk on the worker thread (at 10,000 sandboxes
        // reading every folder took the backend's thread about a second), and what it
        // finds still reaches the sandbox's next sample.
        SandboxRuntime *runtime = newRuntime(QStringLiteral("metricsdisk"));
        const qint64 atCreation = runtime->metrics().constLast().diskUsed;
        run(runtime, QStringLiteral("head -c 300000 /dev/zero > \"$HOME/data.bin\""));
        QCOMPARE(runtime->metrics().constLast().diskUsed, atCreation); // nothing walked yet
        sample();
        QCOMPARE(runtime->metrics().constLast().diskUsed, atCreation + 300000);
    }

    void oneWalkAtATime()
    {
        newRuntime(QStringLiteral("metricsonce"));
        QSignalSpy sampled(m_runner.get(), &ProcessRunner::sampled);
        while (!m_runner->sampleNow())
            QVERIFY(sampled.wait(30000));
        sampled.clear();
        // A second request while the walk is out starts nothing and says so.
        QVERIFY(!m_runner->sampleNow());
        QVERIFY(sampled.wait(30000));
        QCOMPARE(sampled.size(), 1);
        // Once its sample is in, the next one may start at once.
        QVERIFY(m_runner->sampleNow());
        QVERIFY(sampled.wait(30000));
    }

    void walkIsBounded()
    {
        SandboxRuntime *crowded = newRuntime(QStringLiteral("metricscrowd"));
        startAndWait(crowded,
            QStringLiteral("i=0; while [ $i -lt 40 ]; do sleep 600 & i=$((i + 1)); done; wait"));
        // A child in the middle of its exec shows no environment for a moment, so no
        // sandbox marker: wait until all 40 run `sleep`, then the set holds still.
        const auto sleeping = [crowded] {
            int count = 0;
            for (qint64 pid : crowded->sandboxPids()) {
                QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
                if (comm.open(QIODevice::ReadOnly) && comm.readAll() == "sleep\n")
                    ++count;
            }
            return count;
        };
        QTRY_COMPARE_WITH_TIMEOUT(sleeping(), 40, 30000);
        QVERIFY(crowded->sandboxPids().size() > 40);
        const QDateTime asked = QDateTime::currentDateTimeUtc();
        m_runner->setMaxProcessesPerSample(10);
        sample();
        QCOMPARE(m_runner->lastSampleWalked(), 10);
        // The sample still came, short of what it did not read.
        QVERIFY(crowded->metrics().constLast().timestamp >= asked);

        m_runner->setMaxProcessesPerSample(100000);
        sample();
        QVERIFY(m_runner->lastSampleWalked() > 40);
        QVERIFY(crowded->metrics().constLast().memUsed > 0);
    }
};

QTEST_GUILESS_MAIN(TestMetricsSampler)
#include "tst_metricssampler.moc"
