// The creation job against the real sandbox-desk-local, one fault at a time. Each
// test asserts the final state, the error the user reads, the journal's records and
// what still runs on the backend afterwards.

#include "creation/creationjob.h"
#include "creation/creationregistry.h"
#include "creationtestutil.h"
#include "journal/creationjournal.h"
#include "mcp/secretredactor.h"
#include "network/networkaccessmanager.h"
#include "orphans/orphandetector.h"
#include "teststrings.h"

#include <QMutex>
#include <QScopeGuard>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <sys/stat.h>
#include <unistd.h>

using namespace sd;
using namespace std::chrono_literals;
using sd::test::rule;

namespace {
const QString browserbaseKey = QStringLiteral("bb-secret-4f1e9c2a77");
const QString geminiKey = QStringLiteral("gm-secret-8d3b6a0e55");
const QString envSecret = QStringLiteral("env-secret-91c7d2b4e0");

QJsonObject goodMcp()
{
    return QJsonObject { { QStringLiteral("browserbase"),
        QJsonObject { { QStringLiteral("apiKey"), browserbaseKey },
            { QStringLiteral("projectId"), QStringLiteral("proj-1") },
            { QStringLiteral("geminiApiKey"), geminiKey } } } };
}

// A value JSON escapes differently from how it is given, and a number the gateway
// prints as 1.23457e+06.
const QString escapedKey = QStringLiteral("bb\"quoted\\secret-7e21");
constexpr double numericSecret = 1234567;

/// Every textual form of the secrets above; none may get through.
QList<QByteArray> secretForms()
{
    return { browserbaseKey.toUtf8(), geminiKey.toUtf8(), escapedKey.toUtf8(),
        QByteArrayLiteral("bb\\\"quoted\\\\secret-7e21"), QByteArrayLiteral("1234567"),
        QByteArrayLiteral("1.23457e+06") };
}

/// Calls `onRequest` on the thread that sends, at the moment each request is made.
class ObservedNetwork : public sd::NetworkAccessManager
{
public:
    std::function<void(const QNetworkRequest &)> onRequest;

protected:
    QNetworkReply *createRequest(
        Operation op, const QNetworkRequest &request, QIODevice *data) override
    {
        if (onRequest)
            onRequest(request);
        return sd::NetworkAccessManager::createRequest(op, request, data);
    }
};

/// What the journal's fsyncs did, seen through CreationJournal::setSyncFunction().
struct SyncWatch
{
    QMutex mutex;
    QList<QThread *> threads; ///< the thread of every fsync
    std::atomic<int> recordsSynced { 0 }; ///< fsyncs of the journal file that returned
    std::atomic<qint64> syncedSize { 0 }; ///< the journal file's size at the last of them
    std::atomic<bool> holdNextRecord { false }; ///< keep the next record's fsync waiting ...
    std::atomic<bool> holding { false };
    QSemaphore release; ///< ... until this is released

    CreationJournal::SyncFunction function(QThread *mainThread)
    {
        return [this, mainThread](int fd) {
            struct stat info = {};
            const bool record = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
            {
                const QMutexLocker lock(&mutex);
                threads << QThread::currentThread();
            }
            // Never hold the main thread: that would only hang a broken build.
            if (record && QThread::currentThread() != mainThread
                && holdNextRecord.exchange(false)) {
                holding = true;
                release.tryAcquire(1, 60000);
            }
            const int result = ::fsync(fd);
            if (record) {
                syncedSize = qint64(info.st_size);
                ++recordsSynced;
            }
            return result;
        };
    }
};

QJsonObject mcpMissingOption()
{
    return QJsonObject { { QStringLiteral("browserbase"),
        QJsonObject { { QStringLiteral("apiKey"), browserbaseKey },
            { QStringLiteral("projectId"), QStringLiteral("proj-1") } } } };
}
} // namespace

