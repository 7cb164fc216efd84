// Fault injection of sandbox-desk-local (--fault-injection): every action, counts,
// matching by path and sandbox ID, rule validation.

#include "httpclient.h"
#include "localbackend.h"

#include "local/faultinjector.h"

#include <QTest>

using namespace sd::test;
using sd::local::FaultAction;
using sd::local::FaultInjector;

namespace {

const QByteArray kCreateBody = "{\"templateID\":\"base\"}";

QJsonObject rule(const QString &method, const QString &path, const QString &action, int status = 0,
    int count = 0)
{
    QJsonObject r { { QStringLiteral("path"), path }, { QStringLiteral("action"), action } };
    if (!method.isEmpty())
        r.insert(QStringLiteral("method"), method);
    if (status)
        r.insert(QStringLiteral("status"), status);
    if (count)
        r.insert(QStringLiteral("count"), count);
    return r;
}

} // namespace

class TestLocalFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void matcherGlobsAndCounts_data();
    void matcherGlobsAndCounts();
    void matcherSkipsActionsTheCallerCannotDo();

    void disabledWithoutFlag();
    void faultEndpointNeedsApiKey();
    void statusCounted();
    void statusWithPageBody();
    void statusUnlimitedUntilCleared();
    void statusAfterPerforms();
    void drop();
    void dropAfter();
    void delayDoesNotBlock();
    void delayAfterPerformsFirst();
    void emptyAfter();
    void garbageAfter();
    void matchesOneSandboxId();
    void envdFrontFault();
    void metadataNamesOneSandbox();
    void badRules_data();
    void badRules();

private:
    void addRules(const QJsonArray &rules);

    std::unique_ptr<LocalBackend> m_backend;
    std::unique_ptr<HttpClient> m_client;
};

void TestLocalFaults::init()
{
    m_backend = std::make_unique<LocalBackend>(QStringList { QStringLiteral("--fault-injection"),
        QStringLiteral("--isolation"), QStringLiteral("none") });
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_client = std::make_unique<HttpClient>(m_backend->url(), m_backend->apiKey());
}

void TestLocalFaults::cleanup()
{
    m_client.reset();
    m_backend.reset();
}

void TestLocalFaults::addRules(const QJsonArray &rules)
{
    const HttpResult r
        = m_client->post(QStringLiteral("/_local/faults"), { { QStringLiteral("rules"), rules } });
    QCOMPARE(r.status, 200);
}

void TestLocalFaults::matcherGlobsAndCounts_data()
{
    QTest::addColumn<QString>("ruleMethod");
    QTest::addColumn<QString>("rulePath");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star matches an ID") << "DELETE"
                                        << "/sandboxes/*"
                                        << "DELETE"
                                        << "/sandboxes/abc" << true;
    QTest::newRow("star spans segments") << "POST"
                                         << "/sandboxes/*"
                                         << "POST"
                                         << "/sandboxes/abc/timeout" << true;
    QTest::newRow("other method") << "DELETE"
                                  << "/sandboxes/*"
                                  << "GET"
                                  << "/sandboxes/abc" << false;
    QTest::newRow("any method") << ""
                                << "/v2/sandboxes"
                                << "GET"
                                << "/v2/sandboxes" << true;
    QTest::newRow("star method") << "*"
                                 << "/v2/sandboxes"
                                 << "POST"
                                 << "/v2/sandboxes" << true;
    QTest::newRow("exact path only") << "POST"
                                     << "/v2/sandboxes"
                                     << "POST"
                                     << "/v2/sandboxes/x/connect" << false;
    QTest::newRow("one sandbox ID") << "DELETE"
                                    << "/sandboxes/abc"
                                    << "DELETE"
                                    << "/sandboxes/abd" << false;
    QTest::newRow("dots are literal") << "POST"
                                      << "/process.Process/*"
                                      << "POST"
                                      << "/processXProcess/Start" << false;
    QTest::newRow("middle star") << "POST"
                                 << "/sandboxes/*/pause"
                                 << "POST"
                                 << "/sandboxes/abc/pause" << true;
}

void TestLocalFaults::matcherGlobsAndCounts()
{
    QFETCH(QString, ruleMethod);
    QFETCH(QString, rulePath);
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(bool, matches);
    FaultInjector injector;
    QString error;
    QVERIFY(injector.addRules(
        { rule(ruleMethod, rulePath, QStringLiteral("status"), 500, 2) }, &error));
    const QList<FaultAction> all { FaultAction::Status };
    QCOMPARE(injector.take(method, path, all).has_value(), matches);
    if (matches) {
        QVERIFY(injector.take(method, path, all).has_value()); // count 2: a second use
        QVERIFY(!injector.take(method, path, all).has_value()); // then used up
        QVERIFY(injector.isEmpty());
    }
}

