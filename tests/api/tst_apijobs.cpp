// Unit tests of the control-plane jobs against a canned HTTP server: what each job
// sends (verb, path, query, headers, body) and how it reads each kind of answer.
// Keys are compared with QVERIFY, never QCOMPARE, so a key is never printed.
#include "api/infojobs.h"
#include "api/lifecyclejobs.h"
#include "api/sandboxjobs.h"
#include "fakeserver.h"
#include "network/networkaccessmanager.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

using namespace sd;
using test::FakeServer;

namespace {
const QString apiKey = QStringLiteral("e2b_0123456789abcdef0123456789abcdef01234567");
const QString sandboxId = QStringLiteral("i5bz3q7yt2kx0m9wd4ha");

QByteArray createdJson(const QString &id = sandboxId)
{
    return QJsonDocument(QJsonObject { { "sandboxID", id }, { "templateID", "base" },
                             { "clientID", "local" }, { "envdVersion", "0.2.0" },
                             { "envdAccessToken", "envd-token" }, { "domain", QJsonValue::Null } })
        .toJson(QJsonDocument::Compact);
}

QJsonObject listedObject(const QString &id = sandboxId)
{
    return QJsonObject { { "sandboxID", id }, { "templateID", "base" }, { "clientID", "local" },
        { "envdVersion", "0.2.0" }, { "startedAt", "2026-12-02T10:00:00.123Z" },
        { "endAt", "2026-12-02T10:05:00Z" }, { "cpuCount", 2 }, { "memoryMB", 512 },
        { "diskSizeMB", 1024 }, { "metadata", QJsonObject { { "owner", "me" } } },
        { "state", "running" } };
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray json(const QJsonArray &array)
{
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QByteArray errorBody(int code, const QString &message)
{
    return json(QJsonObject { { "code", code }, { "message", message } });
}

QJsonObject bodyOf(const FakeServer::Request &request)
{
    return QJsonDocument::fromJson(request.body).object();
}

/// Counts the requests handed to it.
class CountingNetwork : public sd::NetworkAccessManager
{
public:
    int requestsMade = 0;

protected:
    QNetworkReply *createRequest(
        Operation operation, const QNetworkRequest &request, QIODevice *data) override
    {
        ++requestsMade;
        return sd::NetworkAccessManager::createRequest(operation, request, data);
    }
};

/// The query parameter `name` as the server decodes it (once).
QString queryValue(const FakeServer::Request &request, const QString &name)
{
    return QUrlQuery(QString::fromLatin1(request.query)).queryItemValue(name, QUrl::FullyDecoded);
}
} // namespace

class TestApiJobs : public QObject
{
    Q_OBJECT

private:
    sd::NetworkAccessManager m_network;
    std::unique_ptr<FakeServer> m_server;

    ConnectionSettings settings() const
    {
        ConnectionSettings s;
        s.apiUrl = m_server->url();
        s.apiKey = apiKey;
        return s;
    }

    /// Runs `job` to its end; true when it finished exactly once.
    static bool run(Job &job)
    {
        job.setAutoDelete(false);
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        if (!spy.wait(20000))
            return false;
        QCoreApplication::processEvents();
        return spy.count() == 1 && job.isFinished();
    }

    const FakeServer::Request &onlyRequest() const
    {
        Q_ASSERT(m_server->requests().size() == 1);
        return m_server->requests().first();
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeServer>();
        QVERIFY(m_server->listen());
    }

    void cleanup() { m_server.reset(); }

    // ---- create ----------------------------------------------------------

    void createSendsNewSandboxWithKey()
    {
        m_server->enqueue(201, createdJson());
        NewSandbox request;
        request.templateId = QStringLiteral("base");
        request.timeoutSeconds = 60;
        request.metadata = { { "owner", "probe" }, { "sandbox-desk.creation", "c1" } };
        CreateSandboxJob job(&m_network, settings(), request);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));

        const auto &sent = onlyRequest();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.path, QByteArray("/v2/sandboxes"));
        QVERIFY(sent.header("X-API-Key") == apiKey.toUtf8());
        QCOMPARE(sent.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(sent.header("Accept"), QByteArray("application/json"));
        QVERIFY(sent.header("User-Agent").startsWith("sandbox-desk/"));
        QCOMPARE(bodyOf(sent),
            (QJsonObject { { "templateID", "base" }, { "timeout", 60 },
                { "metadata",
                    QJsonObject { { "owner", "probe" }, { "sandbox-desk.creation", "c1" } } } }));

        QCOMPARE(job.sandbox().sandboxId, sandboxId);
        QCOMPARE(job.sandbox().templateId, QStringLiteral("base"));
        QCOMPARE(job.sandbox().envdAccessToken, QStringLiteral("envd-token"));
        QVERIFY(job.sandbox().domain.isEmpty());
        QCOMPARE(job.usedPath(), QStringLiteral("/v2/sandboxes"));
        QCOMPARE(job.httpStatus(), 201);
        QVERIFY(job.requestWasSent());
    }

