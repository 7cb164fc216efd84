// The MCP creation cycle: create a sandbox with an MCP gateway, wait until it is
// Ready, kill it, 50 times in a row, against a `sandbox-desk-local` this benchmark
// starts (`--isolation none`):
//
//  - core: a CreationJob made from one Session's creationContext() and tracked by it,
//          as the window does (intent journalled, POST /v2/sandboxes on the
//          `mcp-gateway` template, the gateway started through envd, the timeout
//          extended, the outcome journalled), then KillSandboxJob, as the window's
//          Kill does;
//  - sdk:  the official `e2b` SDK's `Sandbox.create({ mcp })` then `kill()` in one Node
//          process (tests/bench/sdk-cycle.mjs with MCP_JSON), Node's start-up left out.
//
// The MCP configuration is `{"duckduckgo":{}}` (a catalog server without options).
// For each: median time per cycle, and the client's CPU time per cycle (this whole
// process, every thread: the journal's writer and Qt's network thread too; Node's
// process.cpuUsage()). The sides alternate, the order rotating each repetition, a few
// warm-up cycles per repetition not counted. Goal: the core at least 2× faster.
//
//   build/bin/bench_mcpcycle [--reps N] [--cycles N] [--quick] [--npm-dir DIR]

#include "benchbackend.h"
#include "benchutil.h"

#include "creation/creationjob.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTemporaryDir>

#include <cstdio>
#include <map>

using namespace sd::bench;

namespace {

QJsonObject mcpConfig() { return { { QStringLiteral("duckduckgo"), QJsonObject {} } }; }

/// Where a core cycle's time goes: each state of the creation, then the kill.
struct Phases
{
    std::map<sd::CreationState, Samples> states;
    Samples kill;

    void print() const
    {
        for (const auto &[state, samples] : states)
            std::printf("  %s: %.1f ms (%.1f)\n", qPrintable(sd::toString(state)),
                samples.medianMs(), samples.p95Ms());
        std::printf("  kill: %.1f ms (%.1f)\n", kill.medianMs(), kill.p95Ms());
    }
};

/// Whole cycles into `out`, this process's CPU time per cycle into `cpu`, their
/// phases into `phases`; false (and why on stderr) when a creation did not become
/// Ready or the kill failed.
bool coreCycles(
    sd::Session *session, int count, int warmup, Samples *out, Samples *cpu, Phases *phases)
{
    sd::CreationRequest request;
    request.mcp = mcpConfig();
    for (int i = 0; i < warmup + count; ++i) {
        QString failure;
        std::vector<std::pair<sd::CreationState, qint64>> entered;
        QElapsedTimer since;
        const double cpu0 = processCpuSeconds();
        since.start();
        const qint64 ns = timeNs([&] {
            sd::CreationJob create(session->creationContext(), request);
            create.setAutoDelete(false);
            entered.emplace_back(create.state(), 0);
            QObject::connect(
                &create, &sd::CreationJob::stateChanged, &create, [&](sd::CreationState state) {
                    entered.emplace_back(state, since.nsecsElapsed());
                });
            session->track(&create);
            runJob(&create);
            entered.emplace_back(sd::CreationState::Ready, since.nsecsElapsed());
            if (create.state() != sd::CreationState::Ready) {
                failure = create.errorMessage();
                return;
            }
            sd::KillSandboxJob kill(session->network(), session->connection(), create.sandboxId());
            kill.setAutoDelete(false);
            if (!runJob(&kill))
                failure = kill.error().message();
        });
        if (!failure.isEmpty()) {
            std::fprintf(stderr, "core cycle %d failed: %s\n", i, qPrintable(failure));
            return false;
        }
        if (i >= warmup) {
            out->add(ns);
            cpu->add(qint64((processCpuSeconds() - cpu0) * 1e9));
            // Each state lasts until the next is entered; Ready's last entry is the end.
            for (size_t at = 0; at + 1 < entered.size(); ++at) {
                if (entered[at].first != sd::CreationState::Ready)
                    phases->states[entered[at].first].add(
                        entered[at + 1].second - entered[at].second);
            }
            phases->kill.add(ns - entered.back().second);
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const int reps = std::max(5, repetitions(args, 5));
    const int count = countOption(args, QStringLiteral("--cycles"), 50, 10);
    const int warmup = 3;

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
    if (!startBackend(&backend))
        return 1;
    QNetworkAccessManager network;
    QTemporaryDir journalDir;
    auto *session = new sd::Session(&network, connectionSettings(backend));
    if (!session->open(journalDir.path())) {
        std::printf("journal: %s\n", qPrintable(session->errorString()));
        return 1;
    }
    const OfficialSdk officialSdk(backend, args);

    Samples core, coreCpu, sdk, sdkCpu;
    Phases phases;
    for (int rep = 0; rep < reps; ++rep) {
        for (int turn = 0; turn < 2; ++turn) {
            Samples run, runCpu;
            if ((rep + turn) % 2 == 0) {
                if (!coreCycles(session, count, warmup, &run, &runCpu, &phases))
                    return 1;
                core.addAll(run);
                coreCpu.addAll(runCpu);
                std::printf("rep %d core: %.1f ms per cycle, cpu %.2f ms\n", rep + 1,
                    run.medianMs(), runCpu.medianMs());
            } else if (officialSdk.available()) {
                sdkCycles(officialSdk, count, warmup, mcpConfig(), &run, &runCpu);
                sdk.addAll(run);
                sdkCpu.addAll(runCpu);
                std::printf("rep %d sdk:  %.1f ms per cycle, cpu %.2f ms (%zu cycles)\n", rep + 1,
                    run.medianMs(), runCpu.medianMs(), run.size());
            }
            std::fflush(stdout);
        }
    }

    std::printf("\n== MCP creation ({\"duckduckgo\":{}}) to Ready, then kill, %d cycles in a row "
                "per repetition, %d repetitions, sides alternating; medians (p95)\n",
        count, reps);
    std::printf("| client | per cycle | client CPU per cycle |\n| --- | --- | --- |\n");
    std::printf("| core CreationJob via Session + KillSandboxJob | **%.1f ms** (%.1f) | %.2f ms "
                "(%.2f) |\n",
        core.medianMs(), core.p95Ms(), coreCpu.medianMs(), coreCpu.p95Ms());
    std::printf("the core's cycle by phase, medians (p95):\n");
    phases.print();
    if (officialSdk.available()) {
        std::printf("| official SDK Sandbox.create({ mcp }) + kill(), one Node process | %.1f ms "
                    "(%.1f) | %.2f ms (%.2f) |\n",
            sdk.medianMs(), sdk.p95Ms(), sdkCpu.medianMs(), sdkCpu.p95Ms());
        std::printf("sdk / core: time %.2f× (goal: at least 2×), CPU %.2f×\n",
            ratio(sdk.medianMs(), core.medianMs()), ratio(sdkCpu.medianMs(), coreCpu.medianMs()));
    }
    std::printf("load average at end: %.2f\n", loadAverage());
    session->release();
    backend.stop();
    return 0;
}
