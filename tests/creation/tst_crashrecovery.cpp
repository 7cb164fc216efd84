// Crash recovery of the command-line creation: thirty runs of the real
// `sandbox-desk --create` against the real sandbox-desk-local, each killed with
// SIGKILL at a point drawn at random (before allocation, after the intent record,
// after allocation, during the gateway start, during the rollback), three at a time
// on one backend and one journal. After each kill `--orphans` must name every sandbox
// of that creation the backend still runs, and nothing else; `--kill-orphans` must
// remove those and leave the live creations' sandboxes alone; the journal must replay,
// also when its last line was torn.
//
// A point is reached by watching the journal for the record that marks it, and held
// by a fault rule (a create that hangs, an answer held back, a gateway that never
// starts, a kill answered late or with 500). Once held, the process is frozen with
// SIGSTOP, so that its own timeouts cannot move it on while the others are judged.
// The seed is printed; SD_CRASH_SEED=<seed> repeats a run.

#include "clitestutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSet>

#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace sd;
using sd::test::CliResult;
using sd::test::rule;

namespace {

constexpr int runCount = 30;
constexpr int concurrentRuns = 3;
constexpr int holdMs = 600000; // longer than the whole test

enum class Point
{
    BeforeAllocation,
    AfterIntent,
    AfterAllocation,
    GatewayStart,
    RollBack,
};
constexpr int pointCount = 5;

QString pointName(Point point)
{
    switch (point) {
    case Point::BeforeAllocation:
        return QStringLiteral("before allocation");
    case Point::AfterIntent:
        return QStringLiteral("after the intent record");
    case Point::AfterAllocation:
        return QStringLiteral("after allocation");
    case Point::GatewayStart:
        return QStringLiteral("during the gateway start");
    case Point::RollBack:
        return QStringLiteral("during the rollback");
    }
    return {};
}

/// How the journal's last line is torn after the kill.
enum class Tear
{
    None,
    CutLastRecord, ///< the creation's last record loses its second half
    PartialOutcome, ///< the first half of an outcome record is appended
};

struct Run
{
    int number = 0;
    Point point = Point::BeforeAllocation;
    QString how; ///< how the point is reached and held, for the log
    bool killAtLaunch = false; ///< killed as soon as it runs, not held
    Tear tear = Tear::None;
    QStringList args;
    QJsonArray rules;
    QString markerType; ///< the journal record that marks the point
    QString markerState;
    std::unique_ptr<QProcess> process;
    qint64 pid = 0;
    QString creationId; ///< read from its intent
    bool dead = false;
};

struct Tally
{
    int runs = 0;
    int leftRunning = 0;
    int flagged = 0;
    int killedByCli = 0;
};

/// The journal's whole records (a torn last line is none).
QList<QJsonObject> journalRecords(const QString &path)
{
    const QByteArray data = sd::test::readFile(path);
    QList<QJsonObject> records;
    for (const QByteArray &line : data.left(data.lastIndexOf('\n') + 1).split('\n')) {
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (doc.isObject())
            records << doc.object();
    }
    return records;
}

/// The process state letter of /proc/PID/stat ('T' when stopped).
char processState(qint64 pid)
{
    const QByteArray stat = sd::test::readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const qsizetype paren = stat.lastIndexOf(')');
    return paren >= 0 && paren + 2 < stat.size() ? stat.at(paren + 2) : '?';
}

/// True when no process holds the journal's writer lock (CreationJournal::lockFilePath()).
bool journalUnlockedAt(const QString &journalPath)
{
    const int fd = ::open(
        QFile::encodeName(journalPath + QStringLiteral(".lock")).constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return true;
    const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ::close(fd); // releases it again
    return free;
}

QSet<QString> toSet(const QStringList &list) { return { list.begin(), list.end() }; }

QStringList idsIn(const QJsonArray &array, const QString &key = {})
{
    QStringList ids;
    for (const QJsonValue &value : array)
        ids << (key.isEmpty() ? value.toString() : value.toObject().value(key).toString());
    return ids;
}

} // namespace

class TestCrashRecovery : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    std::unique_ptr<sd::test::DeskCli> m_cli;
    QString m_mcpFile;
    QMap<Point, Tally> m_tally;
    int m_tornReplays = 0;
    int m_launchKillsBeforeIntent = 0;

