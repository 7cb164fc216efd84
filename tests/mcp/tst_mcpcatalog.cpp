#include "mcp/mcpcatalog.h"

#include <QTest>

using sd::McpCatalog;

// The catalog is compiled into sdcore; this executable links sdcore statically, so
// these tests also prove the resource survives static linking.
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
        QFile file(QStringLiteral(":/sd/mcp-catalog.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(!text.contains("\"description\""));
        QVERIFY(!text.contains("hub.docker.com"));
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
