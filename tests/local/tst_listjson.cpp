// The list endpoint writes each ListedSandbox straight into the response; it must
// write the very bytes QJsonDocument writes for ControlPlane::listedSandboxJson().

#include "local/controlplane.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using sd::local::ControlPlane;
using sd::local::SandboxRecord;
using sd::local::SandboxState;
using StringMap = QMap<QString, QString>;

class TestListJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameBytesAsQJsonDocument_data();
    void sameBytesAsQJsonDocument();
};

void TestListJson::sameBytesAsQJsonDocument_data()
{
    QTest::addColumn<StringMap>("metadata");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<QDateTime>("startedAt");

    const QDateTime t(QDate(2026, 12, 3), QTime(9, 5, 7, 45), Qt::UTC);
    QTest::newRow("no metadata") << QMap<QString, QString>() << false << t;
    QTest::newRow("plain metadata, paused")
        << QMap<QString, QString> { { QStringLiteral("owner"), QStringLiteral("team-3") },
               { QStringLiteral("sandbox-desk.creation"), QStringLiteral("8c1f-42") } }
        << true << t;
    QTest::newRow("quotes, backslashes, controls")
        << QMap<QString, QString> { { QStringLiteral("q\"k"), QStringLiteral("a\\b\"c") },
               { QStringLiteral("ctl"),
                   QStringLiteral("\b\f\n\r\t") + QChar(0x01) + QChar(0x1f) + QChar(0x7f) } }
        << false << t;
    QTest::newRow("non-ASCII and slashes")
        << QMap<QString, QString> { { QStringLiteral("ключ"), QStringLiteral("値/é😀") },
               { QStringLiteral("url"), QStringLiteral("https://x/y?z=1&w=2") } }
        << false << t;
    QTest::newRow("another time zone, whole second")
        << QMap<QString, QString>() << false
        << QDateTime(QDate(2026, 1, 2), QTime(23, 59, 59), QTimeZone(3600 * 5));
}

void TestListJson::sameBytesAsQJsonDocument()
{
    QFETCH(StringMap, metadata);
    QFETCH(bool, paused);
    QFETCH(QDateTime, startedAt);
    SandboxRecord record;
    record.sandboxId = QStringLiteral("abcdefghij0123456789");
    record.templateId = QStringLiteral("base");
    record.alias = QStringLiteral("base");
    record.clientId = QStringLiteral("0a1b2c3d");
    record.envdVersion = QStringLiteral("0.2.0");
    record.startedAt = startedAt;
    record.endAt = startedAt.addSecs(300);
    record.cpuCount = 2;
    record.memoryMB = 512;
    record.diskSizeMB = 1024;
    record.metadata = metadata;
    record.state = paused ? SandboxState::Paused : SandboxState::Running;

    QByteArray direct;
    ControlPlane::appendListedSandboxJson(&direct, record);
    const QByteArray expected
        = QJsonDocument(ControlPlane::listedSandboxJson(record)).toJson(QJsonDocument::Compact);
    QCOMPARE(direct, expected);
}

QTEST_GUILESS_MAIN(TestListJson)
#include "tst_listjson.moc"