void TestLocalFaults::matcherSkipsActionsTheCallerCannotDo()
{
    FaultInjector injector;
    QString error;
    QVERIFY(injector.addRules(
        { rule(QString(), QStringLiteral("/x"), QStringLiteral("drop-after"), 0, 1) }, &error));
    QVERIFY(!injector.take(
        QStringLiteral("GET"), QStringLiteral("/x"), { FaultAction::Status, FaultAction::Drop }));
    const auto taken
        = injector.take(QStringLiteral("GET"), QStringLiteral("/x"), { FaultAction::DropAfter });
    QVERIFY(taken);
    QCOMPARE(taken->action, FaultAction::DropAfter);
}

void TestLocalFaults::disabledWithoutFlag()
{
    LocalBackend plain;
    QVERIFY2(plain.start(), qPrintable(plain.errorString()));
    HttpClient client(plain.url(), plain.apiKey());
    const HttpResult r = client.post(QStringLiteral("/_local/faults"),
        { { QStringLiteral("rules"),
            QJsonArray {
                rule(QString(), QStringLiteral("/*"), QStringLiteral("status"), 500) } } });
    QCOMPARE(r.status, 404);
    QCOMPARE(client.get(QStringLiteral("/v2/sandboxes")).status, 200); // and no rule applies
}

void TestLocalFaults::faultEndpointNeedsApiKey()
{
    HttpClient stranger(m_backend->url(), QString());
    QCOMPARE(
        stranger
            .post(QStringLiteral("/_local/faults"), { { QStringLiteral("rules"), QJsonArray() } })
            .status,
        401);
    QCOMPARE(stranger.send("DELETE", QStringLiteral("/_local/faults")).status, 401);
}

void TestLocalFaults::statusCounted()
{
    const QString id = m_client->create().value(QStringLiteral("sandboxID")).toString();
    addRules({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
        QStringLiteral("status"), 500, 3) });
    for (int i = 0; i < 3; ++i) {
        const HttpResult r = m_client->del(QStringLiteral("/sandboxes/") + id);
        QCOMPARE(r.status, 500);
        QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 500);
        QVERIFY(!r.message().isEmpty());
        QCOMPARE(m_client->allIds(), QStringList { id }); // not performed
    }
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + id).status, 204);
    QVERIFY(m_client->allIds().isEmpty());
}

// A "body" answers as a proxy in front of the API would: its page, as text/html.
void TestLocalFaults::statusWithPageBody()
{
    const QString id = m_client->create().value(QStringLiteral("sandboxID")).toString();
    QJsonObject page = rule(
        QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"), QStringLiteral("status"), 502, 1);
    page.insert(QStringLiteral("body"), QStringLiteral("<html><h1>Bad Gateway</h1></html>"));
    addRules({ page });
    const HttpResult r = m_client->del(QStringLiteral("/sandboxes/") + id);
    QCOMPARE(r.status, 502);
    QCOMPARE(r.body, QByteArray("<html><h1>Bad Gateway</h1></html>"));
    QCOMPARE(r.header("Content-Type"), QByteArray("text/html; charset=utf-8"));
    QCOMPARE(m_client->allIds(), QStringList { id }); // not performed
}

void TestLocalFaults::statusUnlimitedUntilCleared()
{
    addRules({ rule(
        QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("status"), 503) });
    const HttpResult listed = m_client->get(QStringLiteral("/_local/faults"));
    QCOMPARE(listed.status, 200);
    const QJsonArray rules = listed.object().value(QStringLiteral("rules")).toArray();
    QCOMPARE(rules.size(), 1);
    QCOMPARE(rules.at(0).toObject().value(QStringLiteral("action")).toString(),
        QStringLiteral("status"));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(m_client->get(QStringLiteral("/v2/sandboxes")).status, 503);
    QCOMPARE(m_client->send("DELETE", QStringLiteral("/_local/faults")).status, 204);
    QCOMPARE(m_client->get(QStringLiteral("/v2/sandboxes")).status, 200);
    QVERIFY(m_client->get(QStringLiteral("/_local/faults"))
                .object()
                .value(QStringLiteral("rules"))
                .toArray()
                .isEmpty());
}

void TestLocalFaults::statusAfterPerforms()
{
    addRules({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
        QStringLiteral("status-after"), 503, 1) });
    const HttpResult r = m_client->postRaw(QStringLiteral("/v2/sandboxes"), kCreateBody);
    QCOMPARE(r.status, 503);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 503);
    QCOMPARE(m_client->allIds().size(), 1); // allocated all the same
}