class TestCreation : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<CreationJournal> m_journal;

    CreationContext context()
    {
        CreationContext c = m_backend.creationContext(
            m_journal.get(), QStringLiteral("11111111-2222-3333-4444-555555555555"));
        c.gatewayBudget = 60s;
        c.rollback.backoff = { 50ms, 100ms, 200ms };
        return c;
    }

    struct Run
    {
        std::unique_ptr<CreationJob> job;
        QList<CreationState> states;
    };

    std::unique_ptr<CreationJob> make(CreationRequest request, CreationContext c = {})
    {
        if (!c.network)
            c = context();
        auto job = std::make_unique<CreationJob>(c, std::move(request));
        job->setAutoDelete(false);
        return job;
    }

    QList<CreationState> run(CreationJob *job)
    {
        QList<CreationState> states;
        connect(job, &CreationJob::stateChanged, this, [&states](CreationState s) { states << s; });
        [&] { QVERIFY(sd::test::runJob(job, 120000)); }();
        job->disconnect(this);
        return states;
    }

    QByteArray journalText() { return sd::test::readFile(m_journal->filePath()); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_backend.start()); }

    void init()
    {
        QVERIFY(m_backend.clearFaults());
        m_backend.killAll();
        QVERIFY(m_backend.listIds().isEmpty());
        m_dir = std::make_unique<QTemporaryDir>();
        m_journal
            = std::make_unique<CreationJournal>(m_dir->filePath(QStringLiteral("test.jsonl")));
        QVERIFY(m_journal->open());
    }

    void readyWithoutMcp()
    {
        CreationRequest request;
        request.timeoutSeconds = 900;
        request.metadata.insert(QStringLiteral("owner"), QStringLiteral("tests"));
        auto job = make(request);
        const auto states = run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));
        QVERIFY(!job->hasError());
        QCOMPARE(job->errorMessage(), QString());
        QCOMPARE(str(states),
            str((QList<CreationState> { CreationState::Validating, CreationState::Allocating,
                CreationState::Extending, CreationState::Ready })));
        QCOMPARE(job->templateId(), QStringLiteral("base"));

        const QList<Sandbox> sandboxes = m_backend.list();
        QCOMPARE(sandboxes.size(), 1);
        const Sandbox &s = sandboxes.constFirst();
        QCOMPARE(s.sandboxId, job->sandboxId());
        QCOMPARE(s.templateId, QStringLiteral("base"));
        QCOMPARE(s.metadata.value(QStringLiteral("owner")), QStringLiteral("tests"));
        QCOMPARE(s.metadata.value(QStringLiteral("sandbox-desk.creation")), job->creationId());
        QCOMPARE(s.metadata.value(QStringLiteral("sandbox-desk.install")), context().installId);
        // Extended to what the user asked, not the short allocation timeout.
        QVERIFY2(s.startedAt.secsTo(s.endAt) > 800, qPrintable(s.endAt.toString(Qt::ISODate)));

        const auto r = m_journal->creation(job->creationId());
        QVERIFY(r);
        QCOMPARE(str(r->state), str(CreationState::Ready));
        QVERIFY(r->isFinished());
        QCOMPARE(r->sandboxId, job->sandboxId());
        QCOMPARE(r->templateId, QStringLiteral("base"));
        QVERIFY(!r->rollback);
    }

    void readyWithMcpAndNoSecretInTheJournal()
    {
        CreationRequest request;
        request.mcp = goodMcp();
        request.envVars.insert(QStringLiteral("MY_TOKEN"), envSecret);
        auto job = make(request);
        QByteArray liveStdout;
        connect(job.get(), &CreationJob::gatewayStdoutReceived, this,
            [&liveStdout](const QByteArray &d) { liveStdout += d; });
        const auto states = run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));
        QVERIFY(states.contains(CreationState::StartingGateway));
        QCOMPARE(job->templateId(), QStringLiteral("mcp-gateway"));
        QVERIFY2(liveStdout.contains("MCP gateway started"), liveStdout.constData());
        QCOMPARE(job->gatewayStdout(), liveStdout);
        QCOMPARE(m_backend.listIds(), QStringList { job->sandboxId() });
        const auto r = m_journal->creation(job->creationId());
        QCOMPARE(r->mcpServers, QStringList { QStringLiteral("browserbase") });
        QCOMPARE(str(r->state), str(CreationState::Ready));

        const QByteArray text = journalText();
        QVERIFY(text.contains(job->creationId().toUtf8()));
        for (const QString &secret : { browserbaseKey, geminiKey, envSecret, m_backend.apiKey(),
                 job->gatewayAccessToken(), job->sandbox().envdAccessToken }) {
            QVERIFY(!secret.isEmpty());
            QVERIFY2(!text.contains(secret.toUtf8()), "a secret reached the journal");
        }
        QVERIFY(!text.contains("proj-1")); // no option value at all, secret or not
    }

    void gatewayExit127OnBase()
    {
        CreationRequest request;
        request.templateId = QStringLiteral("base"); // no mcp-gateway on its PATH
        request.mcp = goodMcp();
        auto job = make(request);
        QByteArray liveStderr;
        connect(job.get(), &CreationJob::gatewayStderrReceived, this,
            [&liveStderr](const QByteArray &d) { liveStderr += d; });
        const auto states = run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QCOMPARE(job->gatewayExitCode(), 127);
        QVERIFY(liveStderr.contains("mcp-gateway"));
        QVERIFY2(job->errorMessage().startsWith(QLatin1String("Failed to start MCP gateway: ")),
            qPrintable(job->errorMessage()));
        QVERIFY(job->errorMessage().contains(QLatin1String("not found")));
        QCOMPARE(str(states.mid(states.size() - 2)),
            str((QList<CreationState> { CreationState::RollingBack, CreationState::RolledBack })));
        QVERIFY(job->rollback());
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Killed));
        QCOMPARE(job->rollback()->attempts, 1);
        QVERIFY(m_backend.listIds().isEmpty());

        const auto r = m_journal->creation(job->creationId());
        QCOMPARE(str(r->state), str(CreationState::RolledBack));
        QCOMPARE(r->sandboxId, job->sandboxId());
        QVERIFY(r->gatewayStderr.contains(QLatin1String("not found")));
        QCOMPARE(r->error, job->errorMessage());
        QCOMPARE(str(r->rollback->outcome), str(RollbackOutcome::Killed));
    }

    void missingRequiredOptionIsRejected()
    {
        CreationRequest request;
        request.mcp = mcpMissingOption();
        auto job = make(request);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Rejected));
        QCOMPARE(job->error().kind(), Error::Kind::Rejected);
        QVERIFY2(job->errorMessage().contains(QLatin1String("browserbase"))
                && job->errorMessage().contains(QLatin1String("geminiApiKey")),
            qPrintable(job->errorMessage()));
        QVERIFY(job->sandboxId().isEmpty());
        QVERIFY(m_backend.listIds().isEmpty());
        QVERIFY(m_journal->creations().isEmpty()); // nothing was announced: nothing was sent
    }

    void forcedBadConfigFailsInTheGateway()
    {
        CreationRequest request;
        request.mcp = mcpMissingOption();
        request.force = true;
        auto job = make(request);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QVERIFY(job->errorMessage().startsWith(QLatin1String("Failed to start MCP gateway: ")));
        QVERIFY(!job->mcpFindings().isEmpty()); // the forced errors are kept for the user
        QVERIFY(m_backend.listIds().isEmpty());
        const QByteArray text = journalText();
        QVERIFY(!text.contains(browserbaseKey.toUtf8()));
    }

    void gatewayOutputThenCutStream()
    {
        QJsonObject cut = rule(QStringLiteral("POST"), QStringLiteral("*/process.Process/Start"),
            QStringLiteral("cut-after-output"));
        cut.insert(QStringLiteral("chunks"), 1);
        QVERIFY(m_backend.setFaults({ cut }));
        CreationRequest request;
        request.mcp = goodMcp();
        auto job = make(request);
        QByteArray live;
        connect(job.get(), &CreationJob::gatewayStdoutReceived, this,
            [&live](const QByteArray &d) { live += d; });
        connect(job.get(), &CreationJob::gatewayStderrReceived, this,
            [&live](const QByteArray &d) { live += d; });
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QVERIFY(!live.isEmpty()); // the output before the cut reached the signals
        QVERIFY2(job->errorMessage().startsWith(QLatin1String("Failed to start MCP gateway: ")),
            qPrintable(job->errorMessage()));
        QVERIFY(job->error().kind() != Error::Kind::Rejected); // a stream failure, not an exit code
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Killed));
        QVERIFY(m_backend.listIds().isEmpty());
        QCOMPARE(
            str(m_journal->creation(job->creationId())->state), str(CreationState::RolledBack));
    }

    /// A creation whose (test-only) gateway echoes its configuration in pieces.
    std::unique_ptr<CreationJob> echoingGateway(qint64 flood = 0, CreationContext c = {})
    {
        CreationRequest request;
        request.mcp = QJsonObject { { QStringLiteral("browserbase"),
            QJsonObject { { QStringLiteral("apiKey"), escapedKey },
                { QStringLiteral("projectId"), QStringLiteral("proj-1") },
                { QStringLiteral("geminiApiKey"), geminiKey },
                { QStringLiteral("port"), numericSecret } } } };
        request.force = true;
        request.envVars.insert(QStringLiteral("SD_TEST_GATEWAY_ECHO"), QStringLiteral("1"));
        if (flood > 0)
            request.envVars.insert(QStringLiteral("SD_TEST_GATEWAY_FLOOD"), QString::number(flood));
        if (c.network)
            request.envVars.insert(QStringLiteral("SD_TEST_GATEWAY_HANG"), QStringLiteral("1"));
        return make(request, c);
    }

    void gatewayEchoingItsConfigInPiecesLeaksNoForm()
    {
        auto job = echoingGateway();
        QByteArray live;
        int pieces = 0;
        connect(job.get(), &CreationJob::gatewayStderrReceived, this,
            [&live, &pieces](const QByteArray &d) { live += d, ++pieces; });
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        // It did arrive in pieces (how many depends on the load: a busy reader takes
        // several writes at once; every piece size is covered by the redactor's own test).
        QVERIFY(pieces > 1);
        QVERIFY(live.contains("[redacted]"));
        QVERIFY(live.contains("the real error is at the end"));
        const QByteArray journal = journalText();
        const QByteArray error = job->errorMessage().toUtf8();
        for (const QByteArray &form : secretForms()) {
            QVERIFY2(!live.contains(form), "a secret reached the live view");
            QVERIFY2(!job->gatewayStderr().contains(form), "a secret reached the stderr");
            QVERIFY2(!journal.contains(form), "a secret reached the journal");
            QVERIFY2(!error.contains(form), "a secret reached the error");
        }
    }

    void gatewayStderrPastTheCapKeepsTheEnd()
    {
        auto job = echoingGateway(CreationJob::maxOutputBytes + 4096);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        const QByteArray stderrText = job->gatewayStderr();
        QVERIFY(stderrText.size() <= CreationJob::maxOutputBytes);
        QVERIFY(stderrText.startsWith("[first "));
        QVERIFY(stderrText.contains("byte(s) of output cut]"));
        QVERIFY(stderrText.endsWith("the real error is at the end\n"));
        const auto record = m_journal->creation(job->creationId());
        QVERIFY(record);
        QVERIFY(record->gatewayStderr.endsWith(QLatin1String("the real error is at the end\n")));
        QVERIFY(job->errorMessage().contains(QLatin1String("the real error is at the end")));
        for (const QByteArray &form : secretForms())
            QVERIFY2(!stderrText.contains(form), "a secret reached the stderr");
    }

    void redactorFindsSecretsSplitAnywhere()
    {
        SecretRedactor base;
        base.addSecretsIn(QJsonObject {
            { QStringLiteral("a"), escapedKey }, { QStringLiteral("n"), numericSecret } });
        const QByteArray text = "x " + secretForms().at(2) + " y " + secretForms().at(3) + " z "
            + secretForms().at(4) + ", " + secretForms().at(5) + " end";
        for (int size = 1; size <= text.size(); ++size) {
            SecretRedactor stream = base;
            QByteArray out;
            for (qsizetype at = 0; at < text.size(); at += size)
                out += stream.feed(text.mid(at, size));
            out += stream.flush();
            for (const QByteArray &form : secretForms())
                QVERIFY2(!out.contains(form), qPrintable(QStringLiteral("pieces of %1").arg(size)));
            QCOMPARE(out, QByteArray("x [redacted] y [redacted] z [redacted], [redacted] end"));
        }
    }

    void gatewayBudgetCarriesTheOutputSoFar()
    {
        CreationContext c = context();
        c.gatewayBudget = 5s; // the test gateway prints its lines, then never ends
        auto job = echoingGateway(0, c);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QCOMPARE(job->error().kind(), Error::Kind::Timeout);
        QVERIFY2(
            job->errorMessage().contains(QLatin1String("the MCP gateway did not start within 5 s")),
            qPrintable(job->errorMessage()));
        QVERIFY(job->errorMessage().contains(QLatin1String("the real error is at the end")));
        for (const QByteArray &form : secretForms())
            QVERIFY(!job->errorMessage().toUtf8().contains(form));
    }

    void gatewayBudgetExceeded()
    {
        CreationContext c = context();
        c.gatewayBudget = 1ms; // the local gateway needs far more than that to start
        CreationRequest request;
        request.mcp = goodMcp();
        auto job = make(request, c);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QCOMPARE(job->error().kind(), Error::Kind::Timeout);
        QVERIFY2(job->errorMessage().contains(QLatin1String("did not start within")),
            qPrintable(job->errorMessage()));
        QVERIFY(m_backend.listIds().isEmpty());
        QCOMPARE(
            str(m_journal->creation(job->creationId())->state), str(CreationState::RolledBack));
    }

    void killFailsTwiceThenSucceeds()
    {
        QVERIFY(m_backend.setFaults(
            { rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                  QStringLiteral("status"), 1, 500),
                rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                    QStringLiteral("status"), 2, 502) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        // The first error, not the rollback's.
        QVERIFY2(job->errorMessage().startsWith(QLatin1String("Could not set the sandbox timeout")),
            qPrintable(job->errorMessage()));
        QVERIFY(job->errorMessage().contains(QLatin1String("500")));
        QCOMPARE(job->rollback()->attempts, 3);
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Killed));
        QVERIFY(m_backend.listIds().isEmpty());
        const auto r = m_journal->creation(job->creationId());
        QCOMPARE(r->rollback->attempts, 3);
        QCOMPARE(str(r->state), str(CreationState::RolledBack));
    }

    void killFailsAlways()
    {
        QVERIFY(m_backend.setFaults(
            { rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                  QStringLiteral("status"), 1, 500),
                rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                    QStringLiteral("status"), 100, 500) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RollbackFailed));
        QVERIFY(job->errorMessage().startsWith(QLatin1String("Could not set the sandbox timeout")));
        QCOMPARE(job->rollback()->attempts, 3);
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Failed));
        QVERIFY(job->rollback()->error.contains(QLatin1String("500")));
        QCOMPARE(str(job->orphanReason()), str(OrphanReason::RollbackFailed));
        // It is still there, and the detector says so.
        QCOMPARE(m_backend.listIds(), QStringList { job->sandboxId() });
        const auto r = m_journal->creation(job->creationId());
        QCOMPARE(str(r->state), str(CreationState::RollbackFailed));
        QCOMPARE(str(r->orphanReason), str(OrphanReason::RollbackFailed));

        QVERIFY(m_backend.clearFaults());
        OrphanDetector detector(m_backend.network(), m_backend.settings(), m_journal.get());
        std::unique_ptr<OrphanScanJob> scan(detector.scan(m_backend.list()));
        scan->setAutoDelete(false);
        QVERIFY(sd::test::runJob(scan.get()));
        QCOMPARE(scan->orphans().size(), 1);
        QCOMPARE(str(scan->orphans().constFirst().reason), str(OrphanReason::RollbackFailed));
        QCOMPARE(scan->orphans().constFirst().creationId, job->creationId());

        KillOrphansJob kill(
            m_backend.network(), m_backend.settings(), m_journal.get(), scan->orphans());
        kill.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&kill));
        QCOMPARE(kill.killed(), QStringList { job->sandboxId() });
        QVERIFY(m_backend.listIds().isEmpty());
        QCOMPARE(m_journal->creation(job->creationId())->orphansKilled,
            QStringList { job->sandboxId() });
    }

    void killRefusedIsNotRetried()
    {
        QVERIFY(m_backend.setFaults(
            { rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                  QStringLiteral("status"), 1, 500),
                rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                    QStringLiteral("status"), 5, 403) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RollbackFailed));
        QCOMPARE(job->rollback()->attempts, 1); // the key will not get better by retrying
        QVERIFY(job->rollback()->error.contains(QLatin1String("403")));
        QVERIFY(job->errorMessage().startsWith(QLatin1String("Could not set the sandbox timeout")));
        QCOMPARE(m_backend.listIds(), QStringList { job->sandboxId() });
    }

    void ambiguousAllocation_data()
    {
        QTest::addColumn<QJsonObject>("fault");
        QTest::addColumn<QString>("errorPart");
        QTest::newRow("503 after allocating") << rule(QStringLiteral("POST"),
            QStringLiteral("/v2/sandboxes"), QStringLiteral("status-after"), 1, 503)
                                              << QStringLiteral("503");
        // Every try: Qt resends a POST whose connection closed, so each try may allocate.
        QTest::newRow("response dropped") << rule(QStringLiteral("POST"),
            QStringLiteral("/v2/sandboxes"), QStringLiteral("drop-after"), 10)
                                          << QStringLiteral("Could not reach the server");
        QTest::newRow("201 without body") << rule(
            QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("empty-after"))
                                          << QStringLiteral("could not be read");
        QTest::newRow("201 with garbage") << rule(QStringLiteral("POST"),
            QStringLiteral("/v2/sandboxes"), QStringLiteral("garbage-after"))
                                          << QStringLiteral("could not be read");
    }

    void ambiguousAllocation()
    {
        QFETCH(QJsonObject, fault);
        QFETCH(QString, errorPart);
        // Somebody else's sandbox must survive our search-and-kill.
        const Sandbox bystander = m_backend.createRaw(QStringLiteral("base"));
        QVERIFY(!bystander.sandboxId.isEmpty());
        QVERIFY(m_backend.setFaults({ fault }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QVERIFY2(job->errorMessage().startsWith(QLatin1String("Could not create the sandbox")),
            qPrintable(job->errorMessage()));
        QVERIFY2(job->errorMessage().contains(errorPart), qPrintable(job->errorMessage()));
        QVERIFY(job->rollback());
        QVERIFY(job->rollback()->found.value_or(0) >= 1);
        const int found = *job->rollback()->found;
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Killed));
        QCOMPARE(job->rollback()->summary,
            QStringLiteral("The server may have created a sandbox: found and removed %1")
                .arg(found));
        QCOMPARE(m_backend.listIds(), QStringList { bystander.sandboxId });
        const auto r = m_journal->creation(job->creationId());
        QCOMPARE(r->foundSandboxIds.size(), found);
        QVERIFY(r->sandboxId.isEmpty());
        QCOMPARE(str(r->state), str(CreationState::RolledBack));
    }

    void clientTimeoutAfterTheRequestWasSent()
    {
        // The answer is late; our limit runs out first. The server may have made
        // the sandbox, so the job searches by its tag before it reports.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("delay"), 1, 0, 3000) }));
        CreationContext c = context();
        c.allocationTimeout = 300ms;
        auto job = make({}, c);
        const auto states = run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QCOMPARE(job->error().kind(), Error::Kind::Timeout);
        QVERIFY(job->errorMessage().startsWith(QLatin1String("Could not create the sandbox")));
        QVERIFY(states.contains(CreationState::RollingBack));
        QVERIFY(job->rollback());
        QVERIFY(job->rollback()->found.has_value()); // the search ran
        QVERIFY(job->rollback()->summary.startsWith(
            QLatin1String("The server may have created a sandbox")));
        QVERIFY(m_journal->creation(job->creationId())->isFinished());
        // Whatever the server did after our timeout, nothing of ours is left
        // unflagged: either nothing runs, or the detector names it.
        QTest::qWait(3500);
        const QList<Sandbox> left = m_backend.list();
        OrphanDetector detector(m_backend.network(), m_backend.settings(), m_journal.get());
        std::unique_ptr<OrphanScanJob> scan(detector.scan(left));
        scan->setAutoDelete(false);
        QVERIFY(sd::test::runJob(scan.get()));
        QCOMPARE(scan->orphans().size(), left.size());
    }

    void sentOnceSoNoDuplicateSearch()
    {
        // A create written out once made at most the sandbox its answer names: the
        // list call that looks for a resent create's extra one is not made.
        QStringList calls;
        ObservedNetwork network;
        network.onRequest = [&calls](const QNetworkRequest &request) {
            calls << QString::fromLatin1(
                         request.attribute(QNetworkRequest::CustomVerbAttribute).toByteArray())
                    + QLatin1Char(' ') + request.url().path();
        };
        CreationContext c = context();
        c.network = &network;
        auto job = make({}, c);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));
        QCOMPARE(calls,
            QStringList({ QStringLiteral("POST /v2/sandboxes"),
                QStringLiteral("POST /sandboxes/%1/timeout").arg(job->sandboxId()) }));
        QVERIFY(job->duplicatesRemoved().isEmpty());
        QCOMPARE(m_backend.listIds(), QStringList { job->sandboxId() });
    }

    void droppedOnceResentAndDuplicateRemoved()
    {
        // One dropped answer: Qt resends the POST and the second try succeeds. The
        // first try's sandbox carries our tag and must not be left behind.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("drop-after"), 1) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));
        QCOMPARE(job->duplicatesRemoved().size(), 1);
        QVERIFY(job->duplicatesRemoved().constFirst() != job->sandboxId());
        QCOMPARE(m_journal->creation(job->creationId())->foundSandboxIds, job->duplicatesRemoved());
        QCOMPARE(m_backend.listIds(), QStringList { job->sandboxId() });
    }

    void cancelWhileAllocatingRemovesTheDuplicateToo()
    {
        // As above, but the user cancels before the answer: the rollback must take the
        // first try's sandbox as well as the one the answer names.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("drop-after"), 1) }));
        auto job = make({});
        CreationJob *raw = job.get();
        connect(raw, &CreationJob::stateChanged, this, [raw](CreationState state) {
            if (state == CreationState::Allocating)
                QTimer::singleShot(0, raw, [raw] { raw->cancel(); });
        });
        run(raw);
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QCOMPARE(job->error().kind(), Error::Kind::Cancelled);
        QCOMPARE(job->duplicatesRemoved().size(), 1);
        QCOMPARE(m_backend.listIds(), QStringList());
    }

    void ambiguousAllocationWhoseSearchFails()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
                                          QStringLiteral("status-after"), 1, 504),
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes*"), QStringLiteral("status"),
                3, 500) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::RollbackFailed));
        QVERIFY(job->errorMessage().contains(QLatin1String("504")));
        QCOMPARE(str(job->orphanReason()), str(OrphanReason::LostResponse));
        QCOMPARE(str(job->rollback()->outcome), str(RollbackOutcome::Failed));
        QCOMPARE(job->rollback()->attempts, 3);
        // The sandbox the server made is still there; the next refresh finds it.
        const QList<Sandbox> left = m_backend.list();
        QCOMPARE(left.size(), 1);
        OrphanDetector detector(m_backend.network(), m_backend.settings(), m_journal.get());
        std::unique_ptr<OrphanScanJob> scan(detector.scan(left));
        scan->setAutoDelete(false);
        QVERIFY(sd::test::runJob(scan.get()));
        QCOMPARE(scan->orphans().size(), 1);
        QCOMPARE(str(scan->orphans().constFirst().reason), str(OrphanReason::LostResponse));
        QCOMPARE(str(m_journal->creation(job->creationId())->orphanReason),
            str(OrphanReason::LostResponse));
    }

    void clearRefusalIsRejected()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("status"), 1, 400) }));
        auto job = make({});
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Rejected));
        QVERIFY(job->errorMessage().contains(QLatin1String("400")));
        QVERIFY(!job->rollback());
        QVERIFY(m_backend.listIds().isEmpty());
        QCOMPARE(str(m_journal->creation(job->creationId())->state), str(CreationState::Rejected));
    }

    void cancelInEachState_data()
    {
        QTest::addColumn<int>("cancelIn");
        QTest::addColumn<bool>("withMcp");
        QTest::addColumn<int>("finalState");
        QTest::newRow("validating")
            << int(CreationState::Validating) << false << int(CreationState::Cancelled);
        QTest::newRow("allocating")
            << int(CreationState::Allocating) << false << int(CreationState::RolledBack);
        QTest::newRow("starting gateway")
            << int(CreationState::StartingGateway) << true << int(CreationState::RolledBack);
        QTest::newRow("extending")
            << int(CreationState::Extending) << false << int(CreationState::RolledBack);
    }

    void cancelInEachState()
    {
        QFETCH(int, cancelIn);
        QFETCH(bool, withMcp);
        QFETCH(int, finalState);
        // Slow answers keep each state open long enough to cancel in it.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
                                          QStringLiteral("delay"), 1, 0, 1500),
            rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                QStringLiteral("delay"), 1, 0, 1500) }));
        CreationRequest request;
        if (withMcp)
            request.mcp = goodMcp();
        auto job = make(request);
        const auto target = CreationState(cancelIn);
        CreationJob *raw = job.get();
        connect(raw, &CreationJob::stateChanged, this, [raw, target](CreationState s) {
            if (s == target)
                QTimer::singleShot(0, raw, [raw] { raw->cancel(); });
        });
        if (target == CreationState::Validating) {
            QSignalSpy finished(raw, &Job::finished);
            raw->start();
            raw->cancel(); // before the event loop ran doStart(): nothing was sent
            QCOMPARE(finished.size(), 1);
        } else {
            run(raw);
        }
        QCOMPARE(int(raw->state()), finalState);
        QCOMPARE(raw->error().kind(), Error::Kind::Cancelled);
        QCOMPARE(raw->errorMessage(), QStringLiteral("Cancelled"));
        if (target != CreationState::Validating) {
            QVERIFY(!raw->sandboxId().isEmpty()); // the 201 after the cancel was read ...
            QCOMPARE(str(raw->rollback()->outcome), str(RollbackOutcome::Killed)); // ... and killed
            const auto record = m_journal->creation(raw->creationId());
            QCOMPARE(str(record->state), str(CreationState::RolledBack));
            // The history tells it from a failure: the outcome says the user cancelled.
            QVERIFY(record->endedCancelled());
            QCOMPARE(str(record->shownState()), str(CreationState::Cancelled));
            QVERIFY(!record->hasFailed());
        } else {
            QVERIFY(m_journal->creations().isEmpty());
        }
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // A cancel whose rollback cannot remove the sandbox is a rollback failure like
    // any other: the sandbox is left, the history says so, the orphan list flags it.
    void cancelWhoseRollbackFailsLeavesAnOrphan()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"),
                                          QStringLiteral("/sandboxes/*/timeout"),
                                          QStringLiteral("delay"), 1, 0, 1500),
            rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"), QStringLiteral("status"),
                20, 500) }));
        auto job = make({});
        CreationJob *raw = job.get();
        connect(raw, &CreationJob::stateChanged, this, [raw](CreationState s) {
            if (s == CreationState::Extending)
                QTimer::singleShot(0, raw, [raw] { raw->cancel(); });
        });
        run(raw);
        QCOMPARE(str(raw->state()), str(CreationState::RollbackFailed));
        QCOMPARE(raw->error().kind(), Error::Kind::Cancelled);
        QVERIFY(!raw->endedCancelled());
        const auto record = m_journal->creation(raw->creationId());
        QCOMPARE(str(record->state), str(CreationState::RollbackFailed));
        QVERIFY(!record->endedCancelled());
        QCOMPARE(str(record->shownState()), str(CreationState::RollbackFailed));
        QVERIFY(record->hasFailed());
        QCOMPARE(str(record->orphanReason), str(OrphanReason::RollbackFailed));
        QCOMPARE(m_backend.listIds(), QStringList { raw->sandboxId() });
    }

    void cancelDuringRollbackIsIgnored()
    {
        QVERIFY(m_backend.setFaults(
            { rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                  QStringLiteral("status"), 1, 500),
                rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                    QStringLiteral("delay"), 1, 0, 1000) }));
        auto job = make({});
        CreationJob *raw = job.get();
        connect(raw, &CreationJob::stateChanged, this, [raw](CreationState s) {
            if (s == CreationState::RollingBack)
                QTimer::singleShot(0, raw, [raw] { raw->cancel(); });
        });
        run(raw);
        QCOMPARE(str(raw->state()), str(CreationState::RolledBack));
        QVERIFY(raw->errorMessage().startsWith(QLatin1String("Could not set the sandbox timeout")));
        QCOMPARE(str(raw->rollback()->outcome), str(RollbackOutcome::Killed));
        QVERIFY(!m_journal->creation(raw->creationId())->endedCancelled()); // it failed first
        QVERIFY(m_backend.listIds().isEmpty());
    }

    void quitWaitsForTheRollbacks()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("delay"), 2, 0, 1500) }));
        CreationRegistry registry;
        auto a = make({});
        auto b = make({});
        registry.add(a.get());
        registry.add(b.get());
        a->start();
        b->start();
        QTRY_VERIFY_WITH_TIMEOUT(
            a->state() == CreationState::Allocating && b->state() == CreationState::Allocating,
            30000);
        QCOMPARE(registry.active().size(), 2);
        QSignalSpy progress(&registry, &CreationRegistry::shutdownProgress);
        QSignalSpy done(&registry, &CreationRegistry::shutdownFinished);
        registry.shutdown(std::chrono::seconds(60));
        QVERIFY(done.wait(90000));
        QVERIFY(done.at(0).at(0).toStringList().isEmpty());
        QVERIFY(!progress.isEmpty()); // the quit dialog was told what it waits for
        QVERIFY(progress.at(0).at(0).toStringList().constFirst().contains(a->creationId())
            || progress.at(0).at(0).toStringList().constFirst().contains(b->creationId()));
        QCOMPARE(str(a->state()), str(CreationState::RolledBack));
        QCOMPARE(str(b->state()), str(CreationState::RolledBack));
        QVERIFY(registry.active().isEmpty());
        QVERIFY(m_backend.listIds().isEmpty());
    }

    void quitGivesUpAfterItsTime()
    {
        QVERIFY(m_backend.setFaults(
            { rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                  QStringLiteral("status"), 1, 500),
                rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                    QStringLiteral("delay"), 1, 0, 3000) }));
        CreationRegistry registry;
        auto job = make({});
        registry.add(job.get());
        job->start();
        QTRY_COMPARE_WITH_TIMEOUT(str(job->state()), str(CreationState::RollingBack), 30000);
        QSignalSpy done(&registry, &CreationRegistry::shutdownFinished);
        registry.shutdown(std::chrono::milliseconds(200));
        QVERIFY(done.wait(30000));
        QCOMPARE(done.at(0).at(0).toStringList(), QStringList { job->creationId() });
        QVERIFY(!m_journal->creation(job->creationId())->isFinished()); // left for the next launch
        // Had the app stayed, the rollback would still have finished.
        QVERIFY(sd::test::runJob(job.get(), 60000));
        QCOMPARE(str(job->state()), str(CreationState::RolledBack));
        QVERIFY(m_backend.listIds().isEmpty());
    }

    void noJournalFsyncOnTheCreationsThread()
    {
        SyncWatch watch;
        m_journal->setSyncFunction(watch.function(QThread::currentThread()));
        const auto journalFirst = qScopeGuard([this] { m_journal.reset(); }); // before `watch`
        CreationRequest request;
        request.mcp = goodMcp();
        auto job = make(request);
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));
        const QMutexLocker lock(&watch.mutex);
        // intent, sandbox id with starting gateway, extending, outcome (+ the folder's)
        QVERIFY2(watch.threads.size() >= 4, qPrintable(QString::number(watch.threads.size())));
        QVERIFY2(!watch.threads.contains(QThread::currentThread()),
            "the journal fsync'd on the thread the creation runs on");
    }

    void eachCallWaitsUntilItsRecordIsDurable()
    {
        SyncWatch watch;
        watch.holdNextRecord = true; // the intent's
        m_journal->setSyncFunction(watch.function(QThread::currentThread()));
        // Even when a check fails: the journal's writer must be done before `watch` goes.
        const auto journalFirst = qScopeGuard([this, &watch] {
            watch.release.release();
            m_journal.reset();
        });
        struct Sent
        {
            QString path;
            QList<QByteArray> lines; ///< the journal file when it was sent
            qint64 size = 0; ///< the file's size then
            qint64 synced = 0; ///< how much of it was fsync'd by then
        };
        QList<Sent> sent;
        ObservedNetwork network;
        network.onRequest = [&](const QNetworkRequest &request) {
            const qint64 synced = watch.syncedSize;
            const QByteArray file = sd::test::readFile(m_journal->filePath());
            sent.append({ request.url().path(), file.split('\n'), file.size(), synced });
            sent.last().lines.removeAll(QByteArray());
        };
        CreationContext c = context();
        c.network = &network;
        CreationRequest request;
        request.mcp = goodMcp();
        auto job = make(request, c);
        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(watch.holding, 30000);
        QTest::qWait(200); // a job that did not wait would send its create now
        QVERIFY(sent.isEmpty());
        QCOMPARE(str(job->state()), str(CreationState::Validating));
        watch.release.release();
        QVERIFY(sd::test::runJob(job.get(), 120000));
        QCOMPARE(str(job->state()), str(CreationState::Ready));

        // Each call went out after the record announcing it was on disk, fsync'd.
        const QList<QPair<QString, QString>> announced {
            { QStringLiteral("/v2/sandboxes"), QStringLiteral("\"type\":\"intent\"") },
            { QStringLiteral("/process.Process/Start"),
                QStringLiteral("\"state\":\"%1\"").arg(str(CreationState::StartingGateway)) },
            { QStringLiteral("/timeout"),
                QStringLiteral("\"state\":\"%1\"").arg(str(CreationState::Extending)) },
        };
        for (const auto &[path, record] : announced) {
            const auto it = std::find_if(sent.cbegin(), sent.cend(),
                [&path](const Sent &s) { return s.path.endsWith(path); });
            QVERIFY2(it != sent.cend(), qPrintable(path));
            QVERIFY2(!it->lines.isEmpty() && it->lines.constLast().contains(record.toUtf8()),
                qPrintable(path + QStringLiteral(": ")
                    + QString::fromUtf8(it->lines.value(it->lines.size() - 1))));
            QCOMPARE(it->synced, it->size);
        }
    }

    void theSandboxIdGoesWithTheNextStatesRecord_data()
    {
        QTest::addColumn<bool>("mcp");
        QTest::newRow("mcp") << true;
        QTest::newRow("no mcp") << false;
    }

    void theSandboxIdGoesWithTheNextStatesRecord()
    {
        // One write and one fsync for the id and the record after it, which follow each
        // other anyway.
        QFETCH(bool, mcp);
        SyncWatch watch;
        m_journal->setSyncFunction(watch.function(QThread::currentThread()));
        const auto journalFirst = qScopeGuard([this] { m_journal.reset(); }); // before `watch`
        CreationRequest request;
        if (mcp)
            request.mcp = goodMcp();
        auto job = make(request);
        QStringList order;
        QByteArray journalAtAllocated;
        connect(job.get(), &CreationJob::sandboxAllocated, this, [&](const QString &id) {
            order << QStringLiteral("allocated ") + id;
            journalAtAllocated = journalText();
        });
        connect(job.get(), &CreationJob::stateChanged, this,
            [&](CreationState state) { order << str(state); });
        run(job.get());
        QCOMPARE(str(job->state()), str(CreationState::Ready));

        // Both records on disk when the id is announced, and the id announced first.
        const CreationState next = mcp ? CreationState::StartingGateway : CreationState::Extending;
        QVERIFY(journalAtAllocated.contains("\"sandboxId\":\"" + job->sandboxId().toUtf8() + '"'));
        QVERIFY(journalAtAllocated.contains("\"state\":\"" + str(next).toUtf8() + '"'));
        const qsizetype allocatedAt
            = order.indexOf(QStringLiteral("allocated ") + job->sandboxId());
        QVERIFY2(allocatedAt >= 0 && allocatedAt + 1 < order.size()
                && order.at(allocatedAt + 1) == str(next),
            qPrintable(order.join(QStringLiteral(", "))));
        // With MCP: intent, id and StartingGateway, Extending, outcome; five records in
        // four writes. Without: intent, id and Extending, outcome.
        const QList<QByteArray> lines = journalText().split('\n');
        QCOMPARE(std::count_if(lines.cbegin(), lines.cend(),
                     [](const QByteArray &line) { return line.contains("\"creation\""); }),
            mcp ? 5 : 4);
        QCOMPARE(int(watch.recordsSynced), mcp ? 4 : 3);
    }

    void twentyConcurrentHalfFailing()
    {
        // The first ten timeout calls fail: those creations roll back, the others are Ready.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"),
            QStringLiteral("/sandboxes/*/timeout"), QStringLiteral("status"), 10, 500) }));
        std::vector<std::unique_ptr<CreationJob>> jobs;
        int finished = 0;
        for (int i = 0; i < 20; ++i) {
            auto job = make({});
            connect(job.get(), &Job::finished, this, [&finished] { ++finished; });
            job->start();
            jobs.push_back(std::move(job));
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, 20, 180000);
        QStringList ready, rolledBack;
        for (const auto &job : jobs) {
            if (job->state() == CreationState::Ready)
                ready << job->sandboxId();
            else if (job->state() == CreationState::RolledBack)
                rolledBack << job->sandboxId();
            else
                QFAIL(qPrintable(
                    QStringLiteral("unexpected final state %1").arg(toString(job->state()))));
        }
        QCOMPARE(ready.size(), 10);
        QCOMPARE(rolledBack.size(), 10);
        ready.sort();
        // Each rolled back its own; none of the healthy ones was touched.
        QCOMPARE(m_backend.listIds(), ready);
        for (const auto &job : jobs)
            QCOMPARE(str(m_journal->creation(job->creationId())->state), str(job->state()));
    }
};

QTEST_GUILESS_MAIN(TestCreation)
#include "tst_creation.moc"
