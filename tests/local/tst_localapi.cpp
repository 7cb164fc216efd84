// The control plane of sandbox-desk-local over real HTTP: every endpoint, filter,
// page, lifetime rule, 400 and 401.

#include "httpclient.h"
#include "localbackend.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace sd::test;

namespace {

QJsonObject createBody(
    const QString &templateId, const QJsonObject &metadata = {}, int timeout = -1)
{
    QJsonObject body { { QStringLiteral("templateID"), templateId } };
    if (!metadata.isEmpty())
        body.insert(QStringLiteral("metadata"), metadata);
    if (timeout >= 0)
        body.insert(QStringLiteral("timeout"), timeout);
    return body;
}

QDateTime isoTime(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

QStringList ids(const QJsonArray &array)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out.append(v.toObject().value(QStringLiteral("sandboxID")).toString());
    return out;
}

QStringList eventNames(const QJsonArray &entries)
{
    QStringList out;
    for (const QJsonValue &v : entries)
        out.append(v.toObject()
                       .value(QStringLiteral("fields"))
                       .toObject()
                       .value(QStringLiteral("event"))
                       .toString());
    return out;
}

/// Reads one complete response (headers + Content-Length body) from a socket.
QByteArray readOneResponse(QTcpSocket &socket)
{
    QByteArray data;
    for (int i = 0; i < 200; ++i) {
        data += socket.readAll();
        const qsizetype headerEnd = data.indexOf("\r\n\r\n");
        if (headerEnd >= 0) {
            const QRegularExpression lengthRe(QStringLiteral("Content-Length: (\\d+)"),
                QRegularExpression::CaseInsensitiveOption);
            const auto m = lengthRe.match(QString::fromLatin1(data.left(headerEnd)));
            const qsizetype length = m.hasMatch() ? m.captured(1).toLongLong() : 0;
            if (data.size() >= headerEnd + 4 + length)
                return data;
        }
        QSignalSpy ready(&socket, &QTcpSocket::readyRead);
        if (!ready.wait(500) && socket.state() != QAbstractSocket::ConnectedState)
            break;
    }
    return data;
}

} // namespace

class TestLocalApi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void health();
    void templates();
    void create_data();
    void create();
    void createDefaultsTimeout_data();
    void createDefaultsTimeout();
    void createByTemplateAlias();
    void listFilters_data();
    void listFilters();
    void listOrder_data();
    void listOrder();
    void listTotalRunningHeader();
    void pagination_data();
    void pagination();
    void paginationSurvivesKillsBetweenPages();
    void paginationAcrossCreatesAndKills_data();
    void paginationAcrossCreatesAndKills();
    void paginationTokenIsSigned();
    void getUnknown();
    void setTimeout();
    void expiresAtEndAt();
    void pausedDoesNotExpire();
    void pauseResumeConflicts();
    void connect_data();
    void connect();
    void kill();
    void killUnknown();
    void logsV1AndV2();
    void badRequests_data();
    void badRequests();
    void unauthorized_data();
    void unauthorized();
    void unknownRoute();
    void keepAliveCarriesSeveralRequests();
    void chunkedRequestBody();
    void envdRequestsBypassTheApi_data();
    void envdRequestsBypassTheApi();
    void envdBadProcessSelector_data();
    void envdBadProcessSelector();
    void secretsNeverLogged();
    void backendLogStaysOutOfTheClient();

private:
    std::unique_ptr<LocalBackend> m_backend;
    std::unique_ptr<HttpClient> m_client;
};

void TestLocalApi::init()
{
    // The control plane is under test here; without isolation a sandbox starts no jail
    // process, which keeps 250-sandbox runs light on a loaded machine.
    m_backend = std::make_unique<LocalBackend>(
        QStringList { QStringLiteral("--isolation"), QStringLiteral("none") });
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_client = std::make_unique<HttpClient>(m_backend->url(), m_backend->apiKey());
}

void TestLocalApi::cleanup()
{
    m_client.reset();
    m_backend.reset();
}

void TestLocalApi::health()
{
    HttpClient anonymous(m_backend->url(), QString());
    const HttpResult r = anonymous.get(QStringLiteral("/health"));
    QCOMPARE(r.status, 200);
    const QJsonObject body = r.object();
    QCOMPARE(body.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const QString isolation = body.value(QStringLiteral("isolation")).toString();
    QVERIFY2(isolation == QLatin1String("bwrap") || isolation == QLatin1String("none"),
        qPrintable(isolation));
    QVERIFY(!body.value(QStringLiteral("version")).toString().isEmpty());
}

void TestLocalApi::templates()
{
    const HttpResult r = m_client->get(QStringLiteral("/templates"));
    QCOMPARE(r.status, 200);
    const QJsonArray list = r.array();
    QCOMPARE(list.size(), 2);
    QStringList names;
    for (const QJsonValue &v : list) {
        const QJsonObject t = v.toObject();
        names.append(t.value(QStringLiteral("templateID")).toString());
        for (const char *field : { "buildID", "cpuCount", "memoryMB", "diskSizeMB", "public",
                 "aliases", "names", "createdAt", "updatedAt", "envdVersion", "buildStatus" })
            QVERIFY2(t.contains(QLatin1String(field)), field);
        QVERIFY(t.value(QStringLiteral("cpuCount")).toInt() >= 1);
    }
    QCOMPARE(names, (QStringList { QStringLiteral("base"), QStringLiteral("mcp-gateway") }));
}

void TestLocalApi::create_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("v2 (SDK 2.51)") << QStringLiteral("/v2/sandboxes");
    QTest::newRow("v1 (SDK 2.38)") << QStringLiteral("/sandboxes");
}

