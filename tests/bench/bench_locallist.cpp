// What listing sandboxes costs, from the backend's handler to whole processes:
//
//  1. In process, the backend's own cost for one page of 100 (`GET /v2/sandboxes?limit=100`)
//     at 100, 1,000, 10,000 and 50,000 sandboxes: the first page, the next one (from the
//     first page's token) and one from the middle of the list, against the way the
//     list was served before the ordered index (copy every sandbox, filter, sort, skip
//     to the cursor), reproduced here; the two take turns.
//  2. Whole processes against a real `sandbox-desk-local` holding 1,000 then 10,000
//     running sandboxes: `sandbox-desk --list --json` against the official CLI's
//     `e2b sandbox list -f json -l 0`, alternating, plus one page over HTTP.
//     `--earlier PATH` adds another build's sandbox-desk to the turns (before/after).
//
// Figures are printed, never asserted.

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"

#include "local/controlplane.h"
#include "local/router.h"
#include "local/sandboxregistry.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrlQuery>

#include <cstdio>
#include <memory>

using namespace sd::bench;
using sd::local::ControlPlane;
using sd::local::HttpRequest;
using sd::local::HttpResponse;
using sd::local::Router;
using sd::local::SandboxRecord;
using sd::local::SandboxRegistry;
using sd::local::SandboxState;

