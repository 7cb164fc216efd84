// The Session log: a bounded ring buffer of this session's messages, the view in
// Help > Session log with its Copy button, and a creation run with verbose logging
// whose secrets (API key, envd token, MCP option values, variable values) reach no
// line of it.
#include "api/sandboxjobs.h"
#include "common/logging.h"
#include "common/sessionlog.h"
#include "creation/creationjob.h"
#include "journal/creationjournal.h"
#include "network/networkaccessmanager.h"
#include "sessionlogview.h"
#include "uitest.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

namespace {
const QString optionSecret = QStringLiteral("opt-secret-7b1e93c5d0");
const QString envSecret = QStringLiteral("env-secret-4c62a0e8f9");
} // namespace

class TestSessionLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void ringBufferKeepsTheLastMessages();
    void modelFollowsTheLogWithoutReset();
    void verboseCreationLeavesNoSecretInTheView();
    void messagesAreKeptAsOneSafeLine();
    void viewRowsAreOneLineAndTipsHoldTheWholeMessage();

private:
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
};

void TestSessionLog::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_sessionlog"));
    QSettings().setValue(QStringLiteral("FirstRun/hintDone"), true);
}

void TestSessionLog::ringBufferKeepsTheLastMessages()
{
    SessionLog log(50);
    for (int i = 0; i < 120; ++i)
        log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.api"), QtDebugMsg,
                     QStringLiteral("message %1").arg(i) });
    QCOMPARE(log.capacity(), 50);
    QCOMPARE(log.totalCount(), qint64(120));
    const QList<LogEntry> entries = log.entries();
    QCOMPARE(entries.size(), 50);
    QCOMPARE(entries.first().message, QStringLiteral("message 70"));
    QCOMPARE(entries.last().message, QStringLiteral("message 119"));
    const QStringList lines = log.text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 50);
    QVERIFY2(lines.first().endsWith(QStringLiteral("  sd.api  debug  message 70")), qPrintable(lines.first()));

    // A huge message is cut, so the buffer's size stays bounded.
    log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.envd"), QtWarningMsg, QString(100000, QLatin1Char('x')) });
    const QString kept = log.entries().last().message;
    QVERIFY(kept.size() < SessionLog::maxMessageChars + 20);
    QVERIFY(kept.endsWith(QStringLiteral("… (cut)")));
}

void TestSessionLog::modelFollowsTheLogWithoutReset()
{
    SessionLog log(10);
    SessionLogModel model(&log);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    for (int i = 0; i < 4; ++i)
        log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.envd"), QtInfoMsg, QString::number(i) });
    QTRY_COMPARE(model.rowCount(), 4);
    for (int i = 4; i < 25; ++i)
        log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.envd"), QtWarningMsg, QString::number(i) });
    QTRY_COMPARE(model.index(9, SessionLogModel::MessageColumn).data().toString(), QStringLiteral("24"));
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.index(0, SessionLogModel::MessageColumn).data().toString(), QStringLiteral("15"));
    QCOMPARE(model.index(0, SessionLogModel::CategoryColumn).data().toString(), QStringLiteral("sd.envd"));
    QCOMPARE(model.index(0, SessionLogModel::LevelColumn).data().toString(), QStringLiteral("warning"));
    QVERIFY(!model.index(0, SessionLogModel::TimeColumn).data().toString().isEmpty());
    QCOMPARE(model.droppedCount(), qint64(15));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(model.text(), log.text());
}

