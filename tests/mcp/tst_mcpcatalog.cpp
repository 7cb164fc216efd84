#include "mcp/mcpcatalog.h"
#include "mcp/mcpcatalogtables.h"

#include <QFile>
#include <QTest>

using sd::McpCatalog;

namespace tricky {
// The tables the build's generator made of tricky-catalog.json.
#include "trickycatalog.inc"
} // namespace tricky

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s: %s", qPrintable(path), qPrintable(file.errorString()));
    return file.readAll();
}

// Fails the calling test with the first server or option where the two differ.
void compareCatalogs(const McpCatalog &actual, const McpCatalog &expected)
{
    QCOMPARE(actual.servers().size(), expected.servers().size());
    for (qsizetype i = 0; i < expected.servers().size(); ++i) {
        const sd::McpServer &a = actual.servers().at(i);
        const sd::McpServer &e = expected.servers().at(i);
        QCOMPARE(a.id, e.id);
        QCOMPARE(a.title, e.title);
        QCOMPARE(a.options.size(), e.options.size());
        for (qsizetype o = 0; o < e.options.size(); ++o) {
            const sd::McpOption &ao = a.options.at(o);
            const sd::McpOption &eo = e.options.at(o);
            QCOMPARE(ao.name, eo.name);
            QCOMPARE(ao.type, eo.type);
            QCOMPARE(ao.itemType, eo.itemType);
            QCOMPARE(ao.required, eo.required);
            QCOMPARE(ao.secret, eo.secret);
        }
    }
}

} // namespace

