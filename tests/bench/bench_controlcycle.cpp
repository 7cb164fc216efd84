// The control-plane cycle: create a `base` sandbox, then kill it, 200 times in a row,
// against a `sandbox-desk-local` this benchmark starts (`--isolation none`, so the
// backend's own work stays small and the clients' costs show):
//
//  - core:   the core library's jobs in process (CreateSandboxJob, then KillSandboxJob)
//            on the product's sd::NetworkAccessManager;
//  - sdk:    the official `e2b` SDK in one Node process (tests/bench/sdk-cycle.mjs),
//            Node's start-up left out;
//  - floor:  the core's two requests (POST /v2/sandboxes with the same body, then
//            DELETE /sandboxes/{id}) sent on a raw kept-alive socket: what the backend
//            and the transport cost, with no client library (the goal: the core within
//            1.5x of it);
//  - health: two GET /health on that raw socket, the transport's own floor;
//  - qt:     the core's POST and DELETE (same headers and body) through Qt's own
//            client (a plain QNetworkAccessManager), with no job around them;
//  - bare:   the same through sd::NetworkAccessManager, with no job around them: what
//            the jobs add is the core's time less this.
//
// Each round runs the six one after the other, 200 cycles each, in rotating order.
// Client CPU per cycle: this process's (all threads) for the core, Node's
// process.cpuUsage() for the SDK. Figures are printed, never asserted.
//
//   build/bin/bench_controlcycle [--reps ROUNDS] [--cycles N] [--quick] [--isolation MODE]
//                                [--npm-dir DIR]

#include "benchbackend.h"
#include "benchutil.h"
#include "rawhttp.h"

#include "api/connectionsettings.h"
#include "api/sandboxjobs.h"
#include "network/networkaccessmanager.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <cstdio>
#include <memory>

using namespace sd::bench;

