// What sandbox-desk-local refuses before it trusts a request: a Host or Origin that
// is not its own loopback address (DNS rebinding from a web page), envd answers that
// would tell an unknown sandbox from a wrong token, and requests or connections past
// its limits. Raw sockets throughout: the bytes on the wire are what is tested.

#include "httpclient.h"
#include "localbackend.h"

#include <QTcpSocket>
#include <QTest>

#include <memory>

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
    std::unique_ptr<LocalBackend> m_backend;

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
    QByteArray apiKeyHeader() const { return "X-API-Key: " + m_backend->apiKey().toUtf8(); }

    // Creates a sandbox; its ID and envd access token.
    QPair<QByteArray, QByteArray> createSandbox() const
    {
        HttpClient client(m_backend->url(), m_backend->apiKey());
        const QJsonObject sandbox = client.create();
        return { sandbox.value(QStringLiteral("sandboxID")).toString().toLatin1(),
            sandbox.value(QStringLiteral("envdAccessToken")).toString().toLatin1() };
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = std::make_unique<LocalBackend>();
        QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void hostAndOrigin_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<QByteArray>("origin");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("127.0.0.1 with port") << QByteArray("127.0.0.1:{port}") << QByteArray()
                                             << true;
        QTest::newRow("localhost with port") << QByteArray("localhost:{port}") << QByteArray()
                                             << true;
        QTest::newRow("localhost, other case") << QByteArray("LocalHost:{port}") << QByteArray()
                                               << true;
        QTest::newRow("own origin") << QByteArray("127.0.0.1:{port}")
                                    << QByteArray("http://127.0.0.1:{port}") << true;
        QTest::newRow("localhost origin") << QByteArray("localhost:{port}")
                                          << QByteArray("http://localhost:{port}") << true;
        QTest::newRow("rebound DNS name") << QByteArray("attacker.example:{port}")
                                          << QByteArray() << false;
        QTest::newRow("name ending in localhost") << QByteArray("evil-localhost:{port}")
                                                  << QByteArray() << false;
        QTest::newRow("other port") << QByteArray("127.0.0.1:1") << QByteArray() << false;
        QTest::newRow("no Host") << QByteArray() << QByteArray() << false;
        QTest::newRow("foreign origin") << QByteArray("127.0.0.1:{port}")
                                        << QByteArray("http://attacker.example") << false;
        QTest::newRow("origin null") << QByteArray("127.0.0.1:{port}") << QByteArray("null")
                                     << false;
        QTest::newRow("origin on another port") << QByteArray("127.0.0.1:{port}")
                                                << QByteArray("http://127.0.0.1:1") << false;
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

    void envdHostShapes_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("49983-<id>.localhost") << QByteArray("49983-{id}.localhost:{port}") << true;
        QTest::newRow("49983-<id>.localhost, no port") << QByteArray("49983-{id}.localhost")
                                                       << true;
        QTest::newRow("49983-<id>.attacker.example")
            << QByteArray("49983-{id}.attacker.example:{port}") << false;
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
        QVERIFY2(response.startsWith(allowed ? "HTTP/1.1 200" : "HTTP/1.1 403"),
            response.constData());
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
            return exchange(m_backend->port(), request("POST", "/process.Process/List", headers, "{}"));
        };
        const QByteArray unknown = envdCall("nosuchsandbox0000000", token);
        const QByteArray badToken = envdCall(id, "not-the-token");
        const QByteArray noToken = envdCall(id, {});
        QCOMPARE(statusLine(badToken), statusLine(unknown));
        QCOMPARE(statusLine(noToken), statusLine(unknown));
        // The body names the sandbox asked for, and nothing else differs.
        QCOMPARE(bodyOf(badToken).replace(id, "ID"), bodyOf(unknown).replace("nosuchsandbox0000000", "ID"));
        QCOMPARE(bodyOf(noToken).replace(id, "ID"), bodyOf(unknown).replace("nosuchsandbox0000000", "ID"));
        QVERIFY(envdCall(id, token).startsWith("HTTP/1.1 200"));
    }
};

QTEST_GUILESS_MAIN(TestLocalHardening)
#include "tst_localhardening.moc"
