// The envd client against a raw socket server serving crafted bytes: every broken
// stream must end in one finished() with a clear error, and the request must carry
// the same headers as the official SDK.

#include "envd/envelope.h"
#include "envd/processjobs.h"
#include "network/networkaccessmanager.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QtEndian>

using namespace sd;

namespace {

// Answers each request with `response` (status line, headers and body), written in
// pieces of `piece` bytes a few milliseconds apart, then closes the connection.
class RawServer : public QObject
{
public:
    QByteArray response;
    int piece = 7;
    bool silent = false; // read each request, never answer
    QByteArray lastRequestHead;
    QByteArray lastRequestBody;

    RawServer()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
    }
    QUrl url() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()));
    }

private:
    void serve(QTcpSocket *socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            *buffer += socket->readAll();
            const qsizetype headEnd = buffer->indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            const QByteArray head = buffer->left(headEnd);
            qsizetype length = 0;
            for (const QByteArray &line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer->size() < headEnd + 4 + length)
                return;
            lastRequestHead = head;
            lastRequestBody = buffer->mid(headEnd + 4, length);
            disconnect(socket, &QTcpSocket::readyRead, socket, nullptr);
            if (!silent)
                writePieces(socket, 0);
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

    void writePieces(QTcpSocket *socket, qsizetype offset)
    {
        if (offset >= response.size()) {
            socket->disconnectFromHost();
            return;
        }
        socket->write(response.mid(offset, piece));
        QPointer<QTcpSocket> guard(socket);
        QTimer::singleShot(2, this, [this, guard, offset] {
            if (guard)
                writePieces(guard, offset + piece);
        });
    }

    QTcpServer m_server;
};

QByteArray streamResponse(const QByteArray &body)
{
    // Body until close: no length, no chunking, so the bytes arrive exactly as crafted.
    return "HTTP/1.1 200 OK\r\nContent-Type: application/connect+json\r\nConnection: close\r\n\r\n"
        + body;
}

QByteArray rawEnvelope(quint8 flags, const QByteArray &payload, qint64 announced = -1)
{
    QByteArray out(1, char(flags));
    char length[4];
    qToBigEndian(quint32(announced < 0 ? payload.size() : announced), length);
    out.append(length, 4);
    return out + payload;
}