void TestLocalApi::create()
{
    QFETCH(QString, path);
    const QJsonObject metadata { { QStringLiteral("owner"), QStringLiteral("probe") },
        { QStringLiteral("a b"), QStringLiteral("c&d") } };
    const HttpResult r = m_client->post(path, createBody(QStringLiteral("base"), metadata, 60));
    QCOMPARE(r.status, 201);
    const QJsonObject sandbox = r.object();
    const QString id = sandbox.value(QStringLiteral("sandboxID")).toString();
    QVERIFY2(
        QRegularExpression(QStringLiteral("^[a-z0-9]{20}$")).match(id).hasMatch(), qPrintable(id));
    QCOMPARE(sandbox.value(QStringLiteral("templateID")).toString(), QStringLiteral("base"));
    QVERIFY(!sandbox.value(QStringLiteral("clientID")).toString().isEmpty());
    QCOMPARE(sandbox.value(QStringLiteral("envdVersion")).toString(), QStringLiteral("0.5.2"));
    const QString token = sandbox.value(QStringLiteral("envdAccessToken")).toString();
    QVERIFY(token.size() >= 32);
    QVERIFY(sandbox.contains(QStringLiteral("domain")));
    QVERIFY(sandbox.value(QStringLiteral("domain")).isNull());

    const HttpResult detail = m_client->get(QStringLiteral("/sandboxes/") + id);
    QCOMPARE(detail.status, 200);
    const QJsonObject d = detail.object();
    QCOMPARE(d.value(QStringLiteral("sandboxID")).toString(), id);
    QCOMPARE(d.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
    QCOMPARE(d.value(QStringLiteral("metadata")).toObject(), metadata);
    QVERIFY(d.value(QStringLiteral("envdAccessToken")).toString() == token);
    QCOMPARE(d.value(QStringLiteral("cpuCount")).toInt(), 2);
    QCOMPARE(d.value(QStringLiteral("memoryMB")).toInt(), 512);
    QCOMPARE(d.value(QStringLiteral("diskSizeMB")).toInt(), 1024);
    const QDateTime startedAt = isoTime(d.value(QStringLiteral("startedAt")));
    const QDateTime endAt = isoTime(d.value(QStringLiteral("endAt")));
    QVERIFY(startedAt.isValid());
    QCOMPARE(startedAt.secsTo(endAt), 60);
    // Each sandbox gets its own ID and token.
    const QJsonObject second = m_client->create();
    QVERIFY(second.value(QStringLiteral("sandboxID")).toString() != id);
    QVERIFY(second.value(QStringLiteral("envdAccessToken")).toString() != token);
}

void TestLocalApi::createDefaultsTimeout_data()
{
    QTest::addColumn<int>("timeout"); // -1: absent
    QTest::newRow("timeout absent") << -1;
    QTest::newRow("timeout 0") << 0;
}

void TestLocalApi::createDefaultsTimeout()
{
    QFETCH(int, timeout);
    const QJsonObject sandbox = m_client->create(createBody(QStringLiteral("base"), {}, timeout));
    const QJsonObject d = m_client
                              ->get(QStringLiteral("/sandboxes/")
                                  + sandbox.value(QStringLiteral("sandboxID")).toString())
                              .object();
    QCOMPARE(isoTime(d.value(QStringLiteral("startedAt")))
                 .secsTo(isoTime(d.value(QStringLiteral("endAt")))),
        300);
}

void TestLocalApi::createByTemplateAlias()
{
    const QJsonObject sandbox = m_client->create(createBody(QStringLiteral("mcp-gateway")));
    QCOMPARE(sandbox.value(QStringLiteral("templateID")).toString(), QStringLiteral("mcp-gateway"));
}

void TestLocalApi::listFilters_data()
{
    // Sandboxes made by listFilters(): a (base, owner=alice, team=red), b (mcp-gateway,
    // owner=bob), c (base, owner=alice, team=blue, paused).
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("expected");
    const auto names = [](const char *list) {
        return QString::fromLatin1(list).split(QLatin1Char(','), Qt::SkipEmptyParts);
    };
    QTest::newRow("v2 no filter lists both states")
        << QStringLiteral("/v2/sandboxes") << names("a,b,c");
    QTest::newRow("v2 metadata one pair")
        << QStringLiteral("/v2/sandboxes?metadata=owner%3Dalice") << names("a,c");
    QTest::newRow("v2 metadata all pairs must match")
        << QStringLiteral("/v2/sandboxes?metadata=owner%3Dalice%26team%3Dred") << names("a");
    QTest::newRow("v2 metadata value mismatch")
        << QStringLiteral("/v2/sandboxes?metadata=owner%3Dcarol") << names("");
    QTest::newRow("v2 metadata SDK double encoding")
        << QStringLiteral("/v2/sandboxes?metadata=note%3Dx%2526y") << names("b");
    QTest::newRow("v2 state running")
        << QStringLiteral("/v2/sandboxes?state=running") << names("a,b");
    QTest::newRow("v2 state paused") << QStringLiteral("/v2/sandboxes?state=paused") << names("c");
    QTest::newRow("v2 state running,paused")
        << QStringLiteral("/v2/sandboxes?state=running,paused") << names("a,b,c");
    QTest::newRow("v2 state and metadata")
        << QStringLiteral("/v2/sandboxes?state=running&metadata=owner%3Dalice") << names("a");
    QTest::newRow("v2 template") << QStringLiteral("/v2/sandboxes?template=mcp-gateway")
                                 << names("b");
    QTest::newRow("v2 template base")
        << QStringLiteral("/v2/sandboxes?template=base") << names("a,c");
    QTest::newRow("v2 startedAfter far past")
        << QStringLiteral("/v2/sandboxes?startedAfter=2000-01-01T00:00:00Z") << names("a,b,c");
    QTest::newRow("v2 startedAfter far future")
        << QStringLiteral("/v2/sandboxes?startedAfter=2999-01-01T00:00:00Z") << names("");
    QTest::newRow("v2 startedAfter c")
        << QStringLiteral("/v2/sandboxes?startedAfter={c.startedAt}") << names("c+");
    QTest::newRow("v1 lists running only") << QStringLiteral("/sandboxes") << names("a,b");
    QTest::newRow("v1 metadata") << QStringLiteral("/sandboxes?metadata=owner%3Dalice")
                                 << names("a");
    QTest::newRow("v1 state paused") << QStringLiteral("/sandboxes?state=paused") << names("c");
}

void TestLocalApi::listFilters()
{
    QFETCH(QString, query);
    QFETCH(QStringList, expected);

    QHash<QString, QString> idByName;
    QHash<QString, QDateTime> startedByName;
    const auto make = [&](const QString &name, const QString &tmpl, const QJsonObject &metadata) {
        const QJsonObject s = m_client->create(createBody(tmpl, metadata));
        idByName.insert(name, s.value(QStringLiteral("sandboxID")).toString());
        const QJsonObject d
            = m_client->get(QStringLiteral("/sandboxes/") + idByName.value(name)).object();
        startedByName.insert(name, isoTime(d.value(QStringLiteral("startedAt"))));
    };
    make(QStringLiteral("a"), QStringLiteral("base"),
        { { QStringLiteral("owner"), QStringLiteral("alice") },
            { QStringLiteral("team"), QStringLiteral("red") } });
    make(QStringLiteral("b"), QStringLiteral("mcp-gateway"),
        { { QStringLiteral("owner"), QStringLiteral("bob") },
            { QStringLiteral("note"), QStringLiteral("x&y") } });
    make(QStringLiteral("c"), QStringLiteral("base"),
        { { QStringLiteral("owner"), QStringLiteral("alice") },
            { QStringLiteral("team"), QStringLiteral("blue") } });
    QCOMPARE(m_client
                 ->post(QStringLiteral("/sandboxes/") + idByName.value(QStringLiteral("c"))
                         + QStringLiteral("/pause"),
                     {})
                 .status,
        204);

    if (expected == QStringList { QStringLiteral("c+") }) {
        // Everything started at or after c (a and b may share its millisecond).
        const QDateTime t = startedByName.value(QStringLiteral("c"));
        query.replace(QStringLiteral("{c.startedAt}"),
            QString::fromLatin1(QUrl::toPercentEncoding(t.toString(Qt::ISODateWithMs))));
        expected.clear();
        for (const QString &name :
            { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }) {
            if (startedByName.value(name) >= t)
                expected.append(name);
        }
        QVERIFY(expected.contains(QStringLiteral("c")));
    }

    const HttpResult r = m_client->get(query);
    QCOMPARE(r.status, 200);
    QStringList got;
    for (const QString &id : ids(r.array()))
        got.append(idByName.key(id, QStringLiteral("?")));
    got.sort();
    QCOMPARE(got, expected);
}

void TestLocalApi::listOrder_data()
{
    QTest::addColumn<QString>("order");
    QTest::addColumn<bool>("ascending");
    QTest::newRow("default is newest first") << QString() << false;
    QTest::newRow("asc") << QStringLiteral("asc") << true;
    QTest::newRow("desc") << QStringLiteral("desc") << false;
}

void TestLocalApi::listOrder()
{
    QFETCH(QString, order);
    QFETCH(bool, ascending);
    QStringList created;
    for (int i = 0; i < 5; ++i)
        created.append(m_client->create().value(QStringLiteral("sandboxID")).toString());
    const HttpResult r
        = m_client->get(order.isEmpty() ? QStringLiteral("/v2/sandboxes")
                                        : QStringLiteral("/v2/sandboxes?order=") + order);
    QCOMPARE(r.status, 200);
    QStringList expected = created;
    if (!ascending)
        std::reverse(expected.begin(), expected.end());
    QCOMPARE(ids(r.array()), expected);
    QDateTime previous;
    for (const QJsonValue &v : r.array()) {
        const QDateTime started = isoTime(v.toObject().value(QStringLiteral("startedAt")));
        if (previous.isValid())
            QVERIFY(ascending ? previous <= started : previous >= started);
        previous = started;
    }
}

void TestLocalApi::listTotalRunningHeader()
{
    const QString a = m_client->create().value(QStringLiteral("sandboxID")).toString();
    m_client->create();
    m_client->create();
    QCOMPARE(m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(a), {}).status, 204);
    HttpResult r = m_client->get(QStringLiteral("/v2/sandboxes?limit=1"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.array().size(), 1);
    QCOMPARE(r.header("X-Total-Running"), QByteArray("2"));
    r = m_client->get(QStringLiteral("/v2/sandboxes?state=paused"));
    QCOMPARE(r.array().size(), 1);
    QVERIFY(!r.hasHeader("X-Total-Running")); // only when running sandboxes were asked for
    QVERIFY(!r.hasHeader("X-Next-Token"));
}

void TestLocalApi::pagination_data()
{
    QTest::addColumn<QString>("order");
    QTest::newRow("newest first") << QStringLiteral("desc");
    QTest::newRow("oldest first") << QStringLiteral("asc");
}

void TestLocalApi::pagination()
{
    QFETCH(QString, order);
    QSet<QString> created;
    for (int i = 0; i < 250; ++i) {
        const QString id = m_client
                               ->create(createBody(QStringLiteral("base"),
                                   { { QStringLiteral("batch"), QStringLiteral("p") } }))
                               .value(QStringLiteral("sandboxID"))
                               .toString();
        QVERIFY(!id.isEmpty());
        created.insert(id);
    }
    QCOMPARE(created.size(), 250);

    QStringList seen;
    QList<int> pageSizes;
    QString token;
    do {
        QString path = QStringLiteral(
                           "/v2/sandboxes?metadata=batch%3Dp&state=running,paused&limit=100&order=")
            + order;
        if (!token.isEmpty())
            path += QStringLiteral("&nextToken=")
                + QString::fromLatin1(QUrl::toPercentEncoding(token));
        const HttpResult r = m_client->get(path);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("X-Total-Running"), QByteArray("250"));
        pageSizes.append(int(r.array().size()));
        seen += ids(r.array());
        token = QString::fromLatin1(r.header("X-Next-Token"));
        QVERIFY(pageSizes.size() <= 3);
    } while (!token.isEmpty());

    QCOMPARE(pageSizes, (QList<int> { 100, 100, 50 }));
    QCOMPARE(QSet<QString>(seen.begin(), seen.end()), created); // none missing
    QCOMPARE(seen.size(), 250); // none twice
}

