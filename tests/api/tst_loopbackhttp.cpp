// The transport for plain HTTP on this machine (sd::NetworkAccessManager): the same
// answers as Qt's own client for everything the jobs read, on kept-alive connections
// in the caller's thread. Each answer below is scripted byte for byte by a raw server
// and read by both clients.
#include "network/networkaccessmanager.h"

#include <QDir>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <functional>

namespace {

/// Answers each request with the next of its scripted byte strings; an empty one
/// means "close the connection without answering", "hang" means never answer.
class ScriptedServer : public QObject
{
public:
    QList<QByteArray> script;
    QList<QByteArray> requests; // method and target of each, as received
    int connections = 0;
    QList<QPointer<QTcpSocket>> sockets; // the server's side of each connection

    ScriptedServer()
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                sockets << socket;
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
            }
        });
    }
    QUrl url(const QString &path = QStringLiteral("/x")) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path));
    }

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buffer.left(end);
            qsizetype length = 0;
            for (const QByteArray &line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer.size() < end + 4 + length)
                return;
            buffer.remove(0, end + 4 + length);
            requests << head.left(head.indexOf(" HTTP/1.1"));
            const QByteArray answer = script.isEmpty() ? QByteArray("hang") : script.takeFirst();
            if (answer == "hang")
                return;
            if (answer.isEmpty()) {
                socket->disconnectFromHost();
                return;
            }
            socket->write(answer);
            if (answer.contains("Connection: close") || !answer.contains("\r\n\r\n")
                || (!answer.contains("Content-Length") && !answer.contains("chunked")
                    && !answer.contains(" 204 ")))
                socket->disconnectFromHost();
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

struct Outcome
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    int status = 0;
    QString reason;
    QString redirect;
    QByteArray body;
    QByteArray nextToken;
    QByteArray repeated;
    QString contentType;
    int requestsSent = 0;
    bool operator==(const Outcome &o) const
    {
        return error == o.error && errorString == o.errorString && status == o.status
            && reason == o.reason && redirect == o.redirect && body == o.body
            && nextToken == o.nextToken && repeated == o.repeated && contentType == o.contentType
            && requestsSent == o.requestsSent;
    }
};

char *toString(const Outcome &o)
{
    return QTest::toString(QStringLiteral("error %1 \"%2\", status %3 \"%4\", redirect %5, "
                                          "body \"%6\", token \"%7\", repeated \"%8\", type "
                                          "\"%9\", sent %10")
                               .arg(int(o.error))
                               .arg(o.errorString, QString::number(o.status), o.reason, o.redirect,
                                   QString::fromLatin1(o.body), QString::fromLatin1(o.nextToken),
                                   QString::fromLatin1(o.repeated), o.contentType)
                               .arg(o.requestsSent));
}

Outcome run(QNetworkAccessManager *network, QNetworkRequest request, const QByteArray &verb,
    const QByteArray &body = {})
{
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply *reply = network->sendCustomRequest(request, verb, body);
    Outcome outcome;
    QObject::connect(reply, &QNetworkReply::requestSent, reply, [&] { ++outcome.requestsSent; });
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(10000))
        return outcome;
    outcome.error = reply->error();
    outcome.errorString = reply->errorString();
    outcome.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    outcome.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    outcome.redirect = reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toString();
    outcome.body = reply->readAll();
    outcome.nextToken = reply->rawHeader("X-Next-Token");
    outcome.repeated = reply->rawHeader("X-Repeated");
    outcome.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    delete reply;
    return outcome;
}

int threadCount()
{
    return int(QDir(QStringLiteral("/proc/self/task"))
                   .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                   .size());
}

} // namespace