QByteArray header(const QByteArray &head, const QByteArray &name)
{
    for (const QByteArray &line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace

class TestEnvdStream : public QObject
{
    Q_OBJECT

private:
    sd::NetworkAccessManager m_nam;

    EnvdTarget target(const RawServer &server)
    {
        return EnvdTarget::forSharedUrl(
            server.url(), QStringLiteral("sbx123"), QStringLiteral("tok-secret"));
    }

private Q_SLOTS:
    void brokenStreams_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        const QByteArray start = envd::encodeEnvelope(envd::processStartEvent(7));
        const QByteArray data = envd::encodeEnvelope(envd::processDataEvent(false, "partial"));
        QTest::newRow("envelope over 16 MiB")
            << streamResponse(start + rawEnvelope(0, "{}", envd::MaxEnvelopeSize + 1))
            << int(Error::Kind::BadResponse) << QStringLiteral("16 MiB");
        QTest::newRow("length past the end of the body")
            << streamResponse(start + rawEnvelope(0, "{\"event\":{}}", 4096))
            << int(Error::Kind::Transport) << QStringLiteral("announced 4096 bytes");
        QTest::newRow("no end-of-stream envelope")
            << streamResponse(start + data) << int(Error::Kind::Transport)
            << QStringLiteral("the sandbox closed the connection early");
        QTest::newRow("empty body") << streamResponse({}) << int(Error::Kind::Transport)
                                    << QStringLiteral("the sandbox closed the connection early");
        QTest::newRow("invalid JSON")
            << streamResponse(
                   start + rawEnvelope(0, "{\"event\":{\"data\":") + envd::encodeEndStream())
            << int(Error::Kind::BadResponse) << QStringLiteral("not valid JSON");
        QTest::newRow("invalid base64")
            << streamResponse(start + rawEnvelope(0, R"({"event":{"data":{"stdout":"@@@"}}})")
                   + envd::encodeEndStream())
            << int(Error::Kind::BadResponse) << QStringLiteral("not valid base64");
        QTest::newRow("end without the process end")
            << streamResponse(start + data + envd::encodeEndStream())
            << int(Error::Kind::BadResponse)
            << QStringLiteral("without telling how the process ended");
        QTest::newRow("error in end-of-stream") << streamResponse(start
            + envd::encodeEndStream(QStringLiteral("deadline_exceeded"),
                QStringLiteral("too slow"))) << int(Error::Kind::Rpc)
                                                << QStringLiteral("too slow (deadline_exceeded)");
        QTest::newRow("unary-style error status")
            << QByteArray("HTTP/1.1 401 Unauthorized\r\nContent-Type: "
                          "application/json\r\nConnection: close\r\n\r\n"
                          "{\"code\":\"unauthenticated\",\"message\":\"bad token\"}")
            << int(Error::Kind::Rpc) << QStringLiteral("bad token (unauthenticated)");
        QTest::newRow("proxy error page")
            << QByteArray("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: "
                          "close\r\n\r\nsandbox not found")
            << int(Error::Kind::Http) << QStringLiteral("sandbox not found");
    }

    void brokenStreams()
    {
        QFETCH(QByteArray, response);
        QFETCH(int, kind);
        QFETCH(QString, expected);
        for (int piece : { 1, 5, 13, 4096 }) {
            RawServer server;
            server.response = response;
            server.piece = piece;
            StartProcessJob job(
                &m_nam, target(server), StartProcessJob::shellCommand(QStringLiteral("true")));
            job.setAutoDelete(false);
            QSignalSpy finished(&job, &Job::finished);
            job.start();
            QVERIFY(finished.wait(30000));
            QTest::qWait(20);
            QCOMPARE(finished.count(), 1);
            QVERIFY(job.hasError());
            QCOMPARE(int(job.error().kind()), kind);
            QVERIFY2(job.error().message().contains(expected),
                qPrintable(QStringLiteral("piece %1: %2").arg(piece).arg(job.error().message())));
            QVERIFY(job.error().message().startsWith(QStringLiteral("Could not run the process")));
        }
    }

    void goodStreamWithKeepAlivesAndTheSdkHeaders()
    {
        RawServer server;
        server.piece = 3;
        server.response = streamResponse(envd::encodeEnvelope(envd::processStartEvent(42))
            + envd::encodeEnvelope(envd::processKeepAliveEvent())
            + envd::encodeEnvelope(envd::processDataEvent(true, "warn\n"))
            + envd::encodeEnvelope(envd::processKeepAliveEvent())
            + envd::encodeEnvelope(envd::processDataEvent(false, "out\n"))
            + envd::encodeEnvelope(
                envd::processEndEvent(127, true, QStringLiteral("exit status 127")))
            + envd::encodeEndStream());
        StartProcessJob job(&m_nam, target(server),
            StartProcessJob::shellCommand(QStringLiteral("mcp-gateway --config '{}'"),
                { { QStringLiteral("GATEWAY_ACCESS_TOKEN"), QStringLiteral("abc") } }));
        job.setConnectTimeoutMs(60000);
        job.setKeepAliveIntervalSeconds(50);
        job.setAutoDelete(false);
        QSignalSpy started(&job, &StartProcessJob::started);
        QSignalSpy err(&job, &StartProcessJob::stderrReceived);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(finished.wait(30000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().first().value<quint32>(), quint32(42));
        QCOMPARE(err.count(), 1);
        QCOMPARE(job.exitCode(), 127);
        QCOMPARE(job.status(), QStringLiteral("exit status 127"));
        QCOMPARE(job.stdoutData(), QByteArray("out\n"));

        const QByteArray head = server.lastRequestHead;
        QVERIFY(head.startsWith("POST /process.Process/Start HTTP/1.1"));
        QCOMPARE(header(head, "Content-Type"), QByteArray("application/connect+json"));
        QCOMPARE(header(head, "Connect-Protocol-Version"), QByteArray("1"));
        QCOMPARE(header(head, "Connect-Timeout-Ms"), QByteArray("60000"));
        QCOMPARE(header(head, "Keepalive-Ping-Interval"), QByteArray("50"));
        QCOMPARE(header(head, "E2b-Sandbox-Id"), QByteArray("sbx123"));
        QCOMPARE(header(head, "E2b-Sandbox-Port"), QByteArray("49983"));
        QCOMPARE(header(head, "X-Access-Token"), QByteArray("tok-secret"));
        QCOMPARE(header(head, "Authorization"), QByteArray("Basic cm9vdDo="));
        QVERIFY(header(head, "User-Agent").startsWith("sandbox-desk/"));

        envd::EnvelopeDecoder decoder;
        decoder.feed(server.lastRequestBody);
        QVERIFY(decoder.finish(false));
        const QList<envd::Envelope> request = decoder.takeAll();
        QCOMPARE(request.size(), 1);
        QCOMPARE(request.first().flags, quint8(0));
        const QJsonObject process
            = request.first().json.value(QStringLiteral("process")).toObject();
        QCOMPARE(process.value(QStringLiteral("cmd")).toString(), QStringLiteral("/bin/bash"));
        QCOMPARE(process.value(QStringLiteral("args")).toArray().size(), 3);
        QCOMPARE(process.value(QStringLiteral("args")).toArray().at(2).toString(),
            QStringLiteral("mcp-gateway --config '{}'"));
        QCOMPARE(process.value(QStringLiteral("envs"))
                     .toObject()
                     .value(QStringLiteral("GATEWAY_ACCESS_TOKEN"))
                     .toString(),
            QStringLiteral("abc"));
        QCOMPARE(request.first().json.value(QStringLiteral("stdin")), QJsonValue(false));
    }

    void unaryHeadersAndSignalName()
    {
        RawServer server;
        server.response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          "2\r\nConnection: close\r\n\r\n{}";
        SendSignalJob job(
            &m_nam, target(server), ProcessSelector::byPid(9), SendSignalJob::Signal::Kill);
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(finished.wait(30000));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(header(server.lastRequestHead, "Content-Type"), QByteArray("application/json"));
        QCOMPARE(header(server.lastRequestHead, "Connect-Protocol-Version"), QByteArray("1"));
        QCOMPARE(server.lastRequestBody,
            QByteArray(R"({"process":{"pid":9},"signal":"SIGNAL_SIGKILL"})"));
    }

    void perSandboxHostNeedsNoRoutingHeaders()
    {
        const EnvdTarget host = EnvdTarget::forSandboxHost(
            QStringLiteral("e2b.app"), QStringLiteral("abc"), QStringLiteral("t"));
        QCOMPARE(host.methodUrl(QStringLiteral("process.Process/List")).toString(),
            QStringLiteral("https://49983-abc.e2b.app/process.Process/List"));
        QVERIFY(host.isPerSandboxHost());
        QNetworkRequest request;
        host.applyHeaders(&request);
        QVERIFY(!request.hasRawHeader("E2b-Sandbox-Id"));
        QCOMPARE(request.rawHeader("X-Access-Token"), QByteArray("t"));
        const EnvdTarget shared
            = EnvdTarget::forSharedUrl(QUrl(QStringLiteral("http://127.0.0.1:5/")),
                QStringLiteral("abc"), QStringLiteral("t"));
        QVERIFY(!shared.isPerSandboxHost());
        QCOMPARE(shared.methodUrl(QStringLiteral("process.Process/List")).toString(),
            QStringLiteral("http://127.0.0.1:5/process.Process/List"));
    }

    void refusedConnectionIsATransportError()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            probe.listen(QHostAddress::LocalHost, 0);
            port = probe.serverPort();
        }
        const EnvdTarget t
            = EnvdTarget::forSharedUrl(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)),
                QStringLiteral("s"), QStringLiteral("t"));
        ListProcessesJob job(&m_nam, t);
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(finished.wait(30000));
        QCOMPARE(job.error().kind(), Error::Kind::Transport);
    }

    void cancelBeforeAnyAnswer()
    {
        RawServer server;
        server.silent = true;
        StartProcessJob job(
            &m_nam, target(server), StartProcessJob::shellCommand(QStringLiteral("true")));
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QTRY_VERIFY(!server.lastRequestHead.isEmpty()); // sent, and no answer will come
        QCOMPARE(finished.count(), 0);
        job.cancel();
        job.cancel();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
        QTest::qWait(200);
        QCOMPARE(finished.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestEnvdStream)
#include "tst_envdstream.moc"