namespace {

// ---- 1. in process ---------------------------------------------------------------

HttpRequest listRequest(const QString &query)
{
    HttpRequest request;
    request.method = "GET";
    request.path = QStringLiteral("/v2/sandboxes");
    request.query = QUrlQuery(query);
    return request;
}

/// The list as it was served before the ordered index: every sandbox copied,
/// filtered, sorted, then the cursor found by a walk. Same filters as the default
/// v2 request (running and paused, newest first), same JSON.
HttpResponse listAsBefore(
    const SandboxRegistry &registry, int limit, const std::optional<sd::local::ListKey> &cursor)
{
    QList<SandboxRecord> matching;
    int totalRunning = 0;
    for (const SandboxRecord &record : registry.sandboxes()) {
        if (record.state == SandboxState::Running)
            ++totalRunning;
        matching.append(record);
    }
    std::sort(matching.begin(), matching.end(), [](const SandboxRecord &a, const SandboxRecord &b) {
        return sd::local::ListKey::of(b) < sd::local::ListKey::of(a);
    });
    qsizetype first = 0;
    if (cursor) {
        while (first < matching.size() && !(sd::local::ListKey::of(matching.at(first)) < *cursor))
            ++first;
    }
    const qsizetype end = qMin(matching.size(), first + limit);
    QJsonArray page;
    for (qsizetype i = first; i < end; ++i)
        page.append(ControlPlane::listedSandboxJson(matching.at(i)));
    HttpResponse response = HttpResponse::json(200, page);
    response.setHeader("X-Total-Running", QByteArray::number(totalRunning));
    return response;
}

void benchInProcess(const QList<int> &sizes, int reps)
{
    std::printf("\n== the backend's own cost for one page of 100 (in process, handler only)\n");
    std::printf("median CPU per page in ms (p95 CPU, median wall), %d repetitions, the two ways "
                "taking turns\n",
        reps);
    std::printf("| sandboxes | page | ordered index | as before (copy, sort, skip) | before / "
                "index |\n| --- | --- | --- | --- | --- |\n");
    std::fflush(stdout);

    SandboxRegistry registry;
    ControlPlane plane(&registry, { QStringLiteral("bench"), QStringLiteral("none"), {} });
    Router router;
    plane.registerRoutes(&router);
    const auto handle = [&](const HttpRequest &request) {
        const Router::Match match = router.match(request.method, request.path);
        return (*match.handler)(request, match.params);
    };

    SandboxRegistry::CreateParams params;
    params.templateId = QStringLiteral("base");
    params.timeoutSec = SandboxRegistry::kMaxTimeoutSec;
    for (const int size : sizes) {
        QElapsedTimer filling;
        filling.start();
        params.metadata = { { QStringLiteral("owner"), QStringLiteral("team-%1").arg(size % 7) } };
        registry.createManyForBenchmark(params, size - registry.count());
        const qint64 fillMs = filling.elapsed();

        // Cursors: after the first page, and half way down.
        const HttpResponse first = handle(listRequest(QStringLiteral("limit=100")));
        const QString secondToken = QString::fromLatin1(first.header("X-Next-Token"));
        QString middleToken = secondToken;
        for (int page = 1; page < size / 200 && !middleToken.isEmpty(); ++page) {
            const HttpResponse r = handle(listRequest(QStringLiteral("limit=100&nextToken=")
                + QString::fromLatin1(QUrl::toPercentEncoding(middleToken))));
            middleToken = QString::fromLatin1(r.header("X-Next-Token"));
        }
        // The same positions as keys, for the old way.
        const auto keyOfToken = [&](const QString &token) -> std::optional<sd::local::ListKey> {
            if (token.isEmpty())
                return std::nullopt;
            const QList<QString> parts = token.split(QLatin1Char('.'));
            return sd::local::ListKey { parts.at(0).toLongLong(), parts.at(1).toULongLong() };
        };

        struct Case
        {
            const char *name;
            QString token;
        };
        const QList<Case> cases { { "first", QString() }, { "second", secondToken },
            { "middle", middleToken } };
        for (const Case &c : cases) {
            if (c.token.isEmpty() && qstrcmp(c.name, "first") != 0)
                continue; // one page holds them all
            const HttpRequest request
                = listRequest(c.token.isEmpty() ? QStringLiteral("limit=100")
                                                : QStringLiteral("limit=100&nextToken=")
                            + QString::fromLatin1(QUrl::toPercentEncoding(c.token)));
            const auto cursor = keyOfToken(c.token);
            Samples indexCpu, indexWall, beforeCpu, beforeWall;
            qsizetype indexBytes = 0, beforeBytes = 0;
            const int warmup = 2;
            for (int rep = 0; rep < reps + warmup; ++rep) {
                const auto runIndex = [&] {
                    const Timing t = timeBoth([&] {
                        indexBytes = sd::local::serializeResponse(handle(request), true).size();
                    });
                    if (rep >= warmup) {
                        indexCpu.add(t.cpuNs);
                        indexWall.add(t.wallNs);
                    }
                };
                const auto runBefore = [&] {
                    const Timing t = timeBoth([&] {
                        beforeBytes = sd::local::serializeResponse(
                            listAsBefore(registry, 100, cursor), true)
                                          .size();
                    });
                    if (rep >= warmup) {
                        beforeCpu.add(t.cpuNs);
                        beforeWall.add(t.wallNs);
                    }
                };
                if (rep % 2) {
                    runIndex();
                    runBefore();
                } else {
                    runBefore();
                    runIndex();
                }
            }
            std::printf(
                "| %d | %s | **%.3f** (%.3f, wall %.3f) | %.3f (%.3f, wall %.3f) | %.0f× |\n", size,
                c.name, indexCpu.medianMs(), indexCpu.p95Ms(), indexWall.medianMs(),
                beforeCpu.medianMs(), beforeCpu.p95Ms(), beforeWall.medianMs(),
                ratio(beforeCpu.medianMs(), indexCpu.medianMs()));
            if (handle(request).body != listAsBefore(registry, 100, cursor).body)
                std::printf("  (the two ways listed different pages: %lld against %lld bytes)\n",
                    qlonglong(indexBytes), qlonglong(beforeBytes));
            std::fflush(stdout);
        }
        std::printf("  (filling the registry to %d took %lld ms)\n", size, fillMs);
    }
}

// ---- 2. whole processes ----------------------------------------------------------

struct Run
{
    qint64 wallNs = -1;
    int listed = -1;
};

Run runProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProgram(program);
    process.setArguments(args);
    QElapsedTimer timer;
    timer.start();
    process.start();
    if (!process.waitForFinished(300000) || process.exitCode() != 0) {
        std::fprintf(stderr, "%s failed (exit %d): %s\n", qPrintable(program), process.exitCode(),
            process.readAllStandardError().left(400).constData());
        return {};
    }
    Run run;
    run.wallNs = timer.nsecsElapsed();
    const QJsonDocument doc = QJsonDocument::fromJson(process.readAllStandardOutput());
    run.listed = doc.isArray()
        ? int(doc.array().size())
        : int(doc.object().value(QStringLiteral("sandboxes")).toArray().size());
    return run;
}