    void createFallsBackToV1On404()
    {
        m_server->enqueue(404, errorBody(404, "not found"));
        m_server->enqueue(201, createdJson());
        NewSandbox request;
        request.templateId = QStringLiteral("base");
        CreateSandboxJob job(&m_network, settings(), request);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(m_server->requests().at(0).path, QByteArray("/v2/sandboxes"));
        QCOMPARE(m_server->requests().at(1).path, QByteArray("/sandboxes"));
        QCOMPARE(m_server->requests().at(1).method, QByteArray("POST"));
        QCOMPARE(m_server->requests().at(1).body, m_server->requests().at(0).body);
        QVERIFY(m_server->requests().at(1).header("X-API-Key") == apiKey.toUtf8());
        QCOMPARE(job.usedPath(), QStringLiteral("/sandboxes"));
        QCOMPARE(job.sandbox().sandboxId, sandboxId);
    }

    void createReports404OfBothPaths()
    {
        m_server->enqueue(404, errorBody(404, "template 'nope' not found"));
        m_server->enqueue(404, errorBody(404, "template 'nope' not found"));
        NewSandbox request;
        request.templateId = QStringLiteral("nope");
        CreateSandboxJob job(&m_network, settings(), request);
        QVERIFY(run(job));
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(job.error().kind(), Error::Kind::Http);
        QCOMPARE(job.error().httpStatus(), 404);
        QCOMPARE(job.error().serverMessage(), QStringLiteral("template 'nope' not found"));
        QVERIFY(job.error().message().contains(QStringLiteral("template 'nope' not found")));
    }

    void createDoesNotFallBackOnOtherErrors()
    {
        m_server->enqueue(400, errorBody(400, "timeout must not be negative"));
        CreateSandboxJob job(&m_network, settings(),
            NewSandbox { QStringLiteral("base"), -1, {}, {}, {}, {}, false });
        QVERIFY(run(job));
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(job.error().httpStatus(), 400);
        QCOMPARE(job.error().serverMessage(), QStringLiteral("timeout must not be negative"));
        QVERIFY(job.error().message().startsWith(
            QStringLiteral("The server rejected the request (HTTP 400)")));
    }