void TestLocalApi::paginationSurvivesKillsBetweenPages()
{
    QStringList created; // oldest first
    for (int i = 0; i < 30; ++i)
        created.append(m_client->create().value(QStringLiteral("sandboxID")).toString());
    HttpResult r = m_client->get(QStringLiteral("/v2/sandboxes?order=asc&limit=10"));
    QCOMPARE(ids(r.array()), created.mid(0, 10));
    const QString token = QString::fromLatin1(r.header("X-Next-Token"));
    QVERIFY(!token.isEmpty());
    // Kill the last of page one and the first of page two before asking for page two.
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + created.at(9)).status, 204);
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + created.at(10)).status, 204);
    r = m_client->get(QStringLiteral("/v2/sandboxes?order=asc&limit=10&nextToken=")
        + QString::fromLatin1(QUrl::toPercentEncoding(token)));
    QCOMPARE(r.status, 200);
    QCOMPARE(ids(r.array()), created.mid(11, 10));
}

void TestLocalApi::paginationAcrossCreatesAndKills_data()
{
    QTest::addColumn<QString>("order");
    QTest::newRow("newest first") << QStringLiteral("desc");
    QTest::newRow("oldest first") << QStringLiteral("asc");
}

// Small pages while sandboxes come and go between them: every sandbox that lived
// throughout the walk is listed exactly once, and no sandbox is listed twice.
void TestLocalApi::paginationAcrossCreatesAndKills()
{
    QFETCH(QString, order);
    QStringList created; // oldest first
    for (int i = 0; i < 40; ++i)
        created.append(m_client->create().value(QStringLiteral("sandboxID")).toString());
    QSet<QString> killed;
    QStringList seen;
    QString token;
    int pages = 0;
    do {
        QString path = QStringLiteral("/v2/sandboxes?limit=3&order=") + order;
        if (!token.isEmpty())
            path += QStringLiteral("&nextToken=")
                + QString::fromLatin1(QUrl::toPercentEncoding(token));
        const HttpResult r = m_client->get(path);
        QCOMPARE(r.status, 200);
        seen += ids(r.array());
        token = QString::fromLatin1(r.header("X-Next-Token"));
        ++pages;
        QVERIFY(pages <= 40);
        // Between pages: two new sandboxes, one listed sandbox killed and one not yet
        // listed (picked from the far end of the walk) killed.
        created.append(m_client->create().value(QStringLiteral("sandboxID")).toString());
        created.append(m_client->create().value(QStringLiteral("sandboxID")).toString());
        if (!seen.isEmpty() && !killed.contains(seen.last())) {
            QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + seen.last()).status, 204);
            killed.insert(seen.last());
        }
        const QString unseen
            = order == QLatin1String("asc") ? created.at(40 - pages) : created.at(pages - 1);
        if (!seen.contains(unseen) && !killed.contains(unseen)) {
            QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + unseen).status, 204);
            killed.insert(unseen);
        }
    } while (!token.isEmpty());

    QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size()); // none twice
    for (const QString &id : created.mid(0, 40)) {
        if (!killed.contains(id))
            QVERIFY2(seen.contains(id), qPrintable(id + QStringLiteral(" never listed")));
    }
    for (const QString &id : std::as_const(seen))
        QVERIFY(created.contains(id));
}