    bool journalUnlocked() const { return journalUnlockedAt(m_cli->journalPath()); }

    QStringList sandboxesOf(const QString &creationId)
    {
        QStringList ids;
        if (creationId.isEmpty())
            return ids;
        for (const Sandbox &sandbox : m_backend.list()) {
            if (sandbox.metadata.value(QStringLiteral("sandbox-desk.creation")) == creationId)
                ids << sandbox.sandboxId;
        }
        ids.sort();
        return ids;
    }

    /// Draws how the run reaches its point and what holds it there.
    void plan(Run &run, QRandomGenerator &random)
    {
        const QString post = QStringLiteral("POST");
        run.args = QStringList { QStringLiteral("--create"), QStringLiteral("--json") };
        switch (run.point) {
        case Point::BeforeAllocation:
            // The create never reaches the server's handler: a client that dies while it
            // waits leaves nothing behind.
            run.rules = { rule(
                post, QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 1, 0, holdMs) };
            run.killAtLaunch = run.tear == Tear::None && random.bounded(2) == 0;
            run.how = run.killAtLaunch ? QStringLiteral("killed as it starts")
                                       : QStringLiteral("create held before the server");
            run.markerType = QStringLiteral("intent");
            break;
        case Point::AfterIntent: {
            // The server creates the sandbox and holds the answer back.
            run.rules = { rule(post, QStringLiteral("/v2/sandboxes"), QStringLiteral("delay-after"),
                1, 0, holdMs) };
            run.how = QStringLiteral("created, answer held");
            run.markerType = QStringLiteral("intent");
            break;
        }
        case Point::AfterAllocation:
            run.rules = { rule(post, QStringLiteral("/sandboxes/*/timeout"),
                QStringLiteral("delay"), 1, 0, holdMs) };
            run.how = QStringLiteral("timeout call held");
            run.markerType = QStringLiteral("sandbox");
            break;
        case Point::GatewayStart:
            run.args << QStringLiteral("--mcp") << m_mcpFile << QStringLiteral("--env")
                     << QStringLiteral("SD_TEST_GATEWAY_ECHO=1") << QStringLiteral("--env")
                     << QStringLiteral("SD_TEST_GATEWAY_HANG=1")
                     << QStringLiteral("--gateway-budget") << QString::number(holdMs / 1000);
            run.how = QStringLiteral("gateway hangs");
            run.markerType = QStringLiteral("state");
            run.markerState = QStringLiteral("starting_gateway");
            break;
        case Point::RollBack: {
            const int trigger = int(random.bounded(3));
            const bool refusedFirst = random.bounded(2) == 0;
            QString call = QStringLiteral("DELETE");
            QString path = QStringLiteral("/sandboxes/*");
            if (trigger == 0) {
                // mcp on `base`: no gateway on its PATH, so the start fails (--force:
                // without it the command line refuses such a template before allocating).
                run.args << QStringLiteral("--template") << QStringLiteral("base")
                         << QStringLiteral("--force") << QStringLiteral("--mcp") << m_mcpFile;
                run.how = QStringLiteral("gateway failed");
            } else if (trigger == 1) {
                run.rules.append(rule(post, QStringLiteral("/sandboxes/*/timeout"),
                    QStringLiteral("status"), 1, 500));
                run.how = QStringLiteral("timeout refused");
            } else {
                // Created, but answered 503: the rollback searches by the creation tag.
                run.rules.append(rule(
                    post, QStringLiteral("/v2/sandboxes"), QStringLiteral("status-after"), 1, 503));
                call = QStringLiteral("GET");
                path = QStringLiteral("/v2/sandboxes");
                run.how = QStringLiteral("answer lost");
            }
            if (refusedFirst)
                run.rules.append(rule(call, path, QStringLiteral("status"), 1, 500));
            run.rules.append(rule(call, path, QStringLiteral("delay"), 1, 0, holdMs));
            run.how += refusedFirst ? QStringLiteral(", %1 answered 500 then held").arg(call)
                                    : QStringLiteral(", %1 held").arg(call);
            run.markerType = QStringLiteral("state");
            run.markerState = QStringLiteral("rolling_back");
            break;
        }
        }
        run.args += m_cli->connection();
    }

