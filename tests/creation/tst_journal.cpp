// The creation journal on its own: replay, torn last line, corrupt file, compaction,
// and several writers on one file.

#include "journal/creationjournal.h"
#include "teststrings.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

class TestJournal : public QObject
{
    Q_OBJECT

private:
    QString writeSample(CreationJournal &journal, const QString &template_ = QStringLiteral("base"))
    {
        static int n = 0;
        const QString id = QStringLiteral("c%1").arg(++n, 4, 10, QLatin1Char('0'));
        CreationIntent intent;
        intent.creationId = id;
        intent.templateId = template_;
        intent.mcpServers = {QStringLiteral("browserbase")};
        intent.installId = QStringLiteral("install-1");
        intent.timeoutSeconds = 300;
        journal.recordIntent(intent);
        journal.recordSandboxId(id, QStringLiteral("sbx-") + id);
        journal.recordState(id, CreationState::StartingGateway);
        return id;
    }

    QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private Q_SLOTS:
    void replayRebuildsHistory()
    {
        QTemporaryDir dir;
        const QString path = CreationJournal::filePathFor(dir.path(), QStringLiteral("my profile/1"));
        QVERIFY(path.endsWith(QLatin1String("/my_profile_1.jsonl")));
        QString first, second;
        {
            CreationJournal journal(path);
            QVERIFY(journal.open());
            first = writeSample(journal);
            RollbackReport report;
            report.attempts = 3;
            report.outcome = RollbackOutcome::Failed;
            report.error = QStringLiteral("HTTP 500");
            journal.recordGatewayStderr(first, "boom\n");
            journal.recordOutcome(first, {CreationState::RollbackFailed, QStringLiteral("Failed to start MCP gateway: boom"),
                                          report, OrphanReason::RollbackFailed});
            second = writeSample(journal, QStringLiteral("mcp-gateway"));
        }
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QVERIFY(journal.warnings().isEmpty());
        const QList<CreationRecord> history = journal.history();
        QCOMPARE(history.size(), 2);
        QCOMPARE(history.at(0).creationId, second); // newest first
        QVERIFY(!history.at(0).isFinished());
        QCOMPARE(str(history.at(0).state), str(CreationState::StartingGateway));
        const CreationRecord r = history.at(1);
        QCOMPARE(r.creationId, first);
        QVERIFY(r.isFinished());
        QCOMPARE(str(r.state), str(CreationState::RollbackFailed));
        QCOMPARE(r.sandboxId, QStringLiteral("sbx-") + first);
        QCOMPARE(r.gatewayStderr, QStringLiteral("boom\n"));
        QCOMPARE(r.error, QStringLiteral("Failed to start MCP gateway: boom"));
        QVERIFY(r.rollback);
        QCOMPARE(r.rollback->attempts, 3);
        QCOMPARE(str(r.rollback->outcome), str(RollbackOutcome::Failed));
        QCOMPARE(str(r.orphanReason), str(OrphanReason::RollbackFailed));
        QCOMPARE(r.mcpServers, QStringList{QStringLiteral("browserbase")});
        QVERIFY(journal.creationOwning(QStringLiteral("sbx-") + first).has_value());
        QCOMPARE(journal.creationOwning(QStringLiteral("unknown"), second)->creationId, second);
    }

