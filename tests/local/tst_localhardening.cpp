// What sandbox-desk-local refuses before it trusts a request: a Host or Origin that
// is not its own loopback address (DNS rebinding from a web page), envd answers that
// would tell an unknown sandbox from a wrong token, and requests or connections past
// its limits. Raw sockets throughout: the bytes on the wire are what is tested.

#include "httpclient.h"
#include "localbackend.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QtEndian>

#include <algorithm>
#include <memory>
#include <vector>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace sd::test;

namespace {

// One request on a fresh connection; the first response's bytes.
QByteArray exchange(quint16 port, const QByteArray &request)
{
    return rawExchange(port, request).received;
}

QByteArray statusLine(const QByteArray &response)
{
    return response.left(response.indexOf("\r\n"));
}

QByteArray bodyOf(const QByteArray &response)
{
    const qsizetype at = response.indexOf("\r\n\r\n");
    return at < 0 ? QByteArray() : response.mid(at + 4);
}

} // namespace

class TestLocalHardening : public QObject
{
    Q_OBJECT

private:
    static constexpr int LimitedBody = 65536;
    static constexpr int LimitedConnections = 8;
    std::unique_ptr<LocalBackend> m_backend;
    // Small limits, so a test can cross them (the idle timeout stays long).
    std::unique_ptr<LocalBackend> m_limited;
    // A short idle timeout (and small bodies).
    std::unique_ptr<LocalBackend> m_idle;
    // Served under a DNS name of its own (started by the test that needs it).
    std::unique_ptr<LocalBackend> m_named;
    // A sandbox of m_backend: its ID and access token (made by the first test needing it).
    QPair<QByteArray, QByteArray> m_sandbox;

    QByteArray request(const QByteArray &method, const QByteArray &path,
        const QList<QByteArray> &headers, const QByteArray &body = {}) const
    {
        QByteArray out = method + ' ' + path + " HTTP/1.1\r\nConnection: close\r\n";
        for (const QByteArray &header : headers)
            out += header + "\r\n";
        if (!body.isEmpty())
            out += "Content-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n";
        return out + "\r\n" + body;
    }

    QByteArray port() const { return QByteArray::number(m_backend->port()); }
    static QByteArray hostOf(LocalBackend *backend)
    {
        return "Host: 127.0.0.1:" + QByteArray::number(backend->port());
    }
    QByteArray apiKeyHeader() const { return "X-API-Key: " + m_backend->apiKey().toUtf8(); }

    // Creates a sandbox; its ID and envd access token.
    QPair<QByteArray, QByteArray> createSandbox(LocalBackend *backend = nullptr) const
    {
        backend = backend ? backend : m_backend.get();
        HttpClient client(backend->url(), backend->apiKey());
        const QJsonObject sandbox = client.create();
        return { sandbox.value(QStringLiteral("sandboxID")).toString().toLatin1(),
            sandbox.value(QStringLiteral("envdAccessToken")).toString().toLatin1() };
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = std::make_unique<LocalBackend>();
        QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
        m_limited = std::make_unique<LocalBackend>(
            QStringList { QStringLiteral("--max-body-bytes"), QString::number(LimitedBody),
                QStringLiteral("--max-connections"), QString::number(LimitedConnections) });
        QVERIFY2(m_limited->start(), qPrintable(m_limited->errorString()));
        m_idle = std::make_unique<LocalBackend>(
            QStringList { QStringLiteral("--idle-timeout-ms"), QStringLiteral("1000"),
                QStringLiteral("--max-body-bytes"), QString::number(LimitedBody) });
        QVERIFY2(m_idle->start(), qPrintable(m_idle->errorString()));
    }

    void cleanupTestCase()
    {
        m_named.reset();
        m_idle.reset();
        m_limited.reset();
        m_backend.reset();
    }

