// The extension points of sdlocal, in process: the envd dispatch hook, the streaming
// writer, and the registry's signals and per-sandbox runtime objects.

#include "local/envdhandler.h"
#include "local/httpstreamwriter.h"
#include "local/localserver.h"

#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

using namespace sd::local;

namespace {

/// Streams one chunk each time the test calls next().
class StreamingEnvd : public QObject, public EnvdHandler
{
    Q_OBJECT

public:
    void handleEnvdRequest(
        const QHttpServerRequest &request, QTcpSocket *socket, const QString &sandboxId) override
    {
        lastSandboxId = sandboxId;
        lastPath = request.url().path();
        serverSocket = socket;
        writer = new HttpStreamWriter(socket, this);
        connect(writer, &HttpStreamWriter::peerDisconnected, this, &StreamingEnvd::peerGone);
        writer->begin(200, { { "Content-Type", "application/connect+json" } });
        Q_EMIT requestArrived();
    }

    QString lastSandboxId;
    QString lastPath;
    QPointer<QTcpSocket> serverSocket;
    QPointer<HttpStreamWriter> writer;

Q_SIGNALS:
    void requestArrived();
    void peerGone();
};

} // namespace

class TestLocalServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void envdDispatch_data();
    void envdDispatch();
    void envdWithoutHandlerIsUnimplemented();
    void streamWriterSendsChunksAsTheyCome();
    void streamWriterReportsPeerDisconnect();
    void registrySignalsAndRuntime();
    void registryKeepsEventsAfterKill();
    void registryExpiresWhatIsDueAfterAnyChange();
    void registryForgetsEventsAnHourAfterTheEnd();

private:
    QNetworkRequest envdRequest(const QByteArray &sandboxId) const;

    std::unique_ptr<LocalServer> m_server;
    std::unique_ptr<StreamingEnvd> m_envd;
};

void TestLocalServer::init()
{
    LocalServer::Options options;
    options.apiKey = QStringLiteral("e2b_inprocess");
    options.isolation = QStringLiteral("none");
    options.version = QStringLiteral("test");
    m_server = std::make_unique<LocalServer>(options);
    QString error;
    QVERIFY2(m_server->listenOn(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    m_envd = std::make_unique<StreamingEnvd>();
    m_server->setEnvdHandler(m_envd.get());
}

void TestLocalServer::cleanup()
{
    m_server.reset();
    m_envd.reset();
}

QNetworkRequest TestLocalServer::envdRequest(const QByteArray &sandboxId) const
{
    QNetworkRequest request(
        QUrl(QStringLiteral("http://127.0.0.1:%1/process.Process/Start").arg(m_server->port())));
    request.setRawHeader("E2b-Sandbox-Port", "49983");
    request.setRawHeader("E2b-Sandbox-Id", sandboxId);
    request.setHeader(
        QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/connect+json"));
    return request;
}

void TestLocalServer::envdDispatch_data()
{
    QTest::addColumn<bool>("byHost");
    QTest::newRow("E2b-Sandbox-Port header") << false;
    QTest::newRow("Host 49983-<id>.<domain>") << true;
}

void TestLocalServer::envdDispatch()
{
    QFETCH(bool, byHost);
    QNetworkAccessManager nam;
    QNetworkRequest request = envdRequest("abcdefghij0123456789");
    if (byHost) {
        request
            = QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/filesystem.Filesystem/Stat")
                                       .arg(m_server->port())));
        request.setRawHeader("Host", "49983-abcdefghij0123456789.localhost");
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    }
    QSignalSpy arrived(m_envd.get(), &StreamingEnvd::requestArrived);
    std::unique_ptr<QNetworkReply> reply(nam.post(request, QByteArray("{}")));
    QVERIFY(arrived.wait(10000));
    QCOMPARE(m_envd->lastSandboxId, QStringLiteral("abcdefghij0123456789"));
    QCOMPARE(m_envd->lastPath,
        byHost ? QStringLiteral("/filesystem.Filesystem/Stat")
               : QStringLiteral("/process.Process/Start"));
    m_envd->writer->finish();
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    QVERIFY(reply->isFinished() || done.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
}

void TestLocalServer::envdWithoutHandlerIsUnimplemented()
{
    m_server->setEnvdHandler(nullptr);
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(
        nam.post(envdRequest("abcdefghij0123456789"), QByteArray("{}")));
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 501);
    const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
    QCOMPARE(body.value(QStringLiteral("code")).toString(), QStringLiteral("unimplemented"));
    QVERIFY(!body.value(QStringLiteral("message")).toString().isEmpty());
}

void TestLocalServer::streamWriterSendsChunksAsTheyCome()
{
    QNetworkAccessManager nam;
    for (int round = 0; round < 2; ++round) { // the second round reuses the kept-alive connection
        QSignalSpy arrived(m_envd.get(), &StreamingEnvd::requestArrived);
        std::unique_ptr<QNetworkReply> reply(
            nam.post(envdRequest("sandbox0000000000000"), QByteArray("{}")));
        QVERIFY(arrived.wait(10000));
        // Each chunk leaves at once: with Nagle's algorithm on, the kernel would hold a
        // chunk written while the one before is unacknowledged until the client's
        // delayed ACK, up to 40 ms later (a process's end event after its output).
        int noDelay = 0;
        socklen_t length = sizeof noDelay;
        QVERIFY(m_envd->serverSocket);
        QCOMPARE(::getsockopt(int(m_envd->serverSocket->socketDescriptor()), IPPROTO_TCP,
                     TCP_NODELAY, &noDelay, &length),
            0);
        QCOMPARE(noDelay, 1);
        QByteArray received;
        for (const QByteArray &chunk :
            { QByteArray("one;"), QByteArray("two;"), QByteArray("three;") }) {
            m_envd->writer->writeChunk(chunk);
            // The client holds this chunk before the next one is even written.
            QTRY_VERIFY_WITH_TIMEOUT((received += reply->readAll()).endsWith(chunk), 10000);
            QVERIFY(!reply->isFinished());
        }
        QCOMPARE(received, QByteArray("one;two;three;"));
        QSignalSpy finishedWriting(m_envd->writer.data(), &HttpStreamWriter::finished);
        m_envd->writer->finish();
        QCOMPARE(finishedWriting.count(), 1);
        QSignalSpy done(reply.get(), &QNetworkReply::finished);
        QVERIFY(reply->isFinished() || done.wait(10000));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->rawHeader("Content-Type"), QByteArray("application/connect+json"));
        QCOMPARE(reply->rawHeader("Transfer-Encoding"), QByteArray("chunked"));
    }
}

