// The orphan detector against the real sandbox-desk-local: what it flags, what it
// never flags, and how it probes.

#include "common/processidentity.h"
#include "creation/creationjob.h"
#include "creationtestutil.h"
#include "journal/creationjournal.h"
#include "orphans/orphandetector.h"
#include "teststrings.h"

#include "creation/envdaccess.h"
#include "envd/processjobs.h"

#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>

#include <unistd.h>

using namespace sd;
using namespace std::chrono_literals;

class TestOrphans : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<CreationJournal> m_journal;

    std::unique_ptr<OrphanDetector> detector()
    {
        auto d = std::make_unique<OrphanDetector>(
            m_backend.network(), m_backend.settings(), m_journal.get());
        d->setGatewayGrace(120s);
        // Ten minutes from now: every sandbox has been up longer than the grace.
        d->setClock([] { return QDateTime::currentDateTimeUtc().addSecs(600); });
        return d;
    }

    QList<Orphan> scan(OrphanDetector *d)
    {
        std::unique_ptr<OrphanScanJob> job(d->scan(m_backend.list()));
        job->setAutoDelete(false);
        [&] { QVERIFY(sd::test::runJob(job.get(), 120000)); }();
        return job->orphans();
    }

    Sandbox createReadyMcpSandbox()
    {
        CreationContext c = m_backend.creationContext(m_journal.get(), QStringLiteral("install"));
        CreationRequest request;
        request.mcp = QJsonObject { { QStringLiteral("browserbase"),
            QJsonObject { { QStringLiteral("apiKey"), QStringLiteral("k1234") },
                { QStringLiteral("projectId"), QStringLiteral("p") },
                { QStringLiteral("geminiApiKey"), QStringLiteral("g1234") } } } };
        CreationJob job(c, request);
        job.setAutoDelete(false);
        [&] { QVERIFY(sd::test::runJob(&job, 120000)); }();
        [&] { QCOMPARE(str(job.state()), str(CreationState::Ready)); }();
        return job.sandbox();
    }

    /// A pid that surely belongs to no running process.
    qint64 deadPid() { return 999999999; } // above any pid_max

    static CreationIntent intentFor(
        const QString &creationId, const QString &templateId, const QStringList &mcp = {})
    {
        CreationIntent intent;
        intent.creationId = creationId;
        intent.templateId = templateId;
        intent.mcpServers = mcp;
        return intent;
    }

    /// Rewrites the pid of every record of this process in the journal (tests only),
    /// and the start time recorded with it to that of the process that has `pid`, or
    /// to `startTicks`.
    void rewriteJournalPid(qint64 pid, std::optional<qint64> startTicks = std::nullopt)
    {
        const qint64 ours = QCoreApplication::applicationPid();
        QByteArray text = sd::test::readFile(m_journal->filePath());
        text.replace(QByteArray("\"pid\":") + QByteArray::number(ours),
            QByteArray("\"pid\":") + QByteArray::number(pid));
        text.replace(QByteArray("\"pidStart\":") + QByteArray::number(processStartTicks(ours)),
            QByteArray("\"pidStart\":")
                + QByteArray::number(startTicks.value_or(processStartTicks(pid))));
        rewriteJournal(text);
    }

    void rewriteJournal(const QByteArray &text)
    {
        QFile file(m_journal->filePath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();
        QVERIFY(m_journal->open());
    }

    /// Runs a process in a sandbox until it exits; true on exit code 0.
    bool runInSandbox(const Sandbox &sandbox, const ProcessConfig &config)
    {
        StartProcessJob job(
            m_backend.network(), envdTargetFor(m_backend.settings(), sandbox), config);
        job.setAutoDelete(false);
        return sd::test::runJob(&job) && !job.hasError() && job.exitCode() == 0;
    }

    bool runInSandbox(const Sandbox &sandbox, const QString &command)
    {
        return runInSandbox(sandbox, StartProcessJob::shellCommand(command));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_backend.start()); }

    void init()
    {
        QVERIFY(m_backend.clearFaults());
        m_backend.killAll();
        m_dir = std::make_unique<QTemporaryDir>();
        m_journal = std::make_unique<CreationJournal>(m_dir->filePath(QStringLiteral("o.jsonl")));
        QVERIFY(m_journal->open());
    }

    void sdkLeftoverIsGatewayDownHealthyOnesNever()
    {
        // What e2b 2.38.2 leaves after a failed MCP create: an mcp-gateway sandbox,
        // no tags of ours, and no gateway process.
        const Sandbox leftover = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        const Sandbox plain = m_backend.createRaw(QStringLiteral("base"));
        const Sandbox healthy = createReadyMcpSandbox();
        QVERIFY(!leftover.sandboxId.isEmpty() && !plain.sandboxId.isEmpty()
            && !healthy.sandboxId.isEmpty());

        auto d = detector();
        const QList<Orphan> orphans = scan(d.get());
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans.constFirst().sandboxId, leftover.sandboxId);
        QCOMPARE(str(orphans.constFirst().reason), str(OrphanReason::GatewayDown));
        QVERIFY(orphans.constFirst().evidence.contains(QLatin1String("no mcp-gateway process")));
        QVERIFY(orphans.constFirst().creationId.isEmpty());
        // Nobody's creation per the journal: only suspected, and left out of bulk kills.
        QCOMPARE(toString(orphans.constFirst().certainty), QStringLiteral("suspected"));
        QVERIFY(orphans.constFirst().evidence.contains(QLatin1String("no journal record")));
        QVERIFY(orphansToKill(orphans, false).isEmpty());
        QCOMPARE(orphansToKill(orphans, true).size(), 1);
    }

    void ourGatewayTemplateWithoutMcpIsNeverGatewayDown()
    {
        // Created by us on the mcp-gateway template without MCP: the journal says no
        // gateway was asked for, so the template name alone must not flag it.
        CreationContext c = m_backend.creationContext(m_journal.get(), QStringLiteral("install"));
        CreationRequest request;
        request.templateId = QStringLiteral("mcp-gateway");
        CreationJob job(c, request);
        job.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&job, 120000));
        QCOMPARE(str(job.state()), str(CreationState::Ready));

        auto d = detector();
        QVERIFY(scan(d.get()).isEmpty());
        QCOMPARE(d->probesSent(), 0);
    }

    void creationInFlightElsewhereIsNotProbed()
    {
        // Another live process on this host is still creating an MCP sandbox: its
        // gateway may not be up yet, so neither flag nor probe it.
        const Sandbox sandbox = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        const CreationIntent intent
            = intentFor(QStringLiteral("dddddddd-0000-0000-0000-000000000001"),
                QStringLiteral("mcp-gateway"), { QStringLiteral("browserbase") });
        QVERIFY(m_journal->recordIntent(intent));
        QVERIFY(m_journal->recordSandboxId(intent.creationId, sandbox.sandboxId));
        QVERIFY(m_journal->recordState(intent.creationId, CreationState::StartingGateway));
        rewriteJournalPid(qint64(::getppid())); // alive, on this host, not us

        auto d = detector();
        QVERIFY(scan(d.get()).isEmpty());
        QCOMPARE(d->probesSent(), 0);
    }

    void creatorsPidTakenByAnotherProcessIsInterrupted()
    {
        // The creator was killed and its pid now belongs to another live process (pids
        // are reused, from the bottom again after a reboot): still interrupted.
        QProcess other;
        other.start(QStringLiteral("/bin/sleep"), { QStringLiteral("600") });
        QVERIFY(other.waitForStarted());
        const auto stopOther = qScopeGuard([&other] {
            other.kill();
            other.waitForFinished();
        });
        const qint64 otherStart = processStartTicks(other.processId());
        QVERIFY(otherStart > 0);

        const Sandbox sandbox = m_backend.createRaw(QStringLiteral("base"));
        const CreationIntent intent = intentFor(
            QStringLiteral("dddddddd-0000-0000-0000-000000000002"), QStringLiteral("base"));
        QVERIFY(m_journal->recordIntent(intent));
        QVERIFY(m_journal->recordSandboxId(intent.creationId, sandbox.sandboxId));
        QVERIFY(m_journal->recordState(intent.creationId, CreationState::Extending));
        // The creator started a tick before the process that has its pid now.
        rewriteJournalPid(other.processId(), otherStart - 1);

        auto d = detector();
        QList<Orphan> orphans = scan(d.get());
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans.constFirst().sandboxId, sandbox.sandboxId);
        QCOMPARE(str(orphans.constFirst().reason), str(OrphanReason::Interrupted));

        // The same pid and start time but an earlier boot: interrupted too.
        const QByteArray boot = "\"boot\":\"" + currentBootId().toLatin1() + "\",";
        const QByteArray earlierBoot = "\"boot\":\"00000000-0000-0000-0000-000000000000\",";
        const QByteArray start = "\"pidStart\":" + QByteArray::number(otherStart) + ',';
        QByteArray text = sd::test::readFile(m_journal->filePath());
        QVERIFY(text.contains(boot));
        text.replace("\"pidStart\":" + QByteArray::number(otherStart - 1) + ',', start);
        text.replace(boot, earlierBoot);
        rewriteJournal(text);
        orphans = scan(d.get());
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(str(orphans.constFirst().reason), str(OrphanReason::Interrupted));

        // Its own start time in this boot: the creator at work, left alone.
        text.replace(earlierBoot, boot);
        rewriteJournal(text);
        QVERIFY(scan(d.get()).isEmpty());

        // A journal from before start times and boots were recorded: a live pid is
        // taken for the creator, as it always was.
        text.replace(start, "");
        text.replace(boot, "");
        QVERIFY(!text.contains("\"pidStart\""));
        QVERIFY(!text.contains("\"boot\""));
        rewriteJournal(text);
        QVERIFY(scan(d.get()).isEmpty());
    }

    void graceIsMeasuredOnTheServersClock()
    {
        // The local clock is ten minutes ahead; the server says the sandbox is new.
        m_backend.createRaw(QStringLiteral("mcp-gateway"));
        ListSandboxesJob list(m_backend.network(), m_backend.settings());
        list.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&list));
        QVERIFY(list.serverDate().isValid());
        auto d = detector();
        std::unique_ptr<OrphanScanJob> job(d->scan(list.sandboxes(), list.serverDate()));
        job->setAutoDelete(false);
        QVERIFY(sd::test::runJob(job.get(), 120000));
        QVERIFY(job->orphans().isEmpty());
        QCOMPARE(d->probesSent(), 0);
    }

    void gatewayRunThroughAnInterpreterIsRunning()
    {
        // A gateway that is a script run by its shebang's interpreter, started by a
        // wrapper that detached: its argv[0] is /bin/sh, and envd no longer lists
        // the command that started it.
        const Sandbox sandbox = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        QVERIFY(runInSandbox(sandbox,
            QStringLiteral("mkdir -p \"$HOME/gw\" && cd \"$HOME/gw\""
                           " && printf '#!/bin/sh\\ntouch started\\nwhile :; do sleep 60; done\\n' > mcp-gateway"
                           " && printf '#!/bin/sh\\n%s/mcp-gateway\\n' \"$PWD\" > run"
                           " && chmod +x mcp-gateway run"
                           " && (nohup ./run >/dev/null 2>&1 &)"
                           // Probe once the gateway runs, not while its wrapper starts it.
                           " && until [ -f started ]; do sleep 0.05; done")));
        auto d = detector();
        QVERIFY(scan(d.get()).isEmpty());
        QCOMPARE(d->probesSent(), 1);
    }

    void profileCannotFakeAGateway()
    {
        // Sandbox code owns its home: a login profile that prints a gateway line and
        // leaves a mark must neither hide the missing gateway nor run for the probe.
        const Sandbox sandbox = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        const QString profile = QStringLiteral(
            "printf '\\n2 /usr/local/bin/mcp-gateway\\n'; touch \"$HOME/profile-ran\"\n");
        QVERIFY(runInSandbox(sandbox,
            StartProcessJob::shellCommand(
                QStringLiteral("printf '%s' \"$PROFILE\" | tee .bash_profile .profile >/dev/null"),
                { { QStringLiteral("PROFILE"), profile } })));
        auto d = detector();
        const QList<Orphan> orphans = scan(d.get());
        QCOMPARE(d->probesSent(), 1);
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(str(orphans.constFirst().reason), str(OrphanReason::GatewayDown));
        // Checked without a shell, which would read the profile itself.
        ProcessConfig noMark;
        noMark.cmd = QStringLiteral("/usr/bin/test");
        noMark.args = QStringList { QStringLiteral("!"), QStringLiteral("-e"),
            QStringLiteral("profile-ran") }; // in the home, the default folder
        QVERIFY(runInSandbox(sandbox, noMark));
    }

    void namesGatewayMatchesWholePathComponents_data()
    {
        QTest::addColumn<QString>("argument");
        QTest::addColumn<bool>("names");
        QTest::newRow("bare") << QStringLiteral("mcp-gateway") << true;
        QTest::newRow("path") << QStringLiteral("/usr/local/bin/mcp-gateway") << true;
        QTest::newRow("shell command")
            << QStringLiteral("exec mcp-gateway --config /etc/x.json") << true;
        QTest::newRow("option value") << QStringLiteral("--program=./mcp-gateway") << true;
        QTest::newRow("longer name") << QStringLiteral("/usr/bin/mcp-gateway-helper") << false;
        QTest::newRow("config folder") << QStringLiteral("/etc/mcp-gateway/config.json") << false;
        QTest::newRow("other") << QStringLiteral("python3") << false;
    }

    void namesGatewayMatchesWholePathComponents()
    {
        QFETCH(QString, argument);
        QFETCH(bool, names);
        QCOMPARE(namesGateway(argument), names);
    }

    void gatewayGraceIsRespected()
    {
        m_backend.createRaw(QStringLiteral("mcp-gateway"));
        OrphanDetector d(m_backend.network(), m_backend.settings(), m_journal.get());
        d.setGatewayGrace(120s); // real clock: the sandbox is seconds old
        QVERIFY(scan(&d).isEmpty());
        QCOMPARE(d.probesSent(), 0);
    }

    void probesAreCachedAndAtMostFourRunAtOnce()
    {
        for (int i = 0; i < 6; ++i)
            m_backend.createRaw(QStringLiteral("mcp-gateway"));
        auto d = detector();
        // A stopped clock: every probe and scan happens in the same millisecond.
        QDateTime at = QDateTime::currentDateTimeUtc().addSecs(600);
        d->setClock([&at] { return at; });
        QCOMPARE(scan(d.get()).size(), 6);
        QCOMPARE(d->probesSent(), 6);
        QVERIFY(d->peakConcurrentProbes() <= 4);
        QVERIFY(d->peakConcurrentProbes() >= 2);
        // Within a minute the answers come from the cache; at a minute they do not.
        at = at.addMSecs(59999);
        QCOMPARE(scan(d.get()).size(), 6);
        QCOMPARE(d->probesSent(), 6);
        at = at.addMSecs(1);
        QCOMPARE(scan(d.get()).size(), 6);
        QCOMPARE(d->probesSent(), 12);
        // No lifetime means no cache, even within the millisecond of the last probe.
        d->setProbeCacheTtl(0ms);
        QCOMPARE(scan(d.get()).size(), 6);
        QCOMPARE(d->probesSent(), 18);
    }

    void expiredProbesLeaveTheCache()
    {
        for (int i = 0; i < 3; ++i)
            m_backend.createRaw(QStringLiteral("mcp-gateway"));
        auto d = detector();
        QCOMPARE(scan(d.get()).size(), 3);
        QCOMPARE(d->cachedProbes(), 3);
        // Those sandboxes go and another comes, two minutes later: only its result stays.
        for (const QString &id : m_backend.listIds()) {
            KillSandboxJob kill(m_backend.network(), m_backend.settings(), id);
            kill.setAutoDelete(false);
            QVERIFY(sd::test::runJob(&kill));
        }
        m_backend.createRaw(QStringLiteral("mcp-gateway"));
        d->setClock([] { return QDateTime::currentDateTimeUtc().addSecs(720); });
        QCOMPARE(scan(d.get()).size(), 1);
        QCOMPARE(d->probesSent(), 4);
        QCOMPARE(d->cachedProbes(), 1);
    }

    void interruptedByIdAndByTag()
    {
        // Two creations whose process died: one knew its sandbox's id, one did not yet.
        const Sandbox byId = m_backend.createRaw(QStringLiteral("base"));
        const CreationIntent a = intentFor(
            QStringLiteral("aaaaaaaa-0000-0000-0000-000000000001"), QStringLiteral("base"));
        const Sandbox byTag = m_backend.createRaw(QStringLiteral("base"),
            { { QStringLiteral("sandbox-desk.creation"),
                QStringLiteral("aaaaaaaa-0000-0000-0000-000000000002") } });
        CreationIntent b = a;
        b.creationId = QStringLiteral("aaaaaaaa-0000-0000-0000-000000000002");
        QVERIFY(m_journal->recordIntent(a));
        QVERIFY(m_journal->recordSandboxId(a.creationId, byId.sandboxId));
        QVERIFY(m_journal->recordState(a.creationId, CreationState::Extending));
        QVERIFY(m_journal->recordIntent(b));
        // The records name this process; a creation is only interrupted if its
        // process is gone, so rewrite the pid to a dead one.
        rewriteJournalPid(deadPid());

        OrphanDetector d(m_backend.network(), m_backend.settings(), m_journal.get());
        const QList<Orphan> orphans = scan(&d);
        QCOMPARE(orphans.size(), 2);
        for (const Orphan &o : orphans) {
            QCOMPARE(str(o.reason), str(OrphanReason::Interrupted));
            QVERIFY(o.evidence.contains(QLatin1String("never finished")));
        }
        // While a creation runs in this process it is never flagged.
        m_journal->setActive(a.creationId, true);
        m_journal->setActive(b.creationId, true);
        QVERIFY(scan(&d).isEmpty());
    }

    void lostResponseAndOtherClients()
    {
        // A creation that ended rolled back without ever learning the id of the
        // sandbox the server made for it (the search ran before the server finished).
        CreationIntent intent;
        intent.creationId = QStringLiteral("bbbbbbbb-0000-0000-0000-000000000001");
        intent.templateId = QStringLiteral("base");
        QVERIFY(m_journal->recordIntent(intent));
        QVERIFY(m_journal->recordFound(intent.creationId, {}));
        QVERIFY(m_journal->recordOutcome(intent.creationId,
            { CreationState::RolledBack, QStringLiteral("x"), std::nullopt, std::nullopt }));
        const Sandbox lost = m_backend.createRaw(QStringLiteral("base"),
            { { QStringLiteral("sandbox-desk.creation"), intent.creationId } });
        // Another installation's creation, and a foreign client's plain sandbox.
        m_backend.createRaw(QStringLiteral("base"),
            { { QStringLiteral("sandbox-desk.creation"),
                QStringLiteral("cccccccc-0000-0000-0000-000000000001") } });
        m_backend.createRaw(
            QStringLiteral("base"), { { QStringLiteral("owner"), QStringLiteral("someone") } });

        OrphanDetector d(m_backend.network(), m_backend.settings(), m_journal.get());
        const QList<Orphan> orphans = scan(&d);
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans.constFirst().sandboxId, lost.sandboxId);
        QCOMPARE(str(orphans.constFirst().reason), str(OrphanReason::LostResponse));
        QCOMPARE(orphans.constFirst().creationId, intent.creationId);

        KillOrphansJob kill(m_backend.network(), m_backend.settings(), m_journal.get(), orphans);
        kill.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&kill));
        QCOMPARE(kill.killed(), QStringList { lost.sandboxId });
        QVERIFY(kill.failed().isEmpty());
        QCOMPARE(m_backend.listIds().size(), 2);
    }

    void killOrphansReportsEachFailure()
    {
        const Sandbox a = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        const Sandbox b = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        auto d = detector();
        const QList<Orphan> orphans = scan(d.get());
        QCOMPARE(orphans.size(), 2);
        // The first DELETE fails three times (all its tries), the second goes through.
        QVERIFY(m_backend.setFaults({ sd::test::rule(QStringLiteral("DELETE"),
            QStringLiteral("/sandboxes/*"), QStringLiteral("status"), 3, 500) }));
        RetryPolicy fast;
        fast.backoff = { 10ms };
        KillOrphansJob kill(
            m_backend.network(), m_backend.settings(), m_journal.get(), orphans, fast);
        kill.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&kill));
        QVERIFY(kill.hasError());
        QCOMPARE(kill.failed().size(), 1);
        QCOMPARE(kill.failed().constFirst().sandboxId, orphans.at(0).sandboxId);
        QVERIFY(kill.failed().constFirst().error.contains(QLatin1String("500")));
        QCOMPARE(kill.killed(), QStringList { orphans.at(1).sandboxId });
        QCOMPARE(m_backend.listIds(), QStringList { orphans.at(0).sandboxId });
        Q_UNUSED(a);
        Q_UNUSED(b);
    }
};

QTEST_GUILESS_MAIN(TestOrphans)
#include "tst_orphans.moc"