    /// True once the journal holds the run's marker record (and learns its creation).
    bool reachedMarker(Run &run)
    {
        const QList<QJsonObject> records = journalRecords(m_cli->journalPath());
        for (const QJsonObject &record : records) {
            if (run.creationId.isEmpty()
                && record.value(QLatin1String("type")).toString() == QLatin1String("intent")
                && record.value(QLatin1String("pid")).toInteger() == run.pid)
                run.creationId = record.value(QLatin1String("creation")).toString();
        }
        if (run.creationId.isEmpty())
            return false;
        return std::any_of(records.begin(), records.end(), [&run](const QJsonObject &record) {
            return record.value(QLatin1String("creation")).toString() == run.creationId
                && record.value(QLatin1String("type")).toString() == run.markerType
                && (run.markerState.isEmpty()
                    || record.value(QLatin1String("state")).toString() == run.markerState);
        });
    }

    QString describe(const Run &run) const
    {
        return QStringLiteral("run %1 (%2: %3, creation %4)")
            .arg(run.number)
            .arg(pointName(run.point), run.how,
                run.creationId.isEmpty() ? QStringLiteral("?") : run.creationId);
    }

    /// Starts the run and brings it to its point: frozen there, or already killed.
    void launch(Run &run)
    {
        QVERIFY(m_backend.setFaults(run.rules));
        run.process = m_cli->launch(run.args);
        QVERIFY2(run.process->waitForStarted(), qPrintable(describe(run)));
        run.pid = run.process->processId();
        if (run.killAtLaunch) {
            run.process->kill();
            QVERIFY(run.process->waitForFinished());
            run.dead = true;
            reachedMarker(run);
            if (run.creationId.isEmpty())
                ++m_launchKillsBeforeIntent;
            // A create that never went out leaves its rule for the next run to hit.
            QVERIFY(m_backend.clearFaults());
            return;
        }
        QTRY_VERIFY2_WITH_TIMEOUT(reachedMarker(run) || run.process->state() != QProcess::Running,
            qPrintable(describe(run)), 60000);
        QVERIFY2(run.process->state() == QProcess::Running,
            qPrintable(describe(run) + QStringLiteral(" ended before its point: ")
                + QString::fromUtf8(
                    run.process->readAllStandardOutput() + run.process->readAllStandardError())));
        // Every rule used: the call that holds it is on the wire, and no rule is left
        // for another run to hit.
        QTRY_VERIFY2_WITH_TIMEOUT(m_backend.faults().isEmpty(), qPrintable(describe(run)), 60000);
        // Frozen outside the journal's lock: a writer stopped inside it would stop every
        // other (the lock is taken only to append, and the record is already there).
        QTRY_VERIFY_WITH_TIMEOUT(journalUnlocked(), 60000);
        QVERIFY(::kill(pid_t(run.pid), SIGSTOP) == 0);
        QTRY_COMPARE_WITH_TIMEOUT(processState(run.pid), 'T', 10000);
    }

