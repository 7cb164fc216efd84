// Many MCP creations at once, against a `sandbox-desk-local` this benchmark starts
// (`--isolation none`):
//
//  - core: COUNT CreationJobs (with an MCP server, so each starts the gateway) made
//          from one Session's creationContext(), tracked by it and started together;
//  - sdk:  COUNT `Sandbox.create({ mcp })` started together in one Node process
//          (tests/bench/sdk-concurrency.mjs).
//
// For each: the wall time until every creation ended, the client process's CPU time
// per creation (all its threads: the journal's writer and Qt's network thread too;
// Node's process.cpuUsage()), its peak resident size (VmHWM reset before each core
// run; Node's maxRSS) beside its size before, and the creations that failed. Between
// runs, everything made is killed (not timed). The sides alternate, the order
// rotating each repetition. Goals: no failures, client CPU per creation under 2 ms.
//
//   build/bin/bench_concurrency [--reps N] [--quick] [--count N] [--sdk-timeout S]
//                               [--npm-dir DIR] [--core-only]
// (--sdk-timeout: the Node side's run is stopped after S seconds, 180 by default, and
// counted as all failed. --core-only: no SDK side and no minimum of 5 repetitions, for
// a profiler. Under callgrind each core run's costs are dumped on their own, without
// the backend's start or the kills between runs:
//   valgrind --tool=callgrind --trace-children=no
//       build/bin/bench_concurrency --core-only --reps 2 --count 50
// writes callgrind.out.<pid>.<n>, one file per core run.)

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"

#include "api/sandboxjobs.h"
#include "creation/creationjob.h"
#include "journal/creationjournal.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTemporaryDir>

#include <sys/resource.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name)
#endif

#include <cstdio>
#include <memory>

using namespace sd::bench;

namespace {

struct Run
{
    bool ran = false;
    double seconds = 0;
    double cpuSeconds = 0;
    double systemSeconds = 0; // the kernel's part of cpuSeconds (core side only)
    double peakMiB = 0;
    double baseMiB = 0;
    int failures = 0;
    QString firstError;
    QStringList ids;
};

/// The kernel's part of this process's CPU time (system calls: sockets, the journal's
/// file), in seconds.
double processSystemSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) / 1e6;
}

/// A server of the catalog with its required options (values are made up: the local
/// gateway starts without reaching anyone).
QJsonObject mcpConfig()
{
    return { { QStringLiteral("browserbase"),
        QJsonObject { { QStringLiteral("apiKey"), QStringLiteral("bench-key") },
            { QStringLiteral("projectId"), QStringLiteral("bench-project") },
            { QStringLiteral("geminiApiKey"), QStringLiteral("bench-gemini") } } } };
}

Run coreRun(sd::Session *session, int count)
{
    Run run;
    run.ran = true;
    resetPeak();
    run.baseMiB = double(statusKiB("VmRSS:")) / 1024;
    sd::CreationRequest request;
    request.mcp = mcpConfig();
    std::vector<sd::CreationJob *> jobs;
    int finished = 0;
    QEventLoop loop;
    CALLGRIND_ZERO_STATS;
    const double cpu0 = processCpuSeconds();
    const double system0 = processSystemSeconds();
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < count; ++i) {
        auto *job = new sd::CreationJob(session->creationContext(), request);
        job->setAutoDelete(false);
        session->track(job);
        QObject::connect(job, &sd::Job::finished, &loop, [&] {
            if (++finished == count)
                loop.quit();
        });
        jobs.push_back(job);
        job->start();
    }
    loop.exec();
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.cpuSeconds = processCpuSeconds() - cpu0;
    run.systemSeconds = processSystemSeconds() - system0;
    CALLGRIND_DUMP_STATS_AT("core run");
    run.peakMiB = double(statusKiB("VmHWM:")) / 1024;
    for (sd::CreationJob *job : jobs) {
        if (job->state() != sd::CreationState::Ready) {
            ++run.failures;
            if (run.firstError.isEmpty())
                run.firstError = job->errorMessage();
        }
        if (!job->sandboxId().isEmpty())
            run.ids << job->sandboxId();
        delete job;
    }
    return run;
}

Run sdkRun(const OfficialSdk &sdk, int count, int timeoutSeconds)
{
    Run run;
    QByteArray out;
    const OfficialSdk::Outcome outcome = sdk.run(QStringLiteral("sdk-concurrency.mjs"),
        { QString::number(count),
            QString::fromUtf8(QJsonDocument(mcpConfig()).toJson(QJsonDocument::Compact)) },
        timeoutSeconds * 1000, &out);
    if (outcome == OfficialSdk::Outcome::TimedOut) {
        // Counted as a run in which none finished, so a stuck side still shows.
        run.ran = true;
        run.seconds = timeoutSeconds;
        run.failures = count;
        run.firstError
            = QStringLiteral("not all settled within %1 s (--sdk-timeout)").arg(timeoutSeconds);
        return run;
    }
    if (outcome == OfficialSdk::Outcome::Failed)
        return run;
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    run.ran = true;
    run.seconds = result.value(QLatin1String("seconds")).toDouble();
    run.cpuSeconds = result.value(QLatin1String("cpuSeconds")).toDouble();
    run.peakMiB = result.value(QLatin1String("peakMiB")).toDouble();
    run.baseMiB = result.value(QLatin1String("baseMiB")).toDouble();
    run.failures = result.value(QLatin1String("failures")).toInt();
    run.firstError = result.value(QLatin1String("firstError")).toString();
    for (const QJsonValue &id : result.value(QLatin1String("ids")).toArray())
        run.ids << id.toString();
    return run;
}

