// The local backend itself, with and without its bubblewrap jail: two
// `sandbox-desk-local` this benchmark starts, one `--isolation bwrap`, one
// `--isolation none`, measured through the core library's jobs (CreateSandboxJob,
// StartProcessJob, KillSandboxJob) on one QNetworkAccessManager:
//
//  - create to ready: POST /v2/sandboxes, then envd `process.Process/Start` of
//    `echo ready` (through `bash -l -c`, as the SDK's commands.run() does) until its
//    first byte of output: the backend makes a sandbox's jail when its first process
//    starts, so this is when a new sandbox can first run anything;
//  - Start to first byte: the same Start in a sandbox whose jail is already up, once
//    straight after the one before and once after a quiet moment (200 ms), as a
//    person's commands come: the kernel moves a process into a cgroup at a different
//    cost when no other move happened just before;
//  - creations per second: CREATIONS creates one after another, then CREATIONS
//    started at once (the core's jobs: Qt sends at most 6 at a time per host);
//  - idle memory: the backend's resident size, and the proportional size (Pss) of the
//    processes it runs, with IDLE idle sandboxes beside none; once created only, and
//    once each has run one command (so each has its jail);
//  - stop: SIGTERM to exit of a backend holding STOP sandboxes (`--isolation none`,
//    one fresh backend per repetition), which kills them all and removes their folders
//    before it exits; and how many folders it left;
//  - start after a crash: a backend holding STOP sandboxes is killed (SIGKILL, so it
//    removes nothing) and started again on the same state folder: time to its
//    "listening" line, beside a start on an empty state folder in the same repetition,
//    and until the folders it found are deleted.
//
// The two backends alternate, the order rotating each repetition; sandboxes made
// are killed between measurements (not timed). `--earlier DIR` adds two more, the
// `sandbox-desk-local` of another build in DIR (before/after, in the same turns) to the
// first table. Figures are printed, never asserted.
//
//   build/bin/bench_localbackend [--reps N] [--quick] [--cycles N] [--creations N]
//                                [--idle N] [--stop-sandboxes N] [--earlier DIR]

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"

#include "api/sandboxjobs.h"
#include "creation/envdaccess.h"
#include "envd/processjobs.h"

#include <QCoreApplication>
#include <QDir>
#include <QNetworkAccessManager>
#include <QThread>

#include <cstdio>
#include <memory>
#include <vector>

#include <unistd.h>

using namespace sd::bench;

namespace {

struct Side
{
    QString isolation;
    QString build; ///< "" for this build, else the earlier build's folder
    std::unique_ptr<sd::test::LocalBackend> backend;
    sd::ConnectionSettings settings;
    Samples createToReady, createOnly, startToFirstByte, startAfterQuiet, sequentialPerSecond,
        concurrentPerSecond;
};

/// Creates a `base` sandbox; an empty one when the create failed (said on stderr).
sd::Sandbox createSandbox(QNetworkAccessManager *network, const sd::ConnectionSettings &settings)
{
    sd::NewSandbox request;
    request.templateId = QStringLiteral("base");
    request.timeoutSeconds = 3600;
    sd::CreateSandboxJob create(network, settings, request);
    create.setAutoDelete(false);
    if (!runJob(&create)) {
        std::fprintf(stderr, "create failed: %s\n", qPrintable(create.error().message()));
        return {};
    }
    return create.sandbox();
}

/// Starts `echo ready` in `sandbox`; the time until its first byte of output, or -1.
qint64 startToFirstByte(QNetworkAccessManager *network, const sd::ConnectionSettings &settings,
    const sd::Sandbox &sandbox, QElapsedTimer *since)
{
    sd::StartProcessJob start(network, sd::envdTargetFor(settings, sandbox),
        sd::StartProcessJob::shellCommand(QStringLiteral("echo ready")));
    start.setAutoDelete(false);
    qint64 firstByteNs = -1;
    QObject::connect(&start, &sd::ProcessStreamJob::stdoutReceived, &start, [&] {
        if (firstByteNs < 0)
            firstByteNs = since->nsecsElapsed();
    });
    if (!runJob(&start) || firstByteNs < 0) {
        std::fprintf(stderr, "start failed: %s\n", qPrintable(start.error().message()));
        return -1;
    }
    return firstByteNs;
}

void measureCycles(QNetworkAccessManager *network, Side *side, int cycles)
{
    for (int i = 0; i < cycles; ++i) {
        QElapsedTimer since;
        since.start();
        const sd::Sandbox sandbox = createSandbox(network, side->settings);
        const qint64 createNs = since.nsecsElapsed();
        if (sandbox.sandboxId.isEmpty())
            return;
        const qint64 readyNs = startToFirstByte(network, side->settings, sandbox, &since);
        if (readyNs < 0)
            return;
        // The jail is up now: a second Start measures the Start alone.
        QElapsedTimer again;
        again.start();
        const qint64 firstByteNs = startToFirstByte(network, side->settings, sandbox, &again);
        if (firstByteNs < 0)
            return;
        QThread::msleep(200);
        again.restart();
        const qint64 afterQuietNs = startToFirstByte(network, side->settings, sandbox, &again);
        if (afterQuietNs < 0)
            return;
        side->createOnly.add(createNs);
        side->createToReady.add(readyNs);
        side->startToFirstByte.add(firstByteNs);
        side->startAfterQuiet.add(afterQuietNs);
    }
    killAll(network, side->settings);
}

void measureCreationRate(QNetworkAccessManager *network, Side *side, int creations)
{
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < creations; ++i) {
        if (createSandbox(network, side->settings).sandboxId.isEmpty())
            return;
    }
    side->sequentialPerSecond.add(qint64(creations / (double(timer.nsecsElapsed()) / 1e9)));
    killAll(network, side->settings);

