// Many clients at once on keep-alive connections, as the official SDK makes MCP
// sandboxes: each connection creates a sandbox, runs a command through the envd
// Process/Start stream, then sends one more request. Every request must get its whole
// answer, and every stream must begin with the start event (the SDK fails the command
// with "Expected start event" otherwise, even when output comes first).

#include "envd/envelope.h"
#include "localbackend.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>
#include <QtEndian>

#include <algorithm>
#include <memory>
#include <vector>

using namespace sd::test;

namespace {

constexpr int Connections = 40;

/// One HTTP/1.1 response read off a keep-alive connection (Content-Length or chunked).
struct Response
{
    int status = 0;
    QByteArray body;
};

/// Takes one complete response from the front of `buffer`; false while incomplete.
bool takeResponse(QByteArray *buffer, Response *response)
{
    const qsizetype headEnd = buffer->indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    const QByteArray head = buffer->left(headEnd).toLower();
    qsizetype at = headEnd + 4;
    QByteArray body;
    if (head.contains("transfer-encoding: chunked")) {
        for (;;) {
            const qsizetype lineEnd = buffer->indexOf("\r\n", at);
            if (lineEnd < 0)
                return false;
            bool ok = false;
            const qsizetype size = buffer->mid(at, lineEnd - at).toLongLong(&ok, 16);
            if (!ok || buffer->size() < lineEnd + 2 + size + 2)
                return false;
            body += buffer->mid(lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
            if (size == 0)
                break;
        }
    } else {
        const qsizetype lengthAt = head.indexOf("content-length:");
        const qsizetype length = lengthAt < 0
            ? 0
            : head.mid(lengthAt + 15, head.indexOf("\r\n", lengthAt) - lengthAt - 15)
                  .trimmed()
                  .toLongLong();
        if (buffer->size() < at + length)
            return false;
        body = buffer->mid(at, length);
        at += length;
    }
    response->status = head.mid(9, 3).toInt();
    response->body = body;
    buffer->remove(0, at);
    return true;
}

/// One client connection walking create -> Process/Start -> health, one request at a
/// time on the same socket.
struct Client
{
    enum Step
    {
        Creating,
        Created,
        Streaming,
        Checking,
        Done
    };

    QTcpSocket socket;
    QByteArray buffer;
    Step step = Creating;
    QByteArray sandboxId;
    QByteArray token;
    Response stream;
    int healthStatus = 0;
    QString failure;
};

QByteArray envelope(const QByteArray &json)
{
    QByteArray out(5, '\0');
    qToBigEndian<quint32>(quint32(json.size()), out.data() + 1);
    return out + json;
}

} // namespace

class TestLocalConcurrency : public QObject
{
    Q_OBJECT

    std::unique_ptr<LocalBackend> m_backend;