void TestLocalServer::streamWriterReportsPeerDisconnect()
{
    QNetworkAccessManager nam;
    QSignalSpy arrived(m_envd.get(), &StreamingEnvd::requestArrived);
    std::unique_ptr<QNetworkReply> reply(
        nam.post(envdRequest("sandbox0000000000000"), QByteArray("{}")));
    QVERIFY(arrived.wait(10000));
    m_envd->writer->writeChunk("partial");
    QSignalSpy gone(m_envd.get(), &StreamingEnvd::peerGone);
    reply->abort();
    QVERIFY(gone.wait(10000));
    QCOMPARE(gone.count(), 1);
    // Writing after the peer left is harmless.
    if (m_envd->writer) {
        m_envd->writer->writeChunk("late");
        m_envd->writer->finish();
    }
}

void TestLocalServer::registrySignalsAndRuntime()
{
    SandboxRegistry *registry = m_server->registry();
    QSignalSpy created(registry, &SandboxRegistry::sandboxCreated);
    QSignalSpy paused(registry, &SandboxRegistry::sandboxPaused);
    QSignalSpy resumed(registry, &SandboxRegistry::sandboxResumed);
    QSignalSpy killed(registry, &SandboxRegistry::sandboxKilled);

    SandboxRegistry::CreateParams params;
    params.templateId = QStringLiteral("base");
    const SandboxRecord record = registry->create(params);
    QCOMPARE(created.count(), 1);
    QCOMPARE(created.at(0).at(0).toString(), record.sandboxId);

    QPointer<QObject> runtime = new QObject;
    registry->setRuntime(record.sandboxId, runtime);
    QCOMPARE(registry->runtime(record.sandboxId), runtime.data());

    QCOMPARE(registry->pause(record.sandboxId), SandboxRegistry::Result::Ok);
    QCOMPARE(paused.count(), 1);
    QCOMPARE(registry->resume(record.sandboxId, std::nullopt), SandboxRegistry::Result::Ok);
    QCOMPARE(resumed.count(), 1);

    bool runtimeAliveDuringKill = false;
    QObject::connect(registry, &SandboxRegistry::sandboxKilled, this,
        [&](const QString &id) { runtimeAliveDuringKill = registry->runtime(id) != nullptr; });
    QVERIFY(registry->kill(record.sandboxId));
    QCOMPARE(killed.count(), 1);
    QCOMPARE(killed.at(0).at(1).value<KillReason>(), KillReason::Requested);
    QVERIFY(runtimeAliveDuringKill);
    QTRY_VERIFY_WITH_TIMEOUT(runtime.isNull(), 10000); // deleted by the registry
    QVERIFY(!registry->find(record.sandboxId));
}

