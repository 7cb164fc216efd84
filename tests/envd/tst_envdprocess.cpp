// The Qt envd client against the real sandbox-desk-local: process output, exit
// codes, signals, input, attach, deadlines, cancel and sandbox death mid-stream.

#include "envdtestutil.h"
#include "network/networkaccessmanager.h"

#include <QDateTime>
#include <QJsonArray>

using namespace sd;
using namespace sd::test;

class TestEnvdProcess : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LocalBackend> m_backend;
    sd::NetworkAccessManager m_nam;

    TestSandbox newSandbox(
        const QString &templateId = QStringLiteral("base"), const QJsonObject &extra = {})
    {
        return createSandbox(&m_nam, m_backend.get(), templateId, extra);
    }

    // Runs `script` with bash -l -c and returns the finished job (owned by the caller).
    std::unique_ptr<StartProcessJob> run(const TestSandbox &sandbox, const QString &script,
        const QMap<QString, QString> &envs = {}, const QString &cwd = {})
    {
        auto job = std::make_unique<StartProcessJob>(&m_nam, targetFor(m_backend.get(), sandbox),
            StartProcessJob::shellCommand(script, envs, cwd));
        job->setConnectTimeoutMs(120000);
        runJob(job.get(), 120000);
        return job;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend
            = std::make_unique<LocalBackend>(QStringList { QStringLiteral("--fault-injection") });
        QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void exitCodes_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrPart");
        QTest::newRow("success") << QStringLiteral("true") << 0 << QString();
        QTest::newRow("failure") << QStringLiteral("exit 1") << 1 << QString();
        QTest::newRow("command not found")
            << QStringLiteral("no-such-command-here") << 127
            << QStringLiteral("no-such-command-here: command not found");
    }

    void exitCodes()
    {
        QFETCH(QString, script);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrPart);
        const TestSandbox sandbox = newSandbox();
        QVERIFY(sandbox.isValid());
        auto job = run(sandbox, script);
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QVERIFY(job->pid() > 0);
        QCOMPARE(job->exitCode(), exitCode);
        QVERIFY(job->exited());
        QCOMPARE(job->status(), QStringLiteral("exit status %1").arg(exitCode));
        QVERIFY2(QString::fromUtf8(job->stderrData()).contains(stderrPart),
            job->stderrData().constData());
    }

    void stdoutAndStderrApartAndInOrder()
    {
        const TestSandbox sandbox = newSandbox();
        auto job = run(
            sandbox, QStringLiteral("for i in $(seq 1 200); do echo out$i; echo err$i >&2; done"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QByteArray expectedOut;
        QByteArray expectedErr;
        for (int i = 1; i <= 200; ++i) {
            expectedOut += "out" + QByteArray::number(i) + '\n';
            expectedErr += "err" + QByteArray::number(i) + '\n';
        }
        QCOMPARE(job->stdoutData(), expectedOut);
        QCOMPARE(job->stderrData(), expectedErr);
    }

    void outputArrivesAsProduced()
    {
        const TestSandbox sandbox = newSandbox();
        StartProcessJob job(&m_nam, targetFor(m_backend.get(), sandbox),
            StartProcessJob::shellCommand(
                QStringLiteral("for i in 1 2 3 4 5; do echo tick$i; sleep 0.5; done")));
        job.setAutoDelete(false);
        int chunks = 0;
        bool firstBeforeEnd = false;
        quint32 startedPid = 0;
        connect(&job, &StartProcessJob::started, this, [&](quint32 pid) { startedPid = pid; });
        connect(&job, &StartProcessJob::stdoutReceived, this, [&](const QByteArray &) {
            if (chunks++ == 0)
                firstBeforeEnd = !job.hasEnded() && !job.isFinished();
        });
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(finished.wait(60000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QVERIFY(startedPid > 0);
        QCOMPARE(startedPid, job.pid());
        QVERIFY(firstBeforeEnd);
        QVERIFY2(chunks >= 2, qPrintable(QString::number(chunks)));
        QCOMPARE(job.stdoutData(), QByteArray("tick1\ntick2\ntick3\ntick4\ntick5\n"));
    }

    void fiveMebibytes()
    {
        const TestSandbox sandbox = newSandbox();
        auto job = run(sandbox, QStringLiteral("head -c 5242880 /dev/zero | tr '\\0' 'x'"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->exitCode(), 0);
        QCOMPARE(job->stdoutData().size(), qsizetype(5 * 1024 * 1024));
        QCOMPARE(job->stdoutData().count('x'), qsizetype(5 * 1024 * 1024));
    }

    void envsAndCwd()
    {
        const TestSandbox sandbox = newSandbox(QStringLiteral("base"),
            QJsonObject { { QStringLiteral("envVars"),
                QJsonObject { { QStringLiteral("FROM_SANDBOX"), QStringLiteral("one") },
                    { QStringLiteral("BOTH"), QStringLiteral("sandbox") } } } });
        auto mkdir = run(sandbox,
            QStringLiteral("mkdir -p /home/user/work/deep && echo made > /home/user/work/file"));
        QCOMPARE(mkdir->exitCode(), 0);
        auto job
            = run(sandbox, QStringLiteral("pwd; echo $FROM_SANDBOX $FROM_CALL $BOTH; cat ../file"),
                { { QStringLiteral("FROM_CALL"), QStringLiteral("two") },
                    { QStringLiteral("BOTH"), QStringLiteral("call") } },
                QStringLiteral("/home/user/work/deep"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->stdoutData(), QByteArray("/home/user/work/deep\none two call\nmade\n"));
        auto home = run(sandbox, QStringLiteral("pwd; echo $HOME"));
        QCOMPARE(home->stdoutData(), QByteArray("/home/user\n/home/user\n"));
    }

    void connectTimeoutKillsTheProcess()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        StartProcessJob job(
            &m_nam, target, StartProcessJob::shellCommand(QStringLiteral("echo begin; sleep 120")));
        job.setConnectTimeoutMs(1500);
        QVERIFY(runJob(&job, 60000));
        QVERIFY(job.hasError());
        QCOMPARE(job.error().kind(), Error::Kind::Rpc);
        QCOMPARE(job.error().rpcCode(), QStringLiteral("deadline_exceeded"));
        QVERIFY(job.pid() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!hasPid(listProcesses(&m_nam, target), job.pid()), 20000);
    }

    void cancelKillsTheProcess()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        StartProcessJob job(&m_nam, target,
            StartProcessJob::shellCommand(QStringLiteral("echo running; sleep 120")));
        job.setAutoDelete(false);
        QSignalSpy out(&job, &StartProcessJob::stdoutReceived);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(out.wait(60000));
        QVERIFY(hasPid(listProcesses(&m_nam, target), job.pid()));
        job.cancel();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(!hasPid(listProcesses(&m_nam, target), job.pid()), 20000);
    }

    void killingTheSandboxEndsTheStream()
    {
        const TestSandbox sandbox = newSandbox();
        StartProcessJob job(&m_nam, targetFor(m_backend.get(), sandbox),
            StartProcessJob::shellCommand(QStringLiteral("echo running; sleep 120")));
        job.setAutoDelete(false);
        QSignalSpy out(&job, &StartProcessJob::stdoutReceived);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(out.wait(60000));
        const HttpResult kill = apiCall(
            &m_nam, m_backend.get(), "DELETE", QStringLiteral("/sandboxes/") + sandbox.id);
        QCOMPARE(kill.status, 204);
        // It may already have ended while the DELETE was answered.
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        QVERIFY(job.hasError());
        QCOMPARE(job.error().kind(), Error::Kind::Rpc);
        QCOMPARE(job.error().rpcCode(), QStringLiteral("unavailable"));
        QVERIFY2(job.error().message().contains(QStringLiteral("killed")),
            qPrintable(job.error().message()));
        // And the sandbox's envd is gone.
        auto after = run(sandbox, QStringLiteral("true"));
        QCOMPARE(after->error().rpcCode(), QStringLiteral("not_found"));
    }

    void expiryEndsTheStream()
    {
        const TestSandbox sandbox
            = newSandbox(QStringLiteral("base"), QJsonObject { { QStringLiteral("timeout"), 3 } });
        QVERIFY(sandbox.isValid());
        auto job = run(sandbox, QStringLiteral("echo running; sleep 120"));
        QVERIFY(job->hasError());
        QCOMPARE(job->error().rpcCode(), QStringLiteral("unavailable"));
        QVERIFY2(job->error().message().contains(QStringLiteral("timeout expired")),
            qPrintable(job->error().message()));
        QCOMPARE(job->stdoutData(), QByteArray("running\n"));
    }

    void keepAlivesWhileQuiet()
    {
        const TestSandbox sandbox = newSandbox();
        QNetworkRequest request(
            m_backend->url().resolved(QUrl(QStringLiteral("/process.Process/Start"))));
        targetFor(m_backend.get(), sandbox).applyHeaders(&request);
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/connect+json"));
        request.setRawHeader("Keepalive-Ping-Interval", "1");
        const QJsonObject body {
            { QStringLiteral("process"),
                StartProcessJob::shellCommand(QStringLiteral("sleep 3.5; echo done")).toJson() },
            { QStringLiteral("stdin"), false }
        };
        QNetworkReply *reply = m_nam.post(request, envd::encodeEnvelope(body));
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(60000));
        envd::EnvelopeDecoder decoder;
        decoder.feed(reply->readAll());
        reply->deleteLater();
        QVERIFY2(decoder.finish(), qPrintable(decoder.errorString()));
        QStringList kinds;
        for (const envd::Envelope &envelope : decoder.takeAll()) {
            if (envelope.isEndStream()) {
                kinds << QStringLiteral("eos");
                continue;
            }
            kinds << envelope.json.value(QStringLiteral("event")).toObject().keys().value(0);
        }
        // start, at least two keep-alives while sleeping, then the output and the end.
        QVERIFY2(kinds.size() >= 6, qPrintable(kinds.join(u',')));
        QCOMPARE(kinds.first(), QStringLiteral("start"));
        QCOMPARE(kinds.mid(1, 2),
            (QStringList { QStringLiteral("keepalive"), QStringLiteral("keepalive") }));
        QCOMPARE(kinds.mid(kinds.size() - 3),
            (QStringList { QStringLiteral("data"), QStringLiteral("end"), QStringLiteral("eos") }));
    }

    void fiftyConcurrentStreams()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        std::vector<std::unique_ptr<StartProcessJob>> jobs;
        int done = 0;
        for (int i = 0; i < 50; ++i) {
            auto job = std::make_unique<StartProcessJob>(&m_nam, target,
                StartProcessJob::shellCommand(
                    QStringLiteral("echo first%1; sleep 1; echo second%1").arg(i)));
            job->setAutoDelete(false);
            connect(job.get(), &Job::finished, this, [&done] { ++done; });
            job->start();
            jobs.push_back(std::move(job));
        }
        QTRY_COMPARE_WITH_TIMEOUT(done, 50, 180000);
        for (int i = 0; i < 50; ++i) {
            QVERIFY2(!jobs[i]->hasError(), qPrintable(jobs[i]->error().message()));
            QCOMPARE(jobs[i]->exitCode(), 0);
            QCOMPARE(jobs[i]->stdoutData(), QStringLiteral("first%1\nsecond%1\n").arg(i).toUtf8());
        }
    }

    void inputSignalsAndAttach()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        StartProcessJob cat(
            &m_nam, target, ProcessConfig { QStringLiteral("/bin/cat"), {}, {}, {} });
        cat.setTag(QStringLiteral("the-cat"));
        cat.setStdin(true);
        cat.setAutoDelete(false);
        QSignalSpy started(&cat, &StartProcessJob::started);
        QSignalSpy catOut(&cat, &StartProcessJob::stdoutReceived);
        QSignalSpy catDone(&cat, &Job::finished);
        cat.start();
        QVERIFY(started.wait(60000));

        // Listed with its config and tag.
        const QList<ProcessInfo> listed = listProcesses(&m_nam, target);
        auto it = std::find_if(listed.cbegin(), listed.cend(),
            [&](const ProcessInfo &p) { return p.pid == cat.pid(); });
        QVERIFY(it != listed.cend());
        QCOMPARE(it->tag, QStringLiteral("the-cat"));
        QCOMPARE(it->config.cmd, QStringLiteral("/bin/cat"));

        SendInputJob input(&m_nam, target, ProcessSelector::byPid(cat.pid()), "hello\n");
        QVERIFY(runJob(&input));
        QVERIFY2(!input.hasError(), qPrintable(input.error().message()));
        QTRY_COMPARE_WITH_TIMEOUT(cat.stdoutData(), QByteArray("hello\n"), 30000);

        // A second client attaches by tag and sees what comes next.
        ConnectProcessJob attach(&m_nam, target, ProcessSelector::byTag(QStringLiteral("the-cat")));
        attach.setAutoDelete(false);
        QSignalSpy attached(&attach, &ConnectProcessJob::started);
        QSignalSpy attachDone(&attach, &Job::finished);
        attach.start();
        QVERIFY(attached.wait(30000));
        QCOMPARE(attach.pid(), cat.pid());
        SendInputJob again(
            &m_nam, target, ProcessSelector::byTag(QStringLiteral("the-cat")), "again\n");
        QVERIFY(runJob(&again));
        QVERIFY(!again.hasError());
        QTRY_COMPARE_WITH_TIMEOUT(attach.stdoutData(), QByteArray("again\n"), 30000);

        CloseStdinJob close(&m_nam, target, ProcessSelector::byPid(cat.pid()));
        QVERIFY(runJob(&close));
        QVERIFY2(!close.hasError(), qPrintable(close.error().message()));
        QVERIFY(catDone.count() == 1 || catDone.wait(30000));
        QVERIFY(attachDone.count() == 1 || attachDone.wait(30000));
        QVERIFY2(!cat.hasError(), qPrintable(cat.error().message()));
        QCOMPARE(cat.exitCode(), 0);
        QCOMPARE(cat.stdoutData(), QByteArray("hello\nagain\n"));
        QVERIFY(!attach.hasError());
        QCOMPARE(attach.exitCode(), 0);

        // Unknown process.
        SendSignalJob missing(
            &m_nam, target, ProcessSelector::byPid(cat.pid()), SendSignalJob::Signal::Kill);
        QVERIFY(runJob(&missing));
        QCOMPARE(missing.error().rpcCode(), QStringLiteral("not_found"));
    }

    void attachDeadlineOnlyEndsTheAttachment()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        StartProcessJob owner(&m_nam, target,
            ProcessConfig { QStringLiteral("/bin/sleep"), { QStringLiteral("120") }, {}, {} });
        owner.setAutoDelete(false);
        QSignalSpy started(&owner, &StartProcessJob::started);
        QSignalSpy ownerDone(&owner, &Job::finished);
        owner.start();
        QVERIFY(started.wait(60000));
        ConnectProcessJob watcher(&m_nam, target, ProcessSelector::byPid(owner.pid()));
        watcher.setConnectTimeoutMs(1000);
        QVERIFY(runJob(&watcher));
        QCOMPARE(watcher.error().rpcCode(), QStringLiteral("deadline_exceeded"));
        QVERIFY(hasPid(listProcesses(&m_nam, target), owner.pid()));
        QCOMPARE(ownerDone.count(), 0);
        SendSignalJob kill(
            &m_nam, target, ProcessSelector::byPid(owner.pid()), SendSignalJob::Signal::Kill);
        QVERIFY(runJob(&kill));
        QVERIFY(!kill.hasError());
        QVERIFY(ownerDone.count() == 1 || ownerDone.wait(30000));
        QCOMPARE(owner.status(), QStringLiteral("signal: killed"));
    }

    void sigtermEndsTheProcess()
    {
        const TestSandbox sandbox = newSandbox();
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        StartProcessJob job(&m_nam, target,
            ProcessConfig { QStringLiteral("/bin/sleep"), { QStringLiteral("120") }, {}, {} });
        job.setAutoDelete(false);
        QSignalSpy started(&job, &StartProcessJob::started);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(started.wait(60000));
        SendSignalJob term(
            &m_nam, target, ProcessSelector::byPid(job.pid()), SendSignalJob::Signal::Term);
        QVERIFY(runJob(&term));
        QVERIFY2(!term.hasError(), qPrintable(term.error().message()));
        // The stream may have ended while runJob() spun for the signal call.
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        QVERIFY(!job.hasError());
        QVERIFY(!job.exited());
        QCOMPARE(job.status(), QStringLiteral("signal: terminated"));
    }

    void refusedCalls()
    {
        const TestSandbox sandbox = newSandbox();
        EnvdTarget badToken = targetFor(m_backend.get(), sandbox);
        badToken.accessToken = QStringLiteral("not-the-token");
        auto job = std::make_unique<StartProcessJob>(
            &m_nam, badToken, StartProcessJob::shellCommand(QStringLiteral("true")));
        QVERIFY(runJob(job.get()));
        // A wrong token is answered as an unknown sandbox: neither says the other exists.
        QCOMPARE(job->error().rpcCode(), QStringLiteral("not_found"));

        ListProcessesJob list(&m_nam, badToken);
        QVERIFY(runJob(&list));
        QCOMPARE(list.error().rpcCode(), QStringLiteral("not_found"));

        EnvdTarget badUser = targetFor(m_backend.get(), sandbox);
        badUser.user = QStringLiteral("mallory");
        ListProcessesJob list2(&m_nam, badUser);
        QVERIFY(runJob(&list2));
        QCOMPARE(list2.error().rpcCode(), QStringLiteral("unauthenticated"));

        TestSandbox unknown { QStringLiteral("nosuchsandbox0000000"), sandbox.token };
        StartProcessJob missing(&m_nam, targetFor(m_backend.get(), unknown),
            StartProcessJob::shellCommand(QStringLiteral("true")));
        QVERIFY(runJob(&missing));
        QCOMPARE(missing.error().rpcCode(), QStringLiteral("not_found"));

        // Binary protobuf is refused with a sentence saying only JSON is served.
        QNetworkRequest request(
            m_backend->url().resolved(QUrl(QStringLiteral("/process.Process/List"))));
        request.setRawHeader("E2b-Sandbox-Id", sandbox.id.toUtf8());
        request.setRawHeader("E2b-Sandbox-Port", "49983");
        request.setRawHeader("X-Access-Token", sandbox.token.toUtf8());
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/proto"));
        QNetworkReply *reply = m_nam.post(request, QByteArray());
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(30000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 415);
        QVERIFY(reply->readAll().contains("only JSON"));
        reply->deleteLater();

        // A malformed request envelope.
        QNetworkRequest start(
            m_backend->url().resolved(QUrl(QStringLiteral("/process.Process/Start"))));
        start.setRawHeader("E2b-Sandbox-Id", sandbox.id.toUtf8());
        start.setRawHeader("E2b-Sandbox-Port", "49983");
        start.setRawHeader("X-Access-Token", sandbox.token.toUtf8());
        start.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/connect+json"));
        QNetworkReply *bad = m_nam.post(start, QByteArray("\0\0\0\0\x09{\"proc", 12));
        QSignalSpy badDone(bad, &QNetworkReply::finished);
        QVERIFY(badDone.wait(30000));
        envd::EnvelopeDecoder decoder;
        decoder.feed(bad->readAll());
        QVERIFY(decoder.finish());
        const QList<envd::Envelope> envelopes = decoder.takeAll();
        QCOMPARE(envelopes.size(), 1);
        QCOMPARE(envd::parseConnectError(envelopes.first().json).code,
            QStringLiteral("invalid_argument"));
        bad->deleteLater();

        // A JSON body without the envelope, a mistake of one's own client: the answer
        // says what the body must be, not that a sandbox sent something.
        QNetworkReply *bare = m_nam.post(start, QByteArray(R"({"process":{"cmd":"true"}})"));
        QSignalSpy bareDone(bare, &QNetworkReply::finished);
        QVERIFY(bareDone.wait(30000));
        envd::EnvelopeDecoder bareDecoder;
        bareDecoder.feed(bare->readAll());
        QVERIFY(bareDecoder.finish());
        const QString bareMessage
            = envd::parseConnectError(bareDecoder.takeAll().constFirst().json).message;
        QVERIFY2(
            bareMessage.startsWith(QStringLiteral("the request body must be one Connect envelope")),
            qPrintable(bareMessage));
        bare->deleteLater();

        // A unary body that is JSON but not an object.
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *array = m_nam.post(request, QByteArray("[1]"));
        QSignalSpy arrayDone(array, &QNetworkReply::finished);
        QVERIFY(arrayDone.wait(30000));
        QCOMPARE(array->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 400);
        const envd::ConnectError arrayError
            = envd::parseConnectError(QJsonDocument::fromJson(array->readAll()).object());
        QCOMPARE(arrayError.message, QStringLiteral("the request body must be a JSON object"));
        array->deleteLater();
    }

    void pauseStopsAndResumeContinuesOutput()
    {
        const TestSandbox sandbox = newSandbox();
        StartProcessJob job(&m_nam, targetFor(m_backend.get(), sandbox),
            StartProcessJob::shellCommand(
                QStringLiteral("for i in $(seq 1 30); do echo $i; sleep 0.1; done")));
        job.setAutoDelete(false);
        job.setKeepAliveIntervalSeconds(1);
        QSignalSpy out(&job, &StartProcessJob::stdoutReceived);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(out.wait(60000));
        QCOMPARE(apiCall(&m_nam, m_backend.get(), "POST",
                     QStringLiteral("/sandboxes/%1/pause").arg(sandbox.id))
                     .status,
            204);
        // Let what was in flight arrive, then nothing more may come while paused.
        QTest::qWait(1000);
        const QByteArray atPause = job.stdoutData();
        QTest::qWait(2000);
        QCOMPARE(job.stdoutData(), atPause);
        QVERIFY(!job.isFinished());
        QVERIFY(!atPause.endsWith("30\n"));
        QCOMPARE(apiCall(&m_nam, m_backend.get(), "POST",
                     QStringLiteral("/sandboxes/%1/resume").arg(sandbox.id))
                     .status,
            201);
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QByteArray expected;
        for (int i = 1; i <= 30; ++i)
            expected += QByteArray::number(i) + '\n';
        QCOMPARE(job.stdoutData(), expected);
    }

    void metricsAndProcessEvents()
    {
        const TestSandbox sandbox = newSandbox();
        auto job = run(
            sandbox, QStringLiteral("head -c 3000000 /dev/zero > /home/user/blob; echo written"));
        QCOMPARE(job->exitCode(), 0);
        // A sample taken after the file exists counts it.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QJsonArray samples = apiCall(&m_nam, m_backend.get(), "GET",
                    QStringLiteral("/sandboxes/%1/metrics").arg(sandbox.id))
                                               .json()
                                               .toArray();
                return !samples.isEmpty()
                    && samples.last().toObject().value(QStringLiteral("diskUsed")).toDouble()
                    >= 3000000;
            }(),
            30000);
        const QJsonArray samples = apiCall(
            &m_nam, m_backend.get(), "GET", QStringLiteral("/sandboxes/%1/metrics").arg(sandbox.id))
                                       .json()
                                       .toArray();
        const QJsonObject last = samples.last().toObject();
        for (const char *key : { "timestamp", "timestampUnix", "cpuCount", "cpuUsedPct", "memUsed",
                 "memTotal", "memCache", "diskUsed", "diskTotal" })
            QVERIFY2(last.contains(QLatin1String(key)), key);
        QVERIFY(last.value(QStringLiteral("memTotal")).toDouble() > 0);
        QVERIFY(last.value(QStringLiteral("diskTotal")).toDouble() > 0);

        const QJsonObject many = apiCall(&m_nam, m_backend.get(), "GET",
            QStringLiteral("/sandboxes/metrics?sandbox_ids=%1,unknownsandbox").arg(sandbox.id))
                                     .json()
                                     .toObject();
        QVERIFY(many.value(QStringLiteral("sandboxes")).toObject().contains(sandbox.id));
        QCOMPARE(
            apiCall(&m_nam, m_backend.get(), "GET", QStringLiteral("/sandboxes/nosuch/metrics"))
                .status,
            404);

        const HttpResult logs = apiCall(
            &m_nam, m_backend.get(), "GET", QStringLiteral("/sandboxes/%1/logs").arg(sandbox.id));
        QCOMPARE(logs.status, 200);
        QVERIFY2(logs.body.contains("Process started: bash") && logs.body.contains("exit status 0"),
            logs.body.constData());
    }

    // A command line holds secrets (`TOKEN=... cmd`, a gateway's config): neither the
    // backend's log nor the sandbox's logs say more than the program's name.
    void commandLinesNeverLogged()
    {
        const TestSandbox sandbox = newSandbox();
        const QByteArray secret
            = "s3cr3t-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        auto job = run(sandbox, QStringLiteral("TOKEN=%1 true").arg(QString::fromLatin1(secret)));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->exitCode(), 0);
        auto plain = std::make_unique<StartProcessJob>(&m_nam, targetFor(m_backend.get(), sandbox),
            ProcessConfig { QStringLiteral("/bin/echo"), { QString::fromLatin1(secret) },
                { { QStringLiteral("TOKEN"), QString::fromLatin1(secret) } }, QString() });
        QVERIFY(runJob(plain.get(), 120000));
        QCOMPARE(plain->stdoutData(), secret + '\n');

        const HttpResult logs = apiCall(
            &m_nam, m_backend.get(), "GET", QStringLiteral("/sandboxes/%1/logs").arg(sandbox.id));
        QCOMPARE(logs.status, 200);
        QVERIFY2(logs.body.contains("Process started: bash")
                && logs.body.contains("Process started: echo"),
            logs.body.constData());
        QVERIFY2(!logs.body.contains(secret), logs.body.constData());
        QVERIFY2(!logs.body.contains("TOKEN"), logs.body.constData());
        const QByteArray log = m_backend->stderrOutput();
        QVERIFY(log.contains(sandbox.id.toLatin1())); // the log is there...
        QVERIFY2(!log.contains(secret), log.constData()); // ...but holds no secret
    }

    void baseTemplateHasNoGateway()
    {
        const TestSandbox sandbox = newSandbox(QStringLiteral("base"));
        auto job = run(sandbox, QStringLiteral("mcp-gateway --config '{}'"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->exitCode(), 127);
        QVERIFY2(job->stderrData().contains("mcp-gateway: command not found"),
            job->stderrData().constData());
    }

    void gatewayTemplateHasTheGatewayOnPath()
    {
        const TestSandbox sandbox = newSandbox(QStringLiteral("mcp-gateway"));
        auto job = run(sandbox, QStringLiteral("command -v mcp-gateway"));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(job->exitCode(), 0);
        QVERIFY2(
            job->stdoutData().trimmed().endsWith("/mcp-gateway"), job->stdoutData().constData());
    }

    void gatewayStartsAndStaysInTheSandbox()
    {
        const TestSandbox sandbox = newSandbox(QStringLiteral("mcp-gateway"));
        const EnvdTarget target = targetFor(m_backend.get(), sandbox);
        auto job = run(sandbox, QStringLiteral("mcp-gateway --config '{\"duckduckgo\":{}}'"),
            { { QStringLiteral("GATEWAY_ACCESS_TOKEN"), QStringLiteral("tok-123") } });
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QVERIFY2(job->exitCode() == 0, job->stderrData().constData());
        QVERIFY(!job->stdoutData().isEmpty());
        // Listed as it shows itself: the arguments it replaced in place are not listed
        // as empty ones.
        bool serving = false;
        for (const ProcessInfo &p : listProcesses(&m_nam, target)) {
            if (p.config.cmd.endsWith(QLatin1String("mcp-gateway"))) {
                QCOMPARE(p.config.args, QStringList { QStringLiteral("serve") });
                serving = true;
            }
        }
        QVERIFY(serving);
        auto token = run(sandbox,
            QStringLiteral(
                "cat /etc/mcp-gateway/.token; echo; stat -c %a /etc/mcp-gateway/.token"));
        QCOMPARE(token->stdoutData(), QByteArray("tok-123\n600\n"));
    }

    void cutStreamIsReportedAsEarlyClose()
    {
        const HttpResult rule
            = apiCall(&m_nam, m_backend.get(), "POST", QStringLiteral("/_local/faults"),
                QJsonObject { { QStringLiteral("rules"),
                    QJsonArray { QJsonObject {
                        { QStringLiteral("path"), QStringLiteral("/process.Process/Start") },
                        { QStringLiteral("action"), QStringLiteral("cut-after-output") },
                        { QStringLiteral("count"), 1 } } } } });
        QCOMPARE(rule.status, 200);
        const TestSandbox sandbox = newSandbox();
        auto job = run(sandbox, QStringLiteral("echo partial >&2; sleep 2; echo never"));
        QVERIFY(job->hasError());
        QCOMPARE(job->error().kind(), Error::Kind::Transport);
        QVERIFY2(job->error().message().contains(QStringLiteral("closed the connection early")),
            qPrintable(job->error().message()));
        QCOMPARE(job->stderrData(), QByteArray("partial\n"));
        // The rule is used up: the next call streams normally.
        auto next = run(sandbox, QStringLiteral("echo fine"));
        QVERIFY(!next->hasError());
        QCOMPARE(next->stdoutData(), QByteArray("fine\n"));
    }
};

QTEST_GUILESS_MAIN(TestEnvdProcess)
#include "tst_envdprocess.moc"