void TestLocalApi::paginationTokenIsSigned()
{
    for (int i = 0; i < 3; ++i)
        m_client->create();
    HttpResult r = m_client->get(QStringLiteral("/v2/sandboxes?limit=1"));
    const QString token = QString::fromLatin1(r.header("X-Next-Token"));
    QVERIFY(!token.isEmpty());
    r = m_client->get(QStringLiteral("/v2/sandboxes?limit=1&nextToken=")
        + QString::fromLatin1(QUrl::toPercentEncoding(token)));
    QCOMPARE(r.status, 200);
    // The same position with the signature of another one is refused.
    const QString forged = QStringLiteral("0.1") + token.mid(token.lastIndexOf(QLatin1Char('.')));
    r = m_client->get(QStringLiteral("/v2/sandboxes?limit=1&nextToken=")
        + QString::fromLatin1(QUrl::toPercentEncoding(forged)));
    QCOMPARE(r.status, 400);
    QVERIFY(r.message().contains(QStringLiteral("nextToken")));
}

void TestLocalApi::getUnknown()
{
    const HttpResult r = m_client->get(QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa"));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 404);
    QVERIFY(r.message().contains(QStringLiteral("aaaaaaaaaaaaaaaaaaaa")));
}

void TestLocalApi::setTimeout()
{
    const QString id = m_client->create(createBody(QStringLiteral("base"), {}, 60))
                           .value(QStringLiteral("sandboxID"))
                           .toString();
    const QDateTime before = QDateTime::currentDateTimeUtc();
    QCOMPARE(m_client
                 ->post(QStringLiteral("/sandboxes/%1/timeout").arg(id),
                     { { QStringLiteral("timeout"), 3600 } })
                 .status,
        204);
    const QDateTime after = QDateTime::currentDateTimeUtc();
    const QJsonObject d = m_client->get(QStringLiteral("/sandboxes/") + id).object();
    const QDateTime endAt = isoTime(d.value(QStringLiteral("endAt")));
    // Measured from the time of the request.
    QVERIFY(endAt >= before.addSecs(3600).addMSecs(-5));
    QVERIFY(endAt <= after.addSecs(3600).addMSecs(5));
    const QJsonArray logs = m_client->get(QStringLiteral("/v2/sandboxes/%1/logs").arg(id))
                                .object()
                                .value(QStringLiteral("logs"))
                                .toArray();
    QVERIFY(eventNames(logs).contains(QStringLiteral("timeout changed")));
    QCOMPARE(m_client
                 ->post(QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa/timeout"),
                     { { QStringLiteral("timeout"), 10 } })
                 .status,
        404);
}

void TestLocalApi::expiresAtEndAt()
{
    const QString id = m_client->create(createBody(QStringLiteral("base"), {}, 1))
                           .value(QStringLiteral("sandboxID"))
                           .toString();
    const QString keeper = m_client->create(createBody(QStringLiteral("base"), {}, 600))
                               .value(QStringLiteral("sandboxID"))
                               .toString();
    QTRY_COMPARE_WITH_TIMEOUT(m_client->get(QStringLiteral("/sandboxes/") + id).status, 404, 30000);
    QCOMPARE(m_client->allIds(), QStringList { keeper });
    // The lifecycle stays readable after the end.
    const HttpResult logs = m_client->get(QStringLiteral("/v2/sandboxes/%1/logs").arg(id));
    QCOMPARE(logs.status, 200);
    const QStringList events = eventNames(logs.object().value(QStringLiteral("logs")).toArray());
    QCOMPARE(events.first(), QStringLiteral("created"));
    QCOMPARE(events.last(), QStringLiteral("expired"));
    QVERIFY(!events.contains(QStringLiteral("killed")));
}

void TestLocalApi::pausedDoesNotExpire()
{
    const QString paused = m_client->create(createBody(QStringLiteral("base"), {}, 2))
                               .value(QStringLiteral("sandboxID"))
                               .toString();
    QCOMPARE(m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(paused), {}).status, 204);
    // A witness created later with a longer timeout: once it is gone, the paused one's
    // own end time has certainly passed.
    const QString witness = m_client->create(createBody(QStringLiteral("base"), {}, 3))
                                .value(QStringLiteral("sandboxID"))
                                .toString();
    QTRY_COMPARE_WITH_TIMEOUT(
        m_client->get(QStringLiteral("/sandboxes/") + witness).status, 404, 30000);
    const HttpResult d = m_client->get(QStringLiteral("/sandboxes/") + paused);
    QCOMPARE(d.status, 200);
    QCOMPARE(d.object().value(QStringLiteral("state")).toString(), QStringLiteral("paused"));

    const HttpResult resumed = m_client->post(
        QStringLiteral("/sandboxes/%1/resume").arg(paused), { { QStringLiteral("timeout"), 1 } });
    QCOMPARE(resumed.status, 201);
    QCOMPARE(resumed.object().value(QStringLiteral("sandboxID")).toString(), paused);
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/") + paused)
                 .object()
                 .value(QStringLiteral("state"))
                 .toString(),
        QStringLiteral("running"));
    // Running again, it expires.
    QTRY_COMPARE_WITH_TIMEOUT(
        m_client->get(QStringLiteral("/sandboxes/") + paused).status, 404, 30000);
    const QStringList events
        = eventNames(m_client->get(QStringLiteral("/v2/sandboxes/%1/logs").arg(paused))
                         .object()
                         .value(QStringLiteral("logs"))
                         .toArray());
    QCOMPARE(events,
        (QStringList { QStringLiteral("created"), QStringLiteral("paused"),
            QStringLiteral("resumed"), QStringLiteral("expired") }));
}