    QByteArray request(const QByteArray &method, const QByteArray &path, const QByteArray &headers,
        const QByteArray &body) const
    {
        return method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1:"
            + QByteArray::number(m_backend->port()) + "\r\nConnection: keep-alive\r\n" + headers
            + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

    QByteArray createRequest() const
    {
        return request("POST", "/v2/sandboxes",
            "X-API-Key: " + m_backend->apiKey().toUtf8() + "\r\nContent-Type: application/json\r\n",
            R"({"templateID":"base"})");
    }

    QByteArray startRequest(const Client &client) const
    {
        // Output at once, before the backend has seen the start of the process.
        return request("POST", "/process.Process/Start",
            "E2b-Sandbox-Port: 49983\r\nE2b-Sandbox-Id: " + client.sandboxId
                + "\r\nX-Access-Token: " + client.token
                + "\r\nContent-Type: application/connect+json\r\n",
            envelope(R"({"process":{"cmd":"/bin/sh","args":["-c","echo ready"]}})"));
    }

    // Reads what `client` has been sent; answers move it on to its next request.
    void advance(Client *client) const
    {
        client->buffer += client->socket.readAll();
        Response response;
        while (client->step != Client::Done && takeResponse(&client->buffer, &response)) {
            switch (client->step) {
            case Client::Creating: {
                const QJsonObject sandbox = QJsonDocument::fromJson(response.body).object();
                client->sandboxId = sandbox.value(QLatin1String("sandboxID")).toString().toUtf8();
                client->token = sandbox.value(QLatin1String("envdAccessToken")).toString().toUtf8();
                if (response.status != 201 || client->sandboxId.isEmpty())
                    client->failure = QStringLiteral("create answered %1").arg(response.status);
                client->step = Client::Created;
                break;
            }
            case Client::Streaming:
                client->stream = response;
                client->step = Client::Checking;
                client->socket.write(request("GET", "/health", {}, {}));
                break;
            case Client::Checking:
                client->healthStatus = response.status;
                client->step = Client::Done;
                break;
            default:
                client->failure = QStringLiteral("an answer nothing asked for");
                client->step = Client::Done;
                break;
            }
        }
    }

    static bool allAt(const std::vector<std::unique_ptr<Client>> &clients, Client::Step step)
    {
        for (const auto &client : clients) {
            if (client->step != step)
                return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = std::make_unique<LocalBackend>();
        QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void everyKeepAliveRequestIsAnsweredAndStreamsBeginWithStart()
    {
        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < Connections; ++i) {
            auto client = std::make_unique<Client>();
            Client *raw = client.get();
            connect(&raw->socket, &QTcpSocket::readyRead, this, [this, raw] { advance(raw); });
            raw->socket.connectToHost(QStringLiteral("127.0.0.1"), m_backend->port());
            raw->socket.write(createRequest());
            clients.push_back(std::move(client));
        }
        // A bound for a stuck connection only; a working backend answers far sooner.
        QTRY_VERIFY_WITH_TIMEOUT(allAt(clients, Client::Created), 120000);

        // Every stream starts at once, so the processes start side by side.
        for (const auto &client : clients) {
            QVERIFY2(client->failure.isEmpty(), qPrintable(client->failure));
            client->step = Client::Streaming;
            client->socket.write(startRequest(*client));
        }
        QTRY_VERIFY_WITH_TIMEOUT(allAt(clients, Client::Done), 120000);

        for (const auto &client : clients) {
            QVERIFY2(client->failure.isEmpty(), qPrintable(client->failure));
            QCOMPARE(client->stream.status, 200);
            sd::envd::EnvelopeDecoder decoder;
            QVERIFY(decoder.feed(client->stream.body));
            QVERIFY2(decoder.finish(), qPrintable(decoder.errorString()));
            const QList<sd::envd::Envelope> envelopes = decoder.takeAll();
            QVERIFY(envelopes.size() >= 3);
            const QJsonObject first
                = envelopes.first().json.value(QLatin1String("event")).toObject();
            QVERIFY2(first.contains(QLatin1String("start")),
                QJsonDocument(envelopes.first().json).toJson(QJsonDocument::Compact).constData());
            QVERIFY(client->stream.body.contains(QByteArray("ready\n").toBase64()));
            QVERIFY(envelopes.last().isEndStream());
            QVERIFY(!sd::envd::parseConnectError(envelopes.last().json).isError());
            QCOMPARE(client->healthStatus, 200);
        }
    }

    void twoConnectionsEachForTwoHundredClientsAreAllKept()
    {
        // 200 official-SDK creations at once hold two keep-alive connections each (API
        // and envd). None may be closed to make room: a client reusing one it was cut
        // from fails its request.
        struct KeptAlive
        {
            QTcpSocket socket;
            QByteArray buffer;
            QList<int> statuses;
        };
        constexpr int Sockets = 400;
        std::vector<std::unique_ptr<KeptAlive>> clients;
        for (int i = 0; i < Sockets; ++i) {
            auto client = std::make_unique<KeptAlive>();
            KeptAlive *raw = client.get();
            connect(&raw->socket, &QTcpSocket::readyRead, this, [raw] {
                raw->buffer += raw->socket.readAll();
                Response response;
                while (takeResponse(&raw->buffer, &response))
                    raw->statuses << response.status;
            });
            raw->socket.connectToHost(QStringLiteral("127.0.0.1"), m_backend->port());
            raw->socket.write(request("GET", "/health", {}, {}));
            clients.push_back(std::move(client));
        }
        const auto answered = [&clients](qsizetype count) {
            return std::all_of(clients.cbegin(), clients.cend(),
                [count](const auto &client) { return client->statuses.size() == count; });
        };
        const auto anyCut = [&clients] {
            return std::any_of(clients.cbegin(), clients.cend(), [](const auto &client) {
                return client->socket.state() == QAbstractSocket::UnconnectedState;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(answered(1) || anyCut(), 60000);
        // All open at once now; each asks again on the connection it has.
        for (const auto &client : clients)
            client->socket.write(request("GET", "/health", {}, {}));
        QTRY_VERIFY_WITH_TIMEOUT(answered(2) || anyCut(), 60000);
        QVERIFY(!anyCut());
        for (const auto &client : clients)
            QCOMPARE(client->statuses, QList<int>({ 200, 200 }));
    }
};

QTEST_GUILESS_MAIN(TestLocalConcurrency)
#include "tst_localconcurrency.moc"
