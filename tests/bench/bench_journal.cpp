// What crash safety costs a creation: one CreationJournal record (open with
// O_APPEND, write, fsync, close, read back) versus the same bytes written without
// fsync, and versus a plain QFile kept open (write + flush), all in the same
// directory, interleaved in one process. Then what the recording thread pays per
// record: blocked for the synchronous write, against handing it to the journal's
// writer thread (appendQueued(), what a creation does). Then the records of one
// whole successful MCP creation, journalled for real versus written without fsync.
//
//   build/bin/bench_journal [--reps N] [--quick] [--dir DIR]
//
// DIR (default: a temporary directory under QDir::tempPath()) should sit on the
// file system the real journal uses (<AppDataLocation>/journal).

#include "benchutil.h"

#include "journal/creationjournal.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QUuid>

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdio>

using namespace sd;
using namespace sd::bench;

namespace {

// The journal's own write path minus the fsync: a fresh O_APPEND descriptor per
// record, the whole line, close.
bool appendNoSync(const QByteArray &path, const QByteArray &line)
{
    const int fd = ::open(path.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, line.constData(), size_t(line.size())) == line.size();
    ::close(fd);
    return ok;
}

QList<QByteArray> lastLines(const QString &path, int count)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    QList<QByteArray> out;
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - count); i < lines.size(); ++i)
        out.append(lines.at(i) + '\n');
    return out;
}

// The records a successful creation with MCP servers writes (creationjob.cpp):
// intent, sandbox ID, starting gateway, the gateway's stderr, extending, outcome.
constexpr int kRecordsPerMcpCreation = 6;
// Without MCP servers: intent, sandbox ID, extending, outcome.
constexpr int kRecordsPerPlainCreation = 4;

