// The Qt client against the real sandbox-desk-local over HTTP: one fresh backend
// (own port, state directory and key) per test function.
#include "api/checkconnectionjob.h"
#include "api/infojobs.h"
#include "api/lifecyclejobs.h"
#include "api/sandboxjobs.h"
#include "localbackend.h"
#include "network/networkaccessmanager.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>

using namespace sd;

namespace {
const QString unknownId = QStringLiteral("aaaaaaaaaaaaaaaaaaaa");

NewSandbox newSandbox(const Metadata &metadata = {}, std::optional<int> timeout = 600,
    const QString &templateId = QStringLiteral("base"))
{
    NewSandbox request;
    request.templateId = templateId;
    request.timeoutSeconds = timeout;
    request.metadata = metadata;
    return request;
}

QStringList idsOf(const QList<Sandbox> &sandboxes)
{
    QStringList ids;
    for (const Sandbox &s : sandboxes)
        ids << s.sandboxId;
    return ids;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}
} // namespace

class TestApiClient : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<test::LocalBackend> m_backend;
    sd::NetworkAccessManager m_network;
    ConnectionSettings m_settings;

    /// Runs `job` to its end (only tests may spin); true when it finished once.
    static bool run(Job &job)
    {
        job.setAutoDelete(false);
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        if (!spy.wait(60000))
            return false;
        QCoreApplication::processEvents();
        return spy.count() == 1;
    }

    Sandbox create(const NewSandbox &request)
    {
        CreateSandboxJob job(&m_network, m_settings, request);
        if (!run(job) || job.hasError()) {
            qWarning().noquote() << "create failed:" << job.error().message();
            return {};
        }
        return job.sandbox();
    }

    std::optional<Sandbox> get(const QString &id, Error *error = nullptr)
    {
        GetSandboxJob job(&m_network, m_settings, id);
        if (!run(job))
            return std::nullopt;
        if (error)
            *error = job.error();
        if (job.hasError())
            return std::nullopt;
        return job.sandbox();
    }

    QList<Sandbox> list(const SandboxFilter &filter)
    {
        ListSandboxesJob job(&m_network, m_settings, filter);
        if (!run(job) || job.hasError()) {
            qWarning().noquote() << "list failed:" << job.error().message();
            return {};
        }
        return job.sandboxes();
    }

    ConnectionSettings withKey(const QString &key) const
    {
        ConnectionSettings s = m_settings;
        s.apiKey = key;
        return s;
    }

