// readPlainListedPage(): a list page read straight from its bytes must be exactly what
// Qt's parser and Sandbox::fromListed() make of it, and the usual pages must be read
// that way. Every body below is read both ways; where the direct reader declines, the
// job reads the page with Qt's parser, as before.
#include "api/replydecoding.h"

#include <QJsonDocument>
#include <QTest>

using namespace sd;

// Declared ahead of the sample pages: moc does not read raw string literals.
class TestListedPage : public QObject
{
    Q_OBJECT

    int m_direct = 0; // bodies the direct reader took
    void compareWithQt(const QByteArray &body);

private Q_SLOTS:
    void theUsualPagesAreReadDirectly();
    void everyFieldWithEveryKindOfValue();
    void repeatedFieldsSpacingAndWhatFollows();
    void everyCutOfAPage();
};

namespace {

std::optional<QList<Sandbox>> readWithQt(const QByteArray &body)
{
    QString problem;
    const auto array = parseJsonArray(body, &problem);
    if (!array)
        return std::nullopt;
    return parseEach<Sandbox>(*array, &Sandbox::fromListed, &problem);
}

// As the local backend writes one (its field order, its volumeMounts).
const QByteArray localSandbox
    = R"({"alias":"base","clientID":"1185544a","cpuCount":2,"diskSizeMB":1024,)"
      R"("endAt":"2026-12-06T17:28:19.626Z","envdVersion":"0.2.0","memoryMB":512,)"
      R"("metadata":{"owner":"me","sd.creation":"c-1"},"sandboxID":"mto072o41dbk6iis5qs4",)"
      R"("startedAt":"2026-12-06T16:28:19.626Z","state":"running","templateID":"base",)"
      R"("volumeMounts":[]})";
// As E2B's API documents one, with the optional fields.
const QByteArray cloudSandbox
    = R"({ "templateID": "mcp-gateway", "alias": null, "sandboxID": "i5bz3q7yt2kx0m9wd4ha",)"
      R"( "clientID": "6532622b", "startedAt": "2026-12-02T10:00:00.123456Z",)"
      R"( "endAt": "2026-12-02T10:05:00Z", "cpuCount": 8, "memoryMB": 8192, "diskSizeMB": 20480,)"
      R"( "metadata": {}, "state": "paused", "envdVersion": "0.4.2", "domain": null,)"
      R"( "allowInternetAccess": false, "network": {"allowOut": ["a.example"], "mask": null} })";

} // namespace

void TestListedPage::compareWithQt(const QByteArray &body)
{
    const auto direct = readPlainListedPage(body);
    if (!direct)
        return;
    ++m_direct;
    const auto qt = readWithQt(body);
    QVERIFY2(qt.has_value(), body.constData());
    QVERIFY2(*direct == *qt, body.constData());
    // Equal strings may still differ in being null ("alias": null) or empty ("").
    for (qsizetype i = 0; i < direct->size(); ++i) {
        for (QString Sandbox::*text :
            { &Sandbox::sandboxId, &Sandbox::templateId, &Sandbox::alias, &Sandbox::clientId,
                &Sandbox::envdVersion, &Sandbox::envdAccessToken, &Sandbox::domain })
            QVERIFY2(((*direct)[i].*text).isNull() == ((*qt)[i].*text).isNull(), body.constData());
    }
}

void TestListedPage::theUsualPagesAreReadDirectly()
{
    for (const QByteArray &page : { "[" + localSandbox + "," + cloudSandbox + "]",
             "[]" + QByteArray(" \n"), "[" + localSandbox + "]" }) {
        const auto direct = readPlainListedPage(page);
        QVERIFY2(direct.has_value(), page.constData());
        const auto qt = readWithQt(page);
        QVERIFY(qt.has_value());
        QCOMPARE(direct->size(), qt->size());
        QVERIFY(*direct == *qt);
    }
    const QList<Sandbox> two = *readPlainListedPage("[" + localSandbox + "," + cloudSandbox + "]");
    QCOMPARE(two.at(0).metadata.value(QStringLiteral("sd.creation")), QStringLiteral("c-1"));
    QVERIFY(two.at(1).state == SandboxState::Paused);
    QCOMPARE(two.at(1).allowInternetAccess, std::optional<bool>(false));
    QCOMPARE(two.at(1).startedAt.time().msec(), 123);
}

