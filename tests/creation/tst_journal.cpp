// The creation journal on its own: replay, torn last line, corrupt file, compaction,
// several writers on one file (in this process and in real other processes, see
// journalhelper.cpp), and the per-creation timeline rebuilt from the records.

#include "journal/creationjournal.h"
#include "teststrings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sd;

namespace {

/// The timeline in one readable line: "allocating,sandbox(sbx-1),starting_gateway!,..."
/// (states by name, events by kind, failed steps marked with !, steps a cancel
/// stopped with ~).
QString steps(const QList<CreationStep> &timeline)
{
    QStringList out;
    for (const CreationStep &step : timeline) {
        QString text;
        switch (step.kind) {
        case CreationStep::Kind::State:
            text = toString(step.state);
            break;
        case CreationStep::Kind::SandboxKnown:
            text = QStringLiteral("sandbox(%1)").arg(step.detail);
            break;
        case CreationStep::Kind::Found:
            text = QStringLiteral("found(%1)").arg(step.detail);
            break;
        case CreationStep::Kind::GatewayOutput:
            text = QStringLiteral("stderr");
            break;
        case CreationStep::Kind::OrphanKilled:
            text = QStringLiteral("orphan-killed(%1)").arg(step.detail);
            break;
        case CreationStep::Kind::Killed:
            text = QStringLiteral("killed(%1)").arg(step.detail);
            break;
        case CreationStep::Kind::KillFailed:
            text = QStringLiteral("kill-failed(%1)").arg(step.detail);
            break;
        }
        out << text + (step.failed ? QStringLiteral("!") : QString())
                + (step.interrupted ? QStringLiteral("~") : QString());
    }
    return out.join(QLatin1Char(','));
}

QString steps(const CreationRecord &r) { return steps(r.timeline); }

/// Every creation a journal knows, oldest first, with its timeline: two journals that
/// read the same history give the same text.
QString history(const CreationJournal &journal)
{
    QStringList out;
    for (const CreationRecord &r : journal.creations())
        out << r.creationId + QLatin1Char(':') + steps(r);
    return out.join(QLatin1Char('\n'));
}

/// True when process `pid` has the file `path` open: a writer holds the journal's lock
/// file open while it tries to take the lock, and only then.
bool hasOpen(qint64 pid, const QString &path)
{
    const QString target = QFileInfo(path).canonicalFilePath();
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QString &fd : fds.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
        if (QFile::symLinkTarget(fds.filePath(fd)) == target)
            return true;
    }
    return false;
}

/// Writes what a creation did after its intent.
using Record = std::function<void(CreationJournal &, const QString &)>;

/// Every step has a time, none before the one it follows, from start to finish.
void verifyTimes(const CreationRecord &r)
{
    QVERIFY(!r.timeline.isEmpty());
    QCOMPARE(r.timeline.constFirst().time, r.startedAt);
    for (qsizetype i = 1; i < r.timeline.size(); ++i) {
        const QDateTime &time = r.timeline.at(i).time;
        QVERIFY2(time.isValid(), qPrintable(QString::number(i)));
        QVERIFY2(r.timeline.at(i - 1).time <= time, qPrintable(time.toString(Qt::ISODateWithMs)));
    }
    if (r.isFinished())
        QCOMPARE(r.timeline.constLast().time, r.finishedAt);
}

} // namespace

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
        intent.mcpServers = { QStringLiteral("browserbase") };
        intent.installId = QStringLiteral("install-1");
        intent.timeoutSeconds = 300;
        journal.recordIntent(intent);
        journal.recordSandboxId(id, QStringLiteral("sbx-") + id);
        journal.recordState(id, CreationState::StartingGateway);
        return id;
    }

    /// A journal file as an earlier release (or a hand) wrote it.
    static bool writeLines(const QString &path, const QByteArray &lines)
    {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(lines) == lines.size();
    }

    QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    static bool writeIntent(CreationJournal &journal, const QString &id)
    {
        CreationIntent intent;
        intent.creationId = id;
        intent.templateId = QStringLiteral("base");
        return journal.recordIntent(intent);
    }

    QString writeFinished(CreationJournal &journal)
    {
        const QString id = writeSample(journal);
        journal.recordOutcome(id, { CreationState::Ready, {}, std::nullopt, std::nullopt });
        return id;
    }