    void createParsing_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("problem");
        QJsonObject noId = QJsonDocument::fromJson(createdJson()).object();
        noId.remove("sandboxID");
        QJsonObject numericTemplate = QJsonDocument::fromJson(createdJson()).object();
        numericTemplate.insert("templateID", 7);
        QTest::newRow("missing sandboxID") << 201 << json(noId) << "missing field 'sandboxID'";
        QTest::newRow("templateID not a string")
            << 201 << json(numericTemplate) << "field 'templateID' is not a string";
        QTest::newRow("not JSON") << 201 << QByteArray("<html>proxy error</html>") << "not JSON";
        QTest::newRow("array instead of object")
            << 201 << QByteArray("[]") << "expected a JSON object";
        QTest::newRow("201 without body") << 201 << QByteArray() << "empty";
    }

    void createParsing()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, problem);
        m_server->enqueue(status, body);
        CreateSandboxJob job(&m_network, settings(),
            NewSandbox { QStringLiteral("base"), {}, {}, {}, {}, {}, false });
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY2(job.error().message().contains(problem), qPrintable(job.error().message()));
        QVERIFY(job.error().message().startsWith(
            QStringLiteral("The server sent an answer that could not be understood")));
    }

    // ---- list ------------------------------------------------------------

    void listEncodesFilters()
    {
        m_server->enqueue(200, json(QJsonArray { listedObject() }));
        SandboxFilter filter;
        filter.metadata = { { "k", "v" }, { "k2", "v2" } };
        filter.states = { SandboxState::Paused };
        filter.templateId = QStringLiteral("mcp-gateway");
        filter.startedAfter = QDateTime(QDate(2026, 12, 1), QTime(8, 30), Qt::UTC);
        filter.order = SandboxFilter::Order::OldestFirst;
        filter.pageSize = 25;
        ListSandboxesJob job(&m_network, settings(), filter);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));

        const auto &sent = onlyRequest();
        QCOMPARE(sent.method, QByteArray("GET"));
        QCOMPARE(sent.path, QByteArray("/v2/sandboxes"));
        QVERIFY(sent.header("X-API-Key") == apiKey.toUtf8());
        // The metadata pairs travel as ONE URL-encoded parameter value.
        QVERIFY2(sent.query.contains("metadata=k%3Dv%26k2%3Dv2"), sent.query.constData());
        QCOMPARE(queryValue(sent, "metadata"), QStringLiteral("k=v&k2=v2"));
        QCOMPARE(queryValue(sent, "state"), QStringLiteral("paused"));
        QCOMPARE(queryValue(sent, "template"), QStringLiteral("mcp-gateway"));
        QCOMPARE(queryValue(sent, "startedAfter"), QStringLiteral("2026-12-01T08:30:00.000Z"));
        QCOMPARE(queryValue(sent, "order"), QStringLiteral("asc"));
        QCOMPARE(queryValue(sent, "limit"), QStringLiteral("25"));
        QVERIFY(!sent.query.contains("nextToken"));
        QVERIFY(sent.body.isEmpty());
    }

    void listDefaultsToBothStates()
    {
        m_server->enqueue(200, "[]");
        ListSandboxesJob job(&m_network, settings());
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        const auto &sent = onlyRequest();
        QCOMPARE(queryValue(sent, "state"), QStringLiteral("running,paused"));
        QCOMPARE(queryValue(sent, "limit"), QStringLiteral("100"));
        QVERIFY(!sent.query.contains("metadata"));
        QVERIFY(!sent.query.contains("order"));
        QVERIFY(job.sandboxes().isEmpty());
        QCOMPARE(job.pages(), 1);
    }

    void listMetadataWithSeparatorsInValues()
    {
        // Encoded like the official SDK (encodeURIComponent per key and value, then
        // URLSearchParams, then the parameter encoding), a value holding '&', '=',
        // '%', '+', a space or non-ASCII comes back intact after the server's three
        // decodings.
        m_server->enqueue(200, "[]");
        SandboxFilter filter;
        filter.metadata = { { "a&b", "x=y&z" }, { "pct", "100% + more" },
            { "name", QStringLiteral("Zoë's (box)") } };
        ListSandboxesJob job(&m_network, settings(), filter);
        QVERIFY(run(job));
        // What the SDK sends for {pct: "100% + more"}.
        QVERIFY2(onlyRequest().query.contains("pct%3D100%252525%252520%25252B%252520more"),
            onlyRequest().query.constData());
        const QString pairs = queryValue(onlyRequest(), "metadata");
        QMap<QString, QString> decoded;
        for (const QString &pair : pairs.split(QLatin1Char('&'))) {
            const auto formDecode = [](QString text) {
                text.replace(QLatin1Char('+'), QLatin1Char(' '));
                return QUrl::fromPercentEncoding(QUrl::fromPercentEncoding(text.toUtf8()).toUtf8());
            };
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            QVERIFY(eq > 0);
            decoded.insert(formDecode(pair.left(eq)), formDecode(pair.mid(eq + 1)));
        }
        QCOMPARE(decoded, filter.metadata);
    }

    void listFollowsNextToken()
    {
        QJsonArray first, second, third;
        for (int i = 0; i < 3; ++i)
            first.append(listedObject(QStringLiteral("a%1").arg(i)));
        for (int i = 0; i < 3; ++i)
            second.append(listedObject(QStringLiteral("b%1").arg(i)));
        third.append(listedObject(QStringLiteral("c0")));
        m_server->enqueue(
            200, json(first), { { "X-Next-Token", "tok/1+==" }, { "X-Total-Running", "7" } });
        m_server->enqueue(
            200, json(second), { { "X-Next-Token", "tok2" }, { "X-Total-Running", "7" } });
        m_server->enqueue(200, json(third), { { "X-Total-Running", "7" } });
        SandboxFilter filter;
        filter.pageSize = 3;
        filter.metadata = { { "suite", "paging" } };
        ListSandboxesJob job(&m_network, settings(), filter);
        QSignalSpy pages(&job, &ListSandboxesJob::pageReceived);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(pages.count(), 3);
        QCOMPARE(pages.at(0).at(0).value<QList<Sandbox>>().size(), 3);
        QCOMPARE(pages.at(2).at(0).value<QList<Sandbox>>().first().sandboxId, QStringLiteral("c0"));
        QCOMPARE(job.sandboxes().size(), 7);
        QCOMPARE(job.pages(), 3);
        QCOMPARE(job.totalRunning(), 7);
        QCOMPARE(m_server->requests().size(), 3);
        QCOMPARE(queryValue(m_server->requests().at(1), "nextToken"), QStringLiteral("tok/1+=="));
        QCOMPARE(queryValue(m_server->requests().at(2), "nextToken"), QStringLiteral("tok2"));
        // Every page keeps the filter.
        for (const auto &request : m_server->requests()) {
            QCOMPARE(queryValue(request, "metadata"), QStringLiteral("suite=paging"));
            QCOMPARE(queryValue(request, "limit"), QStringLiteral("3"));
            QVERIFY(request.header("X-API-Key") == apiKey.toUtf8());
        }
    }

    // A page is read while the next one travels: by the time a page is announced, the
    // request for the next has been made (reading 100 sandboxes takes about as long as
    // the round trip, so reading first would nearly double a long list's time).
    void listAsksForTheNextPageBeforeReadingThisOne()
    {
        m_server->enqueue(
            200, json(QJsonArray { listedObject("a0") }), { { "X-Next-Token", "t2" } });
        m_server->enqueue(
            200, json(QJsonArray { listedObject("b0") }), { { "X-Next-Token", "t3" } });
        m_server->enqueue(200, json(QJsonArray { listedObject("c0") }));
        CountingNetwork network;
        ListSandboxesJob job(&network, settings());
        QList<int> requestsWhenRead;
        QStringList idsInOrder;
        connect(&job, &ListSandboxesJob::pageReceived, this, [&](const QList<Sandbox> &page) {
            requestsWhenRead << network.requestsMade;
            idsInOrder << page.first().sandboxId;
        });
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(requestsWhenRead, (QList<int> { 2, 3, 3 }));
        QCOMPARE(idsInOrder, (QStringList { "a0", "b0", "c0" }));
        QCOMPARE(job.sandboxes().size(), 3);
        QCOMPARE(job.pages(), 3);
    }

    // A page that cannot be read fails the list even though the next one is already
    // asked for: that request is dropped, and the job finishes once, with the reason.
    void listBadPageWhileTheNextIsOut()
    {
        m_server->enqueue(
            200, json(QJsonArray { listedObject("a0") }), { { "X-Next-Token", "t2" } });
        m_server->enqueue(200, "oops", { { "X-Next-Token", "t3" } });
        m_server->enqueue(200, json(QJsonArray { listedObject("c0") }));
        ListSandboxesJob job(&m_network, settings());
        QSignalSpy pages(&job, &ListSandboxesJob::pageReceived);
        QSignalSpy finished(&job, &Job::finished);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY2(job.error().message().contains(
                     QStringLiteral("the sandbox list could not be read: the answer is not JSON")),
            qPrintable(job.error().message()));
        QCOMPARE(pages.count(), 1);
        QCOMPARE(job.sandboxes().size(), 1);
        // Time for the dropped request's answer, had it been kept, to arrive.
        QTest::qWait(300);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
    }

    // A server that never stops paging is cut off, after reading what it sent.
    void listStopsAtMaxPages()
    {
        for (int i = 0; i < 4; ++i)
            m_server->enqueue(200, json(QJsonArray { listedObject(QStringLiteral("s%1").arg(i)) }),
                { { "X-Next-Token", "again" } });
        SandboxFilter filter;
        filter.maxPages = 3;
        ListSandboxesJob job(&m_network, settings(), filter);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY2(job.error().message().contains(QStringLiteral("kept paging after 3 pages")),
            qPrintable(job.error().message()));
        QCOMPARE(job.sandboxes().size(), 3);
        QCOMPARE(m_server->requests().size(), 3);
    }

    void listFirstPageOnly()
    {
        m_server->enqueue(200, json(QJsonArray { listedObject() }), { { "X-Next-Token", "more" } });
        SandboxFilter filter;
        filter.pageSize = 1;
        filter.followPages = false;
        filter.pageToken = QStringLiteral("from-before");
        ListSandboxesJob job(&m_network, settings(), filter);
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(queryValue(onlyRequest(), "nextToken"), QStringLiteral("from-before"));
        QCOMPARE(job.nextToken(), QStringLiteral("more"));
    }

    void listParsesSandboxes()
    {
        QJsonObject paused = listedObject(QStringLiteral("p1"));
        paused.insert("state", "paused");
        paused.insert("alias", "my-template");
        m_server->enqueue(200, json(QJsonArray { listedObject(), paused }));
        ListSandboxesJob job(&m_network, settings());
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(job.sandboxes().size(), 2);
        const Sandbox &s = job.sandboxes().first();
        QCOMPARE(s.sandboxId, sandboxId);
        QCOMPARE(s.startedAt, QDateTime(QDate(2026, 12, 2), QTime(10, 0, 0, 123), Qt::UTC));
        QCOMPARE(s.endAt, QDateTime(QDate(2026, 12, 2), QTime(10, 5), Qt::UTC));
        QCOMPARE(s.cpuCount, 2);
        QCOMPARE(s.memoryMB, 512);
        QCOMPARE(s.diskSizeMB, 1024);
        QCOMPARE(s.metadata, (Metadata { { "owner", "me" } }));
        QVERIFY(s.state == SandboxState::Running);
        QVERIFY(job.sandboxes().at(1).state == SandboxState::Paused);
        QCOMPARE(job.sandboxes().at(1).alias, QStringLiteral("my-template"));
    }

    void listParsing_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("problem");
        QJsonObject noStart = listedObject();
        noStart.remove("startedAt");
        QJsonObject badState = listedObject();
        badState.insert("state", "sleeping");
        QJsonObject badTime = listedObject();
        badTime.insert("endAt", "tomorrow");
        QTest::newRow("not an array")
            << QByteArray("{\"sandboxes\":[]}") << "expected a JSON array";
        QTest::newRow("not JSON") << QByteArray("oops") << "not JSON";
        QTest::newRow("missing startedAt")
            << json(QJsonArray { noStart }) << "missing field 'startedAt'";
        QTest::newRow("unknown state")
            << json(QJsonArray { badState }) << "unknown state 'sleeping'";
        QTest::newRow("bad time") << json(QJsonArray { badTime })
                                  << "'endAt' is not an ISO 8601 time";
        QTest::newRow("item not an object") << QByteArray("[1]") << "missing field 'sandboxID'";
    }

    void listParsing()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, problem);
        m_server->enqueue(200, body);
        ListSandboxesJob job(&m_network, settings());
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY2(job.error().message().contains(problem), qPrintable(job.error().message()));
    }

    // ---- get, kill, timeout -----------------------------------------------

    void getSandbox()
    {
        m_server->enqueue(200, json(listedObject()));
        GetSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().method, QByteArray("GET"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1());
        QCOMPARE(job.sandbox().sandboxId, sandboxId);
        QCOMPARE(job.sandbox().memoryMB, 512);
    }

    void getSandboxMissingField()
    {
        QJsonObject detail = listedObject();
        detail.remove("cpuCount");
        m_server->enqueue(200, json(detail));
        GetSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("missing field 'cpuCount'")));
    }

    void sandboxIdIsOnePathSegment()
    {
        m_server->enqueue(404, errorBody(404, "sandbox not found"));
        GetSandboxJob job(&m_network, settings(), QStringLiteral("../a b/c?d"));
        QVERIFY(run(job));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/..%2Fa%20b%2Fc%3Fd"));
        QVERIFY(onlyRequest().query.isEmpty());
        QCOMPARE(job.error().httpStatus(), 404);
        QVERIFY(job.error().message().startsWith(
            QStringLiteral("The server did not find it (HTTP 404): sandbox not found")));
    }

    // An ID that would make the path name another resource is refused unsent: a
    // server that resolves dot segments would take DELETE /sandboxes/.. for DELETE /.
    void sandboxIdOfDotsIsNeverSent()
    {
        for (const QString &id : { QStringLiteral(".."), QStringLiteral("."), QString() }) {
            KillSandboxJob job(&m_network, settings(), id);
            QVERIFY(run(job));
            QCOMPARE(job.error().kind(), Error::Kind::Rejected);
            QCOMPARE(job.error().message(), QStringLiteral("\"%1\" is not a sandbox ID").arg(id));
        }
        QVERIFY(m_server->requests().isEmpty());
    }

    void apiUrlWithBasePath()
    {
        m_server->enqueue(204);
        ConnectionSettings s = settings();
        s.apiUrl = m_server->url(QStringLiteral("/e2b/api/"));
        KillSandboxJob job(&m_network, s, sandboxId);
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().path, QByteArray("/e2b/api/sandboxes/") + sandboxId.toLatin1());
    }

    void killSandbox_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("alreadyGone");
        QTest::newRow("204 killed") << 204 << false;
        QTest::newRow("404 already gone") << 404 << true;
    }

    void killSandbox()
    {
        QFETCH(int, status);
        QFETCH(bool, alreadyGone);
        m_server->enqueue(
            status, status == 404 ? errorBody(404, "sandbox not found") : QByteArray());
        KillSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(onlyRequest().method, QByteArray("DELETE"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1());
        QVERIFY(onlyRequest().header("X-API-Key") == apiKey.toUtf8());
        QCOMPARE(job.wasAlreadyGone(), alreadyGone);
    }

    void killServerError()
    {
        m_server->enqueue(500, errorBody(500, "kill failed: injected"));
        KillSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::Http);
        QCOMPARE(job.error().httpStatus(), 500);
        QCOMPARE(job.error().message(),
            QStringLiteral(
                "The server failed to handle the request (HTTP 500): kill failed: injected"));
    }

    void setTimeout()
    {
        m_server->enqueue(204);
        SetTimeoutJob job(&m_network, settings(), sandboxId, 3600);
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().method, QByteArray("POST"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/timeout");
        QCOMPARE(bodyOf(onlyRequest()), (QJsonObject { { "timeout", 3600 } }));
        QCOMPARE(onlyRequest().header("Content-Type"), QByteArray("application/json"));
    }

    // ---- pause, resume, connect ----------------------------------------------

    void pause_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("alreadyPaused");
        QTest::newRow("204 paused") << 204 << false;
        QTest::newRow("409 already paused") << 409 << true;
    }

    void pause()
    {
        QFETCH(int, status);
        QFETCH(bool, alreadyPaused);
        m_server->enqueue(status, status == 409 ? errorBody(409, "already paused") : QByteArray());
        PauseSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().method, QByteArray("POST"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/pause");
        QCOMPARE(job.wasAlreadyPaused(), alreadyPaused);
    }

    void pauseUnknown()
    {
        m_server->enqueue(404, errorBody(404, "sandbox not found"));
        PauseSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().httpStatus(), 404);
    }

    void resume()
    {
        m_server->enqueue(201, createdJson());
        ResumeSandboxJob job(&m_network, settings(), sandboxId, 120);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(onlyRequest().method, QByteArray("POST"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/resume");
        QCOMPARE(bodyOf(onlyRequest()), (QJsonObject { { "timeout", 120 } }));
        QCOMPARE(job.sandbox().sandboxId, sandboxId);
        QCOMPARE(job.sandbox().envdAccessToken, QStringLiteral("envd-token"));
    }

    void resumeWithoutBody()
    {
        m_server->enqueue(201);
        ResumeSandboxJob job(&m_network, settings(), sandboxId, 120);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("empty")));
    }

    void resumeConflict()
    {
        m_server->enqueue(409, errorBody(409, "sandbox is already running"));
        ResumeSandboxJob job(&m_network, settings(), sandboxId, 120);
        QVERIFY(run(job));
        QCOMPARE(job.error().httpStatus(), 409);
        QCOMPARE(job.error().message(),
            QStringLiteral("The request conflicts with the sandbox's current state (HTTP 409): "
                           "sandbox is already running"));
    }

    void connectSandbox_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("resumed");
        QTest::newRow("200 was running") << 200 << false;
        QTest::newRow("201 resumed") << 201 << true;
    }

    void connectSandbox()
    {
        QFETCH(int, status);
        QFETCH(bool, resumed);
        m_server->enqueue(status, createdJson());
        ConnectSandboxJob job(&m_network, settings(), sandboxId, 300);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(onlyRequest().method, QByteArray("POST"));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/connect");
        QCOMPARE(bodyOf(onlyRequest()), (QJsonObject { { "timeout", 300 } }));
        QCOMPARE(job.wasResumed(), resumed);
        QCOMPARE(job.sandbox().sandboxId, sandboxId);
    }

    void connectNotJson()
    {
        m_server->enqueue(200, "sandbox ok");
        ConnectSandboxJob job(&m_network, settings(), sandboxId, 300);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("not JSON")));
    }

    // ---- logs, metrics, templates, health --------------------------------------

    void logs()
    {
        const QJsonObject entry { { "timestamp", "2026-12-02T10:00:01.5Z" }, { "level", "info" },
            { "message", "sandbox created" },
            { "fields", QJsonObject { { "event", "created" } } } };
        m_server->enqueue(200, json(QJsonObject { { "logs", QJsonArray { entry } } }));
        SandboxLogsJob job(&m_network, settings(), sandboxId);
        job.setSince(QDateTime::fromMSecsSinceEpoch(1764669600000, Qt::UTC));
        job.setLimit(50);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(onlyRequest().method, QByteArray("GET"));
        QCOMPARE(onlyRequest().path, QByteArray("/v2/sandboxes/") + sandboxId.toLatin1() + "/logs");
        QCOMPARE(queryValue(onlyRequest(), "cursor"), QStringLiteral("1764669600000"));
        QCOMPARE(queryValue(onlyRequest(), "limit"), QStringLiteral("50"));
        QCOMPARE(job.entries().size(), 1);
        QCOMPARE(job.entries().first().message, QStringLiteral("sandbox created"));
        QCOMPARE(job.entries().first().level, QStringLiteral("info"));
        QCOMPARE(job.entries().first().fields.value("event"), QStringLiteral("created"));
        QCOMPARE(job.entries().first().timestamp,
            QDateTime(QDate(2026, 12, 2), QTime(10, 0, 1, 500), Qt::UTC));
    }

    void logsFallBackToV1()
    {
        m_server->enqueue(404, errorBody(404, "not found"));
        const QJsonObject entry { { "timestamp", "2026-12-02T10:00:01Z" }, { "level", "warn" },
            { "message", "sandbox expired" }, { "fields", QJsonObject {} } };
        m_server->enqueue(200,
            json(QJsonObject {
                { "logs",
                    QJsonArray { QJsonObject {
                        { "timestamp", "2026-12-02T10:00:01Z" }, { "line", "x" } } } },
                { "logEntries", QJsonArray { entry } } }));
        SandboxLogsJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(m_server->requests().at(1).path,
            QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/logs");
        QCOMPARE(job.entries().size(), 1);
        QCOMPARE(job.entries().first().level, QStringLiteral("warn"));
    }

    void logsMissingMessage()
    {
        m_server->enqueue(200,
            json(QJsonObject { { "logs",
                QJsonArray { QJsonObject { { "timestamp", "2026-12-02T10:00:01Z" } } } } }));
        SandboxLogsJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("missing field 'message'")));
    }

    void metrics()
    {
        const QJsonObject sample { { "timestamp", "2026-12-02T10:00:00Z" },
            { "timestampUnix", 1764669600 }, { "cpuCount", 2 }, { "cpuUsedPct", 12.5 },
            { "memUsed", 104857600 }, { "memTotal", 536870912 }, { "memCache", 1024 },
            { "diskUsed", 2048 }, { "diskTotal", 4096 } };
        m_server->enqueue(200, json(QJsonArray { sample }));
        SandboxMetricsJob job(&m_network, settings(), sandboxId);
        job.setInterval(QDateTime::fromSecsSinceEpoch(1764669000, Qt::UTC),
            QDateTime::fromSecsSinceEpoch(1764669600, Qt::UTC));
        QVERIFY(run(job));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(onlyRequest().path, QByteArray("/sandboxes/") + sandboxId.toLatin1() + "/metrics");
        QCOMPARE(queryValue(onlyRequest(), "start"), QStringLiteral("1764669000"));
        QCOMPARE(queryValue(onlyRequest(), "end"), QStringLiteral("1764669600"));
        QCOMPARE(job.metrics().size(), 1);
        const SandboxMetric &m = job.metrics().first();
        QCOMPARE(m.timestamp, QDateTime::fromSecsSinceEpoch(1764669600, Qt::UTC));
        QCOMPARE(m.cpuCount, 2);
        QCOMPARE(m.cpuUsedPct, 12.5);
        QCOMPARE(m.memUsed, 104857600);
        QCOMPARE(m.memTotal, 536870912);
        QCOMPARE(m.diskTotal, 4096);
    }

    // What the local backend serves is what the client parses, field for field.
    void metricJsonRoundTrip()
    {
        SandboxMetric sample;
        // Whole seconds: the client reads timestampUnix, the API's seconds field.
        sample.timestamp = QDateTime::fromSecsSinceEpoch(1764669600, Qt::UTC);
        sample.cpuCount = 4;
        sample.cpuUsedPct = 37.25;
        sample.memUsed = 123456789;
        sample.memTotal = 1073741824;
        sample.memCache = 4096;
        sample.diskUsed = 8192;
        sample.diskTotal = 10737418240;
        const QJsonObject json = sample.toJson();
        QCOMPARE(json.value(QLatin1String("timestampUnix")).toInteger(), 1764669600);
        QString problem;
        const auto parsed = SandboxMetric::fromJson(json, &problem);
        QVERIFY2(parsed.has_value(), qPrintable(problem));
        QCOMPARE(*parsed, sample);
    }

    void metricsMissingField()
    {
        m_server->enqueue(200,
            json(QJsonArray { QJsonObject { { "timestampUnix", 1 }, { "cpuCount", 1 },
                { "memUsed", 1 }, { "memTotal", 1 } } }));
        SandboxMetricsJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("missing field 'cpuUsedPct'")));
    }

    void templates()
    {
        m_server->enqueue(200,
            json(QJsonArray {
                QJsonObject { { "templateID", "base" }, { "aliases", QJsonArray { "base" } },
                    { "cpuCount", 2 }, { "memoryMB", 512 } },
                QJsonObject { { "templateID", "mcp-gateway" },
                    { "names", QJsonArray { "mcp-gateway" } }, { "public", true } } }));
        ListTemplatesJob job(&m_network, settings());
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().method, QByteArray("GET"));
        QCOMPARE(onlyRequest().path, QByteArray("/templates"));
        QVERIFY(onlyRequest().header("X-API-Key") == apiKey.toUtf8());
        QCOMPARE(job.templates().size(), 2);
        QCOMPARE(job.templates().at(0).templateId, QStringLiteral("base"));
        QCOMPARE(job.templates().at(0).aliases, QStringList { "base" });
        QCOMPARE(job.templates().at(0).memoryMB, 512);
        QCOMPARE(job.templates().at(1).names, QStringList { "mcp-gateway" });
        QVERIFY(job.templates().at(1).isPublic);
    }

    void templatesMissingId()
    {
        m_server->enqueue(
            200, json(QJsonArray { QJsonObject { { "aliases", QJsonArray { "base" } } } }));
        ListTemplatesJob job(&m_network, settings());
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::BadResponse);
        QVERIFY(job.error().message().contains(QStringLiteral("missing field 'templateID'")));
    }

    void healthSendsNoKey_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("204") << 204;
        QTest::newRow("200") << 200;
    }

    void healthSendsNoKey()
    {
        QFETCH(int, status);
        m_server->enqueue(status);
        HealthJob job(&m_network, settings());
        QVERIFY(run(job));
        QVERIFY(!job.hasError());
        QCOMPARE(onlyRequest().method, QByteArray("GET"));
        QCOMPARE(onlyRequest().path, QByteArray("/health"));
        QVERIFY(!onlyRequest().hasHeader("X-API-Key"));
    }

    // ---- errors, timeout, cancel, redirects ----------------------------------

    void unauthorizedSaysCheckTheKey()
    {
        // A server that echoes the key must not get it into the error text.
        m_server->enqueue(401, errorBody(401, QStringLiteral("Invalid API key: ") + apiKey));
        ListSandboxesJob job(&m_network, settings());
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::Http);
        QCOMPARE(job.error().httpStatus(), 401);
        // QVERIFY: if scrubbing failed, QCOMPARE would print the key.
        QVERIFY(job.error().message()
            == QStringLiteral(
                "The server refused the API key (HTTP 401): Invalid API key: <api key>. "
                "Check the key in the profile settings."));
        QVERIFY(!job.error().message().contains(apiKey));
        QVERIFY(!job.error().detail().contains(apiKey));
    }

    void errorBodyThatIsNotJson()
    {
        m_server->enqueue(502, "<html>Bad Gateway</html>");
        GetSandboxJob job(&m_network, settings(), sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().httpStatus(), 502);
        QCOMPARE(job.error().serverMessage(), QStringLiteral("<html>Bad Gateway</html>"));
    }

    void noKeyHeaderWhenKeyEmpty()
    {
        m_server->enqueue(401, errorBody(401, "missing key"));
        ConnectionSettings s = settings();
        s.apiKey.clear();
        ListSandboxesJob job(&m_network, s);
        QVERIFY(run(job));
        QVERIFY(!onlyRequest().hasHeader("X-API-Key"));
    }

    void timeoutIsReportedAsTimeout()
    {
        // A create that times out after the body went out is ambiguous: the caller
        // must know the server may have acted on it.
        m_server->enqueueHang();
        CreateSandboxJob job(&m_network, settings(),
            NewSandbox { QStringLiteral("base"), {}, {}, {}, {}, {}, false });
        job.setTimeout(std::chrono::milliseconds(300));
        QVERIFY(run(job));
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Timeout);
        QVERIFY(
            job.error().message().startsWith(QStringLiteral("The server did not answer in time")));
        QVERIFY(job.requestWasSent());
    }

    void cancelIsIdempotentAndFinishesOnce()
    {
        m_server->enqueueHang();
        GetSandboxJob job(&m_network, settings(), sandboxId);
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        QSignalSpy received(m_server.get(), &FakeServer::requestReceived);
        job.start();
        QVERIFY(received.wait(20000));
        job.cancel();
        job.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        job.cancel();
        QTest::qWait(100);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
        QCOMPARE(job.error().message(), QStringLiteral("Cancelled"));
    }

    void cancelBeforeItRuns()
    {
        KillSandboxJob job(&m_network, settings(), sandboxId);
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        job.cancel();
        job.cancel();
        QTest::qWait(100);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
        QCOMPARE(m_server->connectionCount(), 0);
    }

    void deletingARunningJobIsClean()
    {
        m_server->enqueueHang();
        auto *job = new ListSandboxesJob(&m_network, settings());
        QSignalSpy received(m_server.get(), &FakeServer::requestReceived);
        job->start();
        QVERIFY(received.wait(20000));
        delete job; // must abort the reply without touching the dead job
        QTest::qWait(50);
    }

    void redirectIsRefusedAndKeyStaysHome_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("302") << 302;
        QTest::newRow("307") << 307;
        QTest::newRow("308") << 308;
    }

    void redirectIsRefusedAndKeyStaysHome()
    {
        QFETCH(int, status);
        FakeServer elsewhere;
        QVERIFY(elsewhere.listen());
        elsewhere.enqueue(201, createdJson());
        m_server->enqueue(status, {},
            { { "Location", elsewhere.url(QStringLiteral("/v2/sandboxes")).toEncoded() } });
        CreateSandboxJob job(&m_network, settings(),
            NewSandbox { QStringLiteral("base"), {}, {}, {}, {}, {}, false });
        QVERIFY(run(job));
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Http);
        QCOMPARE(job.error().httpStatus(), status);
        QVERIFY2(job.error().message().contains(QStringLiteral("redirects are not followed")),
            qPrintable(job.error().message()));
        QVERIFY(!job.error().message().contains(apiKey));
        // Give a follow-up every chance to happen before asserting it did not.
        QTest::qWait(300);
        QCOMPARE(elsewhere.connectionCount(), 0);
        QVERIFY(elsewhere.requests().isEmpty());
    }

    void transportErrorWhenNobodyListens()
    {
        ConnectionSettings s = settings();
        m_server.reset(); // the port is now closed
        m_server = std::make_unique<FakeServer>();
        QVERIFY(m_server->listen());
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        s.apiUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort()));
        probe.close();
        GetSandboxJob job(&m_network, s, sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::Transport);
        QVERIFY2(job.error().message().startsWith(QStringLiteral("Could not reach the server")),
            qPrintable(job.error().message()));
        QVERIFY(!job.requestWasSent());
    }

    void truncatedAnswerIsATransportError()
    {
        m_server->enqueue(FakeServer::Response {
            200, json(QJsonArray { listedObject() }), {}, FakeServer::Response::Mode::Truncate });
        ListSandboxesJob job(&m_network, settings());
        QVERIFY(run(job));
        QVERIFY2(job.error().kind() == Error::Kind::Transport, qPrintable(job.error().message()));
    }

    void invalidApiUrlIsRejectedBeforeSending_data()
    {
        QTest::addColumn<QUrl>("url");
        QTest::newRow("empty") << QUrl();
        QTest::newRow("no host") << QUrl(QStringLiteral("http://"));
        QTest::newRow("ftp") << QUrl(QStringLiteral("ftp://127.0.0.1/"));
    }

    void invalidApiUrlIsRejectedBeforeSending()
    {
        QFETCH(QUrl, url);
        ConnectionSettings s = settings();
        s.apiUrl = url;
        KillSandboxJob job(&m_network, s, sandboxId);
        QVERIFY(run(job));
        QCOMPARE(job.error().kind(), Error::Kind::Rejected);
        QVERIFY(job.error().message().contains(QStringLiteral("Check the profile settings")));
        QCOMPARE(m_server->connectionCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestApiJobs)
#include "tst_apijobs.moc"