// The catalog is compiled into sdcore as tables; this executable links sdcore
// statically, so these tests also prove the tables survive static linking.
class TestMcpCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsAllServers()
    {
        const McpCatalog &catalog = McpCatalog::instance();
        QVERIFY2(catalog.errorString().isEmpty(), qPrintable(catalog.errorString()));
        QCOMPARE(catalog.servers().size(), 265);
        // Sorted and unique: server() relies on it.
        for (qsizetype i = 1; i < catalog.servers().size(); ++i)
            QVERIFY(catalog.servers().at(i - 1).id < catalog.servers().at(i).id);
        QCOMPARE(&McpCatalog::instance(), &catalog); // one shared instance
    }

    void requiredOptions_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QStringList>("required");
        QTest::newRow("airtable") << "airtable"
                                  << "Airtable" << QStringList { "airtableApiKey", "nodeenv" };
        QTest::newRow("browserbase")
            << "browserbase"
            << "Browserbase" << QStringList { "apiKey", "geminiApiKey", "projectId" };
        QTest::newRow("jetbrains") << "jetbrains"
                                   << "JetBrains" << QStringList { "port" };
        QTest::newRow("no options") << "amazonBedrockAgentcore"
                                    << "AWS Bedrock AgentCore" << QStringList {};
    }

    void requiredOptions()
    {
        QFETCH(QString, id);
        QFETCH(QString, title);
        QFETCH(QStringList, required);
        const sd::McpServer server = McpCatalog::instance().server(id);
        QVERIFY(server.isValid());
        QCOMPARE(server.id, id);
        QCOMPARE(server.title, title);
        QCOMPARE(server.requiredOptions(), required);
    }

    void optionFacts()
    {
        const McpCatalog &catalog = McpCatalog::instance();
        const sd::McpServer airtable = catalog.server(QStringLiteral("airtable"));
        QVERIFY(airtable.option(QStringLiteral("airtableApiKey")));
        QCOMPARE(airtable.option(QStringLiteral("airtableApiKey"))->type, QStringLiteral("string"));
        QVERIFY(airtable.option(QStringLiteral("airtableApiKey"))->secret);
        QVERIFY(!airtable.option(QStringLiteral("nodeenv"))->secret);
        QVERIFY(!airtable.option(QStringLiteral("nope")));

        const sd::McpServer fs = catalog.server(QStringLiteral("filesystem"));
        QCOMPARE(fs.option(QStringLiteral("paths"))->type, QStringLiteral("array"));
        QCOMPARE(fs.option(QStringLiteral("paths"))->itemType, QStringLiteral("string"));

        QCOMPARE(catalog.server(QStringLiteral("jetbrains")).option(QStringLiteral("port"))->type,
            QStringLiteral("integer"));
        QVERIFY(
            !catalog.server(QStringLiteral("jetbrains")).option(QStringLiteral("port"))->secret);
        QCOMPARE(catalog.server(QStringLiteral("textToGraphql"))
                     .option(QStringLiteral("modelTemperature"))
                     ->type,
            QStringLiteral("number"));
        QCOMPARE(
            catalog.server(QStringLiteral("glif")).option(QStringLiteral("ignoredSaved"))->type,
            QStringLiteral("boolean"));
        // Paths to key files are not secrets themselves.
        QVERIFY(
            !catalog.server(QStringLiteral("redis")).option(QStringLiteral("sslKeyfile"))->secret);
        QVERIFY(catalog.server(QStringLiteral("redis")).option(QStringLiteral("pwd"))->secret);
    }

    void unknownServer()
    {
        const McpCatalog &catalog = McpCatalog::instance();
        QVERIFY(!catalog.server(QStringLiteral("notAServer")).isValid());
        QVERIFY(!catalog.contains(QStringLiteral("Airtable")));
        QVERIFY(catalog.contains(QStringLiteral("airtable")));
        QCOMPARE(
            catalog.findCaseInsensitive(QStringLiteral("AIRTABLE")), QStringLiteral("airtable"));
        QVERIFY(catalog.findCaseInsensitive(QStringLiteral("zzz")).isEmpty());
    }

    void factsOnly()
    {
        // The generator copies no prose: no server carries anything but id, title, options.
        const QByteArray text = readFile(QStringLiteral(SD_MCP_CATALOG_JSON));
        QVERIFY(!text.contains("\"description\""));
        QVERIFY(!text.contains("hub.docker.com"));
    }

    void builtInTablesHoldTheCatalogFile()
    {
        const McpCatalog file = McpCatalog::fromJson(readFile(QStringLiteral(SD_MCP_CATALOG_JSON)));
        QVERIFY2(file.errorString().isEmpty(), qPrintable(file.errorString()));
        compareCatalogs(McpCatalog::instance(), file);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(McpCatalog::instance().servers().size(), 265);
    }

    void tablesKeepEveryCharacter()
    {
        const McpCatalog json
            = McpCatalog::fromJson(readFile(QStringLiteral(SD_TRICKY_CATALOG_JSON)));
        QVERIFY2(json.errorString().isEmpty(), qPrintable(json.errorString()));
        const McpCatalog tables = McpCatalog::fromServers(
            sd::mcpcatalogtables::servers(tricky::catalogServers, tricky::catalogOptions));
        compareCatalogs(tables, json);
        if (QTest::currentTestFailed())
            return;

        // What the comparison covers, spelled out: what parsing keeps and leaves out.
        QCOMPARE(tables.servers().size(), 5); // the one without an id is left out
        QCOMPARE(tables.servers().first().id, QStringLiteral("aFirst"));
        const sd::McpServer quoted = tables.server(QStringLiteral("quote\"back\\slash"));
        QCOMPARE(quoted.title,
            QStringView(u"tab\there, newline\nthere, bell\a, delete\x7f, nul").toString() + QChar(0)
                + QStringLiteral("inside"));
        const sd::McpServer nonAscii = tables.server(QStringLiteral("nonAscii"));
        QCOMPARE(nonAscii.title, QString::fromUtf8("Café Zoë, naïve, 日本語, a duck 🦆"));
        QCOMPARE(nonAscii.options.size(), 1); // the nameless option is left out
        QCOMPARE(nonAscii.options.first().name, QString::fromUtf8("élan"));
        QCOMPARE(nonAscii.options.first().itemType, QStringLiteral("string"));
        const sd::McpServer hex = tables.server(QStringLiteral("hexAfterEscape"));
        QCOMPARE(hex.title, QString::fromUtf8("é0é9éaéFéG"));
        QCOMPARE(hex.options.first().type, QStringLiteral("any"));
        QVERIFY(hex.options.first().required);
    }

    void brokenCatalogIsReported()
    {
        const McpCatalog broken = McpCatalog::fromJson("[not json");
        QVERIFY(broken.isEmpty());
        QVERIFY(!broken.errorString().isEmpty());

        const McpCatalog small = McpCatalog::fromJson(
            R"({"servers":[{"id":"b","title":"B","options":[]},{"id":"a","title":"A","options":[{"name":"x","type":"integer","required":true,"secret":false}]}]})");
        QVERIFY(small.errorString().isEmpty());
        QCOMPARE(small.servers().size(), 2);
        QCOMPARE(small.servers().first().id, QStringLiteral("a"));
        QCOMPARE(small.server(QStringLiteral("a")).requiredOptions(), QStringList { "x" });
    }
};

QTEST_GUILESS_MAIN(TestMcpCatalog)
#include "tst_mcpcatalog.moc"