bool journalCreation(CreationJournal &journal, const QByteArray &stderrText)
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    CreationIntent intent;
    intent.creationId = id;
    intent.templateId = QStringLiteral("mcp-gateway");
    intent.mcpServers = { QStringLiteral("github"), QStringLiteral("brave") };
    intent.installId = QStringLiteral("5f0c6c1e-8a8e-4b55-9a43-0b8f1e6c2a11");
    intent.timeoutSeconds = 300;
    bool ok = journal.recordIntent(intent);
    ok = journal.recordSandboxId(id, QStringLiteral("i5zt0dd8d3ma2b1h6hs4")) && ok;
    ok = journal.recordState(id, CreationState::StartingGateway) && ok;
    ok = journal.recordGatewayStderr(id, stderrText) && ok;
    ok = journal.recordState(id, CreationState::Extending) && ok;
    CreationOutcome outcome;
    outcome.state = CreationState::Ready;
    ok = journal.recordOutcome(id, outcome) && ok;
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int reps = repetitions(args, 300);
    QString base = QDir::tempPath();
    if (const qsizetype at = args.indexOf(QStringLiteral("--dir")); at >= 0 && at + 1 < args.size())
        base = args.at(at + 1);
    QTemporaryDir dir(base + QStringLiteral("/bench_journal-XXXXXX"));
    if (!dir.isValid()) {
        std::fprintf(stderr, "cannot create a directory under %s\n", qPrintable(base));
        return 1;
    }

    printMachine();
    const QStorageInfo storage(dir.path());
    std::printf(
        "bench_journal: %d repetitions per figure, medians (p95); directory %s on %s (%s)\n", reps,
        qPrintable(dir.path()), storage.device().constData(), storage.fileSystemType().constData());

    CreationJournal journal(dir.filePath(QStringLiteral("journal.jsonl")));
    if (!journal.open()) {
        std::fprintf(stderr, "journal: %s\n", qPrintable(journal.errorString()));
        return 1;
    }
    // ~2 KiB of gateway stderr, as a gateway that logs its start-up writes.
    QByteArray stderrText;
    while (stderrText.size() < 2048)
        stderrText += "2026-01-02T10:00:00Z INFO mcp-gateway: starting server github (stdio)\n";

    // One creation first, so the lines the baselines write are the journal's own.
    journalCreation(journal, stderrText);
    const QList<QByteArray> creationLines = lastLines(journal.filePath(), kRecordsPerMcpCreation);
    const QString stateId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    CreationIntent intent;
    intent.creationId = stateId;
    intent.templateId = QStringLiteral("base");
    journal.recordIntent(intent);
    journal.recordState(stateId, CreationState::Extending);
    const QByteArray stateLine = lastLines(journal.filePath(), 1).value(0);

    const QByteArray noSyncPath = QFile::encodeName(dir.filePath(QStringLiteral("nosync.jsonl")));
    QFile plain(dir.filePath(QStringLiteral("plain.jsonl")));
    if (!plain.open(QIODevice::WriteOnly | QIODevice::Append)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(plain.fileName()));
        return 1;
    }

    // One record, three ways, rotating the order each repetition.
    Samples journalled, noSync, plainFlush;
    bool allOk = true;
    for (int rep = 0; rep < reps + 3; ++rep) {
        qint64 ns[3] = {};
        for (int k = 0; k < 3; ++k) {
            const int mode = (k + rep) % 3;
            switch (mode) {
            case 0:
                ns[0] = timeNs([&] {
                    allOk = journal.recordState(stateId,
                                rep % 2 ? CreationState::Extending : CreationState::StartingGateway)
                        && allOk;
                });
                break;
            case 1:
                ns[1] = timeNs([&] { allOk = appendNoSync(noSyncPath, stateLine) && allOk; });
                break;
            case 2:
                ns[2] = timeNs([&] {
                    allOk = plain.write(stateLine) == stateLine.size() && allOk;
                    allOk = plain.flush() && allOk;
                });
                break;
            }
        }
        if (rep >= 3) {
            journalled.add(ns[0]);
            noSync.add(ns[1]);
            plainFlush.add(ns[2]);
        }
    }
    std::printf("\nOne record (%lld bytes)\n", static_cast<long long>(stateLine.size()));
    std::printf("  CreationJournal::recordState (fsync)   %9.1f us (p95 %9.1f)\n",
        journalled.medianUs(), journalled.p95Us());
    std::printf(
        "  same line, O_APPEND write, no fsync    %9.1f us (p95 %9.1f)  journal/this %7.1fx\n",
        noSync.medianUs(), noSync.p95Us(), ratio(journalled.medianUs(), noSync.medianUs()));
    std::printf(
        "  QFile kept open, write + flush         %9.1f us (p95 %9.1f)  journal/this %7.1fx\n",
        plainFlush.medianUs(), plainFlush.p95Us(),
        ratio(journalled.medianUs(), plainFlush.medianUs()));

    // What the thread that records pays: the synchronous recordState() blocks it for
    // the whole fsync; appendQueued() (what a creation uses) hands the line to the
    // writer thread and gets the result back through the event loop.
    Samples syncBlocked, queuedCall, queuedThreadCpu, queuedDurable;
    for (int rep = 0; rep < reps + 3; ++rep) {
        const CreationState state
            = rep % 2 ? CreationState::Extending : CreationState::StartingGateway;
        const auto synchronous
            = [&] { return timeNs([&] { allOk = journal.recordState(stateId, state) && allOk; }); };
        const auto queued = [&] {
            QEventLoop loop;
            qint64 durableNs = 0;
            const qint64 cpu0 = threadCpuNs();
            QElapsedTimer timer;
            timer.start();
            journal.appendQueued(
                CreationJournal::stateRecord(stateId, state), &loop, [&](bool written) {
                    durableNs = timer.nsecsElapsed();
                    allOk = written && allOk;
                    loop.quit();
                });
            const qint64 callNs = timer.nsecsElapsed();
            loop.exec();
            return std::array<qint64, 3> { callNs, threadCpuNs() - cpu0, durableNs };
        };
        qint64 blocked = 0;
        std::array<qint64, 3> q {};
        if (rep % 2) {
            blocked = synchronous();
            q = queued();
        } else {
            q = queued();
            blocked = synchronous();
        }
        if (rep >= 3) {
            syncBlocked.add(blocked);
            queuedCall.add(q[0]);
            queuedThreadCpu.add(q[1]);
            queuedDurable.add(q[2]);
        }
    }
    std::printf("\nThe recording (GUI) thread's time per record, before and after the writer "
                "thread\n");
    std::printf("  before: recordState() blocks it        %9.1f us (p95 %9.1f)\n",
        syncBlocked.medianUs(), syncBlocked.p95Us());
    std::printf(
        "  after:  the appendQueued() call        %9.1f us (p95 %9.1f)  before/this %7.1fx\n",
        queuedCall.medianUs(), queuedCall.p95Us(),
        ratio(syncBlocked.medianUs(), queuedCall.medianUs()));
    std::printf("          its CPU, call + result + read-back %6.1f us (p95 %9.1f)  before/this "
                "%7.1fx\n",
        queuedThreadCpu.medianUs(), queuedThreadCpu.p95Us(),
        ratio(syncBlocked.medianUs(), queuedThreadCpu.medianUs()));
    std::printf("          until durable (not blocking)   %9.1f us (p95 %9.1f)\n",
        queuedDurable.medianUs(), queuedDurable.p95Us());

    // A whole creation's records, journalled versus the same lines without fsync.
    const int creationReps = std::max(3, reps / 4);
    Samples creationJournalled, creationNoSync;
    for (int rep = 0; rep < creationReps; ++rep) {
        const auto real = [&] {
            return timeNs([&] { allOk = journalCreation(journal, stderrText) && allOk; });
        };
        const auto bare = [&] {
            return timeNs([&] {
                for (const QByteArray &line : creationLines)
                    allOk = appendNoSync(noSyncPath, line) && allOk;
            });
        };
        if (rep % 2) {
            creationJournalled.add(real());
            creationNoSync.add(bare());
        } else {
            creationNoSync.add(bare());
            creationJournalled.add(real());
        }
    }
    std::printf("\nOne successful MCP creation (%d records, %d repetitions)\n",
        kRecordsPerMcpCreation, creationReps);
    std::printf("  journalled (fsync per record)          %9.2f ms (p95 %9.2f)\n",
        creationJournalled.medianMs(), creationJournalled.p95Ms());
    std::printf(
        "  same lines without fsync               %9.2f ms (p95 %9.2f)  journal/this %7.1fx\n",
        creationNoSync.medianMs(), creationNoSync.p95Ms(),
        ratio(creationJournalled.medianMs(), creationNoSync.medianMs()));
    std::printf(
        "  fsync cost per creation: ~%.2f ms with MCP (%d records), ~%.2f ms without (%d records),"
        " from the one-record medians\n",
        kRecordsPerMcpCreation * (journalled.medianMs() - noSync.medianMs()),
        kRecordsPerMcpCreation,
        kRecordsPerPlainCreation * (journalled.medianMs() - noSync.medianMs()),
        kRecordsPerPlainCreation);
    if (!allOk)
        std::printf("  WARNING: some writes failed; the figures above are not trustworthy\n");
    return allOk ? 0 : 1;
}