private Q_SLOTS:
    void replayRebuildsHistory()
    {
        QTemporaryDir dir;
        const QString path
            = CreationJournal::filePathFor(dir.path(), QStringLiteral("my profile/1"));
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
            journal.recordOutcome(first,
                { CreationState::RollbackFailed,
                    QStringLiteral("Failed to start MCP gateway: boom"), report,
                    OrphanReason::RollbackFailed });
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
        QCOMPARE(r.mcpServers, QStringList { QStringLiteral("browserbase") });
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
            file.write("{\"v\":1,\"type\":\"outcome\",\"creation\":\"" + id.toUtf8()
                + "\",\"state\":\"rea");
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
        journal.recordOutcome(id, { CreationState::Ready, {}, std::nullopt, std::nullopt });
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
                if (i < 20) // old enough to go, and nothing of it can still run
                    QVERIFY(journal.recordOutcome(intent.creationId,
                        { CreationState::RolledBack, {}, std::nullopt, std::nullopt }));
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
        QVERIFY(journal.recordOutcome(
            ids.constLast(), { CreationState::Ready, {}, std::nullopt, std::nullopt }));
        CreationJournal again(path);
        QVERIFY(again.open());
        QCOMPARE(again.creations().size(), CreationJournal::maxCreations);
        QCOMPARE(str(again.creation(ids.constLast())->state), str(CreationState::Ready));
        // Compaction keeps whole creations, so their timelines too.
        QCOMPARE(steps(*again.creation(ids.constLast())), QStringLiteral("allocating,ready"));
    }

    void timelineOfASuccessfulCreation()
    {
        QTemporaryDir dir;
        CreationJournal journal(dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(journal.open());
        const QString id = writeSample(journal);
        journal.recordGatewayStderr(id, "listening\n");
        journal.recordState(id, CreationState::Extending);
        journal.recordOutcome(id, { CreationState::Ready, {}, std::nullopt, std::nullopt });
        const QString expected
            = QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway,stderr,extending,ready")
                  .arg(id);
        QCOMPARE(steps(*journal.creation(id)), expected);
        verifyTimes(*journal.creation(id));
        QVERIFY(!journal.creation(id)->hasFailed());

        // Replayed from the file: the same steps at the same times.
        CreationJournal replayed(journal.filePath());
        QVERIFY(replayed.open());
        const auto r = replayed.creation(id);
        QCOMPARE(steps(*r), expected);
        verifyTimes(*r);
        for (qsizetype i = 0; i < r->timeline.size(); ++i)
            QCOMPARE(r->timeline.at(i).time, journal.creation(id)->timeline.at(i).time);
        // Events carry the state they happened in.
        QCOMPARE(str(r->timeline.at(1).state), str(CreationState::Allocating));
        QCOMPARE(str(r->timeline.at(3).state), str(CreationState::StartingGateway));
    }

    void timelineOfAFailedCreation_data()
    {
        QTest::addColumn<QList<CreationState>>("states"); // recorded after the intent
        QTest::addColumn<bool>("allocated");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gateway failed, rolled back")
            << QList<CreationState> { CreationState::StartingGateway, CreationState::RollingBack,
                   CreationState::RolledBack }
            << true
            << QStringLiteral("allocating,sandbox,starting_gateway!,rolling_back,rolled_back");
        QTest::newRow("extend failed, rollback failed") << QList<CreationState> {
            CreationState::Extending, CreationState::RollingBack, CreationState::RollbackFailed
        } << true << QStringLiteral("allocating,sandbox,extending!,rolling_back!,rollback_failed!");
        QTest::newRow("refused at allocation") << QList<CreationState> { CreationState::Rejected }
                                               << false << QStringLiteral("allocating!,rejected!");
        QTest::newRow("cancelled while allocating, nothing found")
            << QList<CreationState> { CreationState::RollingBack, CreationState::Cancelled }
            << false << QStringLiteral("allocating~,rolling_back,cancelled");
    }

    void timelineOfAFailedCreation()
    {
        QFETCH(QList<CreationState>, states);
        QFETCH(bool, allocated);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        const QString id = QStringLiteral("failed-1");
        {
            CreationJournal journal(path);
            QVERIFY(journal.open());
            QVERIFY(writeIntent(journal, id));
            if (allocated)
                QVERIFY(journal.recordSandboxId(id, QStringLiteral("sbx")));
            for (CreationState state : states) {
                if (isFinal(state)) {
                    RollbackReport report;
                    report.attempts = 2;
                    QVERIFY(journal.recordOutcome(id,
                        { state, QStringLiteral("it failed"),
                            allocated ? std::optional(report) : std::nullopt, std::nullopt }));
                } else {
                    QVERIFY(journal.recordState(id, state));
                }
            }
            QCOMPARE(steps(*journal.creation(id)).remove(QStringLiteral("(sbx)")), expected);
        }
        CreationJournal journal(path);
        QVERIFY(journal.open());
        const auto r = journal.creation(id);
        QCOMPARE(steps(*r).remove(QStringLiteral("(sbx)")), expected);
        verifyTimes(*r);
        // A cancel is the user's choice, not a failure.
        QCOMPARE(r->endedCancelled(), r->state == CreationState::Cancelled);
        QCOMPARE(r->hasFailed(), !r->endedCancelled());
    }

    // A cancel after allocation ends RolledBack like a failure; its outcome says it
    // was a cancel, and the history shows it as one, after a replay too.
    void cancelAfterAllocationIsNoFailure()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        const QString cancelled = writeSample(journal);
        QVERIFY(journal.recordState(cancelled, CreationState::RollingBack));
        RollbackReport removed;
        removed.attempts = 1;
        CreationOutcome outcome { CreationState::RolledBack, QStringLiteral("Cancelled"), removed,
            std::nullopt };
        outcome.cancelled = true;
        QVERIFY(journal.recordOutcome(cancelled, outcome));
        const QString failed = writeSample(journal);
        QVERIFY(journal.recordState(failed, CreationState::RollingBack));
        QVERIFY(journal.recordOutcome(failed,
            { CreationState::RolledBack, QStringLiteral("it failed"), removed, std::nullopt }));
        // Only the cancel carries the field.
        const QList<QByteArray> lines = readAll(path).split('\n');
        QCOMPARE(std::count_if(lines.begin(), lines.end(),
                     [](const QByteArray &line) { return line.contains("\"cancelled\":true"); }),
            1);
        QVERIFY(!readAll(path).contains("\"cancelled\":false"));

        CreationJournal replayed(path);
        QVERIFY(replayed.open());
        for (const CreationJournal *j : { &journal, &replayed }) {
            const auto c = j->creation(cancelled);
            QCOMPARE(str(c->state), str(CreationState::RolledBack));
            QVERIFY(c->endedCancelled());
            QCOMPARE(str(c->shownState()), str(CreationState::Cancelled));
            QVERIFY(!c->hasFailed());
            QVERIFY(!c->mayHaveSandboxRunning());
            // The step the cancel stopped is neither done nor failed; the failure's is.
            QVERIFY2(steps(c->timeline).endsWith(QLatin1String("~,rolling_back,rolled_back")),
                qPrintable(steps(c->timeline)));
            QVERIFY(!steps(c->timeline).contains(QLatin1Char('!')));
            const auto f = j->creation(failed);
            QVERIFY2(steps(f->timeline).endsWith(QLatin1String("!,rolling_back,rolled_back")),
                qPrintable(steps(f->timeline)));
            QVERIFY(!f->endedCancelled());
            QCOMPARE(str(f->shownState()), str(CreationState::RolledBack));
            QVERIFY(f->hasFailed());
        }
    }

    // A cancel whose rollback failed left a sandbox behind: a failure and an orphan,
    // whatever the outcome says about the cancel.
    void cancelWhoseRollbackFailedStaysAFailure()
    {
        QTemporaryDir dir;
        CreationJournal journal(dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(journal.open());
        const QString id = writeSample(journal);
        QVERIFY(journal.recordState(id, CreationState::RollingBack));
        CreationOutcome outcome { CreationState::RollbackFailed, QStringLiteral("Cancelled"),
            std::nullopt, OrphanReason::RollbackFailed };
        outcome.cancelled = true;
        QVERIFY(journal.recordOutcome(id, outcome));
        const auto r = journal.creation(id);
        QVERIFY(r->cancelled);
        QVERIFY(!r->endedCancelled());
        QCOMPARE(str(r->shownState()), str(CreationState::RollbackFailed));
        QVERIFY(r->hasFailed());
        QVERIFY(r->mayHaveSandboxRunning());
    }

    // Lines written before outcomes said whether the user cancelled: they replay as
    // they always did, a cancel before allocation reads as cancelled, and a reader
    // that predates the field is not put off by it (it reads only what it knows).
    void outcomeWithoutTheCancelledFieldReplays()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.jsonl"));
        QVERIFY(writeLines(path,
                R"({"creation":"old-c","host":"h","install":"i","mcpServers":[],"pid":7,"template":"base","time":"2026-11-30T12:03:01.120Z","timeout":300,"type":"intent","v":1}
{"creation":"old-c","state":"rolling_back","time":"2026-11-30T12:03:01.200Z","type":"state","v":1}
{"creation":"old-c","error":"Cancelled","orphanReason":null,"rollback":{"attempts":1,"error":null,"found":0,"outcome":"already_gone"},"state":"cancelled","time":"2026-11-30T12:03:01.300Z","type":"outcome","v":1}
{"creation":"old-r","host":"h","install":"i","mcpServers":[],"pid":7,"template":"base","time":"2026-11-30T12:04:01.120Z","timeout":300,"type":"intent","v":1}
{"creation":"old-r","sandboxId":"sbx-r","time":"2026-11-30T12:04:01.450Z","type":"sandbox","v":1}
{"creation":"old-r","state":"rolling_back","time":"2026-11-30T12:04:01.911Z","type":"state","v":1}
{"creation":"old-r","error":"Cancelled","orphanReason":null,"rollback":{"attempts":1,"error":null,"outcome":"killed"},"state":"rolled_back","time":"2026-11-30T12:04:02.005Z","type":"outcome","v":1}
)"));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QVERIFY(journal.warnings().isEmpty());
        QVERIFY(journal.corruptFileMovedTo().isEmpty());
        const auto beforeAllocation = journal.creation(QStringLiteral("old-c"));
        QVERIFY(beforeAllocation->endedCancelled());
        QVERIFY(!beforeAllocation->hasFailed());
        QCOMPARE(steps(*beforeAllocation), QStringLiteral("allocating~,rolling_back,cancelled"));
        // Nothing in the old line says who ended it: it stays what it was.
        const auto rolledBack = journal.creation(QStringLiteral("old-r"));
        QCOMPARE(str(rolledBack->state), str(CreationState::RolledBack));
        QVERIFY(rolledBack->isFinished());
        QVERIFY(!rolledBack->endedCancelled());

        // A new outcome beside the old lines: the file stays one journal.
        QVERIFY(writeIntent(journal, QStringLiteral("new-c")));
        CreationOutcome outcome { CreationState::Cancelled, QStringLiteral("Cancelled"),
            std::nullopt, std::nullopt };
        outcome.cancelled = true;
        QVERIFY(journal.recordOutcome(QStringLiteral("new-c"), outcome));
        CreationJournal replayed(path);
        QVERIFY(replayed.open());
        QVERIFY(replayed.warnings().isEmpty());
        QCOMPARE(history(replayed), history(journal));
        QVERIFY(replayed.creation(QStringLiteral("new-c"))->endedCancelled());
    }

    // A sandbox left by a failed rollback is killed later: each attempt, the refused
    // one too, joins the creation's timeline and survives a replay.
    void laterKillsJoinTheTimeline()
    {
        QTemporaryDir dir;
        CreationJournal journal(dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(journal.open());
        const QString id = writeSample(journal);
        journal.recordState(id, CreationState::RollingBack);
        journal.recordOutcome(id,
            { CreationState::RollbackFailed, QStringLiteral("it failed"), std::nullopt,
                OrphanReason::RollbackFailed });
        QVERIFY(journal.recordKillFailed(
            id, QStringLiteral("sbx-%1").arg(id), QStringLiteral("HTTP 500")));
        QVERIFY(journal.recordOrphanKilled(id, QStringLiteral("sbx-%1").arg(id)));
        const QString expected = QStringLiteral(
            "allocating,sandbox(sbx-%1),starting_gateway!,rolling_back!,"
            "rollback_failed!,kill-failed(sbx-%1: HTTP 500)!,orphan-killed(sbx-%1)")
                                     .arg(id);
        QCOMPARE(steps(*journal.creation(id)), expected);
        CreationJournal replayed(journal.filePath());
        QVERIFY(replayed.open());
        QCOMPARE(steps(*replayed.creation(id)), expected);
    }

    // The user kills the sandbox of a Ready creation later: "killed at T" in its
    // timeline (not an orphan's removal), a refused kill before it with its reason,
    // and nothing for a sandbox no creation made.
    void killOfAReadySandboxJoinsItsTimeline()
    {
        QTemporaryDir dir;
        CreationJournal journal(dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(journal.open());
        const QString id = writeFinished(journal);
        const QString sandbox = QStringLiteral("sbx-%1").arg(id);
        // Written on the journal's thread: each is durable when `done` is called.
        const auto recordLaterKill = [&journal](const QString &id, const QString &error) {
            QObject context;
            std::optional<bool> written;
            journal.recordLaterKill(id, error, {}, &context, [&written](bool ok) { written = ok; });
            [&] { QTRY_VERIFY_WITH_TIMEOUT(written.has_value(), 30000); }();
            return written.value_or(false);
        };
        QVERIFY(recordLaterKill(sandbox, QStringLiteral("HTTP 500")));
        QVERIFY(recordLaterKill(sandbox, {}));
        const QByteArray before = readAll(journal.filePath());
        QVERIFY(recordLaterKill(QStringLiteral("sbx-someone-elses"), {}));
        QCOMPARE(readAll(journal.filePath()), before);

        const QString expected = QStringLiteral("allocating,sandbox(%1),starting_gateway,ready,"
                                                "kill-failed(%1: HTTP 500)!,killed(%1)")
                                     .arg(sandbox);
        CreationJournal replayed(journal.filePath());
        QVERIFY(replayed.open());
        for (const CreationJournal *j : { &journal, &replayed }) {
            const auto r = j->creation(id);
            QCOMPARE(steps(*r), expected);
            QVERIFY(r->killedAt.isValid());
            QCOMPARE(r->killedAt, r->timeline.constLast().time);
            QVERIFY(r->orphansKilled.isEmpty());
            QCOMPARE(str(r->state), str(CreationState::Ready));
        }
    }

    void journalFromBeforeTheTimelineGivesOne()
    {
        // Written by the first release, before timelines existed: every record had its
        // time, which is all a timeline needs. The last record lost its time (edited by
        // hand): the step stays, without a time.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.jsonl"));
        QVERIFY(writeLines(path,
                R"({"creation":"old-1","host":"h","install":"i","mcpServers":["browserbase"],"pid":7,"template":"base","time":"2026-11-30T12:03:01.120Z","timeout":300,"type":"intent","v":1}
{"creation":"old-1","sandboxId":"sbx-old","time":"2026-11-30T12:03:01.450Z","type":"sandbox","v":1}
{"creation":"old-1","state":"starting_gateway","time":"2026-11-30T12:03:01.480Z","type":"state","v":1}
{"creation":"old-1","stderr":"bash: mcp-gateway: command not found\n","time":"2026-11-30T12:03:01.910Z","truncated":false,"type":"gateway-stderr","v":1}
{"creation":"old-1","state":"rolling_back","time":"2026-11-30T12:03:01.911Z","type":"state","v":1}
{"creation":"old-1","error":"Failed to start MCP gateway: bash: mcp-gateway: command not found","orphanReason":null,"rollback":{"attempts":1,"error":null,"outcome":"killed"},"state":"rolled_back","time":"2026-11-30T12:03:02.005Z","type":"outcome","v":1}
{"creation":"old-1","sandboxId":"sbx-old","type":"orphan-killed","v":1}
)"));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QVERIFY(journal.warnings().isEmpty());
        const auto r = journal.creation(QStringLiteral("old-1"));
        QVERIFY(r);
        QCOMPARE(steps(*r),
            QStringLiteral("allocating,sandbox(sbx-old),starting_gateway!,stderr,rolling_back,"
                           "rolled_back,orphan-killed(sbx-old)"));
        const auto at = [](const char *time) {
            return QDateTime::fromString(QString::fromLatin1(time), Qt::ISODateWithMs);
        };
        QCOMPARE(r->timeline.at(0).time, at("2026-11-30T12:03:01.120Z"));
        QCOMPARE(r->timeline.at(1).time, at("2026-11-30T12:03:01.450Z"));
        QCOMPARE(r->timeline.at(2).time, at("2026-11-30T12:03:01.480Z"));
        QCOMPARE(r->timeline.at(3).time, at("2026-11-30T12:03:01.910Z"));
        QCOMPARE(r->timeline.at(4).time, at("2026-11-30T12:03:01.911Z"));
        QCOMPARE(r->timeline.at(5).time, at("2026-11-30T12:03:02.005Z"));
        QCOMPARE(r->timeline.at(5).time, r->finishedAt);
        QVERIFY(!r->timeline.at(6).time.isValid());
        QCOMPARE(r->timeline.at(0).time.msecsTo(r->timeline.at(2).time), 360);
    }

    void refreshExtendsTheTimeline()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal gui(path);
        CreationJournal cli(path); // stands for `sandbox-desk --create` in another process
        QVERIFY(gui.open());
        QVERIFY(cli.open());
        const QString id = writeSample(cli);
        QSignalSpy changed(&gui, &CreationJournal::creationChanged);
        gui.refresh();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(steps(*gui.creation(id)),
            QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway").arg(id));

        cli.recordState(id, CreationState::RollingBack);
        cli.recordOutcome(
            id, { CreationState::RolledBack, QStringLiteral("boom"), std::nullopt, std::nullopt });
        gui.refresh();
        QCOMPARE(changed.size(), 2);
        QCOMPARE(changed.constLast().constFirst().toString(), id);
        const auto r = gui.creation(id);
        QCOMPARE(steps(*r),
            QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway!,rolling_back,rolled_back")
                .arg(id));
        verifyTimes(*r);
        // Refreshing again adds nothing.
        gui.refresh();
        QCOMPARE(gui.creation(id)->timeline.size(), r->timeline.size());
    }

    void tornLineKeepsTheTimeline()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal gui(path);
        QVERIFY(gui.open());
        const QString id = writeSample(gui);
        const QList<CreationStep> before = gui.creation(id)->timeline;
        QCOMPARE(before.size(), 3);
        const auto appendRaw = [&path](const QByteArray &data) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            QCOMPARE(file.write(data), data.size());
        };

        // Another process is halfway through its line: nothing of it counts yet.
        const QByteArray line = "{\"v\":1,\"type\":\"state\",\"creation\":\"" + id.toUtf8()
            + "\",\"state\":\"rolling_back\",\"time\":\"2099-01-01T00:00:00.000Z\"}\n";
        appendRaw(line.left(40));
        gui.refresh();
        QCOMPARE(steps(*gui.creation(id)), steps(before));
        appendRaw(line.mid(40));
        gui.refresh();
        const QString rollingBack
            = QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway!,rolling_back").arg(id);
        QCOMPARE(steps(*gui.creation(id)), rollingBack);
        const QList<CreationStep> whole = gui.creation(id)->timeline;

        // A writer died mid-line: the next start skips it and keeps every earlier step.
        appendRaw("{\"v\":1,\"type\":\"outcome\",\"creation\":\"" + id.toUtf8()
            + "\",\"state\":\"rolled_ba");
        CreationJournal reopened(path);
        QVERIFY(reopened.open());
        QCOMPARE(reopened.warnings().size(), 1);
        const auto r = reopened.creation(id);
        QVERIFY(!r->isFinished());
        QCOMPARE(steps(*r), rollingBack);
        for (qsizetype i = 0; i < whole.size(); ++i)
            QCOMPARE(r->timeline.at(i).time, whole.at(i).time);
        // And it goes on from there, for both readers.
        QVERIFY(reopened.recordOutcome(
            id, { CreationState::RolledBack, QStringLiteral("boom"), std::nullopt, std::nullopt }));
        QCOMPARE(steps(*reopened.creation(id)), rollingBack + QStringLiteral(",rolled_back"));
        gui.refresh();
        QCOMPARE(steps(*gui.creation(id)), rollingBack + QStringLiteral(",rolled_back"));
    }

    void appendAfterADeadWritersTornLine_data()
    {
        QTest::addColumn<QByteArray>("tail"); // what the dead writer left
        QTest::addColumn<bool>("tailCounts");
        QTest::newRow("part of a line")
            << QByteArray("{\"v\":1,\"type\":\"outcome\",\"crea") << false;
        QTest::newRow("a whole record without its newline")
            << QByteArray("{\"v\":1,\"type\":\"state\",\"creation\":\"%1\",\"state\":"
                          "\"rolling_back\",\"time\":\"2099-01-01T00:00:00.000Z\"}")
            << true;
    }

    void appendAfterADeadWritersTornLine()
    {
        // Another process died in the middle of its line after this one opened the
        // journal. The next append must not glue its record to that piece: the line
        // would be unreadable, the record lost and the whole file moved aside.
        QFETCH(QByteArray, tail);
        QFETCH(bool, tailCounts);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        const QString id = writeSample(journal);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write(tail.replace("%1", id.toUtf8()));
        }
        QVERIFY(journal.recordOutcome(
            id, { CreationState::RolledBack, QStringLiteral("boom"), std::nullopt, std::nullopt }));
        CreationJournal again(path);
        QVERIFY(again.open());
        QVERIFY(again.corruptFileMovedTo().isEmpty());
        QVERIFY(again.warnings().isEmpty());
        const QString expected = tailCounts
            ? QStringLiteral(
                "allocating,sandbox(sbx-%1),starting_gateway!,rolling_back,rolled_back")
            : QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway!,rolled_back");
        QCOMPARE(steps(*again.creation(id)), expected.arg(id));
        QCOMPARE(history(journal), history(again));
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

    void compactionKeepsCreationsThatMayStillRun_data()
    {
        QTest::addColumn<Record>("write"); // after the intent
        QTest::addColumn<bool>("kept");
        const auto outcome = [](CreationState state, std::optional<OrphanReason> reason = {}) {
            return CreationOutcome { state, QStringLiteral("it failed"), std::nullopt, reason };
        };
        QTest::newRow("interrupted while allocating") << Record([](auto &, auto &) {}) << true;
        QTest::newRow("unfinished, sandbox known") << Record([](CreationJournal &j, auto &id) {
            j.recordSandboxId(id, QStringLiteral("sbx-1"));
            j.recordState(id, CreationState::StartingGateway);
        }) << true;
        QTest::newRow("rollback failed") << Record([=](CreationJournal &j, auto &id) {
            j.recordSandboxId(id, QStringLiteral("sbx-1"));
            j.recordState(id, CreationState::RollingBack);
            j.recordOutcome(
                id, outcome(CreationState::RollbackFailed, OrphanReason::RollbackFailed));
        }) << true;
        QTest::newRow("lost response") << Record([=](CreationJournal &j, auto &id) {
            j.recordState(id, CreationState::RollingBack);
            j.recordOutcome(id, outcome(CreationState::RollbackFailed, OrphanReason::LostResponse));
        }) << true;
        QTest::newRow("ready, a duplicate found") << Record([=](CreationJournal &j, auto &id) {
            j.recordSandboxId(id, QStringLiteral("sbx-1"));
            j.recordFound(id, { QStringLiteral("sbx-2") });
            j.recordOutcome(id, outcome(CreationState::Ready));
        }) << true;
        QTest::newRow("rollback failed, orphan killed since") << Record(
            [=](CreationJournal &j, auto &id) {
                j.recordSandboxId(id, QStringLiteral("sbx-1"));
                j.recordOutcome(
                    id, outcome(CreationState::RollbackFailed, OrphanReason::RollbackFailed));
                j.recordOrphanKilled(id, QStringLiteral("sbx-1"));
            }) << false;
        QTest::newRow("rollback failed, a later kill failed") << Record(
            [=](CreationJournal &j, auto &id) {
                j.recordSandboxId(id, QStringLiteral("sbx-1"));
                j.recordOutcome(
                    id, outcome(CreationState::RollbackFailed, OrphanReason::RollbackFailed));
                j.recordKillFailed(id, QStringLiteral("sbx-1"), QStringLiteral("HTTP 500"));
            }) << true;
        QTest::newRow("ready") << Record([=](CreationJournal &j, auto &id) {
            j.recordSandboxId(id, QStringLiteral("sbx-1"));
            j.recordOutcome(id, outcome(CreationState::Ready));
        }) << false;
        QTest::newRow("rolled back") << Record([=](CreationJournal &j, auto &id) {
            j.recordSandboxId(id, QStringLiteral("sbx-1"));
            j.recordOutcome(id, outcome(CreationState::RolledBack));
        }) << false;
        QTest::newRow("rejected") << Record([=](CreationJournal &j, auto &id) {
            j.recordOutcome(id, outcome(CreationState::Rejected));
        }) << false;
    }

    void compactionKeepsCreationsThatMayStillRun()
    {
        const QString old = QStringLiteral("old-1");
        QFETCH(Record, write);
        QFETCH(bool, kept);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        {
            CreationJournal journal(path);
            QVERIFY(journal.open() && writeIntent(journal, old));
            write(journal, old);
            for (int i = 0; i < 3; ++i)
                writeFinished(journal);
            QVERIFY(journal.compact(1));
            QCOMPARE(journal.creation(old).has_value(), kept);
            QCOMPARE(journal.creations().size(), kept ? 2 : 1);
        }
        CreationJournal again(path);
        QVERIFY(again.open());
        QCOMPARE(again.creation(old).has_value(), kept);
        QCOMPARE(again.creations().size(), kept ? 2 : 1);
    }

    void readerNoticesACompaction()
    {
        // A reader that followed the file by size would, after a compaction and enough
        // appends to pass its offset, go on reading from the middle of the new file.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal writer(path);
        QVERIFY(writer.open());
        for (int i = 0; i < 6; ++i)
            writeFinished(writer);
        CreationJournal reader(path);
        QVERIFY(reader.open());
        QCOMPARE(reader.creations().size(), 6);
        const qint64 readTo = QFileInfo(path).size();
        QVERIFY(writer.compact(1));
        QCOMPARE(writer.creations().size(), 1);
        while (QFileInfo(path).size() <= readTo)
            writeFinished(writer);
        QSignalSpy changed(&reader, &CreationJournal::creationChanged);
        reader.refresh();
        CreationJournal fresh(path);
        QVERIFY(fresh.open());
        QCOMPARE(history(reader), history(fresh));
        QCOMPARE(history(writer), history(fresh));
        QVERIFY(!changed.isEmpty());
        // And it follows the new file from there.
        const QString last = writeSample(writer);
        reader.refresh();
        QCOMPARE(reader.creation(last)->sandboxId, QStringLiteral("sbx-") + last);
    }

    void appendWaitsForACompaction()
    {
        // Another process is compacting: it holds the lock, has read the file and is
        // about to rename its rewrite over it. An append now must wait for the rename,
        // or it lands in the file being replaced and is lost.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        {
            CreationJournal journal(path);
            QVERIFY(journal.open() && writeIntent(journal, QStringLiteral("first")));
        }
        QProcess helper;
        helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        helper.start(QStringLiteral(JOURNAL_HELPER),
            { QStringLiteral("append-one"), path, QStringLiteral("from-helper") });
        QVERIFY(helper.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += helper.readAllStandardOutput()).contains("ready"), 30000);

        const QString lockPath = path + QStringLiteral(".lock");
        const int lockFd
            = ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        QVERIFY(lockFd >= 0);
        QCOMPARE(::flock(lockFd, LOCK_EX), 0);
        const QByteArray compacted = readAll(path);
        helper.write("go\n");
        // Either the append went through (the bug) or the helper tries to take the lock.
        QTRY_VERIFY_WITH_TIMEOUT((out += helper.readAllStandardOutput()).contains("appended")
                || hasOpen(helper.processId(), lockPath),
            30000);
        {
            QFile rewrite(path + QStringLiteral(".new"));
            QVERIFY(rewrite.open(QIODevice::WriteOnly));
            QCOMPARE(rewrite.write(compacted), compacted.size());
        }
        QCOMPARE(::rename(QFile::encodeName(path + QStringLiteral(".new")).constData(),
                     QFile::encodeName(path).constData()),
            0);
        ::close(lockFd);

        // (It may have ended already, while the loop above ran.)
        QVERIFY(helper.state() == QProcess::NotRunning || helper.waitForFinished(30000));
        QCOMPARE(helper.exitCode(), 0);
        CreationJournal after(path);
        QVERIFY(after.open());
        QVERIFY(after.creation(QStringLiteral("first")));
        QVERIFY2(after.creation(QStringLiteral("from-helper")), "the append was lost");
    }

    void processesAppendAndCompactAtOnce()
    {
        // Real processes, each appending and now and then compacting or reopening, and
        // two readers here that refresh at their own pace while it happens.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        CreationJournal eager(path);
        CreationJournal lazy(path);
        QVERIFY(eager.open() && lazy.open());
        constexpr int writers = 5;
        constexpr int perWriter = 80;
        std::vector<std::unique_ptr<QProcess>> processes;
        const quint32 seed = QRandomGenerator::global()->generate();
        qInfo("seed %u", seed);
        for (int w = 0; w < writers; ++w) {
            auto process = std::make_unique<QProcess>();
            process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            process->start(QStringLiteral(JOURNAL_HELPER),
                { QStringLiteral("append"), path, QStringLiteral("w%1").arg(w),
                    QString::number(perWriter), QString::number(seed + quint32(w)) });
            QVERIFY(process->waitForStarted());
            processes.push_back(std::move(process));
        }
        QByteArrayList output(writers);
        for (int round = 0;; ++round) {
            bool running = false;
            for (int w = 0; w < writers; ++w) {
                QProcess &p = *processes[size_t(w)];
                if (p.state() != QProcess::NotRunning) {
                    p.waitForFinished(5);
                    running = true;
                }
                output[w] += p.readAllStandardOutput();
            }
            eager.refresh();
            if (round % 7 == 0)
                lazy.refresh();
            if (!running)
                break;
        }
        QStringList unresolved;
        QStringList finished;
        for (int w = 0; w < writers; ++w) {
            QCOMPARE(processes[size_t(w)]->exitStatus(), QProcess::NormalExit);
            QCOMPARE(processes[size_t(w)]->exitCode(), 0);
            for (const QByteArray &line : output[w].split('\n')) {
                if (line.startsWith("unresolved "))
                    unresolved << QString::fromUtf8(line.mid(11));
                else if (line.startsWith("finished "))
                    finished << QString::fromUtf8(line.mid(9));
            }
        }
        QCOMPARE(unresolved.size() + finished.size(), writers * perWriter);

        eager.refresh();
        lazy.refresh();
        CreationJournal fresh(path);
        QVERIFY(fresh.open());
        QVERIFY(fresh.warnings().isEmpty());
        // No record lost: every unresolved creation whole, no finished one without its end.
        for (const QString &id : std::as_const(unresolved)) {
            const auto r = fresh.creation(id);
            QVERIFY2(r, qPrintable(id));
            QCOMPARE(
                steps(*r), QStringLiteral("allocating,sandbox(sbx-%1),starting_gateway").arg(id));
        }
        for (const QString &id : std::as_const(finished)) {
            if (const auto r = fresh.creation(id))
                QCOMPARE(steps(*r), QStringLiteral("allocating,ready"));
        }
        // And every reader has the same history.
        QCOMPARE(history(eager), history(fresh));
        QCOMPARE(history(lazy), history(fresh));
    }

    void openWhileAnotherProcessCompacts()
    {
        // Another process renames a compacted file over the journal while this one
        // opens it (it holds the lock, so the open reads without it). What was read
        // and the file then followed must be the same one: an offset into the old file
        // means nothing in the new one, and a reader that went on from it would skip
        // what lies before it and, at its own next compaction, write that loss back.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        const auto sample = [&](const QString &name, int count, QSet<QString> *ids) {
            const QString file = dir.filePath(name);
            CreationJournal journal(file);
            journal.setSyncFunction([](int) { return 0; });
            if (!journal.open())
                return QString();
            for (int i = 0; i < count; ++i)
                ids->insert(writeFinished(journal));
            return file;
        };
        // Different creations, and the second file longer: a reader that read the
        // first and follows the second from the first's end takes lines of both.
        QSet<QString> idsA;
        QSet<QString> idsB;
        const QString a = sample(QStringLiteral("a.jsonl"), 200, &idsA);
        const QString b = sample(QStringLiteral("b.jsonl"), 300, &idsB);
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QVERIFY(QFile::copy(a, path));

        QProcess helper;
        helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        helper.start(QStringLiteral(JOURNAL_HELPER),
            { QStringLiteral("swap"), path, a, b, QStringLiteral("400") });
        QVERIFY(helper.waitForStarted());
        int opens = 0;
        while (helper.state() != QProcess::NotRunning) {
            CreationJournal reader(path);
            QVERIFY(reader.open());
            reader.refresh();
            ++opens;
            QSet<QString> ids;
            for (const CreationRecord &r : reader.creations())
                ids.insert(r.creationId);
            QVERIFY2(ids == idsA || ids == idsB,
                qPrintable(QStringLiteral("open %1 read %2 creations, %3 of the first file's")
                               .arg(opens)
                               .arg(ids.size())
                               .arg((ids & idsA).size())));
            helper.waitForFinished(0);
        }
        QCOMPARE(helper.exitCode(), 0);
        QVERIFY(helper.readAllStandardOutput().contains("swapped"));
        qInfo("%d opens while the file was replaced 400 times", opens);
    }

    void recordsQueuedDuringAWriteGoTogetherInTheNext()
    {
        // The first record's fsync is held; three more are queued meanwhile.
        std::atomic<int> recordSyncs { 0 };
        std::atomic<bool> holding { false };
        QSemaphore release;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("queued.jsonl"));
        auto journal = std::make_unique<CreationJournal>(path);
        const auto journalFirst = qScopeGuard([&] {
            release.release();
            journal.reset(); // its writer is done before the sync function's state goes
        });
        QVERIFY(journal->open());
        journal->setSyncFunction([&](int fd) {
            struct stat info = {};
            if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && ++recordSyncs == 1) {
                holding = true;
                release.tryAcquire(1, 60000);
            }
            return ::fsync(fd);
        });
        QObject context;
        QStringList done;
        const auto queue = [&](const QString &id) {
            CreationIntent intent;
            intent.creationId = id;
            intent.templateId = QStringLiteral("base");
            intent.installId = QStringLiteral("install-1");
            intent.timeoutSeconds = 300;
            journal->appendQueued(CreationJournal::intentRecord(intent), &context,
                [&done, id, &journal](bool written) {
                    // Called once the record is durable and read back.
                    done << id
                            + (written && journal->creation(id) ? QString() : QStringLiteral("!"));
                });
        };
        queue(QStringLiteral("c1"));
        QTRY_VERIFY_WITH_TIMEOUT(holding, 30000);
        queue(QStringLiteral("c2"));
        queue(QStringLiteral("c3"));
        queue(QStringLiteral("c4"));
        QVERIFY(done.isEmpty());
        release.release();
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 4, 30000);
        QCOMPARE(done,
            (QStringList { QStringLiteral("c1"), QStringLiteral("c2"), QStringLiteral("c3"),
                QStringLiteral("c4") }));
        // One write and fsync for the first, one for the three that waited.
        QCOMPARE(recordSyncs.load(), 2);
        CreationJournal fresh(path);
        QVERIFY(fresh.open());
        QCOMPARE(fresh.count(), 4);
        QVERIFY(fresh.warnings().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