void TestSessionLog::verboseCreationLeavesNoSecretInTheView()
{
    SessionLog::install();
    enableVerboseLogging(); // what --verbose does, over the suite's sd.*.debug=false
    test::LocalBackend backend;
    QVERIFY2(backend.start(), qPrintable(backend.errorString()));
    const ConnectionSettings connection = test::backendSettings(backend);

    sd::NetworkAccessManager network;
    CreationJournal journal(m_journalDir.filePath(QStringLiteral("journal.jsonl")));
    QVERIFY(journal.open());
    CreationContext context;
    context.network = &network;
    context.connection = connection;
    context.journal = &journal;
    context.installId = QStringLiteral("tst_sessionlog");
    CreationRequest request;
    request.mcp = QJsonObject { { QStringLiteral("browserbase"),
        QJsonObject { { QStringLiteral("apiKey"), optionSecret }, { QStringLiteral("projectId"), QStringLiteral("p") },
                      { QStringLiteral("geminiApiKey"), optionSecret } } } };
    request.envVars.insert(QStringLiteral("TOKEN"), envSecret);
    auto *creation = new CreationJob(context, request);
    std::unique_ptr<CreationJob> owner(creation);
    QVERIFY(test::runJob(creation, 120000));
    const QString sandboxId = creation->sandbox().sandboxId;
    QVERIFY(!sandboxId.isEmpty());
    // The envd token of the sandbox the creation used, as the server gives it.
    GetSandboxJob detail(&network, connection, sandboxId);
    QVERIFY(test::runJob(&detail));
    const QString envdToken = detail.sandbox().envdAccessToken;
    QVERIFY(!envdToken.isEmpty());
    KillSandboxJob kill(&network, connection, sandboxId);
    QVERIFY(test::runJob(&kill));

    auto window = test::makeWindow(connection, m_journalDir.path());
    auto *action = window->findChild<QAction *>(QStringLiteral("sessionLogAction"));
    QVERIFY(action);
    action->trigger();
    auto *view = window->findChild<SessionLogView *>(QStringLiteral("sessionLogView"));
    QVERIFY(view);
    QVERIFY(view->isVisible());
    QTRY_VERIFY(view->model()->rowCount() > 0);
    const QString shown = view->model()->text();
    // The debug lines are there, with time, category and level...
    QVERIFY2(shown.contains(QStringLiteral("  sd.api  debug  ")), qPrintable(shown.left(2000)));
    QVERIFY(shown.contains(QStringLiteral("  sd.envd  debug  ")));
    QVERIFY(shown.contains(QStringLiteral("  sd.creation  debug  ")));
    QVERIFY(shown.contains(sandboxId));
    auto *summary = view->findChild<QLabel *>(QStringLiteral("sessionLogSummary"));
    QVERIFY(summary);
    QVERIFY2(summary->text().contains(QStringLiteral("Debug messages are on (--verbose).")), qPrintable(summary->text()));
    // ...and no secret is in any of them.
    const QStringList secrets { backend.apiKey(), envdToken, optionSecret, envSecret };
    for (const QString &secret : secrets)
        QVERIFY2(!shown.contains(secret), "a secret reached the session log");

    auto *copy = view->findChild<QPushButton *>(QStringLiteral("copySessionLogButton"));
    QVERIFY(copy);
    copy->click();
    const QString copied = QGuiApplication::clipboard()->text();
    QCOMPARE(copied, view->model()->text());
    for (const QString &secret : secrets)
        QVERIFY2(!copied.contains(secret), "a secret reached the copied log");
}

// A message may quote a server or a sandbox: kept, shown and copied as one line without
// control or reordering characters, as stderr gets it.
void TestSessionLog::messagesAreKeptAsOneSafeLine()
{
    installTerminalSafeLogging(); // as main() does, so stderr gets no raw control either
    SessionLog *log = SessionLog::install();
    qCWarning(lcApi).noquote() << QStringLiteral("proxy said \x1b]0;x\x07"
                                                 "a\u202eb\nsd.api  warning  forged");
    const LogEntry entry = log->entries().constLast();
    QCOMPARE(entry.message,
        QStringLiteral("proxy said \\x1b]0;x\\x07a\\u202eb\\x0asd.api  warning  forged"));
    QVERIFY(log->text().endsWith(entry.message + QLatin1Char('\n')));
}

// A message is one line, so the view gives every row one line's height instead of
// measuring each row (which took the GUI thread about 0.3 s per new message at 5,000;
// bench_sessionlog); what the column elides, the tooltip shows.
void TestSessionLog::viewRowsAreOneLineAndTipsHoldTheWholeMessage()
{
    SessionLog log(100);
    const QString longMessage = QStringLiteral("a long message ").repeated(40);
    for (int i = 0; i < 20; ++i)
        log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.api"), QtDebugMsg,
            i == 5 ? longMessage : QString::number(i) });
    SessionLogView view(&log);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto *table = view.findChild<QTableView *>(QStringLiteral("sessionLogTable"));
    QVERIFY(table);
    QCOMPARE(table->verticalHeader()->sectionResizeMode(0), QHeaderView::Fixed);
    const int line = table->fontMetrics().height();
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        QVERIFY(table->rowHeight(row) >= line);
        QVERIFY(table->rowHeight(row) < 2 * line);
        QCOMPARE(table->rowHeight(row), table->rowHeight(0));
    }
    QCOMPARE(
        table->model()->index(5, SessionLogModel::MessageColumn).data(Qt::ToolTipRole).toString(),
        longMessage);
}

QTEST_MAIN(TestSessionLog)
#include "tst_sessionlog.moc"
