// A process in a sandbox that writes 10 MiB to stdout, streamed to the client, against
// a `sandbox-desk-local` this benchmark starts (`--isolation none`):
//
//  - core: StartProcessJob (envd `process.Process/Start`), output taken from its
//          stdoutReceived() signal and not kept, as a live view would;
//  - sdk:  the official `e2b` SDK's `sandbox.commands.run(cmd, { onStdout })` in a
//          Node process (tests/bench/sdk-stream.mjs), one process per repetition.
//
// For each: the throughput, the longest stall of the client's event loop (a 1 ms
// timer runs throughout; a stall is the longest gap between two of its ticks), and
// the peak memory of the client process (VmHWM, reset before each core run; Node's
// maxRSS) beside its size before the run. The two sides alternate, the order
// rotating each repetition. Goals: no stall over 50 ms, peak under 64 MiB.
//
//   build/bin/bench_streaming [--reps N] [--quick] [--mib M] [--npm-dir DIR]

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"

#include "api/sandboxjobs.h"
#include "creation/envdaccess.h"
#include "envd/processjobs.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTimer>

#include <cstdio>

using namespace sd::bench;

namespace {

struct Run
{
    bool ok = false;
    double seconds = 0;
    qint64 bytes = 0;
    double longestStallMs = 0;
    double peakMiB = 0; ///< the client process's peak resident size
    double baseMiB = 0; ///< its resident size before the run
};

QString command(qint64 bytes)
{
    // Printable lines, as a build log would be; produced by the sandbox, not timed
    // apart from the stream.
    return QStringLiteral(
        "yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c %1")
        .arg(bytes);
}

Run coreRun(QNetworkAccessManager *network, const sd::EnvdTarget &target, qint64 bytes)
{
    Run run;
    resetPeak();
    run.baseMiB = double(statusKiB("VmRSS:")) / 1024;
    auto *job = new sd::StartProcessJob(
        network, target, sd::StartProcessJob::shellCommand(command(bytes)));
    job->setKeepOutput(false);
    QObject::connect(job, &sd::ProcessStreamJob::stdoutReceived, job,
        [&run](const QByteArray &data) { run.bytes += data.size(); });
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QElapsedTimer sinceTick;
    qint64 longestNs = 0;
    QObject::connect(&tick, &QTimer::timeout, &tick, [&] {
        longestNs = std::max(longestNs, sinceTick.nsecsElapsed());
        sinceTick.restart();
    });
    QEventLoop loop;
    QObject::connect(job, &sd::Job::finished, &loop, [&] {
        run.ok = !job->hasError() && job->exitCode() == 0;
        if (job->hasError())
            std::fprintf(stderr, "core: %s\n", qPrintable(job->error().message()));
        loop.quit();
    });
    QElapsedTimer timer;
    timer.start();
    sinceTick.start();
    tick.start();
    job->start();
    loop.exec();
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    tick.stop();
    run.longestStallMs = double(longestNs) / 1e6;
    run.peakMiB = double(statusKiB("VmHWM:")) / 1024;
    run.ok = run.ok && run.bytes == bytes;
    return run;
}

Run sdkRun(const OfficialSdk &sdk, const QString &sandboxId, qint64 bytes)
{
    Run run;
    QByteArray out;
    if (sdk.run(QStringLiteral("sdk-stream.mjs"), { sandboxId, command(bytes) }, 600000, &out)
        != OfficialSdk::Outcome::Ok)
        return run;
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    run.seconds = result.value(QLatin1String("seconds")).toDouble();
    run.bytes = result.value(QLatin1String("bytes")).toInteger();
    run.longestStallMs = result.value(QLatin1String("longestStallMs")).toDouble();
    run.peakMiB = result.value(QLatin1String("peakMiB")).toDouble();
    run.baseMiB = result.value(QLatin1String("baseMiB")).toDouble();
    run.ok = run.bytes == bytes;
    return run;
}

struct Side
{
    Samples nsPerRun, stallNs, peakKiB, baseKiB;
    std::vector<double> throughput;
    int failures = 0;