void TestListedPage::everyFieldWithEveryKindOfValue()
{
    // Each field of the local backend's sandbox replaced by each value (or left
    // out): whatever the direct reader takes must match Qt's reading.
    const QList<QByteArray> fields { "sandboxID", "templateID", "alias", "clientID", "envdVersion",
        "envdAccessToken", "domain", "startedAt", "endAt", "cpuCount", "memoryMB", "diskSizeMB",
        "state", "metadata", "allowInternetAccess", "volumeMounts", "unknown" };
    const QList<QByteArray> values { "", "null", "true", "false", "0", "-0", "7", "-3",
        "2147483647", "2147483648", "-2147483649", "99999999999999", "999999999999999",
        "9999999999999999", "1.5", "1e3", "01", "-", R"("")", R"("x")", R"("running")",
        R"("paused")", R"("2026-12-02T10:00:00Z")", R"("2026-12-02T10:00:00.123456789Z")",
        R"("2026-12-02T10:00:00+01:00")", R"("not a time")", R"("\u00e9")", "\"\xc3\xa9\"",
        R"("a\"b")", "\"tab\there\"", "[]", R"([1,"a",{},[null]])", "{}", R"({"k":"v"})",
        R"({"k":1})", R"({"k":"v","k":"w"})", R"({"a":"1","b":"2"})", R"({"a":null})",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]" };
    const QJsonObject base = QJsonDocument::fromJson(localSandbox).object();
    for (const QByteArray &field : fields) {
        for (const QByteArray &value : values) {
            QByteArray object = "{";
            bool placed = false;
            for (auto it = base.begin(); it != base.end(); ++it) {
                const QByteArray key = it.key().toUtf8();
                const QByteArray original
                    = QJsonDocument(QJsonArray { it.value() }).toJson(QJsonDocument::Compact);
                QByteArray member = '"' + key + "\":" + original.mid(1, original.size() - 2);
                if (key == field) {
                    placed = true;
                    if (value.isEmpty())
                        continue;
                    member = '"' + key + "\":" + value;
                }
                object += (object.size() > 1 ? "," : "") + member;
            }
            if (!placed && !value.isEmpty())
                object += ",\"" + field + "\":" + value;
            object += "}";
            compareWithQt("[" + object + "]");
            compareWithQt("[" + localSandbox + ", " + object + "]");
        }
    }
    QVERIFY(m_direct > 200); // the test is not vacuous
}

void TestListedPage::repeatedFieldsSpacingAndWhatFollows()
{
    const QList<QByteArray> bodies {
        R"([{"sandboxID":"a","sandboxID":"b","templateID":"t","startedAt":"2026-12-02T10:00:00Z","endAt":"2026-12-02T10:00:00Z","cpuCount":1,"memoryMB":1,"state":"running"}])",
        " \t\r\n[ \n" + localSandbox + " \r\n] \n",
        "[" + localSandbox + "] x",
        "[" + localSandbox + "],",
        "[" + localSandbox + ",]",
        "[," + localSandbox + "]",
        "[" + localSandbox + localSandbox + "]",
        "{\"sandboxes\":[" + localSandbox + "]}",
        "[" + localSandbox + "]\0",
        "\xef\xbb\xbf[" + localSandbox + "]",
        "[1]",
        "[null]",
        "[[]]",
    };
    for (const QByteArray &body : bodies)
        compareWithQt(body);
}

void TestListedPage::everyCutOfAPage()
{
    const QByteArray page = "[" + localSandbox + "," + cloudSandbox + "," + localSandbox + "]";
    for (qsizetype length = 0; length <= page.size(); ++length) {
        compareWithQt(page.left(length));
        QByteArray flipped = page;
        if (length < page.size()) {
            flipped[length] = char(flipped[length] ^ 0x20);
            compareWithQt(flipped);
        }
    }
    QVERIFY(readPlainListedPage(page).has_value());
    QVERIFY(!readPlainListedPage(page.left(page.size() - 1)).has_value());
}

QTEST_GUILESS_MAIN(TestListedPage)
#include "tst_listedpage.moc"