void TestLocalFaults::drop()
{
    addRules({ rule(
        QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("drop"), 0, 1) });
    const RawExchange exchange = rawExchange(
        m_backend->port(), rawRequest("POST", "/v2/sandboxes", m_backend->apiKey(), kCreateBody));
    QVERIFY(exchange.closedByServer);
    QVERIFY(exchange.received.isEmpty());
    QVERIFY(m_client->allIds().isEmpty()); // nothing performed
    // The rule is used up: the next create is answered.
    QCOMPARE(m_client->postRaw(QStringLiteral("/v2/sandboxes"), kCreateBody).status, 201);
}

void TestLocalFaults::dropAfter()
{
    addRules({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
        QStringLiteral("drop-after"), 0, 1) });
    const RawExchange exchange = rawExchange(
        m_backend->port(), rawRequest("POST", "/v2/sandboxes", m_backend->apiKey(), kCreateBody));
    QVERIFY(exchange.closedByServer);
    QVERIFY(exchange.received.isEmpty());
    QCOMPARE(m_client->allIds().size(), 1); // performed, never answered
}

void TestLocalFaults::delayDoesNotBlock()
{
    m_client->create();
    QJsonObject delay = rule(
        QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 0, 1);
    delay.insert(
        QStringLiteral("delayMs"), 8000); // long enough for two answers on a loaded machine
    addRules({ delay });

    QNetworkAccessManager nam;
    QUrl url = m_backend->url();
    url.setPath(QStringLiteral("/v2/sandboxes"));
    QNetworkRequest request(url);
    request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    std::unique_ptr<QNetworkReply> delayed(nam.get(request));
    QSignalSpy delayedDone(delayed.get(), &QNetworkReply::finished);

    // While the delayed request waits, the server keeps answering others.
    HttpClient other(m_backend->url(), m_backend->apiKey());
    QCOMPARE(other.get(QStringLiteral("/health")).status, 200);
    QCOMPARE(other.get(QStringLiteral("/templates")).status, 200);
    QCOMPARE(delayedDone.count(), 0);

    QVERIFY(delayedDone.wait(30000));
    QCOMPARE(delayed->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(QJsonDocument::fromJson(delayed->readAll()).array().size(), 1);
}

void TestLocalFaults::delayAfterPerformsFirst()
{
    QJsonObject held = rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
        QStringLiteral("delay-after"), 0, 1);
    held.insert(QStringLiteral("delayMs"), 8000); // long enough for two answers on a loaded machine
    addRules({ held });

    QNetworkAccessManager nam;
    QUrl url = m_backend->url();
    url.setPath(QStringLiteral("/v2/sandboxes"));
    QNetworkRequest request(url);
    request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> reply(nam.post(request, kCreateBody));
    QSignalSpy replied(reply.get(), &QNetworkReply::finished);

    // The sandbox exists while its creator still waits for the answer.
    QTRY_COMPARE_WITH_TIMEOUT(m_client->allIds().size(), 1, 8000);
    QCOMPARE(replied.count(), 0);

    QVERIFY(replied.wait(30000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 201);
    QCOMPARE(QJsonDocument::fromJson(reply->readAll()).object().value(QLatin1String("sandboxID")),
        m_client->allIds().constFirst());
}

void TestLocalFaults::emptyAfter()
{
    addRules({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
        QStringLiteral("empty-after"), 0, 1) });
    const HttpResult r = m_client->postRaw(QStringLiteral("/v2/sandboxes"), kCreateBody);
    QCOMPARE(r.status, 201);
    QVERIFY(r.body.isEmpty());
    QCOMPARE(m_client->allIds().size(), 1);
}

void TestLocalFaults::garbageAfter()
{
    addRules({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
        QStringLiteral("garbage-after"), 0, 1) });
    const HttpResult r = m_client->postRaw(QStringLiteral("/v2/sandboxes"), kCreateBody);
    QCOMPARE(r.status, 201);
    QVERIFY(!r.body.isEmpty());
    QJsonParseError error;
    QJsonDocument::fromJson(r.body, &error);
    QVERIFY(error.error != QJsonParseError::NoError);
    QCOMPARE(m_client->allIds().size(), 1);
}

void TestLocalFaults::matchesOneSandboxId()
{
    const QString x = m_client->create().value(QStringLiteral("sandboxID")).toString();
    const QString y = m_client->create().value(QStringLiteral("sandboxID")).toString();
    addRules({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/") + x,
        QStringLiteral("status"), 500) });
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + x).status, 500);
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + x).status, 500); // every kill of X
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + y).status, 204);
    QCOMPARE(m_client->allIds(), QStringList { x });
}