void TestLocalApi::pauseResumeConflicts()
{
    const QString id = m_client->create().value(QStringLiteral("sandboxID")).toString();
    HttpResult r = m_client->post(QStringLiteral("/sandboxes/%1/resume").arg(id), {});
    QCOMPARE(r.status, 409);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 409);
    QCOMPARE(m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(id), {}).status, 204);
    r = m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(id), {});
    QCOMPARE(r.status, 409);
    QVERIFY(r.message().contains(QStringLiteral("paused")));
    QCOMPARE(
        m_client->post(QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa/pause"), {}).status, 404);
    QCOMPARE(
        m_client->post(QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa/resume"), {}).status, 404);
    // Resume without a body restores the paused sandbox.
    r = m_client->send("POST", QStringLiteral("/sandboxes/%1/resume").arg(id));
    QCOMPARE(r.status, 201);
    QCOMPARE(r.object().value(QStringLiteral("envdVersion")).toString(), QStringLiteral("0.5.2"));
}

void TestLocalApi::connect_data()
{
    QTest::addColumn<QString>("prefix");
    QTest::newRow("v1 path") << QString();
    QTest::newRow("v2 path (SDK 2.51)") << QStringLiteral("/v2");
}

void TestLocalApi::connect()
{
    QFETCH(QString, prefix);
    const QString id = m_client->create(createBody(QStringLiteral("base"), {}, 600))
                           .value(QStringLiteral("sandboxID"))
                           .toString();
    const QString path = prefix + QStringLiteral("/sandboxes/%1/connect").arg(id);
    const auto endAt = [&] {
        return isoTime(m_client->get(QStringLiteral("/sandboxes/") + id)
                           .object()
                           .value(QStringLiteral("endAt")));
    };

    // Running: 200, and a shorter timeout never shortens the sandbox's life.
    const QDateTime original = endAt();
    HttpResult r = m_client->post(path, { { QStringLiteral("timeout"), 10 } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.object().value(QStringLiteral("sandboxID")).toString(), id);
    QVERIFY(!r.object().value(QStringLiteral("envdAccessToken")).toString().isEmpty());
    QCOMPARE(endAt(), original);
    // A longer one extends it.
    r = m_client->post(path, { { QStringLiteral("timeout"), 7200 } });
    QCOMPARE(r.status, 200);
    QVERIFY(endAt() > original.addSecs(3600));

    // Paused: resumed, 201.
    QCOMPARE(m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(id), {}).status, 204);
    r = m_client->post(path, { { QStringLiteral("timeout"), 60 } });
    QCOMPARE(r.status, 201);
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/") + id)
                 .object()
                 .value(QStringLiteral("state"))
                 .toString(),
        QStringLiteral("running"));
    QCOMPARE(m_client
                 ->post(prefix + QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa/connect"),
                     { { QStringLiteral("timeout"), 60 } })
                 .status,
        404);
}

void TestLocalApi::kill()
{
    const QString id = m_client->create().value(QStringLiteral("sandboxID")).toString();
    const QString other = m_client->create().value(QStringLiteral("sandboxID")).toString();
    const HttpResult r = m_client->del(QStringLiteral("/sandboxes/") + id);
    QCOMPARE(r.status, 204);
    QVERIFY(r.body.isEmpty());
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/") + id).status, 404);
    QCOMPARE(m_client->allIds(), QStringList { other });
    const QStringList events
        = eventNames(m_client->get(QStringLiteral("/v2/sandboxes/%1/logs").arg(id))
                         .object()
                         .value(QStringLiteral("logs"))
                         .toArray());
    QCOMPARE(events, (QStringList { QStringLiteral("created"), QStringLiteral("killed") }));
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + id).status, 404); // twice: already gone
}

void TestLocalApi::killUnknown()
{
    const HttpResult r = m_client->del(QStringLiteral("/sandboxes/zzzzzzzzzzzzzzzzzzzz"));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 404);
    QVERIFY(!r.message().isEmpty());
}