    void hostAndOrigin_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<QByteArray>("origin");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("127.0.0.1 with port")
            << QByteArray("127.0.0.1:{port}") << QByteArray() << true;
        QTest::newRow("localhost with port")
            << QByteArray("localhost:{port}") << QByteArray() << true;
        QTest::newRow("localhost, other case")
            << QByteArray("LocalHost:{port}") << QByteArray() << true;
        QTest::newRow("own origin")
            << QByteArray("127.0.0.1:{port}") << QByteArray("http://127.0.0.1:{port}") << true;
        QTest::newRow("localhost origin")
            << QByteArray("localhost:{port}") << QByteArray("http://localhost:{port}") << true;
        QTest::newRow("rebound DNS name")
            << QByteArray("attacker.example:{port}") << QByteArray() << false;
        QTest::newRow("name ending in localhost")
            << QByteArray("evil-localhost:{port}") << QByteArray() << false;
        QTest::newRow("other port") << QByteArray("127.0.0.1:1") << QByteArray() << false;
        QTest::newRow("no Host") << QByteArray() << QByteArray() << false;
        QTest::newRow("foreign origin")
            << QByteArray("127.0.0.1:{port}") << QByteArray("http://attacker.example") << false;
        QTest::newRow("origin null")
            << QByteArray("127.0.0.1:{port}") << QByteArray("null") << false;
        QTest::newRow("origin on another port")
            << QByteArray("127.0.0.1:{port}") << QByteArray("http://127.0.0.1:1") << false;
    }

    // A page from another site that got its name to resolve to 127.0.0.1 (DNS
    // rebinding) sends its own name as Host; a cross-site fetch sends its Origin.
    // Every route refuses both, /health included.
    void hostAndOrigin()
    {
        QFETCH(QByteArray, host);
        QFETCH(QByteArray, origin);
        QFETCH(bool, allowed);
        QList<QByteArray> headers { apiKeyHeader() };
        if (!host.isEmpty())
            headers << "Host: " + host.replace("{port}", port());
        if (!origin.isEmpty())
            headers << "Origin: " + origin.replace("{port}", port());
        for (const QByteArray &path : { QByteArray("/health"), QByteArray("/v2/sandboxes") }) {
            const QByteArray response = exchange(m_backend->port(), request("GET", path, headers));
            if (allowed) {
                QVERIFY2(response.startsWith("HTTP/1.1 200"), statusLine(response).constData());
            } else {
                QVERIFY2(response.startsWith("HTTP/1.1 403"), statusLine(response).constData());
                QVERIFY2(!bodyOf(response).contains("version"), response.constData());
            }
        }
    }

    void allowedHostNames_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("the allowed name") << QByteArray("desk.example.test:{port}") << true;
        QTest::newRow("a sandbox host under it")
            << QByteArray("49983-abc123.desk.example.test:{port}") << true;
        QTest::newRow("localhost still") << QByteArray("localhost:{port}") << true;
        QTest::newRow("a name under it") << QByteArray("x.desk.example.test:{port}") << false;
        QTest::newRow("another name") << QByteArray("attacker.example:{port}") << false;
    }

    // Served under a DNS name of its own (--listen with --api-key), the backend is
    // told that name; nothing else is let in.
    void allowedHostNames()
    {
        QFETCH(QByteArray, host);
        QFETCH(bool, allowed);
        if (!m_named) {
            m_named = std::make_unique<LocalBackend>(QStringList {
                QStringLiteral("--allow-host"), QStringLiteral("Desk.Example.Test") });
            QVERIFY2(m_named->start(), qPrintable(m_named->errorString()));
        }
        host.replace("{port}", QByteArray::number(m_named->port()));
        const QByteArray response
            = exchange(m_named->port(), request("GET", "/health", { "Host: " + host }));
        // A sandbox host goes to envd, which has no /health: any answer but 403.
        QVERIFY(response.startsWith("HTTP/1.1 "));
        QVERIFY2(response.startsWith("HTTP/1.1 403") != allowed, statusLine(response).constData());
    }

    void envdHostShapes_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("49983-<id>.localhost") << QByteArray("49983-{id}.localhost:{port}") << true;
        QTest::newRow("49983-<id>.localhost, no port")
            << QByteArray("49983-{id}.localhost") << true;
        QTest::newRow("49983-<id>.attacker.example")
            << QByteArray("49983-{id}.attacker.example:{port}") << false;
        QTest::newRow("49983-<id>.127.0.0.1") << QByteArray("49983-{id}.127.0.0.1:{port}") << false;
    }

    // The official SDK addresses envd as `49983-<id>.<domain>` when no sandbox URL is
    // set; only the loopback domain (localhost) can reach this backend that way.
    void envdHostShapes()
    {
        QFETCH(QByteArray, host);
        QFETCH(bool, allowed);
        const auto [id, token] = createSandbox();
        QVERIFY(!id.isEmpty());
        host.replace("{id}", id).replace("{port}", port());
        const QByteArray response = exchange(m_backend->port(),
            request("POST", "/process.Process/List",
                { "Host: " + host, "X-Access-Token: " + token, "Content-Type: application/json" },
                "{}"));
        QVERIFY2(
            response.startsWith(allowed ? "HTTP/1.1 200" : "HTTP/1.1 403"), response.constData());
    }

    // Whether a sandbox exists is not told to whoever does not hold its token.
    void envdUnknownSandboxAndBadTokenLookAlike()
    {
        const auto [id, token] = createSandbox();
        QVERIFY(!id.isEmpty());
        const auto envdCall = [this](const QByteArray &sandboxId, const QByteArray &accessToken) {
            QList<QByteArray> headers { "Host: 127.0.0.1:" + port(), "E2b-Sandbox-Port: 49983",
                "E2b-Sandbox-Id: " + sandboxId, "Content-Type: application/json" };
            if (!accessToken.isEmpty())
                headers << "X-Access-Token: " + accessToken;
            return exchange(
                m_backend->port(), request("POST", "/process.Process/List", headers, "{}"));
        };
        const QByteArray unknown = envdCall("nosuchsandbox0000000", token);
        const QByteArray badToken = envdCall(id, "not-the-token");
        const QByteArray noToken = envdCall(id, {});
        QCOMPARE(statusLine(badToken), statusLine(unknown));
        QCOMPARE(statusLine(noToken), statusLine(unknown));
        // The body names the sandbox asked for, and nothing else differs.
        QCOMPARE(bodyOf(badToken).replace(id, "ID"),
            bodyOf(unknown).replace("nosuchsandbox0000000", "ID"));
        QCOMPARE(bodyOf(noToken).replace(id, "ID"),
            bodyOf(unknown).replace("nosuchsandbox0000000", "ID"));
        QVERIFY(envdCall(id, token).startsWith("HTTP/1.1 200"));
    }

    // Limits hold before Qt buffers a request: an oversized header block is refused
    // with 431, a body announced too large with 413 before any of it is sent.
    // Every request is logged, a refused one from a web page too (403, no key): what
    // its path carries must not act on the terminal the backend runs in, nor forge a
    // log line of its own.
    void logLinesCannotControlTheTerminal()
    {
        const QByteArray hostile = "/%1b%5d0;pwned%07/x%E2%80%AE%0Asd.local:%20GET%20/forged%20200";
        QVERIFY(exchange(m_backend->port(), request("GET", hostile, { hostOf(m_backend.get()) }))
                    .startsWith("HTTP/1.1 401"));
        QVERIFY(exchange(m_backend->port(),
            request("GET", hostile, { hostOf(m_backend.get()), "Origin: http://evil.example" }))
                    .startsWith("HTTP/1.1 403"));
        QByteArray log;
        QTRY_VERIFY((log = m_backend->stderrOutput()).count("pwned") >= 2);
        QVERIFY2(!log.contains('\x1b') && !log.contains('\x07') && !log.contains("\u202e"),
            log.right(400).constData());
        QVERIFY2(!log.contains("\nsd.local: GET /forged"), log.right(400).constData());
        QVERIFY2(log.contains("GET /\\x1b]0;pwned\\x07/x\\u202e\\x0asd.local: GET /forged 200 401"),
            log.right(400).constData());
    }

    void headerTooLarge()
    {
        const QByteArray response = exchange(m_backend->port(),
            request(
                "GET", "/health", { hostOf(m_backend.get()), "X-Pad: " + QByteArray(70000, 'a') }));
        QVERIFY2(response.startsWith("HTTP/1.1 431"), statusLine(response).constData());
    }

    void bodyRefusedBeforeItIsSent()
    {
        const QByteArray head = "POST /v2/sandboxes HTTP/1.1\r\n" + hostOf(m_limited.get()) + "\r\n"
            + "X-API-Key: " + m_limited->apiKey().toUtf8()
            + "\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n";
        const RawExchange answer = rawExchange(m_limited->port(), head);
        QVERIFY2(answer.received.startsWith("HTTP/1.1 413"), answer.received.constData());
        QVERIFY(answer.closedByServer);
    }

    void chunkedBodyTooLarge()
    {
        QByteArray out = "POST /v2/sandboxes HTTP/1.1\r\n" + hostOf(m_limited.get()) + "\r\n"
            + "X-API-Key: " + m_limited->apiKey().toUtf8()
            + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        const QByteArray chunk(16384, ' ');
        for (int i = 0; i < 2 * LimitedBody / chunk.size(); ++i)
            out += QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
        out += "0\r\n\r\n";
        const RawExchange answer = rawExchange(m_limited->port(), out);
        QVERIFY2(answer.received.startsWith("HTTP/1.1 413"), answer.received.left(80).constData());
        // A body within the limit is still served.
        HttpClient client(m_limited->url(), m_limited->apiKey());
        QVERIFY(!client.create().isEmpty());
    }

    // More idle connections than allowed: the server closes the longest idle ones and
    // a real request is still answered.
    void idleFloodDoesNotBlockARequest()
    {
        std::vector<std::unique_ptr<QTcpSocket>> flood;
        for (int i = 0; i < 3 * LimitedConnections; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QStringLiteral("127.0.0.1"), m_limited->port());
            QVERIFY(socket->waitForConnected(10000));
            flood.push_back(std::move(socket));
        }
        const QByteArray response
            = exchange(m_limited->port(), request("GET", "/health", { hostOf(m_limited.get()) }));
        QVERIFY2(response.startsWith("HTTP/1.1 200"), response.constData());
        const auto closed = [&flood] {
            return std::count_if(flood.cbegin(), flood.cend(), [](const auto &socket) {
                return socket->state() == QAbstractSocket::UnconnectedState;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            closed() >= qsizetype(flood.size()) - LimitedConnections + 1, 20000);
    }

    // A connection that sends nothing, or nothing after its last answer, is closed.
    void idleConnectionsAreClosed()
    {
        QTcpSocket silent;
        silent.connectToHost(QStringLiteral("127.0.0.1"), m_idle->port());
        QVERIFY(silent.waitForConnected(10000));
        QTcpSocket keptAlive;
        keptAlive.connectToHost(QStringLiteral("127.0.0.1"), m_idle->port());
        QVERIFY(keptAlive.waitForConnected(10000));
        keptAlive.write("GET /health HTTP/1.1\r\n" + hostOf(m_idle.get()) + "\r\n\r\n");
        QTRY_VERIFY_WITH_TIMEOUT(keptAlive.peek(12) == "HTTP/1.1 200", 20000);
        QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(keptAlive.state(), QAbstractSocket::UnconnectedState, 20000);
    }

    // Headers sent a byte at a time keep a connection active but never make a
    // request: the whole header block must arrive within the idle timeout.
    void slowHeadersAreCut()
    {
        QTcpSocket slow;
        slow.connectToHost(QStringLiteral("127.0.0.1"), m_idle->port());
        QVERIFY(slow.waitForConnected(10000));
        slow.write("GET /health HTTP/1.1\r\n" + hostOf(m_idle.get()) + "\r\nX-Slow: ");
        QTimer drip;
        drip.setInterval(100);
        connect(&drip, &QTimer::timeout, &slow, [&slow] { slow.write("a"); });
        drip.start();
        QTRY_COMPARE_WITH_TIMEOUT(slow.state(), QAbstractSocket::UnconnectedState, 20000);
        QVERIFY(slow.readAll().isEmpty());
    }

    // After a refusal the server reads on only to let the client see the answer; a
    // client that keeps sending is cut off all the same. (A plain socket: QTcpSocket
    // would close itself when the server shuts its sending side.)
    void refusedClientsThatKeepSendingAreCut()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        auto closeFd = qScopeGuard([fd] { ::close(fd); });
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(m_idle->port());
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QVERIFY(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0);
        // Refused while the body comes (chunked: no length to refuse it by up front).
        QByteArray head = "POST /v2/sandboxes HTTP/1.1\r\n" + hostOf(m_idle.get())
            + "\r\nX-API-Key: " + m_idle->apiKey().toUtf8()
            + "\r\nTransfer-Encoding: chunked\r\n\r\n";
        const QByteArray chunk(16384, ' ');
        for (int i = 0; i < 4 * LimitedBody / chunk.size(); ++i)
            head += QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
        QCOMPARE(
            ::send(fd, head.constData(), size_t(head.size()), MSG_NOSIGNAL), ssize_t(head.size()));
        char answer[12];
        QCOMPARE(::recv(fd, answer, sizeof(answer), MSG_WAITALL), ssize_t(sizeof(answer)));
        QCOMPARE(QByteArray(answer, sizeof(answer)), QByteArray("HTTP/1.1 413"));
        const QByteArray more(1024, 'x');
        const auto sendFails = [&] {
            return ::send(fd, more.constData(), size_t(more.size()), MSG_NOSIGNAL | MSG_DONTWAIT)
                < 0
                && errno != EAGAIN;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sendFails(), 20000);
    }

    void largeBodiesRefusedBeforeTheyAreSent_data()
    {
        QTest::addColumn<QByteArray>("head"); // {host}, {key}, {id} and {token} filled in
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("message");
        const QByteArray rest
            = "POST /sandboxes HTTP/1.1\r\n{host}\r\nContent-Type: application/json\r\n";
        const QByteArray upload = "POST /files?path=%2Fhome%2Fuser%2Ff HTTP/1.1\r\n{host}\r\n"
                                  "E2b-Sandbox-Port: 49983\r\nE2b-Sandbox-Id: {id}\r\n"
                                  "Content-Type: application/octet-stream\r\n";
        QTest::newRow("REST, 255 MiB without a key")
            << rest + "Content-Length: 267386880\r\n\r\n"
            << 413
            << QByteArray(
                   "the request body is 267386880 bytes: POST /sandboxes takes at most 4194304");
        QTest::newRow("REST, 255 MiB with the key")
            << rest + "{key}\r\nContent-Length: 267386880\r\n\r\n"
            << 413 << QByteArray("POST /sandboxes takes at most 4194304");
        QTest::newRow("REST, 1 MiB without a key")
            << rest + "Content-Length: 1048576\r\n\r\n"
            << 401
            << QByteArray("a request body over 65536 bytes needs the API key: send it in the "
                          "X-API-Key header");
        QTest::newRow("REST, 1 MiB with a wrong key")
            << rest + "X-API-Key: e2b_wrong\r\nContent-Length: 1048576\r\n\r\n"
            << 401 << QByteArray("needs the API key: invalid API key");
        QTest::newRow("REST, chunked without a key")
            << rest + "Transfer-Encoding: chunked\r\n\r\n"
            << 401 << QByteArray("a chunked request body needs the API key");
        QTest::newRow("upload, 200 MiB without a token")
            << upload + "Content-Length: 209715200\r\n\r\n"
            << 401
            << QByteArray("a request body over 65536 bytes needs the sandbox's access token");
        QTest::newRow("upload, 200 MiB with a wrong token")
            << upload + "X-Access-Token: 0123456789\r\nContent-Length: 209715200\r\n\r\n"
            << 401
            << QByteArray("needs the sandbox's access token: sandbox \"{id}\" not found, or "
                          "X-Access-Token is not its token");
        QTest::newRow("upload to an unknown sandbox")
            << QByteArray(upload).replace("{id}", "nosuchsandbox")
                + "X-Access-Token: {token}\r\nContent-Length: 209715200\r\n\r\n"
            << 401
            << QByteArray(
                   "sandbox \"nosuchsandbox\" not found, or X-Access-Token is not its token");
        QTest::newRow("upload larger than a file may be")
            << upload + "X-Access-Token: {token}\r\nContent-Length: 268500993\r\n\r\n"
            << 413 << QByteArray("envd takes a file of at most 268435456 bytes (--max-body-bytes)");
        QTest::newRow("envd call, 50 MB with the token")
            << QByteArray("POST /process.Process/Start HTTP/1.1\r\n{host}\r\n"
                          "E2b-Sandbox-Port: 49983\r\nE2b-Sandbox-Id: {id}\r\n"
                          "X-Access-Token: {token}\r\nContent-Type: application/connect+json\r\n"
                          "Content-Length: 50000000\r\n\r\n")
            << 413 << QByteArray("POST /process.Process/Start takes at most 4194304");
        QTest::newRow("another site's Host")
            << QByteArray("POST /sandboxes HTTP/1.1\r\nHost: attacker.example\r\n{key}\r\n"
                          "Content-Length: 1048576\r\n\r\n")
            << 403 << QByteArray("the Host header must name this server");
        QTest::newRow("another site's Origin")
            << rest + "Origin: http://attacker.example\r\nContent-Length: 267386880\r\n\r\n"
            << 403 << QByteArray("requests from web pages of other origins are refused");
    }

    // Whoever reaches the port (another local user, a web page) must not make the
    // backend take in a body it would refuse anyway: a request's head alone decides,
    // and the answer comes before the body is sent. Only envd's file upload takes a
    // large body, and only with the sandbox's token.
    void largeBodiesRefusedBeforeTheyAreSent()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, status);
        QFETCH(QByteArray, message);
        if (m_sandbox.first.isEmpty())
            m_sandbox = createSandbox();
        QVERIFY(!m_sandbox.first.isEmpty());
        const auto fill = [this](QByteArray text) {
            return text.replace("{host}", hostOf(m_backend.get()))
                .replace("{key}", apiKeyHeader())
                .replace("{id}", m_sandbox.first)
                .replace("{token}", m_sandbox.second);
        };
        const RawExchange answer = rawExchange(m_backend->port(), fill(head));
        QVERIFY2(answer.received.startsWith("HTTP/1.1 " + QByteArray::number(status)),
            answer.received.constData());
        const QString said = QJsonDocument::fromJson(bodyOf(answer.received))
                                 .object()
                                 .value(QStringLiteral("message"))
                                 .toString();
        QVERIFY2(said.contains(QString::fromUtf8(fill(message))), answer.received.constData());
        QVERIFY2(answer.closedByServer, "the connection stays open after the refusal");
    }

    // The upload that may be large is read with the sandbox's token.
    void uploadWithItsTokenIsRead()
    {
        if (m_sandbox.first.isEmpty())
            m_sandbox = createSandbox();
        const QByteArray file(5 * 1024 * 1024, 'f');
        const QByteArray out = "POST /files?path=%2Fhome%2Fuser%2Fbig HTTP/1.1\r\n"
            + hostOf(m_backend.get()) + "\r\nConnection: close\r\nE2b-Sandbox-Port: 49983\r\n"
            + "E2b-Sandbox-Id: " + m_sandbox.first + "\r\nX-Access-Token: " + m_sandbox.second
            + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
            + QByteArray::number(file.size()) + "\r\n\r\n" + file;
        const RawExchange answer = rawExchange(m_backend->port(), out, 60000);
        QVERIFY2(answer.received.startsWith("HTTP/1.1 200"), answer.received.constData());
        QVERIFY2(
            answer.received.contains("\"path\":\"/home/user/big\""), answer.received.constData());
    }

    // Bodies being received share one budget (twice the largest upload): past it, a
    // new body is refused before it is sent, until one under way is done.
    void bodiesInFlightShareOneBudget()
    {
        const auto [id, token] = createSandbox(m_limited.get());
        QVERIFY(!id.isEmpty());
        // Each within an upload's limit here (64 KiB and its framing); two fill the budget.
        const QByteArray file(120 * 1024, 'f');
        const QByteArray head = "POST /files?path=%2Fhome%2Fuser%2Ff HTTP/1.1\r\n"
            + hostOf(m_limited.get()) + "\r\nConnection: close\r\nE2b-Sandbox-Port: 49983\r\n"
            + "E2b-Sandbox-Id: " + id + "\r\nX-Access-Token: " + token
            + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
            + QByteArray::number(file.size()) + "\r\n\r\n";
        std::vector<std::unique_ptr<QTcpSocket>> underWay;
        for (int i = 0; i < 2; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QStringLiteral("127.0.0.1"), m_limited->port());
            QVERIFY(socket->waitForConnected(10000));
            socket->write(head + file.left(1000));
            QVERIFY(socket->waitForBytesWritten(10000));
            underWay.push_back(std::move(socket));
        }
        // Once this is answered, the server has read both heads above (sent before it).
        QVERIFY(exchange(m_limited->port(), request("GET", "/health", { hostOf(m_limited.get()) }))
                    .startsWith("HTTP/1.1 200"));
        const RawExchange refused = rawExchange(m_limited->port(), head);
        QVERIFY2(refused.received.startsWith("HTTP/1.1 503"), refused.received.constData());
        QVERIFY2(refused.received.contains("too many request bodies are being received at once"),
            refused.received.constData());
        QVERIFY(refused.closedByServer);
        // The first one ends; its share is free again.
        QTcpSocket &first = *underWay.front();
        first.write(file.mid(1000));
        QTRY_VERIFY_WITH_TIMEOUT(first.peek(12) == "HTTP/1.1 200", 20000);
        const RawExchange next = rawExchange(m_limited->port(), head + file);
        QVERIFY2(next.received.startsWith("HTTP/1.1 200"), next.received.constData());
    }

    // A body dripped a byte at a time is activity that never ends a request: the whole
    // body must come within the idle timeout plus a time that grows with its size.
    void slowBodiesAreCut()
    {
        QTcpSocket slow;
        slow.connectToHost(QStringLiteral("127.0.0.1"), m_idle->port());
        QVERIFY(slow.waitForConnected(10000));
        QByteArray received;
        connect(&slow, &QTcpSocket::readyRead, &slow, [&] { received += slow.readAll(); });
        slow.write("POST /v2/sandboxes HTTP/1.1\r\n" + hostOf(m_idle.get())
            + "\r\nX-API-Key: " + m_idle->apiKey().toUtf8()
            + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{");
        QTimer drip;
        drip.setInterval(100);
        connect(&drip, &QTimer::timeout, &slow, [&slow] {
            if (slow.state() == QAbstractSocket::ConnectedState)
                slow.write(" ");
        });
        drip.start();
        QTRY_VERIFY_WITH_TIMEOUT(received.startsWith("HTTP/1.1 408"), 20000);
        QVERIFY2(received.contains("the request body came too slowly"), received.constData());
    }

    // A stream that has nothing to say for longer than the idle timeout is not idle.
    void quietStreamsAreNotIdle()
    {
        const auto [id, token] = createSandbox(m_idle.get());
        QVERIFY(!id.isEmpty());
        const QByteArray json
            = R"({"process":{"cmd":"/bin/sh","args":["-c","sleep 3; echo done"]}})";
        QByteArray envelope(5, '\0');
        qToBigEndian<quint32>(quint32(json.size()), envelope.data() + 1);
        envelope += json;
        QByteArray out = "POST /process.Process/Start HTTP/1.1\r\n" + hostOf(m_idle.get())
            + "\r\nConnection: close\r\nE2b-Sandbox-Port: 49983\r\nE2b-Sandbox-Id: " + id
            + "\r\nX-Access-Token: " + token
            + "\r\nContent-Type: application/connect+json\r\nContent-Length: "
            + QByteArray::number(envelope.size()) + "\r\n\r\n" + envelope;
        const RawExchange answer = rawExchange(m_idle->port(), out, 60000);
        QVERIFY2(answer.received.startsWith("HTTP/1.1 200"), answer.received.constData());
        QVERIFY2(answer.received.contains("exit status 0"), answer.received.constData());
    }
};

QTEST_GUILESS_MAIN(TestLocalHardening)
#include "tst_localhardening.moc"