void TestLocalFaults::envdFrontFault()
{
    const QByteArray id
        = m_client->create().value(QStringLiteral("sandboxID")).toString().toLatin1();
    addRules({ rule(QStringLiteral("POST"), QStringLiteral("/process.Process/*"),
        QStringLiteral("status"), 503, 1) });
    HttpClient envd(m_backend->url(), QString());
    const QList<QPair<QByteArray, QByteArray>> headers { { "E2b-Sandbox-Port", "49983" },
        { "E2b-Sandbox-Id", id } };
    const HttpResult faulted
        = envd.send("POST", QStringLiteral("/process.Process/Start"), "{}", headers);
    QCOMPARE(faulted.status, 503);
    QVERIFY(faulted.message().contains(QStringLiteral("injected")));
    // Used up: the next one reaches envd.
    const HttpResult passed
        = envd.send("POST", QStringLiteral("/process.Process/Start"), "{}", headers);
    QVERIFY(passed.finished);
    QVERIFY2(!passed.message().contains(QStringLiteral("injected")), passed.body.constData());
}

void TestLocalFaults::metadataNamesOneSandbox()
{
    const auto tagged = [](const QString &value) {
        return QJsonObject { { QStringLiteral("templateID"), QStringLiteral("base") },
            { QStringLiteral("metadata"), QJsonObject { { QStringLiteral("run"), value } } } };
    };
    const auto forRun = [](QJsonObject r, const QString &value) {
        r.insert(QStringLiteral("metadata"), QJsonObject { { QStringLiteral("run"), value } });
        return r;
    };
    // A create is judged by the metadata it asks for: only run "c" gets the 503, after
    // its sandbox was made.
    addRules({ forRun(rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
                          QStringLiteral("status-after"), 503, 1),
        QStringLiteral("c")) });
    const QString a = m_client->create(tagged(QStringLiteral("a")))
                          .value(QStringLiteral("sandboxID"))
                          .toString();
    const QString b = m_client->create(tagged(QStringLiteral("b")))
                          .value(QStringLiteral("sandboxID"))
                          .toString();
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    QCOMPARE(
        m_client->post(QStringLiteral("/v2/sandboxes"), tagged(QStringLiteral("c"))).status, 503);
    QCOMPARE(m_client->allIds().size(), 3);

    // A call on a sandbox is judged by that sandbox's metadata, as is its envd.
    addRules({ forRun(rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                          QStringLiteral("status"), 500),
                   QStringLiteral("a")),
        forRun(rule(QStringLiteral("POST"), QStringLiteral("/process.Process/*"),
                   QStringLiteral("status"), 503),
            QStringLiteral("b")) });
    HttpClient envd(m_backend->url(), QString());
    const auto envdList = [&envd](const QString &id) {
        return envd.send("POST", QStringLiteral("/process.Process/List"), "{}",
            { { "E2b-Sandbox-Port", "49983" }, { "E2b-Sandbox-Id", id.toLatin1() } });
    };
    QVERIFY(!envdList(a).message().contains(QStringLiteral("injected")));
    QCOMPARE(envdList(b).status, 503);
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + a).status, 500);
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + a).status, 500); // unlimited
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + b).status, 204);
    QVERIFY(m_client->allIds().contains(a));
    QVERIFY(!m_client->allIds().contains(b));
}

void TestLocalFaults::badRules_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("body not JSON") << QByteArray("{rules") << "body";
    QTest::newRow("rules missing") << QByteArray("{}") << "rules";
    QTest::newRow("rule not an object") << QByteArray("{\"rules\":[1]}") << "rules";
    QTest::newRow("path missing") << QByteArray("{\"rules\":[{\"action\":\"drop\"}]}") << "path";
    QTest::newRow("unknown action")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"explode\"}]}") << "action";
    QTest::newRow("status missing")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"status\"}]}") << "status";
    QTest::newRow("body not a string") << QByteArray(
        "{\"rules\":[{\"path\":\"/x\",\"action\":\"status\",\"status\":502,\"body\":1}]}")
                                       << "body";
    QTest::newRow("delayMs missing")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"delay\"}]}") << "delayMs";
    QTest::newRow("delayMs missing after")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"delay-after\"}]}")
        << "delayMs";
    QTest::newRow("count zero") << QByteArray(
        "{\"rules\":[{\"path\":\"/x\",\"action\":\"drop\",\"count\":0}]}")
                                << "count";
    QTest::newRow("metadata not strings")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"drop\",\"metadata\":{\"a\":1}}]}")
        << "metadata";
    QTest::newRow("second rule bad")
        << QByteArray("{\"rules\":[{\"path\":\"/x\",\"action\":\"drop\"},{\"path\":\"/y\"}]}")
        << "action";
}

void TestLocalFaults::badRules()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const HttpResult r = m_client->postRaw(QStringLiteral("/_local/faults"), body);
    QCOMPARE(r.status, 400);
    QVERIFY2(r.message().contains(field), qPrintable(r.message()));
    // All or nothing.
    QVERIFY(m_client->get(QStringLiteral("/_local/faults"))
                .object()
                .value(QStringLiteral("rules"))
                .toArray()
                .isEmpty());
}

QTEST_GUILESS_MAIN(TestLocalFaults)
#include "tst_localfaults.moc"