void TestLocalApi::logsV1AndV2()
{
    const QString id = m_client->create().value(QStringLiteral("sandboxID")).toString();
    QCOMPARE(m_client->post(QStringLiteral("/sandboxes/%1/pause").arg(id), {}).status, 204);
    QCOMPARE(m_client
                 ->post(QStringLiteral("/sandboxes/%1/resume").arg(id),
                     { { QStringLiteral("timeout"), 60 } })
                 .status,
        201);

    const HttpResult v1 = m_client->get(QStringLiteral("/sandboxes/%1/logs").arg(id));
    QCOMPARE(v1.status, 200);
    const QJsonArray lines = v1.object().value(QStringLiteral("logs")).toArray();
    const QJsonArray entries = v1.object().value(QStringLiteral("logEntries")).toArray();
    QCOMPARE(lines.size(), 3);
    QCOMPARE(entries.size(), 3);
    QVERIFY(!lines.at(0).toObject().value(QStringLiteral("line")).toString().isEmpty());
    QVERIFY(isoTime(lines.at(0).toObject().value(QStringLiteral("timestamp"))).isValid());

    const HttpResult v2 = m_client->get(QStringLiteral("/v2/sandboxes/%1/logs").arg(id));
    QCOMPARE(v2.status, 200);
    const QJsonArray v2Entries = v2.object().value(QStringLiteral("logs")).toArray();
    QCOMPARE(eventNames(v2Entries),
        (QStringList {
            QStringLiteral("created"), QStringLiteral("paused"), QStringLiteral("resumed") }));
    const QJsonObject first = v2Entries.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("level")).toString(), QStringLiteral("info"));
    QVERIFY(!first.value(QStringLiteral("message")).toString().isEmpty());
    QVERIFY(isoTime(first.value(QStringLiteral("timestamp"))).isValid());

    const HttpResult backward
        = m_client->get(QStringLiteral("/v2/sandboxes/%1/logs?direction=backward&limit=1").arg(id));
    QCOMPARE(eventNames(backward.object().value(QStringLiteral("logs")).toArray()),
        QStringList { QStringLiteral("resumed") });
    QCOMPARE(m_client->get(QStringLiteral("/v2/sandboxes/aaaaaaaaaaaaaaaaaaaa/logs")).status, 404);
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/aaaaaaaaaaaaaaaaaaaa/logs")).status, 404);
}

void TestLocalApi::badRequests_data()
{
    // Each row runs with one existing sandbox, {id}; afterwards exactly that sandbox
    // exists, unchanged.
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");

    const QString v2 = QStringLiteral("/v2/sandboxes");
    QTest::newRow("create: body not JSON")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\": ") << 400 << "body";
    QTest::newRow("create: body an array")
        << QByteArray("POST") << v2 << QByteArray("[]") << 400 << "body";
    QTest::newRow("create: empty body")
        << QByteArray("POST") << v2 << QByteArray("") << 400 << "body";
    QTest::newRow("create: templateID missing")
        << QByteArray("POST") << v2 << QByteArray("{\"timeout\":10}") << 400 << "templateID";
    QTest::newRow("create: templateID not a string")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":5}") << 400 << "templateID";
    QTest::newRow("create: unknown template is 404")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"nope\"}") << 404 << "nope";
    QTest::newRow("create: timeout negative")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"base\",\"timeout\":-1}") << 400
        << "timeout";
    QTest::newRow("create: timeout over 24 h")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"base\",\"timeout\":86401}")
        << 400 << "timeout";
    QTest::newRow("create: timeout a string")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"base\",\"timeout\":\"10\"}")
        << 400 << "timeout";
    QTest::newRow("create: timeout fractional")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"base\",\"timeout\":1.5}")
        << 400 << "timeout";
    QTest::newRow("create: metadata value a number")
        << QByteArray("POST") << v2
        << QByteArray("{\"templateID\":\"base\",\"metadata\":{\"a\":1}}") << 400 << "metadata";
    QTest::newRow("create: metadata not an object")
        << QByteArray("POST") << v2 << QByteArray("{\"templateID\":\"base\",\"metadata\":\"a=b\"}")
        << 400 << "metadata";
    QTest::newRow("create: envVars value not a string")
        << QByteArray("POST") << v2
        << QByteArray("{\"templateID\":\"base\",\"envVars\":{\"A\":true}}") << 400 << "envVars";
    QTest::newRow("create: allow_internet_access not a boolean")
        << QByteArray("POST") << v2
        << QByteArray("{\"templateID\":\"base\",\"allow_internet_access\":\"yes\"}") << 400
        << "allow_internet_access";
    QTest::newRow("create v1: timeout negative")
        << QByteArray("POST") << QStringLiteral("/sandboxes")
        << QByteArray("{\"templateID\":\"base\",\"timeout\":-5}") << 400 << "timeout";
    QTest::newRow("create v1: templateID missing")
        << QByteArray("POST") << QStringLiteral("/sandboxes") << QByteArray("{}") << 400
        << "templateID";
    QTest::newRow("list: limit 0") << QByteArray("GET") << QStringLiteral("/v2/sandboxes?limit=0")
                                   << QByteArray() << 400 << "limit";
    QTest::newRow("list: limit 101")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?limit=101") << QByteArray() << 400
        << "limit";
    QTest::newRow("list: limit not a number")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?limit=ten") << QByteArray() << 400
        << "limit";
    QTest::newRow("list: nextToken not issued")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?nextToken=made-up") << QByteArray()
        << 400 << "nextToken";
    QTest::newRow("list: unknown state")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?state=running,sleeping")
        << QByteArray() << 400 << "state";
    QTest::newRow("list: unknown order")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?order=up") << QByteArray() << 400
        << "order";
    QTest::newRow("list: startedAfter not a time")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?startedAfter=yesterday")
        << QByteArray() << 400 << "startedAfter";
    QTest::newRow("list: metadata not pairs")
        << QByteArray("GET") << QStringLiteral("/v2/sandboxes?metadata=justakey") << QByteArray()
        << 400 << "metadata";
    QTest::newRow("list v1: limit 0") << QByteArray("GET") << QStringLiteral("/sandboxes?limit=0")
                                      << QByteArray() << 400 << "limit";
    QTest::newRow("timeout: negative")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/timeout")
        << QByteArray("{\"timeout\":-1}") << 400 << "timeout";
    QTest::newRow("timeout: over 24 h")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/timeout")
        << QByteArray("{\"timeout\":90000}") << 400 << "timeout";
    QTest::newRow("timeout: missing")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/timeout") << QByteArray("{}")
        << 400 << "timeout";
    QTest::newRow("timeout: body not JSON")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/timeout")
        << QByteArray("timeout=5") << 400 << "body";
    QTest::newRow("resume: timeout negative")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/resume")
        << QByteArray("{\"timeout\":-1}") << 400 << "timeout";
    QTest::newRow("connect: timeout over 24 h")
        << QByteArray("POST") << QStringLiteral("/v2/sandboxes/{id}/connect")
        << QByteArray("{\"timeout\":86401}") << 400 << "timeout";
    QTest::newRow("connect: body not JSON")
        << QByteArray("POST") << QStringLiteral("/sandboxes/{id}/connect") << QByteArray("{") << 400
        << "body";
}