    sd::NewSandbox request;
    request.templateId = QStringLiteral("base");
    int left = creations;
    int failed = 0;
    QEventLoop loop;
    timer.restart();
    for (int i = 0; i < creations; ++i) {
        auto *create = new sd::CreateSandboxJob(network, side->settings, request);
        QObject::connect(create, &sd::Job::finished, &loop, [&, create] {
            failed += create->hasError() ? 1 : 0;
            if (--left == 0)
                loop.quit();
        });
        create->start();
    }
    loop.exec();
    if (failed == 0)
        side->concurrentPerSecond.add(qint64(creations / (double(timer.nsecsElapsed()) / 1e9)));
    else
        std::fprintf(stderr, "%d of %d concurrent creates failed\n", failed, creations);
    killAll(network, side->settings);
}

/// The processes below `pid` (its children, theirs, and so on).
QList<qint64> descendants(qint64 pid)
{
    QMultiHash<qint64, qint64> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 child = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(child));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // The parent is the 2nd field after the command's closing parenthesis.
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        children.insert(fields.value(1).toLongLong(), child);
    }
    QList<qint64> found;
    QList<qint64> queue { pid };
    while (!queue.isEmpty()) {
        for (qint64 child : children.values(queue.takeFirst())) {
            found << child;
            queue << child;
        }
    }
    return found;
}

/// The proportional set size of `pid` in KiB (shared pages divided among their users).
qint64 pssKiB(qint64 pid)
{
    QFile rollup(QStringLiteral("/proc/%1/smaps_rollup").arg(pid));
    if (!rollup.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : rollup.readAll().split('\n')) {
        if (line.startsWith("Pss:"))
            return line.mid(4).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

struct Memory
{
    qint64 backendKiB = 0; ///< the backend's resident size
    qint64 processesKiB = 0; ///< Pss of everything it runs
    int processes = 0;
};

Memory memoryOf(sd::test::LocalBackend *backend)
{
    // The backend frees a killed sandbox's runtime on its next turns of the event loop.
    QThread::msleep(500);
    QCoreApplication::processEvents();
    const qint64 pid = backend->process()->processId();
    Memory memory;
    memory.backendKiB = statusKiB("VmRSS:", pid);
    const QList<qint64> below = descendants(pid);
    memory.processes = int(below.size());
    for (qint64 child : below)
        memory.processesKiB += pssKiB(child);
    return memory;
}

void measureIdleMemory(QNetworkAccessManager *network, Side *side, int idle)
{
    const Memory none = memoryOf(side->backend.get());
    QList<sd::Sandbox> sandboxes;
    for (int i = 0; i < idle; ++i)
        sandboxes << createSandbox(network, side->settings);
    const Memory created = memoryOf(side->backend.get());
    for (const sd::Sandbox &sandbox : std::as_const(sandboxes)) {
        QElapsedTimer since;
        since.start();
        startToFirstByte(network, side->settings, sandbox, &since);
    }
    const Memory used = memoryOf(side->backend.get());
    killAll(network, side->settings);
    const auto perSandbox
        = [idle](qint64 kib, qint64 baseKiB) { return double(kib - baseKiB) / idle; };
    std::printf("| %s | %.1f MiB, %d processes (Pss %.1f MiB) | %.1f KiB | %.1f KiB, %d "
                "processes, Pss %.1f KiB |\n",
        qPrintable(side->isolation), double(none.backendKiB) / 1024, none.processes,
        double(none.processesKiB) / 1024, perSandbox(created.backendKiB, none.backendKiB),
        perSandbox(used.backendKiB, none.backendKiB), used.processes - none.processes,
        perSandbox(used.processesKiB, none.processesKiB));
}

} // namespace

/// Starts `backend` and creates `count` sandboxes in it, their folders on disk, as the
/// folders of sandboxes that ran a while are: blocks never written back are freed at no
/// cost, and a removal would look cheaper than it is.
bool startWithSandboxes(QNetworkAccessManager *network, sd::test::LocalBackend *backend, int count)
{
    if (!startBackend(backend))
        return false;
    const sd::ConnectionSettings settings = connectionSettings(*backend);
    for (int i = 0; i < count; ++i) {
        if (createSandbox(network, settings).sandboxId.isEmpty())
            return false;
    }
    ::sync();
    return true;
}

/// SIGTERM to exit of a fresh backend holding `count` sandboxes; adds to `left` the
/// sandbox folders still there after it exited. -1 if the backend did not come up.
qint64 measureStop(QNetworkAccessManager *network, int count, int *left)
{
    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
        QStringLiteral("--max-sandboxes"), QString::number(count) });
    if (!startWithSandboxes(network, &backend, count))
        return -1;
    QElapsedTimer stopping;
    stopping.start();
    backend.process()->terminate();
    if (!backend.process()->waitForFinished(300000))
        return -1;
    const qint64 ns = stopping.nsecsElapsed();
    *left += int(QDir(backend.stateDir() + QStringLiteral("/sandboxes"))
                     .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)
                     .size());
    return ns;
}

