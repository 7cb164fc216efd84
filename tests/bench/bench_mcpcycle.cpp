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
//          process (tests/bench/sdk-cycle.mjs with MCP_JSON), Node's start-up left out;
//  - floor: the core's four requests (the create with the same body, the gateway's
//          `Start` with the same command, read to the end of its stream, the timeout,
//          the kill) sent on a raw kept-alive socket: what the backend and the
//          loopback cost, with no client library and no journal.
//
// The MCP configuration is `{"duckduckgo":{}}` (a catalog server without options).
// For each: median time per cycle, and the client's CPU time per cycle (this whole
// process, every thread: the journal's writer and Qt's network thread too; Node's
// process.cpuUsage()). The sides alternate, the order rotating each repetition, a few
// warm-up cycles per repetition not counted. Goals: the core at least 2× faster than
// the SDK, and within 1.5× of the floor. With `--pause-ms N` each cycle, on every side,
// comes N ms after the one before (not counted), as a person's creations come.
//
//   build/bin/bench_mcpcycle [--reps N] [--cycles N] [--pause-ms N] [--quick]
//                            [--npm-dir DIR]

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"
#include "rawhttp.h"

#include "creation/creationjob.h"
#include "envd/envelope.h"
#include "envd/processjobs.h"
#include "mcp/mcpcommand.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTemporaryDir>
#include <QUuid>

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
bool coreCycles(sd::Session *session, int count, int warmup, int pauseMs, Samples *out,
    Samples *cpu, Phases *phases)
{
    sd::CreationRequest request;
    request.mcp = mcpConfig();
    for (int i = 0; i < warmup + count; ++i) {
        quietFor(pauseMs);
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

/// What the floor sends: the core's create body (template, short timeout, the two
/// metadata tags, the MCP configuration) and its gateway Start envelope.
struct RawMcpRequests
{
    QByteArray createBody;
    QByteArray startBody;

    RawMcpRequests()
    {
        const QString uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        sd::NewSandbox create;
        create.templateId = QStringLiteral("mcp-gateway");
        create.timeoutSeconds = 120 + 60;
        create.metadata.insert(QStringLiteral("sandbox-desk.creation"), uuid);
        create.metadata.insert(QStringLiteral("sandbox-desk.install"), uuid);
        create.mcp = mcpConfig();
        createBody = QJsonDocument(create.toJson()).toJson(QJsonDocument::Compact);
        const sd::ProcessConfig gateway
            = sd::StartProcessJob::shellCommand(sd::mcpGatewayCommand(mcpConfig()),
                { { QStringLiteral("GATEWAY_ACCESS_TOKEN"), uuid } });
        startBody = sd::envd::encodeEnvelope({ { QStringLiteral("process"), gateway.toJson() },
            { QStringLiteral("stdin"), false } });
    }
};

/// True when a Start stream's body is whole and its process ended with status 0.
bool gatewayStarted(const QByteArray &stream)
{
    sd::envd::EnvelopeDecoder decoder;
    decoder.feed(stream);
    bool ended = false;
    for (const sd::envd::Envelope &envelope : decoder.takeAll()) {
        sd::envd::ProcessEvent event;
        QString error;
        if (!envelope.isEndStream() && sd::envd::parseProcessEvent(envelope.json, &event, &error)
            && event.type == sd::envd::ProcessEvent::Type::End)
            ended = event.exited && event.exitCode == 0;
    }
    return decoder.finish() && ended;
}

/// One floor cycle; false with the failed step in `why`.
bool rawCycle(RawHttp *raw, const RawMcpRequests &requests, QString *why)
{
    QByteArray reply;
    const int created = raw->request("POST", "/v2/sandboxes", requests.createBody, &reply);
    const QJsonObject sandbox = QJsonDocument::fromJson(reply).object();
    const QByteArray id = sandbox.value(QLatin1String("sandboxID")).toString().toUtf8();
    const QByteArray token = sandbox.value(QLatin1String("envdAccessToken")).toString().toUtf8();
    if (created != 201 || id.isEmpty()) {
        *why = QStringLiteral("create: %1 %2").arg(created).arg(raw->errorString());
        return false;
    }
    // The headers envd needs and the core sends (EnvdJob::send(), EnvdTarget).
    const QByteArray envdHeaders = "Content-Type: application/connect+json\r\n"
                                   "Connect-Protocol-Version: 1\r\n"
                                   "Connect-Timeout-Ms: 125000\r\n"
                                   "Keepalive-Ping-Interval: 50\r\n"
                                   "E2b-Sandbox-Id: "
        + id + "\r\nE2b-Sandbox-Port: 49983\r\n"
        + (token.isEmpty() ? QByteArray() : "X-Access-Token: " + token + "\r\n")
        + "Authorization: Basic cm9vdDo=\r\n";
    const int started
        = raw->send("POST", "/process.Process/Start", envdHeaders, requests.startBody, &reply);
    if (started != 200 || !gatewayStarted(reply)) {
        *why = QStringLiteral("gateway start: %1 %2").arg(started).arg(raw->errorString());
        return false;
    }
    const int extended
        = raw->request("POST", "/sandboxes/" + id + "/timeout", R"({"timeout":300})");
    if (extended != 204) {
        *why = QStringLiteral("timeout: %1 %2").arg(extended).arg(raw->errorString());
        return false;
    }
    const int killed = raw->request("DELETE", "/sandboxes/" + id);
    if (killed != 204) {
        *why = QStringLiteral("kill: %1 %2").arg(killed).arg(raw->errorString());
        return false;
    }
    return true;
}

/// Floor cycles into `out`; false (and why on stderr) when one failed.
bool floorCycles(RawHttp *raw, int count, int warmup, int pauseMs, Samples *out)
{
    const RawMcpRequests requests;
    for (int i = 0; i < warmup + count; ++i) {
        // Not timed: the backend's log pipe is read only in the event loop, and a
        // backend whose pipe is full stops answering.
        QCoreApplication::processEvents();
        quietFor(pauseMs);
        QString why;
        bool ok = true;
        const qint64 ns = timeNs([&] { ok = rawCycle(raw, requests, &why); });
        if (!ok) {
            std::fprintf(stderr, "floor cycle %d failed: %s\n", i, qPrintable(why));
            return false;
        }
        if (i >= warmup)
            out->add(ns);
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
    const int pauseMs
        = optionValue(args, QStringLiteral("--pause-ms"), QStringLiteral("0")).toInt();

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
    if (!startBackend(&backend))
        return 1;
    sd::NetworkAccessManager network;
    QTemporaryDir journalDir;
    auto *session = new sd::Session(&network, connectionSettings(backend));
    if (!session->open(journalDir.path())) {
        std::printf("journal: %s\n", qPrintable(session->errorString()));
        return 1;
    }
    const OfficialSdk officialSdk(backend, args);

    RawHttp raw(backend.url(), backend.apiKey().toUtf8());
    Samples core, coreCpu, sdk, sdkCpu, floor;
    Phases phases;
    for (int rep = 0; rep < reps; ++rep) {
        for (int turn = 0; turn < 3; ++turn) {
            Samples run, runCpu;
            switch ((rep + turn) % 3) {
            case 0:
                if (!coreCycles(session, count, warmup, pauseMs, &run, &runCpu, &phases))
                    return 1;
                core.addAll(run);
                coreCpu.addAll(runCpu);
                std::printf("rep %d core:  %.1f ms per cycle, cpu %.2f ms\n", rep + 1,
                    run.medianMs(), runCpu.medianMs());
                break;
            case 1:
                if (!officialSdk.available())
                    continue;
                sdkCycles(officialSdk, count, warmup, mcpConfig(), &run, &runCpu, pauseMs);
                sdk.addAll(run);
                sdkCpu.addAll(runCpu);
                std::printf("rep %d sdk:   %.1f ms per cycle, cpu %.2f ms (%zu cycles)\n", rep + 1,
                    run.medianMs(), runCpu.medianMs(), run.size());
                break;
            default:
                if (!floorCycles(&raw, count, warmup, pauseMs, &run))
                    return 1;
                floor.addAll(run);
                std::printf("rep %d floor: %.1f ms per cycle\n", rep + 1, run.medianMs());
                break;
            }
            std::fflush(stdout);
        }
    }

    std::printf("\n== MCP creation ({\"duckduckgo\":{}}) to Ready, then kill, %d cycles in a row "
                "per repetition, %d ms apart, %d repetitions, sides taking turns; medians (p95)\n",
        count, pauseMs, reps);
    std::printf("| contender | per cycle | × the floor | client CPU per cycle |\n"
                "| --- | --- | --- | --- |\n");
    const double f = floor.medianMs();
    std::printf("| core CreationJob via Session + KillSandboxJob | **%.1f ms** (%.1f) | %.2f× | "
                "%.2f ms (%.2f) |\n",
        core.medianMs(), core.p95Ms(), ratio(core.medianMs(), f), coreCpu.medianMs(),
        coreCpu.p95Ms());
    if (officialSdk.available()) {
        std::printf("| official SDK Sandbox.create({ mcp }) + kill(), one Node process | %.1f ms "
                    "(%.1f) | %.2f× | %.2f ms (%.2f) |\n",
            sdk.medianMs(), sdk.p95Ms(), ratio(sdk.medianMs(), f), sdkCpu.medianMs(),
            sdkCpu.p95Ms());
    }
    std::printf("| floor: the core's four requests on a raw kept-alive socket | %.1f ms (%.1f) | "
                "1× | |\n",
        f, floor.p95Ms());
    std::printf("core / floor: %.2f× (goal: within 1.5×)\n", ratio(core.medianMs(), f));
    if (officialSdk.available())
        std::printf("sdk / core: time %.2f× (goal: at least 2×), CPU %.2f×\n",
            ratio(sdk.medianMs(), core.medianMs()), ratio(sdkCpu.medianMs(), coreCpu.medianMs()));
    std::printf("the core's cycle by phase, medians (p95):\n");
    phases.print();
    std::printf("load average at end: %.2f\n", loadAverage());
    session->release();
    backend.stop();
    return 0;
}