void TestLocalApi::badRequests()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, field);

    const QString id = m_client->create(createBody(QStringLiteral("base"), {}, 600))
                           .value(QStringLiteral("sandboxID"))
                           .toString();
    const QByteArray before = m_client->get(QStringLiteral("/sandboxes/") + id).body;
    path.replace(QStringLiteral("{id}"), id);

    const HttpResult r = m_client->send(method, path, body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), status);
    QVERIFY2(r.message().contains(field), qPrintable(r.message()));

    QCOMPARE(m_client->allIds(), QStringList { id }); // nothing created
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/") + id).body, before); // nothing changed
}

void TestLocalApi::unauthorized_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("key"); // null: no header

    const QByteArray create = "{\"templateID\":\"base\"}";
    const QByteArray timeout = "{\"timeout\":5}";
    struct Endpoint
    {
        const char *name;
        QByteArray method;
        QString path;
        QByteArray body;
    };
    const QList<Endpoint> endpoints {
        { "create v2", "POST", QStringLiteral("/v2/sandboxes"), create },
        { "create v1", "POST", QStringLiteral("/sandboxes"), create },
        { "list v2", "GET", QStringLiteral("/v2/sandboxes"), {} },
        { "list v1", "GET", QStringLiteral("/sandboxes"), {} },
        { "get", "GET", QStringLiteral("/sandboxes/{id}"), {} },
        { "kill", "DELETE", QStringLiteral("/sandboxes/{id}"), {} },
        { "timeout", "POST", QStringLiteral("/sandboxes/{id}/timeout"), timeout },
        { "pause", "POST", QStringLiteral("/sandboxes/{id}/pause"), {} },
        { "resume", "POST", QStringLiteral("/sandboxes/{id}/resume"), timeout },
        { "connect", "POST", QStringLiteral("/sandboxes/{id}/connect"), timeout },
        { "logs v1", "GET", QStringLiteral("/sandboxes/{id}/logs"), {} },
        { "logs v2", "GET", QStringLiteral("/v2/sandboxes/{id}/logs"), {} },
        { "templates", "GET", QStringLiteral("/templates"), {} },
        { "unknown route", "GET", QStringLiteral("/nope"), {} },
    };
    for (const Endpoint &e : endpoints) {
        QTest::addRow("%s: no key", e.name) << e.method << e.path << e.body << QString();
        QTest::addRow("%s: wrong key", e.name)
            << e.method << e.path << e.body << QStringLiteral("e2b_wrong");
        QTest::addRow("%s: key of the right length", e.name)
            << e.method << e.path << e.body << QStringLiteral("{same-length}");
    }
}

void TestLocalApi::unauthorized()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(QString, key);

    const QString id = m_client->create(createBody(QStringLiteral("base"), {}, 600))
                           .value(QStringLiteral("sandboxID"))
                           .toString();
    const QByteArray before = m_client->get(QStringLiteral("/sandboxes/") + id).body;
    path.replace(QStringLiteral("{id}"), id);
    if (key == QLatin1String("{same-length}")) {
        key = m_backend->apiKey();
        key[key.size() - 1] = key.endsWith(QLatin1Char('0')) ? QLatin1Char('1') : QLatin1Char('0');
    }

    HttpClient stranger(m_backend->url(), key);
    const HttpResult r = stranger.send(method, path, body);
    QCOMPARE(r.status, 401);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 401);
    QVERIFY(!r.message().isEmpty());

    QCOMPARE(m_client->allIds(), QStringList { id });
    QCOMPARE(m_client->get(QStringLiteral("/sandboxes/") + id).body, before);
}

void TestLocalApi::unknownRoute()
{
    HttpResult r = m_client->get(QStringLiteral("/v9/whatever"));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 404);
    QVERIFY(!r.message().isEmpty());
    r = m_client->send("PUT", QStringLiteral("/v2/sandboxes"), "{}");
    QCOMPARE(r.status, 405);
    QCOMPARE(r.object().value(QStringLiteral("code")).toInt(), 405);
}

void TestLocalApi::keepAliveCarriesSeveralRequests()
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), m_backend->port());
    QVERIFY(socket.waitForConnected(10000));
    const QByteArray key = m_backend->apiKey().toUtf8();
    const QByteArray body = "{\"templateID\":\"base\"}";
    const QList<QByteArray> requests {
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "POST /v2/sandboxes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\n\r\n" + body,
        "GET /v2/sandboxes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key + "\r\n\r\n",
        "GET /templates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key + "\r\n\r\n",
    };
    const QList<QByteArray> statuses { "HTTP/1.1 200", "HTTP/1.1 201", "HTTP/1.1 200",
        "HTTP/1.1 200" };
    for (qsizetype i = 0; i < requests.size(); ++i) {
        socket.write(requests.at(i));
        const QByteArray response = readOneResponse(socket);
        QVERIFY2(response.startsWith(statuses.at(i)), response.left(40).constData());
        QVERIFY(socket.state() == QAbstractSocket::ConnectedState);
    }
    QCOMPARE(m_client->allIds().size(), 1);
}

void TestLocalApi::chunkedRequestBody()
{
    // The official SDK 2.51 sends its create body chunked, without Content-Length.
    const QByteArray json = "{\"templateID\":\"base\",\"metadata\":{\"owner\":\"chunked\"}}";
    const QByteArray request
        = "POST /v2/sandboxes HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-API-Key: "
        + m_backend->apiKey().toUtf8()
        + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + QByteArray::number(10, 16) + "\r\n" + json.left(10) + "\r\n"
        + QByteArray::number(json.size() - 10, 16) + "\r\n" + json.mid(10) + "\r\n0\r\n\r\n";
    const RawExchange exchange = rawExchange(m_backend->port(), request);
    QVERIFY2(exchange.received.startsWith("HTTP/1.1 201"), exchange.received.left(60).constData());
    const QJsonArray listed
        = m_client->get(QStringLiteral("/v2/sandboxes?metadata=owner%3Dchunked")).array();
    QCOMPARE(listed.size(), 1);
}

void TestLocalApi::envdRequestsBypassTheApi_data()
{
    // status 0: handed to the envd handler (whatever it answers), not to the REST API.
    QTest::addColumn<QByteArray>("headerName");
    QTest::addColumn<QByteArray>("headerValue");
    QTest::addColumn<QByteArray>("hostValue");
    QTest::addColumn<int>("status");
    QTest::newRow("E2b-Sandbox-Port header")
        << QByteArray("E2b-Sandbox-Port") << QByteArray("49983") << QByteArray() << 0;
    QTest::newRow("host 49983-<id>.domain")
        << QByteArray() << QByteArray() << QByteArray("49983-{id}.localhost") << 0;
    QTest::newRow("another port") << QByteArray("E2b-Sandbox-Port") << QByteArray("8080")
                                  << QByteArray() << 502;
}