/// Whether the folders of `stateDir`'s earlier sandboxes are all deleted: none left in
/// `sandboxes`, nor in a folder moved aside for deletion.
bool leftoversDeleted(const QString &stateDir)
{
    const QDir state(stateDir);
    const auto all = QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden;
    return state.entryList({ QStringLiteral(".removed-sandboxes-*") }, all).isEmpty()
        && QDir(state.filePath(QStringLiteral("sandboxes"))).entryList(all).isEmpty();
}

/// Start to "listening" of a backend on an empty state folder, when `count` is 0; else
/// of one started again on the folder of a backend killed with `count` sandboxes, and
/// in `deletedNs` until their folders are deleted.
qint64 measureStart(QNetworkAccessManager *network, int count, qint64 *deletedNs = nullptr)
{
    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
        QStringLiteral("--max-sandboxes"), QString::number(std::max(1, count)) });
    if (count > 0) {
        if (!startWithSandboxes(network, &backend, count))
            return -1;
        backend.process()->kill();
        if (!backend.process()->waitForFinished(60000))
            return -1;
    }
    QElapsedTimer starting;
    starting.start();
    if (!startBackend(&backend))
        return -1;
    const qint64 ns = starting.nsecsElapsed();
    if (deletedNs) {
        while (!leftoversDeleted(backend.stateDir()))
            QThread::msleep(2);
        *deletedNs = starting.nsecsElapsed();
    }
    backend.stop();
    return ns;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const int reps = std::max(5, repetitions(args, 5));
    const int cycles = countOption(args, QStringLiteral("--cycles"), 20, 5);
    const int creations = countOption(args, QStringLiteral("--creations"), 100, 20);
    const int idle = std::max(1, countOption(args, QStringLiteral("--idle"), 100, 20));
    const int stopSandboxes
        = std::max(1, countOption(args, QStringLiteral("--stop-sandboxes"), 1000, 200));

    const QString earlier = optionValue(args, QStringLiteral("--earlier"));
    std::vector<Side> sides(earlier.isEmpty() ? 2 : 4);
    for (size_t i = 0; i < sides.size(); ++i) {
        Side &side = sides[i];
        side.isolation = i % 2 == 0 ? QStringLiteral("bwrap") : QStringLiteral("none");
        side.backend = std::make_unique<sd::test::LocalBackend>(
            QStringList { QStringLiteral("--isolation"), side.isolation });
        if (i >= 2) {
            // The wrapper gets this build's backend and its arguments, and runs the
            // earlier one with the same arguments instead.
            side.build = earlier;
            side.backend->setWrapper({ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                QStringLiteral("shift; exec \"$0\" \"$@\""),
                QDir(earlier).filePath(QStringLiteral("sandbox-desk-local")) });
        }
        if (!startBackend(side.backend.get()))
            return 1;
        side.settings = connectionSettings(*side.backend);
    }

    sd::NetworkAccessManager network;
    for (Side &side : sides) // connections, caches, the first jail: not counted
        measureCycles(&network, &side, 2);
    for (Side &side : sides) {
        side.createOnly = {};
        side.createToReady = {};
        side.startToFirstByte = {};
        side.startAfterQuiet = {};
    }
    for (int rep = 0; rep < reps; ++rep) {
        for (size_t turn = 0; turn < sides.size(); ++turn) {
            Side &side = sides[(size_t(rep) + turn) % sides.size()];
            measureCycles(&network, &side, cycles);
            measureCreationRate(&network, &side, creations);
        }
        std::printf("rep %d: create to first output so far, medians: bwrap %.1f ms, none %.1f ms\n",
            rep + 1, sides[0].createToReady.medianMs(), sides[1].createToReady.medianMs());
        std::fflush(stdout);
    }

    std::printf(
        "\n== the local backend, %d repetitions, backends alternating; medians (p95)\n", reps);
    std::printf("| isolation | create to ready (first output) | of which the create | Start to "
                "first byte | the same after 200 ms of quiet | creations/s, one after another "
                "| creations/s, %d at once |\n"
                "| --- | --- | --- | --- | --- | --- | --- |\n",
        creations);
    for (const Side &side : sides) {
        const QString name = side.build.isEmpty()
            ? side.isolation
            : QStringLiteral("%1, earlier build").arg(side.isolation);
        std::printf(
            "| %s | %.1f ms (%.1f) | %.2f ms (%.2f) | %.1f ms (%.1f) | %.1f ms (%.1f) | %.0f | "
            "%.0f |\n",
            qPrintable(name), side.createToReady.medianMs(), side.createToReady.p95Ms(),
            side.createOnly.medianMs(), side.createOnly.p95Ms(), side.startToFirstByte.medianMs(),
            side.startToFirstByte.p95Ms(), side.startAfterQuiet.medianMs(),
            side.startAfterQuiet.p95Ms(), side.sequentialPerSecond.quantileNs(0.5),
            side.concurrentPerSecond.quantileNs(0.5));
    }
    if (!earlier.isEmpty())
        std::printf("(earlier build: %s)\n", qPrintable(earlier));
    std::printf(
        "(%d cycles per repetition; %d creations per rate measurement)\n", cycles, creations);

    std::printf("\n== idle memory, %d idle sandboxes beside none\n", idle);
    std::printf("| isolation | backend with none (what it runs) | backend per sandbox, created "
                "| per sandbox after one command: backend, processes it runs, their Pss |\n"
                "| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < 2; ++i) // this build's only
        measureIdleMemory(&network, &sides[i], idle);

    Samples stop;
    int foldersLeft = 0;
    for (int rep = 0; rep < reps; ++rep) {
        const qint64 ns = measureStop(&network, stopSandboxes, &foldersLeft);
        if (ns < 0)
            return 1;
        stop.add(ns);
    }
    std::printf("\n== stop with %d sandboxes (isolation none), %d repetitions: SIGTERM to exit, "
                "median %.0f ms (p95 %.0f); sandbox folders left: %d\n",
        stopSandboxes, reps, stop.medianMs(), stop.p95Ms(), foldersLeft);

    Samples freshStart, crashStart, crashDeleted;
    for (int rep = 0; rep < reps; ++rep) {
        qint64 deleted = 0;
        const qint64 fresh = measureStart(&network, 0);
        const qint64 crash = measureStart(&network, stopSandboxes, &deleted);
        if (fresh < 0 || crash < 0)
            return 1;
        freshStart.add(fresh);
        crashStart.add(crash);
        crashDeleted.add(deleted);
    }
    std::printf("\n== start to listening (isolation none), %d repetitions, medians (p95): on an "
                "empty state folder %.1f ms (%.1f); after a crash with %d sandboxes %.1f ms "
                "(%.1f), %.2fx; their folders deleted after %.0f ms (%.0f)\n",
        reps, freshStart.medianMs(), freshStart.p95Ms(), stopSandboxes, crashStart.medianMs(),
        crashStart.p95Ms(), crashStart.medianMs() / freshStart.medianMs(), crashDeleted.medianMs(),
        crashDeleted.p95Ms());
    std::printf("load average at end: %.2f\n", loadAverage());
    return 0;
}