void TestLocalServer::registryKeepsEventsAfterKill()
{
    SandboxRegistry *registry = m_server->registry();
    SandboxRegistry::CreateParams params;
    params.templateId = QStringLiteral("mcp-gateway");
    const QString id = registry->create(params).sandboxId;
    registry->addEvent(id, QStringLiteral("process started"), QStringLiteral("pid 42"));
    registry->killAll();
    const auto events = registry->events(id);
    QVERIFY(events.has_value());
    QStringList names;
    for (const SandboxEvent &e : *events)
        names.append(e.fields.value(QStringLiteral("event")));
    QCOMPARE(names,
        (QStringList { QStringLiteral("created"), QStringLiteral("process started"),
            QStringLiteral("shutdown") }));
    QVERIFY(!registry->events(QStringLiteral("unknown")).has_value());
}

// Random creations, timeouts, pauses, resumes, connects and kills, the clock moving
// between rounds: each time exactly the running sandboxes whose end time has passed
// expire, whatever changed their state or end time on the way.
void TestLocalServer::registryExpiresWhatIsDueAfterAnyChange()
{
    QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList expired;
    SandboxRegistry registry;
    const auto clock = [&now] { return now; };
    registry.setClock(clock);
    connect(&registry, &SandboxRegistry::sandboxKilled, this,
        [&expired](const QString &id, KillReason reason) {
            if (reason == KillReason::Expired)
                expired << id;
        });
    SandboxRegistry::CreateParams params;
    params.templateId = QStringLiteral("base");
    QRandomGenerator random(1207);
    QStringList live;
    const auto seconds = [&random] { return 1 + int(random.bounded(120)); };
    const auto expiredSorted = [&expired] {
        QStringList sorted = expired;
        sorted.sort();
        return sorted;
    };
    for (int round = 0; round < 25; ++round) {
        for (int i = 0; i < 40; ++i) {
            const int action = int(random.bounded(7));
            if (action <= 1 || live.isEmpty()) {
                params.timeoutSec = seconds();
                live << registry.create(params).sandboxId;
                continue;
            }
            const QString id = live.at(random.bounded(live.size()));
            switch (action) {
            case 2:
                registry.setTimeout(id, seconds());
                break;
            case 3:
                registry.pause(id);
                break;
            case 4:
                registry.resume(
                    id, random.bounded(2) ? std::optional<int>(seconds()) : std::nullopt);
                break;
            case 5:
                registry.connectTo(id, seconds());
                break;
            default:
                QVERIFY(registry.kill(id));
                live.removeOne(id);
                break;
            }
        }
        now = now.addSecs(random.bounded(40));
        QStringList due;
        for (const QString &id : std::as_const(live)) {
            const SandboxRecord *record = registry.find(id);
            QVERIFY(record);
            if (record->state == SandboxState::Running && record->endAt <= now)
                due << id;
        }
        expired.clear();
        registry.setClock(clock); // the clock jumped: the next expiry is looked at again
        due.sort();
        QTRY_COMPARE_WITH_TIMEOUT(expiredSorted(), due, 5000);
        for (const QString &id : std::as_const(due))
            live.removeOne(id);
        for (const QString &id : std::as_const(live))
            QVERIFY2(registry.find(id), qPrintable(id));
    }
    QVERIFY(registry.count() > 0);
    QCOMPARE(registry.count(), live.size());
}

void TestLocalServer::registryForgetsEventsAnHourAfterTheEnd()
{
    SandboxRegistry *registry = m_server->registry();
    QDateTime now = QDateTime::currentDateTimeUtc();
    registry->setClock([&now] { return now; });
    SandboxRegistry::CreateParams params;
    params.templateId = QStringLiteral("base");
    const auto killedAfter = [&](qint64 ms) {
        const QString id = registry->create(params).sandboxId;
        now = now.addMSecs(ms);
        registry->kill(id);
        return id;
    };
    const QString first = killedAfter(0);
    const QString second = killedAfter(10 * 60 * 1000);
    const QString living = registry->create(params).sandboxId;

    // The hour of the first is over, not that of the second; the living keeps its log.
    now = now.addMSecs(SandboxRegistry::kEventRetentionMs - 5 * 60 * 1000);
    registry->create(params); // a creation prunes
    QVERIFY(!registry->events(first).has_value());
    QVERIFY(registry->events(second).has_value());
    QVERIFY(registry->events(living).has_value());

    now = now.addMSecs(10 * 60 * 1000);
    registry->create(params);
    QVERIFY(!registry->events(second).has_value());
    QVERIFY(registry->events(living).has_value());
    registry->setClock([] { return QDateTime::currentDateTimeUtc(); });
}

QTEST_GUILESS_MAIN(TestLocalServer)
#include "tst_localserver.moc"