    void tornLastLineIsSkipped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        QString id;
        {
            CreationJournal journal(path);
            QVERIFY(journal.open());
            id = writeSample(journal);
        }
        const QByteArray before = readAll(path);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write("{\"v\":1,\"type\":\"outcome\",\"creation\":\"" + id.toUtf8() + "\",\"state\":\"rea");
        }
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QCOMPARE(journal.warnings().size(), 1);
        QVERIFY(journal.warnings().constFirst().contains(QLatin1String("incomplete")));
        QVERIFY(journal.corruptFileMovedTo().isEmpty());
        const auto r = journal.creation(id);
        QVERIFY(r);
        QVERIFY(!r->isFinished()); // the torn outcome did not count
        QCOMPARE(r->sandboxId, QStringLiteral("sbx-") + id);
        // Nothing before it was lost, and new records land on a line of their own.
        QCOMPARE(readAll(path), before);
        journal.recordOutcome(id, {CreationState::Ready, {}, std::nullopt, std::nullopt});
        CreationJournal again(path);
        QVERIFY(again.open());
        QVERIFY(again.warnings().isEmpty());
        QCOMPARE(str(again.creation(id)->state), str(CreationState::Ready));
    }

    void corruptFileIsMovedAside()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        QString a, b;
        {
            CreationJournal journal(path);
            QVERIFY(journal.open());
            a = writeSample(journal);
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write("\x01\x02 this is not json\n");
            file.close();
            b = writeSample(journal); // damage in the middle, good records after it
        }
        const QByteArray damaged = readAll(path);
        QVERIFY(damaged.contains("not json"));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QVERIFY(!journal.corruptFileMovedTo().isEmpty());
        // Moved aside, not deleted.
        QCOMPARE(readAll(journal.corruptFileMovedTo()), damaged);
        QCOMPARE(journal.warnings().size(), 1);
        // The readable records were carried over into a clean file.
        QVERIFY(journal.creation(a));
        QCOMPARE(str(journal.creation(b)->state), str(CreationState::StartingGateway));
        QVERIFY(!readAll(path).contains("not json"));
        CreationJournal again(path);
        QVERIFY(again.open());
        QVERIFY(again.warnings().isEmpty());
        QCOMPARE(again.creations().size(), 2);
    }

    void compactionKeepsTheLast500()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        QStringList ids;
        {
            CreationJournal journal(path);
            QVERIFY(journal.open());
            for (int i = 0; i < CreationJournal::maxCreations + 20; ++i) {
                CreationIntent intent;
                intent.creationId = QStringLiteral("k%1").arg(i);
                intent.templateId = QStringLiteral("base");
                QVERIFY(journal.recordIntent(intent));
                ids << intent.creationId;
            }
            QCOMPARE(journal.creations().size(), CreationJournal::maxCreations + 20);
        }
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QCOMPARE(journal.creations().size(), CreationJournal::maxCreations);
        QCOMPARE(journal.creations().constFirst().creationId, ids.at(20));
        QCOMPARE(journal.history().constFirst().creationId, ids.constLast());
        QVERIFY(!journal.creation(ids.at(19)));
        QVERIFY(!readAll(path).contains("\"k19\""));
        // And the compacted file is appended to like any other.
        QVERIFY(journal.recordOutcome(ids.constLast(), {CreationState::Ready, {}, std::nullopt, std::nullopt}));
        CreationJournal again(path);
        QVERIFY(again.open());
        QCOMPARE(again.creations().size(), CreationJournal::maxCreations);
        QCOMPARE(str(again.creation(ids.constLast())->state), str(CreationState::Ready));
    }

    void gatewayStderrIsCapped()
    {
        QTemporaryDir dir;
        CreationJournal journal(dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(journal.open());
        const QString id = writeSample(journal);
        journal.recordGatewayStderr(id, QByteArray(200 * 1024, 'x'));
        const auto r = journal.creation(id);
        QVERIFY(r->gatewayStderrTruncated);
        QCOMPARE(r->gatewayStderr.size(), CreationJournal::maxStderrBytes);
    }

    void twoWritersOnOneFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal gui(path);
        CreationJournal cli(path);
        QVERIFY(gui.open());
        QVERIFY(cli.open());
        const QString a = writeSample(gui);
        const QString b = writeSample(cli);
        QSignalSpy changed(&gui, &CreationJournal::creationChanged);
        gui.refresh();
        QVERIFY(gui.creation(b));
        QCOMPARE(changed.size(), 1);
        cli.refresh();
        QVERIFY(cli.creation(a));
        QCOMPARE(gui.creations().size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