/// One page over HTTP against GET /health, alternating, on one kept-alive connection of
/// `network` (`client` names it).
void benchOnePageHttp(QNetworkAccessManager *network, const char *client,
    const sd::test::LocalBackend &backend, int size, int reps)
{
    const auto get = [&](const QString &path) {
        QNetworkRequest request(backend.url().resolved(QUrl(path)));
        request.setRawHeader("X-API-Key", backend.apiKey().toLatin1());
        QEventLoop loop;
        QNetworkReply *reply = network->get(request);
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        const qint64 ns = timeNs([&] { loop.exec(); });
        reply->readAll();
        reply->deleteLater();
        return ns;
    };
    Samples page, health;
    for (int rep = 0; rep < reps + 3; ++rep) {
        const qint64 a = get(QStringLiteral("/v2/sandboxes?limit=100"));
        const qint64 b = get(QStringLiteral("/health"));
        if (rep >= 3) {
            page.add(a);
            health.add(b);
        }
    }
    std::printf("  one page of 100 over HTTP at %d sandboxes, %s: median %.2f ms (p95 %.2f); "
                "GET /health on the same connection: %.2f ms (p95 %.2f)\n",
        size, client, page.medianMs(), page.p95Ms(), health.medianMs(), health.p95Ms());
}

/// `earlier`, when given, is another build's sandbox-desk, run in turn with the two
/// others: a before/after comparison measured side by side.
void benchWholeProcess(
    const QList<int> &sizes, int reps, const QString &npmDir, const QString &earlier)
{
    const QString cli = npmDir + QStringLiteral("/node_modules/@e2b/cli/dist/index.js");
    if (!QFile::exists(cli)) {
        std::printf("\n(whole processes skipped: no official CLI at %s; run `make npm`)\n",
            qPrintable(cli));
        return;
    }
    QTemporaryDir home;
    // The backend refuses more than --max-sandboxes (1,000 by default).
    const int most = sizes.isEmpty() ? 1 : *std::max_element(sizes.begin(), sizes.end());
    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
        QStringLiteral("--max-sandboxes"), QString::number(most) });
    if (!backend.start()) {
        std::printf("\n(whole processes skipped: sandbox-desk-local did not start)\n");
        return;
    }
    QProcessEnvironment env = e2bEnvironment(backend);
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.path() + QStringLiteral("/cache"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("NO_COLOR"), QStringLiteral("1"));
    env.insert(QStringLiteral("NO_UPDATE_NOTIFIER"), QStringLiteral("1"));

    const QString desk = sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk"));
    const QStringList deskArgs { QStringLiteral("--api-url"),
        backend.url().toString(QUrl::StripTrailingSlash), QStringLiteral("--list"),
        QStringLiteral("--json") };
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    const QStringList cliArgs { cli, QStringLiteral("sandbox"), QStringLiteral("list"),
        QStringLiteral("-f"), QStringLiteral("json"), QStringLiteral("-l"), QStringLiteral("0") };

    std::printf(
        "\n== listing every running sandbox, whole processes, against sandbox-desk-local\n");
    std::printf(
        "commands: sandbox-desk --api-url URL --list --json | node "
        "@e2b/cli/dist/index.js sandbox list -f json -l 0 (E2B_API_URL, E2B_API_KEY set)\n");
    std::printf("median wall per run in ms (p95), %d runs each, alternating\n", reps);
    std::printf("| sandboxes | sandbox-desk --list --json | e2b sandbox list -f json -l 0 | e2b "
                "/ sandbox-desk |\n| --- | --- | --- | --- |\n");
    std::fflush(stdout);

    sd::NetworkAccessManager network;
    QNetworkAccessManager qtClient;
    int held = 0;
    for (const int size : sizes) {
        QElapsedTimer filling;
        filling.start();
        if (!fillBackend(&network, backend, held, size)) {
            std::printf("(could not create %d sandboxes)\n", size);
            return;
        }
        held = size;
        const qint64 fillMs = filling.elapsed();
        Samples deskRuns, cliRuns, earlierRuns;
        int deskListed = -1, cliListed = -1, earlierListed = -1;
        for (int rep = 0; rep < reps + 1; ++rep) {
            const auto runDesk = [&] {
                const Run r = runProcess(desk, deskArgs, env);
                deskListed = r.listed;
                if (rep > 0 && r.wallNs >= 0)
                    deskRuns.add(r.wallNs);
            };
            const auto runCli = [&] {
                const Run r = runProcess(node, cliArgs, env);
                cliListed = r.listed;
                if (rep > 0 && r.wallNs >= 0)
                    cliRuns.add(r.wallNs);
            };
            const auto runEarlier = [&] {
                if (earlier.isEmpty())
                    return;
                const Run r = runProcess(earlier, deskArgs, env);
                earlierListed = r.listed;
                if (rep > 0 && r.wallNs >= 0)
                    earlierRuns.add(r.wallNs);
            };
            if (rep % 2) {
                runDesk();
                runEarlier();
                runCli();
            } else {
                runCli();
                runEarlier();
                runDesk();
            }
        }
        std::printf("| %d | **%.0f** (%.0f) | %.0f (%.0f) | %.1f× |\n", size, deskRuns.medianMs(),
            deskRuns.p95Ms(), cliRuns.medianMs(), cliRuns.p95Ms(),
            ratio(cliRuns.medianMs(), deskRuns.medianMs()));
        std::printf("  (listed: sandbox-desk %d, e2b %d; creating them took %lld ms)\n", deskListed,
            cliListed, fillMs);
        if (!earlier.isEmpty())
            std::printf("  the earlier build (--earlier): median %.0f ms (p95 %.0f), listed %d; "
                        "this build / earlier: %.2f×\n",
                earlierRuns.medianMs(), earlierRuns.p95Ms(), earlierListed,
                deskRuns.medianMs() / earlierRuns.medianMs());
        benchOnePageHttp(
            &network, "sd::NetworkAccessManager", backend, size, std::max(reps * 4, 20));
        benchOnePageHttp(&qtClient, "Qt's own client", backend, size, std::max(reps * 4, 20));
        std::fflush(stdout);
    }
    backend.stop();
}

QList<int> parseSizes(const QString &text)
{
    QList<int> sizes;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        sizes.append(part.toInt());
    return sizes;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = backendBenchmarkArgs();
    const bool quick = args.contains(QStringLiteral("--quick"));

    const QString only = optionValue(args, QStringLiteral("--only"));
    if (only.isEmpty() || only == QLatin1String("page")) {
        const QList<int> sizes = parseSizes(optionValue(args, QStringLiteral("--page-sizes"),
            quick ? QStringLiteral("100,1000") : QStringLiteral("100,1000,10000,50000")));
        benchInProcess(sizes, repetitions(args, 41));
    }
    if (only.isEmpty() || only == QLatin1String("process")) {
        const QList<int> sizes = parseSizes(optionValue(args, QStringLiteral("--process-sizes"),
            quick ? QStringLiteral("100") : QStringLiteral("1000,10000")));
        benchWholeProcess(sizes, repetitions(args, 7), npmDir(args),
            optionValue(args, QStringLiteral("--earlier")));
    }
    return 0;
}