namespace {

sd::NewSandbox baseSandbox()
{
    sd::NewSandbox request;
    request.templateId = QStringLiteral("base");
    return request;
}

/// Whole cycles into `out` (this process's CPU time per cycle into `cpu`); the create
/// and the kill alone into `creates` and `kills`.
void coreCycles(QNetworkAccessManager *network, const sd::ConnectionSettings &settings, int count,
    int warmup, Samples *out, Samples *cpu, Samples *creates, Samples *kills)
{
    const sd::NewSandbox request = baseSandbox();
    for (int i = 0; i < warmup + count; ++i) {
        bool ok = true;
        qint64 createNs = 0;
        const double cpu0 = processCpuSeconds();
        const qint64 ns = timeNs([&] {
            sd::CreateSandboxJob create(network, settings, request);
            create.setAutoDelete(false);
            createNs = timeNs([&] { ok = runJob(&create); });
            if (!ok)
                return;
            sd::KillSandboxJob kill(network, settings, create.sandbox().sandboxId);
            kill.setAutoDelete(false);
            ok = runJob(&kill);
        });
        if (!ok) {
            std::fprintf(stderr, "core cycle failed\n");
            return;
        }
        if (i >= warmup) {
            out->add(ns);
            cpu->add(qint64((processCpuSeconds() - cpu0) * 1e9));
            creates->add(createNs);
            kills->add(ns - createNs);
        }
    }
}

/// The core's create and kill requests, the same method, path and body, sent raw.
bool rawCycle(RawHttp *raw, const QByteArray &createBody, QString *why)
{
    QByteArray reply;
    const int created = raw->request("POST", "/v2/sandboxes", createBody, &reply);
    const QByteArray id = QJsonDocument::fromJson(reply)
                              .object()
                              .value(QLatin1String("sandboxID"))
                              .toString()
                              .toUtf8();
    if (created != 201 || id.isEmpty()) {
        *why = QStringLiteral("create: %1 %2").arg(created).arg(raw->errorString());
        return false;
    }
    const int killed = raw->request("DELETE", "/sandboxes/" + id);
    if (killed != 204) {
        *why = QStringLiteral("kill: %1 %2").arg(killed).arg(raw->errorString());
        return false;
    }
    return true;
}

/// Between two raw cycles, not timed: the backend's log pipe (sd::test::LocalBackend)
/// is read only in the event loop, and a backend whose pipe is full stops answering.
void readBackendLog() { QCoreApplication::processEvents(); }

void floorCycles(RawHttp *raw, const QByteArray &createBody, int count, int warmup, Samples *out)
{
    for (int i = 0; i < warmup + count; ++i) {
        readBackendLog();
        QString why;
        bool ok = true;
        const qint64 ns = timeNs([&] { ok = rawCycle(raw, createBody, &why); });
        if (!ok) {
            std::fprintf(stderr, "raw create + kill failed at cycle %d: %s\n", i, qPrintable(why));
            return;
        }
        if (i >= warmup)
            out->add(ns);
    }
}

void healthCycles(RawHttp *raw, int count, int warmup, Samples *out)
{
    for (int i = 0; i < warmup + count; ++i) {
        readBackendLog();
        bool ok = true;
        const qint64 ns = timeNs([&] {
            ok = raw->request("GET", "/health") == 200 && raw->request("GET", "/health") == 200;
        });
        if (!ok) {
            std::fprintf(stderr, "raw GET /health failed at cycle %d: %s\n", i,
                qPrintable(raw->errorString()));
            return;
        }
        if (i >= warmup)
            out->add(ns);
    }
}

/// The core's two requests, as ApiJob sends them, straight through `network`.
void bareQnamCycles(QNetworkAccessManager *network, const sd::ConnectionSettings &settings,
    const QByteArray &createBody, int count, int warmup, Samples *out)
{
    const auto request = [&](const QString &path) {
        QNetworkRequest req(settings.apiUrl.resolved(QUrl(path)));
        req.setAttribute(
            QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        req.setRawHeader("X-API-Key", settings.apiKey.toUtf8());
        req.setRawHeader("Accept", "application/json");
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        return req;
    };
    const auto send = [&](const QNetworkRequest &req, const QByteArray &verb,
                          const QByteArray &body) {
        QEventLoop loop;
        std::unique_ptr<QNetworkReply> reply(network->sendCustomRequest(req, verb, body));
        QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        return std::make_pair(
            reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll());
    };
    const QNetworkRequest create = request(QStringLiteral("/v2/sandboxes"));
    for (int i = 0; i < warmup + count; ++i) {
        bool ok = true;
        const qint64 ns = timeNs([&] {
            const auto [status, body] = send(create, "POST", createBody);
            const QString id = QJsonDocument::fromJson(body)
                                   .object()
                                   .value(QLatin1String("sandboxID"))
                                   .toString();
            ok = status == 201 && !id.isEmpty()
                && send(request(QStringLiteral("/sandboxes/") + id), "DELETE", {}).first == 204;
        });
        if (!ok) {
            std::fprintf(stderr, "bare QNetworkAccessManager cycle failed at %d\n", i);
            return;
        }
        if (i >= warmup)
            out->add(ns);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const int rounds = std::max(5, repetitions(args, 5));
    const int count = countOption(args, QStringLiteral("--cycles"), 200, 20);
    const int warmup = 5;
    const QString isolation
        = optionValue(args, QStringLiteral("--isolation"), QStringLiteral("none"));

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), isolation });
    if (!startBackend(&backend))
        return 1;
    const sd::ConnectionSettings settings = connectionSettings(backend);
    const OfficialSdk officialSdk(backend, args);
    const bool haveSdk = officialSdk.available();