    void add(const Run &run)
    {
        if (!run.ok) {
            ++failures;
            return;
        }
        nsPerRun.add(qint64(run.seconds * 1e9));
        stallNs.add(qint64(run.longestStallMs * 1e6));
        peakKiB.add(qint64(run.peakMiB * 1024));
        baseKiB.add(qint64(run.baseMiB * 1024));
    }
    void print(const char *name, qint64 bytes) const
    {
        const double seconds = nsPerRun.quantileNs(0.5) / 1e9;
        std::printf("| %s | %.3f s | %.1f MiB/s | %.1f ms (worst %.1f) | %.1f MiB (%.1f before) | "
                    "%d |\n",
            name, seconds, seconds > 0 ? double(bytes) / (1024 * 1024) / seconds : 0,
            stallNs.quantileNs(0.5) / 1e6, stallNs.quantileNs(1.0) / 1e6,
            peakKiB.quantileNs(0.5) / 1024, baseKiB.quantileNs(0.5) / 1024, failures);
    }
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const int reps = std::max(5, repetitions(args, 7));
    const qint64 bytes = qint64(countOption(args, QStringLiteral("--mib"), 10, 10)) * 1024 * 1024;

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
    if (!startBackend(&backend))
        return 1;
    const sd::ConnectionSettings settings = connectionSettings(backend);

    sd::NetworkAccessManager network;
    sd::NewSandbox request;
    request.templateId = QStringLiteral("base");
    request.timeoutSeconds = 3600;
    sd::CreateSandboxJob create(&network, settings, request);
    create.setAutoDelete(false);
    if (!runJob(&create)) {
        std::printf("create failed: %s\n", qPrintable(create.error().message()));
        return 1;
    }
    const sd::EnvdTarget target = sd::envdTargetFor(settings, create.sandbox());

    const OfficialSdk officialSdk(backend, args);
    const bool haveSdk = officialSdk.available();

    // One of each first, not counted: connections, caches, Node's module loading.
    coreRun(&network, target, bytes);
    if (haveSdk)
        sdkRun(officialSdk, create.sandbox().sandboxId, bytes);
    Side core, sdk;
    for (int rep = 0; rep < reps; ++rep) {
        for (int turn = 0; turn < 2; ++turn) {
            if ((rep + turn) % 2 == 0) {
                const Run run = coreRun(&network, target, bytes);
                core.add(run);
                std::printf("rep %d core: %.3f s, stall %.1f ms, peak %.1f MiB\n", rep + 1,
                    run.seconds, run.longestStallMs, run.peakMiB);
            } else if (haveSdk) {
                const Run run = sdkRun(officialSdk, create.sandbox().sandboxId, bytes);
                sdk.add(run);
                std::printf("rep %d sdk:  %.3f s, stall %.1f ms, peak %.1f MiB\n", rep + 1,
                    run.seconds, run.longestStallMs, run.peakMiB);
            }
            std::fflush(stdout);
        }
    }

    std::printf("\n== %lld MiB of stdout from a process in the sandbox, %d repetitions, sides "
                "alternating; medians\n",
        bytes / (1024 * 1024), reps);
    std::printf("| client | time | throughput | longest event-loop stall | peak memory | "
                "failed runs |\n| --- | --- | --- | --- | --- | --- |\n");
    core.print("core StartProcessJob, output not kept", bytes);
    if (haveSdk) {
        sdk.print("official SDK commands.run({ onStdout })", bytes);
        std::printf("sdk time / core time: %.2f×\n",
            ratio(sdk.nsPerRun.quantileNs(0.5), core.nsPerRun.quantileNs(0.5)));
    }
    std::printf("goals: no stall over 50 ms (core worst %.1f ms), peak under 64 MiB (core "
                "median %.1f MiB)\n",
        core.stallNs.quantileNs(1.0) / 1e6, core.peakKiB.quantileNs(0.5) / 1024);
    std::printf("load average at end: %.2f\n", loadAverage());
    backend.stop();
    return 0;
}