class TestLoopbackHttp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameAnswersAsQtsClient_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<QList<QByteArray>>("script");
        const QByteArray close = "Connection: close\r\n";
        QTest::newRow("200 with a length")
            << QByteArray("GET")
            << QList<QByteArray> { "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                   "X-Next-Token: abc\r\nContent-Length: 7\r\n\r\n{\"a\":1}" };
        QTest::newRow("chunked, with an extension and a trailer")
            << QByteArray("POST")
            << QList<QByteArray> { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                   "5\r\nhello\r\n6;x=1\r\n world\r\n0\r\nX-T: 1\r\n\r\n" };
        QTest::newRow("body until the connection closes")
            << QByteArray("GET") << QList<QByteArray> { "HTTP/1.1 200 OK\r\n\r\nall of it" };
        QTest::newRow("404 with a body")
            << QByteArray("GET")
            << QList<QByteArray> { "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found" };
        QTest::newRow("401") << QByteArray("GET")
                             << QList<QByteArray> { "HTTP/1.1 401 Unauthorized\r\n" + close
                                    + "Content-Length: 0\r\n\r\n" };
        QTest::newRow("409") << QByteArray(
            "POST") << QList<QByteArray> { "HTTP/1.1 409 Conflict\r\nContent-Length: 2\r\n\r\n{}" };
        QTest::newRow("500") << QByteArray("DELETE")
                             << QList<QByteArray> { "HTTP/1.1 500 Internal Server Error\r\n"
                                                    "Content-Length: 1\r\n\r\nx" };
        QTest::newRow("502") << QByteArray("GET")
                             << QList<QByteArray> { "HTTP/1.1 502 Bad Gateway\r\n"
                                                    "Content-Length: 0\r\n\r\n" };
        QTest::newRow("429") << QByteArray("POST")
                             << QList<QByteArray> { "HTTP/1.1 429 Too Many Requests\r\n"
                                                    "Content-Length: 0\r\n\r\n" };
        QTest::newRow("redirect, not followed")
            << QByteArray("GET")
            << QList<QByteArray> { "HTTP/1.1 307 Temporary Redirect\r\n"
                                   "Location: http://elsewhere.example/y\r\n"
                                   "Content-Length: 0\r\n\r\n" };
        QTest::newRow("interim 100, then 201")
            << QByteArray("POST")
            << QList<QByteArray> { "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
                                   "Content-Length: 2\r\n\r\nok" };
        QTest::newRow("a repeated header")
            << QByteArray("GET")
            << QList<QByteArray> { "HTTP/1.1 200 OK\r\nX-Repeated: 1\r\nX-Repeated: 2\r\n"
                                   "Content-Length: 0\r\n\r\n" };
        QTest::newRow("204") << QByteArray("DELETE")
                             << QList<QByteArray> { "HTTP/1.1 204 No Content\r\n\r\n" };
        QTest::newRow("dropped once, then answered: sent again")
            << QByteArray("POST")
            << QList<QByteArray> { QByteArray(),
                   "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n" };
        QTest::newRow("cut off in the body") << QByteArray("GET")
                                             << QList<QByteArray> { "HTTP/1.1 200 OK\r\n" + close
                                                    + "Content-Length: 10\r\n\r\nabc" };
    }

    void sameAnswersAsQtsClient()
    {
        QFETCH(QByteArray, verb);
        QFETCH(QList<QByteArray>, script);
        // One server for both, so that error texts naming its address compare.
        ScriptedServer server;
        server.script = script;
        QNetworkAccessManager qt;
        const Outcome expected = run(&qt, QNetworkRequest(server.url()), verb, "{}");
        const QList<QByteArray> qtRequests = std::exchange(server.requests, {});

        server.script = script;
        sd::NetworkAccessManager ours;
        const Outcome actual = run(&ours, QNetworkRequest(server.url()), verb, "{}");
        QCOMPARE(actual, expected);
        QCOMPARE(server.requests, qtRequests);
    }

    void refusedConnectionAsQtsClient()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            port = probe.serverPort();
        }
        const QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        QNetworkAccessManager qt;
        sd::NetworkAccessManager ours;
        const Outcome expected = run(&qt, request, "GET");
        QCOMPARE(expected.error, QNetworkReply::ConnectionRefusedError);
        QCOMPARE(run(&ours, request, "GET"), expected);
    }

    void keptAliveInTheCallersThread()
    {
        // Qt 6.4's client hands every request to a thread of its own; on loopback that
        // hand-over is most of a request's cost. Here no thread starts, and the four
        // requests share one connection.
        ScriptedServer server;
        for (int i = 0; i < 4; ++i)
            server.script << "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        const int threadsBefore = threadCount();
        sd::NetworkAccessManager network;
        for (int i = 0; i < 4; ++i)
            QCOMPARE(run(&network, QNetworkRequest(server.url()), "GET").body, QByteArray("ok"));
        QCOMPARE(server.connections, 1);
        QCOMPARE(threadCount(), threadsBefore);
    }

    void serverClosedTheIdleConnection()
    {
        // The server lets a kept-alive connection go between two requests: the second
        // goes out on a new one and is answered.
        ScriptedServer server;
        server.script << "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na"
                      << "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb";
        sd::NetworkAccessManager network;
        QCOMPARE(run(&network, QNetworkRequest(server.url()), "GET").body, QByteArray("a"));
        QCOMPARE(server.sockets.size(), 1);
        server.sockets.first()->disconnectFromHost();
        const Outcome second = run(&network, QNetworkRequest(server.url()), "GET");
        QCOMPARE(second.body, QByteArray("b"));
        QCOMPARE(second.error, QNetworkReply::NoError);
        QCOMPARE(server.connections, 2);
    }

    void aHeaderWithALineBreakIsNotSent()
    {
        // A key pasted with its newline must not add a header of its own.
        ScriptedServer server;
        sd::NetworkAccessManager network;
        QNetworkRequest request(server.url());
        request.setRawHeader("X-API-Key", "key\r\nX-Injected: 1");
        const Outcome outcome = run(&network, request, "GET");
        QCOMPARE(outcome.error, QNetworkReply::ProtocolInvalidOperationError);
        QCOMPARE(outcome.errorString,
            QStringLiteral("A request header holds a line break or an invalid name."));
        QCOMPARE(server.connections, 0);
    }

    void bodyArrivesAsItComes()
    {
        // A stream (an envd process's output) is read chunk by chunk before it ends.
        ScriptedServer server;
        server.script << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n";
        sd::NetworkAccessManager network;
        std::unique_ptr<QNetworkReply> reply(network.get(QNetworkRequest(server.url())));
        QSignalSpy readyRead(reply.get(), &QNetworkReply::readyRead);
        QVERIFY(readyRead.wait(10000));
        QCOMPARE(reply->readAll(), QByteArray("first"));
        QVERIFY(!reply->isFinished());
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        server.sockets.first()->write("6\r\nsecond\r\n0\r\n\r\n");
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(10000));
        QCOMPARE(reply->readAll(), QByteArray("second"));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    }

    void abortCloseAndTimeoutAsQtsClient()
    {
        enum class End
        {
            Abort,
            Close,
            Timeout
        };
        for (const End end : { End::Abort, End::Close, End::Timeout }) {
            const bool timeout = end == End::Timeout;
            ScriptedServer qtServer, ourServer;
            QNetworkAccessManager qt;
            sd::NetworkAccessManager ours;
            Outcome outcomes[2];
            int index = 0;
            for (QNetworkAccessManager *network :
                { &qt, static_cast<QNetworkAccessManager *>(&ours) }) {
                ScriptedServer &server = index == 0 ? qtServer : ourServer;
                QNetworkRequest request(server.url());
                if (timeout)
                    request.setTransferTimeout(200);
                std::unique_ptr<QNetworkReply> reply(network->get(request));
                QSignalSpy finished(reply.get(), &QNetworkReply::finished);
                QTRY_COMPARE(server.requests.size(), 1); // the server hangs
                if (!timeout) {
                    // Closing a running reply cancels it too; finished() comes at once.
                    if (end == End::Abort)
                        reply->abort();
                    else
                        reply->close();
                    QCOMPARE(finished.size(), 1);
                    QVERIFY(!reply->isOpen());
                }
                QVERIFY(finished.size() == 1 || finished.wait(10000));
                outcomes[index].error = reply->error();
                outcomes[index].errorString = reply->errorString();
                ++index;
            }
            QCOMPARE(outcomes[1].error, QNetworkReply::OperationCanceledError);
            QCOMPARE(outcomes[1], outcomes[0]);
        }
    }

    void sixConnectionsAtMostTheRestWait()
    {
        ScriptedServer server;
        for (int i = 0; i < 6; ++i)
            server.script << "hang";
        server.script << "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        sd::NetworkAccessManager network;
        std::vector<std::unique_ptr<QNetworkReply>> replies;
        for (int i = 0; i < 7; ++i)
            replies.emplace_back(network.get(QNetworkRequest(server.url())));
        QTRY_COMPARE(server.requests.size(), 6);
        QCOMPARE(server.connections, 6);
        replies.front()->abort(); // its connection closes; the seventh gets a new one
        QTRY_VERIFY(replies.back()->isFinished());
        QCOMPARE(replies.back()->error(), QNetworkReply::NoError);
        QCOMPARE(server.connections, 7);
    }
};

QTEST_GUILESS_MAIN(TestLoopbackHttp)
#include "tst_loopbackhttp.moc"