    sd::NetworkAccessManager network;
    QNetworkAccessManager qtClient;
    RawHttp raw(backend.url(), backend.apiKey().toUtf8());
    const QByteArray createBody
        = QJsonDocument(baseSandbox().toJson()).toJson(QJsonDocument::Compact);
    Samples core, coreCpu, sdk, sdkCpu, floor, health, qnam, bare, coreCreates, coreKills;
    std::vector<Samples> coreRounds(rounds), sdkRounds(rounds), floorRounds(rounds);
    for (int round = 0; round < rounds; ++round) {
        for (int turn = 0; turn < 6; ++turn) {
            switch ((round + turn) % 6) {
            case 0:
                coreCycles(&network, settings, count, warmup, &coreRounds[round], &coreCpu,
                    &coreCreates, &coreKills);
                core.addAll(coreRounds[round]);
                break;
            case 1:
                if (haveSdk) {
                    sdkCycles(officialSdk, count, warmup, {}, &sdkRounds[round], &sdkCpu);
                    sdk.addAll(sdkRounds[round]);
                }
                break;
            case 2:
                floorCycles(&raw, createBody, count, warmup, &floorRounds[round]);
                floor.addAll(floorRounds[round]);
                break;
            case 3:
                healthCycles(&raw, count, warmup, &health);
                break;
            case 4:
                bareQnamCycles(&qtClient, settings, createBody, count, warmup, &qnam);
                break;
            case 5:
                bareQnamCycles(&network, settings, createBody, count, warmup, &bare);
                break;
            }
        }
        std::printf("round %d: core %.2f ms, sdk %.2f ms, floor %.2f ms (medians per cycle)\n",
            round + 1, coreRounds[round].medianMs(), sdkRounds[round].medianMs(),
            floorRounds[round].medianMs());
        std::fflush(stdout);
    }

    std::printf("\n== create (base) + kill, %d cycles in a row per round, %d rounds, "
                "rotating order; median per cycle in ms (p95)\n",
        count, rounds);
    std::printf("| contender | per cycle | × the floor | client CPU per cycle |\n"
                "| --- | --- | --- | --- |\n");
    const double f = floor.medianMs();
    std::printf("| core jobs in process (CreateSandboxJob + KillSandboxJob) | **%.2f** (%.2f) | "
                "%.2f× | %.2f |\n",
        core.medianMs(), core.p95Ms(), ratio(core.medianMs(), f), coreCpu.medianMs());
    std::printf("| of which the create (POST /v2/sandboxes) | %.2f (%.2f) | | |\n",
        coreCreates.medianMs(), coreCreates.p95Ms());
    std::printf("| of which the kill (DELETE /sandboxes/{id}) | %.2f (%.2f) | | |\n",
        coreKills.medianMs(), coreKills.p95Ms());
    if (haveSdk)
        std::printf("| official SDK, one Node process (Sandbox.create + kill) | %.2f (%.2f) | "
                    "%.2f× | %.2f |\n",
            sdk.medianMs(), sdk.p95Ms(), ratio(sdk.medianMs(), f), sdkCpu.medianMs());
    std::printf("| floor: the same POST + DELETE on a raw kept-alive socket | %.2f (%.2f) | 1× "
                "| |\n",
        f, floor.p95Ms());
    std::printf("| sd::NetworkAccessManager alone, the same POST + DELETE, no job | %.2f (%.2f) | "
                "%.2f× | |\n",
        bare.medianMs(), bare.p95Ms(), ratio(bare.medianMs(), f));
    std::printf("| Qt's own client alone, the same POST + DELETE, no job | %.2f (%.2f) | %.2f× "
                "| |\n",
        qnam.medianMs(), qnam.p95Ms(), ratio(qnam.medianMs(), f));
    std::printf("| transport floor: raw kept-alive socket, 2 × GET /health | %.2f (%.2f) | | |\n",
        health.medianMs(), health.p95Ms());
    if (haveSdk)
        std::printf(
            "sdk / core: %.2f× (goal: at least 2×)\n", ratio(sdk.medianMs(), core.medianMs()));
    std::printf("core / floor: %.2f× (goal: within 1.5×); core / its transport alone: "
                "%.2f×\n",
        ratio(core.medianMs(), f), ratio(core.medianMs(), bare.medianMs()));
    std::printf("load average at end: %.2f\n", loadAverage());
    backend.stop();
    return 0;
}