struct Side
{
    Samples wallNs, cpuPerCreationNs, peakKiB, baseKiB;
    int failures = 0;
    int creations = 0;
    QString firstError;

    void add(const Run &run, int count)
    {
        if (!run.ran)
            return;
        wallNs.add(qint64(run.seconds * 1e9));
        cpuPerCreationNs.add(qint64(run.cpuSeconds * 1e9 / count));
        peakKiB.add(qint64(run.peakMiB * 1024));
        baseKiB.add(qint64(run.baseMiB * 1024));
        failures += run.failures;
        creations += count;
        if (firstError.isEmpty())
            firstError = run.firstError;
    }
    void print(const char *name) const
    {
        std::printf("| %s | %.2f s | %.2f ms | %.1f MiB (%.1f before) | %d of %d |\n", name,
            wallNs.medianMs() / 1000, cpuPerCreationNs.medianMs(), peakKiB.quantileNs(0.5) / 1024,
            baseKiB.quantileNs(0.5) / 1024, failures, creations);
        if (!firstError.isEmpty())
            std::printf("  first failure: %s\n", qPrintable(firstError));
    }
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const bool coreOnly = args.contains(QStringLiteral("--core-only"));
    const int reps = coreOnly ? repetitions(args, 5) : std::max(5, repetitions(args, 5));
    const int count = countOption(args, QStringLiteral("--count"), 200, 20);
    const int sdkTimeout = countOption(args, QStringLiteral("--sdk-timeout"), 180, 180);

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
    if (!startBackend(&backend))
        return 1;
    const sd::ConnectionSettings settings = connectionSettings(backend);

    sd::NetworkAccessManager network;
    QTemporaryDir journalDir;
    auto *session = new sd::Session(&network, settings);
    if (!session->open(journalDir.path())) {
        std::printf("journal: %s\n", qPrintable(session->errorString()));
        return 1;
    }

    const OfficialSdk officialSdk(backend, args);
    const bool haveSdk = !coreOnly && officialSdk.available();

    Side core, sdk;
    for (int rep = 0; rep < reps; ++rep) {
        for (int turn = 0; turn < 2; ++turn) {
            if ((rep + turn) % 2 == 0) {
                const Run run = coreRun(session, count);
                core.add(run, count);
                std::printf("rep %d core: %.2f s, cpu %.2f ms per creation (%.2f of it in the "
                            "kernel), peak %.1f MiB, %d failed\n",
                    rep + 1, run.seconds, run.cpuSeconds * 1000 / count,
                    run.systemSeconds * 1000 / count, run.peakMiB, run.failures);
            } else if (haveSdk) {
                const Run run = sdkRun(officialSdk, count, sdkTimeout);
                sdk.add(run, count);
                std::printf("rep %d sdk:  %.2f s, cpu %.2f ms per creation, peak %.1f MiB, %d "
                            "failed\n",
                    rep + 1, run.seconds, run.cpuSeconds * 1000 / count, run.peakMiB, run.failures);
                if (!run.firstError.isEmpty())
                    std::printf("  first failure: %s\n", qPrintable(run.firstError.left(300)));
            }
            std::fflush(stdout);
            killAll(&network, settings);
        }
    }

    std::printf("\n== %d MCP creations (browserbase) started at once, %d repetitions, sides "
                "alternating; medians\n",
        count, reps);
    std::printf("| client | wall time to all ended | client CPU per creation | peak memory | "
                "failed |\n| --- | --- | --- | --- | --- |\n");
    core.print("core CreationJob via Session");
    if (haveSdk) {
        sdk.print("official SDK Sandbox.create({ mcp }), one Node process");
        std::printf("sdk / core: wall %.2f×, CPU per creation %.2f×\n",
            ratio(sdk.wallNs.medianMs(), core.wallNs.medianMs()),
            ratio(sdk.cpuPerCreationNs.medianMs(), core.cpuPerCreationNs.medianMs()));
    }
    std::printf("goals: no failures (core %d), client CPU per creation under 2 ms (core median "
                "%.2f ms)\n",
        core.failures, core.cpuPerCreationNs.medianMs());
    std::printf("load average at end: %.2f\n", loadAverage());
    session->release();
    backend.stop();
    return 0;
}