private Q_SLOTS:
    void init()
    {
        // The control plane is under test here, not process isolation.
        m_backend = std::make_unique<test::LocalBackend>(
            QStringList { QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(m_backend->start(60000), qPrintable(m_backend->errorString()));
        m_settings = ConnectionSettings();
        m_settings.apiUrl = m_backend->url();
        m_settings.sandboxUrl = m_backend->url();
        m_settings.apiKey = m_backend->apiKey();
    }

    void cleanup() { m_backend.reset(); }

    void createWithMetadata()
    {
        const Metadata metadata { { "owner", "desk user" }, { "sandbox-desk.creation", "c-1" },
            { "odd", "a&b=c 100% +" } };
        CreateSandboxJob job(&m_network, m_settings, newSandbox(metadata, 120));
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(job.usedPath(), QStringLiteral("/v2/sandboxes"));
        const Sandbox created = job.sandbox();
        QVERIFY2(QRegularExpression(QStringLiteral("^[a-z0-9]{20}$"))
                     .match(created.sandboxId)
                     .hasMatch(),
            qPrintable(created.sandboxId));
        QCOMPARE(created.templateId, QStringLiteral("base"));
        QVERIFY(!created.envdAccessToken.isEmpty());
        QVERIFY(created.domain.isEmpty()); // null: the sandbox URL is the server's own

        const auto detail = get(created.sandboxId);
        QVERIFY(detail);
        QCOMPARE(detail->metadata, metadata);
        QVERIFY(detail->state == SandboxState::Running);
        QCOMPARE(detail->startedAt.secsTo(detail->endAt), 120);
        QVERIFY(detail->cpuCount > 0);
        QVERIFY(detail->memoryMB > 0);

        // The metadata filter finds it by the odd value too.
        SandboxFilter filter;
        filter.metadata = { { "odd", "a&b=c 100% +" } };
        QCOMPARE(idsOf(list(filter)), QStringList { created.sandboxId });
    }

    void listWithEachFilter()
    {
        const Sandbox a = create(newSandbox({ { "team", "red" }, { "env", "prod" } }));
        QVERIFY(!a.sandboxId.isEmpty());
        const auto aDetail = get(a.sandboxId);
        QVERIFY(aDetail);
        // b and c start strictly after a.
        QTRY_VERIFY_WITH_TIMEOUT(
            QDateTime::currentDateTimeUtc() > aDetail->startedAt.addMSecs(5), 10000);
        const Sandbox b = create(newSandbox({ { "team", "red" }, { "env", "dev" } }));
        const Sandbox c
            = create(newSandbox({ { "team", "blue" } }, 600, QStringLiteral("mcp-gateway")));
        QVERIFY(!b.sandboxId.isEmpty() && !c.sandboxId.isEmpty());
        PauseSandboxJob pause(&m_network, m_settings, b.sandboxId);
        QVERIFY(run(pause));
        QVERIFY(!pause.hasError());

        SandboxFilter f;
        QCOMPARE(sorted(idsOf(list(f))), sorted({ a.sandboxId, b.sandboxId, c.sandboxId }));

        f = {};
        f.metadata = { { "team", "red" } };
        QCOMPARE(sorted(idsOf(list(f))), sorted({ a.sandboxId, b.sandboxId }));
        f.metadata = { { "team", "red" }, { "env", "prod" } }; // all must match
        QCOMPARE(idsOf(list(f)), QStringList { a.sandboxId });
        f.metadata = { { "team", "green" } };
        QVERIFY(list(f).isEmpty());

        f = {};
        f.states = { SandboxState::Running };
        QCOMPARE(sorted(idsOf(list(f))), sorted({ a.sandboxId, c.sandboxId }));
        f.states = { SandboxState::Paused };
        const QList<Sandbox> paused = list(f);
        QCOMPARE(idsOf(paused), QStringList { b.sandboxId });
        QVERIFY(paused.first().state == SandboxState::Paused);
        f.states = { SandboxState::Running, SandboxState::Paused };
        QCOMPARE(list(f).size(), 3);

        f = {};
        f.templateId = QStringLiteral("mcp-gateway");
        QCOMPARE(idsOf(list(f)), QStringList { c.sandboxId });

        f = {};
        const auto bDetail = get(b.sandboxId);
        QVERIFY(bDetail);
        f.startedAfter = bDetail->startedAt;
        QCOMPARE(sorted(idsOf(list(f))), sorted({ b.sandboxId, c.sandboxId }));
        f.startedAfter = QDateTime::currentDateTimeUtc().addSecs(3600);
        QVERIFY(list(f).isEmpty());

        f = {};
        f.order = SandboxFilter::Order::OldestFirst;
        QCOMPARE(idsOf(list(f)), (QStringList { a.sandboxId, b.sandboxId, c.sandboxId }));
        f.order = SandboxFilter::Order::NewestFirst;
        QCOMPARE(idsOf(list(f)), (QStringList { c.sandboxId, b.sandboxId, a.sandboxId }));
    }

    void pagination()
    {
        // 250 sandboxes, at most 6 creates in flight: a job's time limit starts when
        // it is handed to the network manager, so queueing all 250 at once would let
        // the last ones time out on a loaded machine.
        constexpr int total = 250;
        constexpr int inFlight = 6;
        std::vector<std::unique_ptr<CreateSandboxJob>> jobs;
        int done = 0;
        const auto startNext = [&] {
            const int i = int(jobs.size());
            auto job = std::make_unique<CreateSandboxJob>(&m_network, m_settings,
                newSandbox({ { "batch", "paging" }, { "n", QString::number(i) } }));
            job->setAutoDelete(false);
            job->setTimeout(std::chrono::seconds(120));
            jobs.push_back(std::move(job));
            return jobs.back().get();
        };
        std::function<void()> launch = [&] {
            CreateSandboxJob *job = startNext();
            connect(job, &Job::finished, this, [&] {
                ++done;
                if (int(jobs.size()) < total)
                    launch();
            });
            job->start();
        };
        for (int i = 0; i < inFlight; ++i)
            launch();
        QTRY_COMPARE_WITH_TIMEOUT(done, total, 600000);
        QSet<QString> created;
        for (const auto &job : jobs) {
            QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
            created.insert(job->sandbox().sandboxId);
        }
        QCOMPARE(created.size(), 250);

        SandboxFilter filter;
        filter.pageSize = 100;
        filter.metadata = { { "batch", "paging" } };
        ListSandboxesJob list(&m_network, m_settings, filter);
        QSignalSpy pages(&list, &ListSandboxesJob::pageReceived);
        QVERIFY(run(list));
        QVERIFY2(!list.hasError(), qPrintable(list.error().message()));
        QCOMPARE(pages.count(), 3);
        QCOMPARE(pages.at(0).at(0).value<QList<Sandbox>>().size(), 100);
        QCOMPARE(pages.at(1).at(0).value<QList<Sandbox>>().size(), 100);
        QCOMPARE(pages.at(2).at(0).value<QList<Sandbox>>().size(), 50);
        QCOMPARE(list.pages(), 3);
        QCOMPARE(list.totalRunning(), 250);
        const QStringList ids = idsOf(list.sandboxes());
        QCOMPARE(ids.size(), 250);
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()), created);
    }

    void getSandbox()
    {
        const Sandbox created
            = create(newSandbox({ { "k", "v" } }, 300, QStringLiteral("mcp-gateway")));
        QVERIFY(!created.sandboxId.isEmpty());
        GetSandboxJob job(&m_network, m_settings, created.sandboxId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(job.sandbox().sandboxId, created.sandboxId);
        QCOMPARE(job.sandbox().templateId, QStringLiteral("mcp-gateway"));
        QCOMPARE(job.sandbox().metadata, (Metadata { { "k", "v" } }));
        QCOMPARE(job.sandbox().startedAt.secsTo(job.sandbox().endAt), 300);

        Error error;
        QVERIFY(!get(unknownId, &error));
        QCOMPARE(error.kind(), Error::Kind::Http);
        QCOMPARE(error.httpStatus(), 404);
        QCOMPARE(error.serverMessage(), QStringLiteral("sandbox \"%1\" not found").arg(unknownId));
    }

    void setTimeout()
    {
        const Sandbox created = create(newSandbox({}, 60));
        QVERIFY(!created.sandboxId.isEmpty());
        const QDateTime before = QDateTime::currentDateTimeUtc();
        SetTimeoutJob job(&m_network, m_settings, created.sandboxId, 3600);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        const QDateTime after = QDateTime::currentDateTimeUtc();
        const auto detail = get(created.sandboxId);
        QVERIFY(detail);
        // "now + 3600 s", where now lies between before and after (ms precision).
        QVERIFY(detail->endAt >= before.addSecs(3600).addMSecs(-5));
        QVERIFY(detail->endAt <= after.addSecs(3600).addMSecs(5));

        SetTimeoutJob unknown(&m_network, m_settings, unknownId, 60);
        QVERIFY(run(unknown));
        QCOMPARE(unknown.error().httpStatus(), 404);
    }

    void expiresAtEndAt()
    {
        const Sandbox shortLived = create(newSandbox({}, 1));
        const Sandbox keeper = create(newSandbox({}, 600));
        QVERIFY(!shortLived.sandboxId.isEmpty() && !keeper.sandboxId.isEmpty());
        const auto detail = get(shortLived.sandboxId);
        QVERIFY(detail);
        const QDateTime endAt = detail->endAt;
        QCOMPARE(detail->startedAt.secsTo(endAt), 1);

        Error error;
        QTRY_VERIFY_WITH_TIMEOUT(
            !get(shortLived.sandboxId, &error) && error.httpStatus() == 404, 30000);
        // Gone, and not before its end time.
        QVERIFY(QDateTime::currentDateTimeUtc() >= endAt);
        QCOMPARE(idsOf(list({})), QStringList { keeper.sandboxId });

        SandboxLogsJob logs(&m_network, m_settings, shortLived.sandboxId);
        QVERIFY(run(logs));
        QVERIFY2(!logs.hasError(), qPrintable(logs.error().message()));
        QVERIFY(!logs.entries().isEmpty());
        QCOMPARE(logs.entries().last().fields.value("event"), QStringLiteral("expired"));
        QVERIFY(logs.entries().last().timestamp >= endAt);
    }

    void pauseResumeConnect()
    {
        const Sandbox created = create(newSandbox({}, 600));
        QVERIFY(!created.sandboxId.isEmpty());
        const QString id = created.sandboxId;

        PauseSandboxJob pause(&m_network, m_settings, id);
        QVERIFY(run(pause));
        QVERIFY2(!pause.hasError(), qPrintable(pause.error().message()));
        QVERIFY(!pause.wasAlreadyPaused());
        QVERIFY(get(id)->state == SandboxState::Paused);

        PauseSandboxJob pauseAgain(&m_network, m_settings, id);
        QVERIFY(run(pauseAgain));
        QVERIFY(!pauseAgain.hasError());
        QVERIFY(pauseAgain.wasAlreadyPaused());

        ResumeSandboxJob resume(&m_network, m_settings, id, 900);
        QVERIFY(run(resume));
        QVERIFY2(!resume.hasError(), qPrintable(resume.error().message()));
        QCOMPARE(resume.sandbox().sandboxId, id);
        QVERIFY(!resume.sandbox().envdAccessToken.isEmpty());
        const auto resumed = get(id);
        QVERIFY(resumed->state == SandboxState::Running);

        ResumeSandboxJob resumeRunning(&m_network, m_settings, id, 900);
        QVERIFY(run(resumeRunning));
        QCOMPARE(resumeRunning.error().httpStatus(), 409);
        QCOMPARE(resumeRunning.error().serverMessage(),
            QStringLiteral("sandbox \"%1\" is not paused").arg(id));

        PauseSandboxJob pauseForConnect(&m_network, m_settings, id);
        QVERIFY(run(pauseForConnect));
        QVERIFY(!pauseForConnect.hasError());
        ConnectSandboxJob connectPaused(&m_network, m_settings, id, 300);
        QVERIFY(run(connectPaused));
        QVERIFY2(!connectPaused.hasError(), qPrintable(connectPaused.error().message()));
        QVERIFY(connectPaused.wasResumed());
        QCOMPARE(connectPaused.sandbox().sandboxId, id);
        QVERIFY(get(id)->state == SandboxState::Running);

        ConnectSandboxJob connectRunning(&m_network, m_settings, id, 300);
        QVERIFY(run(connectRunning));
        QVERIFY(!connectRunning.hasError());
        QVERIFY(!connectRunning.wasResumed());

        ConnectSandboxJob connectUnknown(&m_network, m_settings, unknownId, 300);
        QVERIFY(run(connectUnknown));
        QCOMPARE(connectUnknown.error().httpStatus(), 404);
    }

    void kill()
    {
        const Sandbox created = create(newSandbox());
        QVERIFY(!created.sandboxId.isEmpty());
        KillSandboxJob job(&m_network, m_settings, created.sandboxId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QVERIFY(!job.wasAlreadyGone());
        Error error;
        QVERIFY(!get(created.sandboxId, &error));
        QCOMPARE(error.httpStatus(), 404);
        QVERIFY(list({}).isEmpty());

        // Killing it again: already gone, which is success.
        KillSandboxJob again(&m_network, m_settings, created.sandboxId);
        QVERIFY(run(again));
        QVERIFY(!again.hasError());
        QVERIFY(again.wasAlreadyGone());
    }

    void killUnknown()
    {
        KillSandboxJob job(&m_network, m_settings, unknownId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QVERIFY(job.wasAlreadyGone());
        QCOMPARE(job.httpStatus(), 404);
    }

    void badRequestsAreTypedErrors_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("serverMessage");
        QTest::newRow("create: templateID missing")
            << "create-no-template" << 400 << "templateID: required (a template ID or alias)";
        QTest::newRow("create: template unknown")
            << "create-unknown-template" << 404 << "template \"nope\" not found";
        QTest::newRow("create: timeout negative")
            << "create-negative-timeout" << 400 << "timeout: must not be negative";
        QTest::newRow("create: timeout too large")
            << "create-huge-timeout" << 400 << "timeout: must be at most 86400 seconds (24 h)";
        QTest::newRow("list: limit 0")
            << "list-limit-0" << 400 << "limit: must be an integer between 1 and 100";
        QTest::newRow("list: limit 101")
            << "list-limit-101" << 400 << "limit: must be an integer between 1 and 100";
        QTest::newRow("list: nextToken not issued")
            << "list-bad-token" << 400 << "nextToken: not a token this server issued";
        QTest::newRow("timeout: negative")
            << "set-timeout-negative" << 400 << "timeout: must not be negative";
        QTest::newRow("resume: timeout too large")
            << "resume-huge-timeout" << 400 << "timeout: must be at most 86400 seconds (24 h)";
        QTest::newRow("connect: timeout negative")
            << "connect-negative-timeout" << 400 << "timeout: must not be negative";
        QTest::newRow("logs: limit too large")
            << "logs-limit" << 400 << "limit: must be an integer between 0 and 1000";
    }

    void badRequestsAreTypedErrors()
    {
        QFETCH(QString, call);
        QFETCH(int, status);
        QFETCH(QString, serverMessage);
        const Sandbox existing = create(newSandbox());
        QVERIFY(!existing.sandboxId.isEmpty());
        if (call == QLatin1String("resume-huge-timeout")) {
            PauseSandboxJob pause(&m_network, m_settings, existing.sandboxId);
            QVERIFY(run(pause));
        }

        std::unique_ptr<ApiJob> job;
        SandboxFilter filter;
        if (call == QLatin1String("create-no-template"))
            job = std::make_unique<CreateSandboxJob>(
                &m_network, m_settings, newSandbox({}, 60, QString()));
        else if (call == QLatin1String("create-unknown-template"))
            job = std::make_unique<CreateSandboxJob>(
                &m_network, m_settings, newSandbox({}, 60, QStringLiteral("nope")));
        else if (call == QLatin1String("create-negative-timeout"))
            job = std::make_unique<CreateSandboxJob>(&m_network, m_settings, newSandbox({}, -1));
        else if (call == QLatin1String("create-huge-timeout"))
            job = std::make_unique<CreateSandboxJob>(&m_network, m_settings, newSandbox({}, 86401));
        else if (call == QLatin1String("list-limit-0") || call == QLatin1String("list-limit-101")) {
            filter.pageSize = call.endsWith(QLatin1String("-0")) ? 0 : 101;
            job = std::make_unique<ListSandboxesJob>(&m_network, m_settings, filter);
        } else if (call == QLatin1String("list-bad-token")) {
            filter.pageToken = QStringLiteral("forged");
            job = std::make_unique<ListSandboxesJob>(&m_network, m_settings, filter);
        } else if (call == QLatin1String("set-timeout-negative"))
            job = std::make_unique<SetTimeoutJob>(&m_network, m_settings, existing.sandboxId, -5);
        else if (call == QLatin1String("resume-huge-timeout"))
            job = std::make_unique<ResumeSandboxJob>(
                &m_network, m_settings, existing.sandboxId, 86401);
        else if (call == QLatin1String("connect-negative-timeout"))
            job = std::make_unique<ConnectSandboxJob>(
                &m_network, m_settings, existing.sandboxId, -1);
        else if (call == QLatin1String("logs-limit")) {
            auto logs
                = std::make_unique<SandboxLogsJob>(&m_network, m_settings, existing.sandboxId);
            logs->setLimit(5000);
            job = std::move(logs);
        }
        QVERIFY(job);
        QVERIFY(run(*job));
        QCOMPARE(job->error().kind(), Error::Kind::Http);
        QCOMPARE(job->error().httpStatus(), status);
        QCOMPARE(job->error().serverMessage(), serverMessage);
        QVERIFY(job->error().message().endsWith(serverMessage));

        // Nothing was created by a refused create.
        QCOMPARE(idsOf(list({})), QStringList { existing.sandboxId });
    }

    void wrongKeyIsA401_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("serverMessage");
        QTest::newRow("wrong key") << QStringLiteral("e2b_0000000000000000000000000000000000000000")
                                   << QStringLiteral("invalid API key");
        QTest::newRow("no key") << QString()
                                << QStringLiteral(
                                       "missing API key: send it in the X-API-Key header");
    }

    void wrongKeyIsA401()
    {
        QFETCH(QString, key);
        QFETCH(QString, serverMessage);
        const Sandbox existing = create(newSandbox());
        QVERIFY(!existing.sandboxId.isEmpty());
        const ConnectionSettings bad = withKey(key);

        std::vector<std::unique_ptr<ApiJob>> jobs;
        jobs.push_back(std::make_unique<CreateSandboxJob>(&m_network, bad, newSandbox()));
        jobs.push_back(std::make_unique<ListSandboxesJob>(&m_network, bad));
        jobs.push_back(std::make_unique<GetSandboxJob>(&m_network, bad, existing.sandboxId));
        jobs.push_back(std::make_unique<KillSandboxJob>(&m_network, bad, existing.sandboxId));
        jobs.push_back(std::make_unique<SetTimeoutJob>(&m_network, bad, existing.sandboxId, 60));
        jobs.push_back(std::make_unique<PauseSandboxJob>(&m_network, bad, existing.sandboxId));
        jobs.push_back(std::make_unique<ResumeSandboxJob>(&m_network, bad, existing.sandboxId, 60));
        jobs.push_back(
            std::make_unique<ConnectSandboxJob>(&m_network, bad, existing.sandboxId, 60));
        jobs.push_back(std::make_unique<SandboxLogsJob>(&m_network, bad, existing.sandboxId));
        jobs.push_back(std::make_unique<ListTemplatesJob>(&m_network, bad));
        for (const auto &job : jobs) {
            QVERIFY(run(*job));
            const Error &error = job->error();
            QCOMPARE(error.kind(), Error::Kind::Http);
            QCOMPARE(error.httpStatus(), 401);
            QCOMPARE(error.serverMessage(), serverMessage);
            QCOMPARE(error.message(),
                QStringLiteral("The server refused the API key (HTTP 401): %1. "
                               "Check the key in the profile settings.")
                    .arg(serverMessage));
        }
        // None of them did anything: the sandbox is still there, running, alone.
        const auto detail = get(existing.sandboxId);
        QVERIFY(detail);
        QVERIFY(detail->state == SandboxState::Running);
        QCOMPARE(idsOf(list({})), QStringList { existing.sandboxId });
    }

    void logs()
    {
        const Sandbox created = create(newSandbox({}, 600));
        QVERIFY(!created.sandboxId.isEmpty());
        const QString id = created.sandboxId;
        SetTimeoutJob timeout(&m_network, m_settings, id, 1200);
        PauseSandboxJob pause(&m_network, m_settings, id);
        ResumeSandboxJob resume(&m_network, m_settings, id, 600);
        QVERIFY(run(timeout) && !timeout.hasError());
        QVERIFY(run(pause) && !pause.hasError());
        QVERIFY(run(resume) && !resume.hasError());

        SandboxLogsJob logs(&m_network, m_settings, id);
        QVERIFY(run(logs));
        QVERIFY2(!logs.hasError(), qPrintable(logs.error().message()));
        QCOMPARE(logs.usedPath(), QStringLiteral("/v2/sandboxes/%1/logs").arg(id));
        QStringList events;
        for (const SandboxLogEntry &entry : logs.entries()) {
            events << entry.fields.value("event");
            QVERIFY(!entry.message.isEmpty());
            QVERIFY(entry.timestamp.isValid());
            QCOMPARE(entry.fields.value("sandboxID"), id);
        }
        QCOMPARE(events, (QStringList { "created", "timeout changed", "paused", "resumed" }));

        // Entries from a time on: the cursor is honoured.
        SandboxLogsJob since(&m_network, m_settings, id);
        since.setSince(logs.entries().at(2).timestamp);
        QVERIFY(run(since));
        QVERIFY(!since.hasError());
        QVERIFY(since.entries().size() >= 2);
        QCOMPARE(since.entries().last().fields.value("event"), QStringLiteral("resumed"));
        QVERIFY(since.entries().first().timestamp >= logs.entries().at(2).timestamp);

        SandboxLogsJob limited(&m_network, m_settings, id);
        limited.setLimit(1);
        QVERIFY(run(limited));
        QCOMPARE(limited.entries().size(), 1);

        KillSandboxJob kill(&m_network, m_settings, id);
        QVERIFY(run(kill) && !kill.hasError());
        SandboxLogsJob afterKill(&m_network, m_settings, id);
        QVERIFY(run(afterKill));
        QVERIFY(!afterKill.hasError());
        QCOMPARE(afterKill.entries().last().fields.value("event"), QStringLiteral("killed"));
    }

    void metrics()
    {
        const Sandbox created = create(newSandbox());
        QVERIFY(!created.sandboxId.isEmpty());
        const auto detail = get(created.sandboxId);
        QVERIFY(detail);
        SandboxMetricsJob job(&m_network, m_settings, created.sandboxId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QVERIFY(!job.metrics().isEmpty());
        const SandboxMetric &sample = job.metrics().last();
        QVERIFY(sample.timestamp.isValid());
        QCOMPARE(sample.cpuCount, detail->cpuCount);
        QCOMPARE(sample.memTotal, qint64(detail->memoryMB) * 1024 * 1024);

        // An interval that ended before the sandbox existed has no samples.
        SandboxMetricsJob before(&m_network, m_settings, created.sandboxId);
        before.setInterval(detail->startedAt.addSecs(-7200), detail->startedAt.addSecs(-3600));
        QVERIFY(run(before));
        QVERIFY(!before.hasError());
        QVERIFY(before.metrics().isEmpty());

        SandboxMetricsJob unknown(&m_network, m_settings, unknownId);
        QVERIFY(run(unknown));
        QCOMPARE(unknown.error().httpStatus(), 404);
    }

    void templates()
    {
        ListTemplatesJob job(&m_network, m_settings);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QStringList ids;
        for (const SandboxTemplate &t : job.templates())
            ids << t.templateId;
        QCOMPARE(sorted(ids), (QStringList { "base", "mcp-gateway" }));
    }

    void health()
    {
        // /health needs no key; the job sends none, so even a wrong key passes.
        HealthJob job(&m_network, withKey(QStringLiteral("wrong")));
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(job.httpStatus(), 200);

        // With the backend gone, the same check reports a transport error.
        m_backend->stop();
        HealthJob down(&m_network, m_settings);
        QVERIFY(run(down));
        QCOMPARE(down.error().kind(), Error::Kind::Transport);
        QVERIFY(down.error().message().startsWith(QStringLiteral("Could not reach the server")));
    }

    void checkConnection()
    {
        create(newSandbox());
        create(newSandbox());
        CheckConnectionJob good(&m_network, m_settings);
        QVERIFY(run(good));
        QVERIFY2(!good.hasError(), qPrintable(good.error().message()));
        QVERIFY(good.failedStep() == CheckConnectionJob::Step::None);
        QCOMPARE(good.runningSandboxes(), 2);

        CheckConnectionJob badKey(&m_network, withKey(QStringLiteral("e2b_bad")));
        QVERIFY(run(badKey));
        QVERIFY(badKey.failedStep() == CheckConnectionJob::Step::Key);
        QCOMPARE(badKey.error().httpStatus(), 401);
        QVERIFY(badKey.error().message().contains(
            QStringLiteral("Check the key in the profile settings")));

        m_backend->stop();
        CheckConnectionJob down(&m_network, m_settings);
        QVERIFY(run(down));
        QVERIFY(down.failedStep() == CheckConnectionJob::Step::Reach);
        QCOMPARE(down.error().kind(), Error::Kind::Transport);
    }

    /// A cancel while a step is on the wire ends the check once, as cancelled, and
    /// the step it abandoned does not report into it afterwards.
    void checkConnectionCancelledDuringAStep()
    {
        CheckConnectionJob job(&m_network, m_settings);
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        const auto requestOnTheWire = [this] {
            const auto replies = m_network.findChildren<QNetworkReply *>();
            return std::any_of(replies.cbegin(), replies.cend(),
                [](const QNetworkReply *reply) { return reply->isRunning(); });
        };
        job.start();
        // Looked for after each pass of the event loop, not every 50 ms as QTRY_VERIFY
        // does: the local backend answers both steps well within that.
        QElapsedTimer waited;
        waited.start();
        while (!requestOnTheWire() && finished.count() == 0 && waited.elapsed() < 10000)
            QCoreApplication::processEvents();
        QVERIFY(requestOnTheWire());
        QCOMPARE(finished.count(), 0);
        job.cancel();
        QCOMPARE(finished.count(), 1);
        QTest::qWait(300); // the abandoned request ends meanwhile
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
    }

    void keyCheckWithOnePage()
    {
        // How "test connection" checks a key: one page of one sandbox.
        SandboxFilter filter;
        filter.pageSize = 1;
        filter.followPages = false;
        create(newSandbox());
        create(newSandbox());
        ListSandboxesJob good(&m_network, m_settings, filter);
        QVERIFY(run(good));
        QVERIFY(!good.hasError());
        QCOMPARE(good.sandboxes().size(), 1);
        QCOMPARE(good.pages(), 1);
        QVERIFY(!good.nextToken().isEmpty());
        ListSandboxesJob bad(&m_network, withKey(QStringLiteral("e2b_bad")), filter);
        QVERIFY(run(bad));
        QCOMPARE(bad.error().httpStatus(), 401);
    }
};

QTEST_GUILESS_MAIN(TestApiClient)
#include "tst_apiclient.moc"
