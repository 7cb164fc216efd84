#include "mcp/mcpconfigcheck.h"

#include <QTest>

using sd::McpConfigCheck;
using sd::McpFinding;

class TestMcpConfigCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void check_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<int>("errors");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<QString>("server"); // of the first finding
        QTest::addColumn<QStringList>("options"); // of the first finding
        QTest::addColumn<QStringList>("mentions"); // words its message must hold

        QTest::newRow("valid") << QByteArray(R"({"airtable":{"airtableApiKey":"k","nodeenv":"n"}})")
                               << 0 << 0 << QString() << QStringList() << QStringList();
        QTest::newRow("empty config")
            << QByteArray("{}") << 0 << 0 << QString() << QStringList() << QStringList();
        QTest::newRow("server without options")
            << QByteArray(R"({"amazonBedrockAgentcore":{}})") << 0 << 0 << QString()
            << QStringList() << QStringList();
        QTest::newRow("all types right") << QByteArray(
            R"({"jetbrains":{"port":8080},"filesystem":{"paths":["/a","/b"]},)"
            R"("glif":{"apiToken":"t","ids":"1","ignoredSaved":true},)"
            R"("textToGraphql":{"graphqlApiKey":"a","graphqlAuthType":"b","graphqlEndpoint":"c",)"
            R"("modelName":"d","modelTemperature":0.5,"openaiApiKey":"e"}})")
                                         << 0 << 0 << QString() << QStringList() << QStringList();
        QTest::newRow("integer accepted as number") << QByteArray(
            R"({"textToGraphql":{"graphqlApiKey":"a","graphqlAuthType":"b","graphqlEndpoint":"c",)"
            R"("modelName":"d","modelTemperature":1,"openaiApiKey":"e"}})")
                                                    << 0 << 0 << QString() << QStringList()
                                                    << QStringList();

        QTest::newRow("missing both required")
            << QByteArray(R"({"airtable":{}})") << 1 << 0 << "airtable"
            << QStringList { "airtableApiKey", "nodeenv" }
            << QStringList { "airtable", "airtableApiKey", "nodeenv", "missing" };
        QTest::newRow("missing one required")
            << QByteArray(R"({"airtable":{"nodeenv":"x"}})") << 1 << 0 << "airtable"
            << QStringList { "airtableApiKey" }
            << QStringList { "airtable", "airtableApiKey", "Add" };
        QTest::newRow("string for integer")
            << QByteArray(R"({"jetbrains":{"port":"8080"}})") << 1 << 0 << "jetbrains"
            << QStringList { "port" } << QStringList { "jetbrains", "port", "integer", "a string" };
        QTest::newRow("fraction for integer")
            << QByteArray(R"({"jetbrains":{"port":80.5}})") << 1 << 0 << "jetbrains"
            << QStringList { "port" } << QStringList { "integer", "a number" };
        QTest::newRow("number for string")
            << QByteArray(R"({"airtable":{"airtableApiKey":5,"nodeenv":"n"}})") << 1 << 0
            << "airtable" << QStringList { "airtableApiKey" }
            << QStringList { "airtableApiKey", "string", "an integer" };
        QTest::newRow("null for string")
            << QByteArray(R"({"airtable":{"airtableApiKey":null,"nodeenv":"n"}})") << 1 << 0
            << "airtable" << QStringList { "airtableApiKey" } << QStringList { "null" };
        QTest::newRow("string for boolean")
            << QByteArray(R"({"glif":{"apiToken":"t","ids":"1","ignoredSaved":"true"}})") << 1 << 0
            << "glif" << QStringList { "ignoredSaved" } << QStringList { "boolean" };
        QTest::newRow("string for array")
            << QByteArray(R"({"filesystem":{"paths":"/a"}})") << 1 << 0 << "filesystem"
            << QStringList { "paths" } << QStringList { "array of string" };
        QTest::newRow("array holding a number")
            << QByteArray(R"({"filesystem":{"paths":["/a",3]}})") << 1 << 0 << "filesystem"
            << QStringList { "paths" } << QStringList { "array of string" };
        QTest::newRow("missing and wrong type")
            << QByteArray(R"({"airtable":{"nodeenv":3}})") << 2 << 0 << "airtable"
            << QStringList { "airtableApiKey" } << QStringList { "airtableApiKey" };

        QTest::newRow("unknown server")
            << QByteArray(R"({"notAServer":{"x":1}})") << 0 << 1 << "notAServer" << QStringList()
            << QStringList { "notAServer", "spelling" };
        QTest::newRow("unknown server, other case")
            << QByteArray(R"({"AirTable":{}})") << 0 << 1 << "AirTable" << QStringList()
            << QStringList { "Did you mean \"airtable\"" };
        QTest::newRow("unknown option")
            << QByteArray(R"({"jetbrains":{"port":1,"colour":"red"}})") << 0 << 1 << "jetbrains"
            << QStringList { "colour" } << QStringList { "jetbrains", "colour" };
        QTest::newRow("server value a string")
            << QByteArray(R"({"airtable":"key"})") << 1 << 0 << "airtable" << QStringList()
            << QStringList { "airtable", "JSON object" };
        QTest::newRow("server value an array")
            << QByteArray(R"({"airtable":[]})") << 1 << 0 << "airtable" << QStringList()
            << QStringList { "an array" };
        QTest::newRow("unknown server value null")
            << QByteArray(R"({"other":null})") << 1 << 0 << "other" << QStringList()
            << QStringList { "null" };
    }

    void check()
    {
        QFETCH(QByteArray, config);
        QFETCH(int, errors);
        QFETCH(int, warnings);
        QFETCH(QString, server);
        QFETCH(QStringList, options);
        QFETCH(QStringList, mentions);

        const sd::McpConfigParse parsed = McpConfigCheck::parse(config);
        QVERIFY2(parsed.ok, qPrintable(parsed.message));
        const QList<McpFinding> findings = McpConfigCheck().check(parsed.config);
        int e = 0;
        int w = 0;
        for (const McpFinding &f : findings)
            (f.isError() ? e : w)++;
        QCOMPARE(e, errors);
        QCOMPARE(w, warnings);
        QCOMPARE(McpConfigCheck::hasErrors(findings), errors > 0);
        if (findings.isEmpty())
            return;
        const McpFinding &first = findings.first();
        QCOMPARE(first.server, server);
        QCOMPARE(first.options, options);
        for (const QString &word : mentions)
            QVERIFY2(first.message.contains(word), qPrintable(first.message + " lacks " + word));
    }

    void findingsNeverHoldValues()
    {
        const QByteArray secret = "s3cr3t-v4lue";
        const QByteArray config
            = QByteArray(R"({"airtable":{"airtableApiKey":7,"nodeenv":"SECRET","extra":"SECRET"},)"
                         R"("unknown":{"k":"SECRET"}})")
                  .replace("SECRET", secret);
        const sd::McpConfigParse parsed = McpConfigCheck::parse(config);
        QVERIFY(parsed.ok);
        const QList<McpFinding> findings = McpConfigCheck().check(parsed.config);
        QCOMPARE(findings.size(), 3);
        for (const McpFinding &f : findings)
            QVERIFY(!f.message.contains(QString::fromLatin1(secret)));
    }

    void parse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("mentions");

        QTest::newRow("object") << QByteArray(R"({"a":{}})") << true << 0 << 0 << QString();
        QTest::newRow("array") << QByteArray("[1,2]") << false << 0 << 0 << "an array";
        QTest::newRow("number") << QByteArray("42") << false << 0 << 0 << "single value";
        QTest::newRow("string") << QByteArray("\"{}\"") << false << 0 << 0 << "single value";
        QTest::newRow("empty") << QByteArray("") << false << 1 << 1 << "not valid JSON";
        QTest::newRow("trailing comma, line 2")
            << QByteArray("{\"a\":\n {\"b\":3,}}") << false << 2 << 9 << "line 2, column 9";
        QTest::newRow("missing brace, line 3")
            << QByteArray("{\n\"a\": {\n\"b\": 1\n}") << false << 4 << 1 << "line 4, column 1";
        // Columns count characters, so a multi-byte letter before the error counts once.
        QTest::newRow("unicode before error")
            << QByteArray("{\"é\": tru}") << false << 1 << 7 << "line 1, column 7";
        QTest::newRow("unicode line 2")
            << QByteArray("{\"ü\":\n\"日本\"x}") << false << 2 << 5 << "line 2, column 5";
        QTest::newRow("bare word") << QByteArray("mcp") << false << 1 << 1 << "line 1, column 1";
    }

    void parse()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, mentions);

        const sd::McpConfigParse parsed = McpConfigCheck::parse(text);
        QCOMPARE(parsed.ok, ok);
        QCOMPARE(parsed.line, line);
        QCOMPARE(parsed.column, column);
        QVERIFY2(parsed.message.contains(mentions), qPrintable(parsed.message));
    }

    void lineColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("start") << QByteArray("abc") << 0 << 1 << 1;
        QTest::newRow("middle") << QByteArray("abc") << 2 << 1 << 3;
        QTest::newRow("after newline") << QByteArray("ab\ncd") << 3 << 2 << 1;
        QTest::newRow("third line") << QByteArray("a\nb\ncde") << 6 << 3 << 3;
        QTest::newRow("past the end") << QByteArray("ab") << 99 << 1 << 3;
        QTest::newRow("multi-byte") << QByteArray("\xc3\xa9\xc3\xa9x") << 4 << 1 << 3;
    }

    void lineColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, offset);
        QFETCH(int, line);
        QFETCH(int, column);
        int l = 0;
        int c = 0;
        McpConfigCheck::lineColumn(text, offset, &l, &c);
        QCOMPARE(l, line);
        QCOMPARE(c, column);
    }
};

QTEST_GUILESS_MAIN(TestMcpConfigCheck)
#include "tst_mcpconfigcheck.moc"