void TestLocalApi::envdRequestsBypassTheApi()
{
    QFETCH(QByteArray, headerName);
    QFETCH(QByteArray, headerValue);
    QFETCH(QByteArray, hostValue);
    QFETCH(int, status);
    const QJsonObject sandbox = m_client->create();
    const QByteArray id = sandbox.value(QStringLiteral("sandboxID")).toString().toLatin1();
    QList<QPair<QByteArray, QByteArray>> headers {
        { "Content-Type", "application/json" },
        { "X-Access-Token",
            sandbox.value(QStringLiteral("envdAccessToken")).toString().toLatin1() },
    };
    if (!headerName.isEmpty()) {
        headers.append({ headerName, headerValue });
        headers.append({ "E2b-Sandbox-Id", id });
    }
    if (!hostValue.isEmpty())
        headers.append({ "Host", hostValue.replace("{id}", id) });
    HttpClient envd(m_backend->url(), QString()); // no API key: the REST API would say 401
    const HttpResult r = envd.send("POST", QStringLiteral("/process.Process/List"), "{}", headers);
    QVERIFY(r.finished);
    if (status) {
        QCOMPARE(r.status, status);
        return;
    }
    QVERIFY2(r.status != 401 && r.status != 404 && r.status != 405, r.body.constData());
    QVERIFY2(!r.message().contains(QStringLiteral("API key")), r.body.constData());
}

void TestLocalApi::envdBadProcessSelector_data()
{
    QTest::addColumn<QByteArray>("selector");
    QTest::addColumn<QString>("message");
    const QString pidError = QStringLiteral("process.pid: must be a positive integer");
    QTest::newRow("pid beyond any integer") << QByteArray(R"({"pid":1e300})") << pidError;
    QTest::newRow("pid beyond uint32") << QByteArray(R"({"pid":4294967296})") << pidError;
    QTest::newRow("pid negative") << QByteArray(R"({"pid":-1})") << pidError;
    QTest::newRow("pid 0") << QByteArray(R"({"pid":0})") << pidError;
    QTest::newRow("pid fractional") << QByteArray(R"({"pid":1.5})") << pidError;
    QTest::newRow("pid a word") << QByteArray(R"({"pid":"one"})") << pidError;
    QTest::newRow("pid as a string beyond uint32")
        << QByteArray(R"({"pid":"99999999999999999999"})") << pidError;
    QTest::newRow("no selector") << QByteArray(
        "null") << QStringLiteral("process: required (a selector with pid or tag)");
}

// A selector that names no process is refused as such, whatever number it holds.
void TestLocalApi::envdBadProcessSelector()
{
    QFETCH(QByteArray, selector);
    QFETCH(QString, message);
    const QJsonObject sandbox = m_client->create();
    const QByteArray id = sandbox.value(QStringLiteral("sandboxID")).toString().toLatin1();
    const QList<QPair<QByteArray, QByteArray>> headers {
        { "Content-Type", "application/json" },
        { "X-Access-Token",
            sandbox.value(QStringLiteral("envdAccessToken")).toString().toLatin1() },
        { "E2b-Sandbox-Port", "49983" },
        { "E2b-Sandbox-Id", id },
    };
    HttpClient envd(m_backend->url(), QString());
    const HttpResult r = envd.send("POST", QStringLiteral("/process.Process/SendSignal"),
        R"({"process":)" + selector + R"(,"signal":"SIGNAL_SIGKILL"})", headers);
    QVERIFY(r.finished);
    QCOMPARE(r.status, 400);
    QCOMPARE(
        r.object().value(QStringLiteral("code")).toString(), QStringLiteral("invalid_argument"));
    QCOMPARE(r.message(), message);
}

void TestLocalApi::secretsNeverLogged()
{
    QJsonObject body = createBody(QStringLiteral("base"));
    body.insert(QStringLiteral("envVars"),
        QJsonObject { { QStringLiteral("TOKEN"), QStringLiteral("env-secret-value-123") } });
    const QJsonObject sandbox = m_client->create(body);
    const QString id = sandbox.value(QStringLiteral("sandboxID")).toString();
    m_client->get(QStringLiteral("/sandboxes/") + id);
    HttpClient stranger(m_backend->url(), QStringLiteral("e2b_some-wrong-key"));
    QCOMPARE(stranger.get(QStringLiteral("/v2/sandboxes")).status, 401);
    QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + id).status, 204);
    m_backend->stop();
    const QByteArray log = m_backend->stderrOutput();
    QVERIFY(log.contains(id.toLatin1())); // the log is there...
    QVERIFY(!log.contains(m_backend->apiKey().toLatin1())); // ...but holds no secret
    QVERIFY(!log.contains("e2b_some-wrong-key"));
    QVERIFY(!log.contains(sandbox.value(QStringLiteral("envdAccessToken")).toString().toLatin1()));
    QVERIFY(!log.contains("env-secret-value-123"));
}

void TestLocalApi::backendLogStaysOutOfTheClient()
{
    // Every creation logs a few lines. Read through a pipe, they would pile up unread in
    // this process's QProcess buffer, and a long run (the fault soak) would measure them
    // as the client's memory.
    QStringList ids;
    for (int i = 0; i < 5; ++i) {
        const QString id = m_client->create(createBody(QStringLiteral("base")))
                               .value(QStringLiteral("sandboxID"))
                               .toString();
        QCOMPARE(m_client->del(QStringLiteral("/sandboxes/") + id).status, 204);
        ids << id;
    }
    QCoreApplication::processEvents(); // where a pipe's lines would be read in
    QProcess *process = m_backend->process();
    process->setReadChannel(QProcess::StandardError);
    QCOMPARE(process->bytesAvailable(), 0);
    const QString backendStderr
        = QFileInfo(QStringLiteral("/proc/%1/fd/2").arg(process->processId())).canonicalFilePath();
    QCOMPARE(backendStderr, QFileInfo(m_backend->stderrPath()).canonicalFilePath());
    const QByteArray log = m_backend->stderrOutput(); // and the failure messages still get it
    for (const QString &id : std::as_const(ids))
        QVERIFY2(log.contains(id.toLatin1()), log.constData());
}

QTEST_GUILESS_MAIN(TestLocalApi)
#include "tst_localapi.moc"