    void tearJournal(const Run &run)
    {
        const QString path = m_cli->journalPath();
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite | QIODevice::Append));
        if (run.tear == Tear::CutLastRecord) {
            const QByteArray data = sd::test::readFile(path);
            QVERIFY(data.endsWith('\n'));
            const qsizetype lineStart = data.lastIndexOf('\n', data.size() - 2) + 1;
            const QJsonObject last = QJsonDocument::fromJson(data.mid(lineStart)).object();
            // The record its process wrote last, not its intent: that one was durable
            // before the create went out.
            QCOMPARE(last.value(QLatin1String("creation")).toString(), run.creationId);
            QVERIFY(last.value(QLatin1String("type")).toString() != QLatin1String("intent"));
            QVERIFY(file.resize(lineStart + (data.size() - lineStart) / 2));
        } else {
            const QByteArray outcome = QJsonDocument(
                QJsonObject { { QStringLiteral("v"), 1 },
                    { QStringLiteral("type"), QStringLiteral("outcome") },
                    { QStringLiteral("creation"), run.creationId },
                    { QStringLiteral("time"), QStringLiteral("2026-12-03T12:00:00.000Z") },
                    { QStringLiteral("state"), QStringLiteral("rolled_back") },
                    { QStringLiteral("error"), QStringLiteral("Cancelled") } })
                                           .toJson(QJsonDocument::Compact);
            QVERIFY(file.write(outcome.left(outcome.size() / 2)) > 0);
        }
    }

    /// SIGKILLs the run (unless it died at launch), then judges what it left.
    void killAndJudge(Run &run, const QList<Run *> &alive)
    {
        const QString what = describe(run);
        if (!run.dead) {
            run.process->kill(); // SIGKILL, also to a stopped process
            QVERIFY2(run.process->waitForFinished(), qPrintable(what));
            run.dead = true;
        }
        QCOMPARE(run.process->exitStatus(), QProcess::CrashExit);
        reachedMarker(run);
        if (run.tear != Tear::None)
            tearJournal(run);

        // The backend's truth: what of this creation runs, and what the live ones own.
        const QStringList running = sandboxesOf(run.creationId);
        QStringList others;
        for (const Run *other : alive)
            others += sandboxesOf(other->creationId);
        QCOMPARE(toSet(m_backend.listIds()), toSet(running + others));
        if (run.point == Point::BeforeAllocation)
            QVERIFY2(running.isEmpty(), qPrintable(what));
        else
            QVERIFY2(running.size() == 1, qPrintable(what));

        const CliResult orphans
            = m_cli->run(QStringList { QStringLiteral("--orphans"), QStringLiteral("--json") }
                + m_cli->connection());
        QVERIFY2(orphans.exitCode == (running.isEmpty() ? 0 : 3),
            qPrintable(what
                + QStringLiteral(": exit %1, %2")
                      .arg(orphans.exitCode)
                      .arg(QString::fromUtf8(orphans.err))));
        const QJsonArray flagged = orphans.json().value(QLatin1String("sandboxes")).toArray();
        QCOMPARE(toSet(idsIn(flagged, QStringLiteral("sandboxId"))), toSet(running));
        for (const QJsonValue &entry : flagged) {
            const QJsonObject orphan = entry.toObject().value(QLatin1String("orphan")).toObject();
            const QString reason = orphan.value(QLatin1String("reason")).toString();
            QVERIFY2(
                reason == QLatin1String("interrupted") || reason == QLatin1String("lost-response"),
                qPrintable(what + QStringLiteral(": reason ") + reason));
            QCOMPARE(
                orphan.value(QLatin1String("certainty")).toString(), QStringLiteral("certain"));
        }
        // The replay: a torn last line is dropped with a warning; nothing is ever
        // judged damaged and moved aside.
        const bool tornWarning = orphans.err.contains("last journal line was incomplete");
        if (run.tear != Tear::None) {
            QVERIFY2(tornWarning, orphans.err.constData());
            ++m_tornReplays;
        } else if (!run.killAtLaunch) {
            QVERIFY2(!tornWarning, orphans.err.constData());
        }
        QVERIFY2(!orphans.err.contains("unreadable line"), orphans.err.constData());
        QVERIFY(QDir(QFileInfo(m_cli->journalPath()).path())
                    .entryList({ QStringLiteral("*.corrupt-*") })
                    .isEmpty());
        // Whole lines only (none at all when the first run died before its intent).
        const QByteArray journal = sd::test::readFile(m_cli->journalPath());
        QVERIFY2(journal.isEmpty() || journal.endsWith('\n'), qPrintable(what));

        if (!run.creationId.isEmpty()) {
            const CliResult history
                = m_cli->run(QStringList { QStringLiteral("--history"), QStringLiteral("--json") }
                    + m_cli->connection());
            QCOMPARE(history.exitCode, 0);
            bool listed = false;
            for (const QJsonValue &value :
                history.json().value(QLatin1String("creations")).toArray()) {
                const QJsonObject creation = value.toObject();
                if (creation.value(QLatin1String("creationId")).toString() != run.creationId)
                    continue;
                listed = true;
                QCOMPARE(creation.value(QLatin1String("state")).toString(),
                    QStringLiteral("unfinished"));
            }
            QVERIFY2(listed, qPrintable(what));
        }

        const CliResult killed
            = m_cli->run(QStringList { QStringLiteral("--kill-orphans"), QStringLiteral("--json") }
                + m_cli->connection());
        QVERIFY2(killed.exitCode == 0, killed.err.constData());
        QCOMPARE(
            toSet(idsIn(killed.json().value(QLatin1String("killed")).toArray())), toSet(running));
        QVERIFY(killed.json().value(QLatin1String("failed")).toArray().isEmpty());
        // None of this creation is left; the live creations keep theirs.
        QCOMPARE(toSet(m_backend.listIds()), toSet(others));

        Tally &tally = m_tally[run.point];
        ++tally.runs;
        tally.leftRunning += int(running.size());
        tally.flagged += int(flagged.size());
        tally.killedByCli += int(killed.json().value(QLatin1String("killed")).toArray().size());
        qInfo().noquote() << what << "left" << running.size() << "running, flagged"
                          << flagged.size() << (run.tear != Tear::None ? "(torn journal)" : "");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_backend.start());
        m_cli = std::make_unique<sd::test::DeskCli>(m_backend);
        m_mcpFile = m_cli->path(QStringLiteral("mcp.json"));
        QFile mcp(m_mcpFile);
        QVERIFY(mcp.open(QIODevice::WriteOnly));
        mcp.write(R"({"duckduckgo": {}})");
    }

    void thirtyKillsAtRandomPoints()
    {
        const QByteArray given = qgetenv("SD_CRASH_SEED");
        const quint32 seed
            = given.isEmpty() ? QRandomGenerator::global()->generate() : given.toUInt();
        qInfo("seed %u (SD_CRASH_SEED=%u repeats this run)", seed, seed);
        QRandomGenerator random(seed);

        const int batches = runCount / concurrentRuns;
        // Two batches tear the journal after their first kill, one of each kind.
        const int cutBatch = int(random.bounded(batches));
        const int partialBatch = (cutBatch + 1 + int(random.bounded(batches - 1))) % batches;

        int number = 0;
        for (int batch = 0; batch < batches; ++batch) {
            std::vector<Run> runs(concurrentRuns);
            for (Run &run : runs) {
                run.number = ++number;
                run.point = Point(random.bounded(pointCount));
            }
            const Tear tear = batch == cutBatch
                ? Tear::CutLastRecord
                : (batch == partialBatch ? Tear::PartialOutcome : Tear::None);
            if (tear == Tear::CutLastRecord
                && (runs.back().point == Point::BeforeAllocation
                    || runs.back().point == Point::AfterIntent))
                runs.back().point
                    = Point(2 + random.bounded(3)); // its last record is not the intent
            runs.back().tear = tear;
            for (Run &run : runs)
                plan(run, random);

            // One after the other, each held before the next gets its fault rules.
            QList<Run *> alive;
            for (Run &run : runs) {
                launch(run);
                if (QTest::currentTestFailed())
                    return;
                if (run.dead) {
                    killAndJudge(run, alive);
                    if (QTest::currentTestFailed())
                        return;
                } else {
                    alive << &run;
                }
            }
            // The last one started wrote the journal's last line: it goes first when
            // the journal is torn; otherwise the order is drawn.
            QList<Run *> order = alive;
            if (tear == Tear::None)
                std::shuffle(order.begin(), order.end(), random);
            else
                std::reverse(order.begin(), order.end());
            for (Run *run : std::as_const(order)) {
                alive.removeOne(run);
                killAndJudge(*run, alive);
                if (QTest::currentTestFailed())
                    return;
            }
        }

        QVERIFY(m_backend.listIds().isEmpty());
        int runs = 0;
        for (auto it = m_tally.cbegin(); it != m_tally.cend(); ++it) {
            qInfo().noquote() << QStringLiteral("%1: %2 run(s), %3 left running, %4 flagged, "
                                                "%5 killed by --kill-orphans")
                                     .arg(pointName(it.key()))
                                     .arg(it->runs)
                                     .arg(it->leftRunning)
                                     .arg(it->flagged)
                                     .arg(it->killedByCli);
            runs += it->runs;
            QCOMPARE(it->flagged, it->leftRunning);
            QCOMPARE(it->killedByCli, it->leftRunning);
        }
        qInfo("%d kill(s) at launch came before the intent record; %d replay(s) of a torn "
              "journal",
            m_launchKillsBeforeIntent, m_tornReplays);
        QCOMPARE(runs, runCount);
        QCOMPARE(m_tornReplays, 2);
    }
};

QTEST_GUILESS_MAIN(TestCrashRecovery)
#include "tst_crashrecovery.moc"
