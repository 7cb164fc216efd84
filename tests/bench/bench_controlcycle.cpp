// The control-plane cycle: create a `base` sandbox, then kill it, 200 times in a row,
// against a `sandbox-desk-local` this benchmark starts (`--isolation none`, so the
// backend's own work stays small and the clients' costs show):
//
//  - core:   the core library's jobs in process (CreateSandboxJob, then KillSandboxJob)
//            on one QNetworkAccessManager;
//  - sdk:    the official `e2b` SDK in one Node process (tests/bench/sdk-cycle.mjs),
//            Node's start-up left out;
//  - floor:  the same two round trips as GET /health on a raw kept-alive socket, which
//            is what the transport and the backend's HTTP front cost;
//  - qnam:   the same two GET /health through QNetworkAccessManager, to tell Qt's
//            transport apart from the jobs.
//
// Each round runs the four one after the other, 200 cycles each, in rotating order.
// Figures are printed, never asserted.

#include "benchbackend.h"
#include "benchutil.h"

#include "api/connectionsettings.h"
#include "api/sandboxjobs.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpSocket>

#include <cstdio>
#include <memory>

using namespace sd::bench;

namespace {

/// Runs `job` to its end in a local event loop (a benchmark may; library code may not).
bool runJob(sd::Job *job)
{
    QEventLoop loop;
    QObject::connect(job, &sd::Job::finished, &loop, &QEventLoop::quit);
    job->start();
    loop.exec();
    return !job->hasError();
}

/// Whole cycles into `out`; the create and the kill alone into `creates` and `kills`.
void coreCycles(QNetworkAccessManager *network, const sd::ConnectionSettings &settings, int count,
    int warmup, Samples *out, Samples *creates, Samples *kills)
{
    sd::NewSandbox request;
    request.templateId = QStringLiteral("base");
    for (int i = 0; i < warmup + count; ++i) {
        bool ok = true;
        qint64 createNs = 0;
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
            creates->add(createNs);
            kills->add(ns - createNs);
        }
    }
}

void sdkCycles(const QProcessEnvironment &env, int count, int warmup, Samples *out)
{
    QProcess node;
    node.setProcessEnvironment(env);
    node.setProgram(QStandardPaths::findExecutable(QStringLiteral("node")));
    node.setArguments({ QStringLiteral(SD_BENCH_SOURCE_DIR "/sdk-cycle.mjs"),
        QString::number(count), QString::number(warmup) });
    node.start();
    if (!node.waitForFinished(600000) || node.exitCode() != 0) {
        std::fprintf(stderr, "sdk-cycle.mjs failed: %s\n",
            node.readAllStandardError().left(600).constData());
        return;
    }
    const QJsonArray times = QJsonDocument::fromJson(node.readAllStandardOutput()).array();
    for (const QJsonValue &t : times)
        out->add(qint64(t.toDouble()));
}

/// GET /health on one kept-alive socket, read to the end of its body.
class RawHealth
{
public:
    explicit RawHealth(const QUrl &url)
        : m_request("GET /health HTTP/1.1\r\nHost: " + url.host().toLatin1() + ':'
            + QByteArray::number(url.port()) + "\r\n\r\n")
        , m_url(url)
    { }

    /// The backend closes a connection left idle while the other contenders ran:
    /// then one new connection, in the first (warm-up, uncounted) cycle of a round.
    bool get() { return getOnce() || (reconnect() && getOnce()); }
    QString errorString() const { return m_socket.errorString(); }

private:
    bool reconnect()
    {
        m_socket.abort();
        m_socket.connectToHost(m_url.host(), quint16(m_url.port()));
        return m_socket.waitForConnected(5000);
    }

    bool getOnce()
    {
        if (m_socket.state() != QAbstractSocket::ConnectedState) {
            m_socket.connectToHost(m_url.host(), quint16(m_url.port()));
            if (!m_socket.waitForConnected(5000))
                return false;
        }
        m_socket.write(m_request);
        QByteArray in;
        qsizetype headerEnd = -1;
        qsizetype length = -1;
        while (true) {
            if (!m_socket.waitForReadyRead(5000))
                return false;
            in += m_socket.readAll();
            if (headerEnd < 0) {
                headerEnd = in.indexOf("\r\n\r\n");
                if (headerEnd < 0)
                    continue;
                const QByteArray headers = in.left(headerEnd).toLower();
                const qsizetype at = headers.indexOf("content-length:");
                length = at < 0 ? 0
                                : headers.mid(at + 15, headers.indexOf('\r', at) - at - 15)
                                      .trimmed()
                                      .toLongLong();
            }
            if (in.size() >= headerEnd + 4 + length)
                return true;
        }
    }

    QByteArray m_request;
    QUrl m_url;
    QTcpSocket m_socket;
};

void floorCycles(RawHealth *raw, int count, int warmup, Samples *out)
{
    for (int i = 0; i < warmup + count; ++i) {
        bool ok = true;
        const qint64 ns = timeNs([&] { ok = raw->get() && raw->get(); });
        if (!ok) {
            std::fprintf(stderr, "raw GET /health failed at cycle %d: %s\n", i,
                qPrintable(raw->errorString()));
            return;
        }
        if (i >= warmup)
            out->add(ns);
    }
}

void qnamCycles(QNetworkAccessManager *network, const sd::ConnectionSettings &settings, int count,
    int warmup, Samples *out)
{
    QNetworkRequest request(settings.apiUrl.resolved(QUrl(QStringLiteral("/health"))));
    const auto get = [&] {
        QEventLoop loop;
        QNetworkReply *reply = network->get(request);
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        reply->readAll();
        delete reply;
    };
    for (int i = 0; i < warmup + count; ++i) {
        const qint64 ns = timeNs([&] {
            get();
            get();
        });
        if (i >= warmup)
            out->add(ns);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("*.info=false\n*.debug=false"));
    const QStringList args = app.arguments();
    const bool quick = args.contains(QStringLiteral("--quick"));
    const int rounds = repetitions(args, 5);
    const int count = optionValue(
        args, QStringLiteral("--cycles"), quick ? QStringLiteral("20") : QStringLiteral("200"))
                          .toInt();
    const int warmup = 5;
    const QString isolation
        = optionValue(args, QStringLiteral("--isolation"), QStringLiteral("none"));
    const QString npm = npmDir(args);
    printMachine();
    std::printf("command: %s\n", qPrintable(args.join(QLatin1Char(' '))));

    sd::test::LocalBackend backend({ QStringLiteral("--isolation"), isolation });
    if (!backend.start()) {
        std::printf("sandbox-desk-local did not start\n");
        return 1;
    }
    sd::ConnectionSettings settings;
    settings.apiUrl = backend.url();
    settings.sandboxUrl = backend.url();
    settings.apiKey = backend.apiKey();

    QProcessEnvironment env = e2bEnvironment(backend);
    env.insert(QStringLiteral("SD_NPM_DIR"), npm);
    const bool haveSdk = QFile::exists(npm + QStringLiteral("/node_modules/e2b/package.json"));
    if (!haveSdk)
        std::printf("(the official SDK is not in %s: run `make npm`; its column is left out)\n",
            qPrintable(npm));

    QNetworkAccessManager network;
    RawHealth raw(backend.url());
    Samples core, sdk, floor, qnam, coreCreates, coreKills;
    std::vector<Samples> coreRounds(rounds), sdkRounds(rounds);
    for (int round = 0; round < rounds; ++round) {
        for (int turn = 0; turn < 4; ++turn) {
            switch ((round + turn) % 4) {
            case 0: {
                Samples s;
                coreCycles(&network, settings, count, warmup, &s, &coreCreates, &coreKills);
                core.addAll(s);
                coreRounds[round] = s;
                break;
            }
            case 1:
                if (haveSdk) {
                    Samples s;
                    sdkCycles(env, count, warmup, &s);
                    sdk.addAll(s);
                    sdkRounds[round] = s;
                }
                break;
            case 2:
                floorCycles(&raw, count, warmup, &floor);
                break;
            case 3:
                qnamCycles(&network, settings, count, warmup, &qnam);
                break;
            }
        }
        std::printf("round %d: core %.2f ms, sdk %.2f ms (medians per cycle)\n", round + 1,
            coreRounds[round].medianMs(), sdkRounds[round].medianMs());
        std::fflush(stdout);
    }

    std::printf("\n== create (base) + kill, %d cycles in a row per round, %d rounds, "
                "rotating order; median per cycle in ms (p95)\n",
        count, rounds);
    std::printf("| contender | per cycle | above the floor |\n| --- | --- | --- |\n");
    const double f = floor.medianMs();
    std::printf("| core jobs in process (CreateSandboxJob + KillSandboxJob) | **%.2f** (%.2f) | "
                "%.2f |\n",
        core.medianMs(), core.p95Ms(), core.medianMs() - f);
    std::printf("| of which the create (POST /v2/sandboxes) | %.2f (%.2f) | |\n",
        coreCreates.medianMs(), coreCreates.p95Ms());
    std::printf("| of which the kill (DELETE /sandboxes/{id}) | %.2f (%.2f) | |\n",
        coreKills.medianMs(), coreKills.p95Ms());
    if (haveSdk)
        std::printf(
            "| official SDK, one Node process (Sandbox.create + kill) | %.2f (%.2f) | %.2f |\n",
            sdk.medianMs(), sdk.p95Ms(), sdk.medianMs() - f);
    std::printf("| QNetworkAccessManager, 2 × GET /health | %.2f (%.2f) | %.2f |\n",
        qnam.medianMs(), qnam.p95Ms(), qnam.medianMs() - f);
    std::printf(
        "| floor: raw kept-alive socket, 2 × GET /health | %.2f (%.2f) | |\n", f, floor.p95Ms());
    if (haveSdk)
        std::printf("sdk / core: %.2f×\n", ratio(sdk.medianMs(), core.medianMs()));

    backend.stop();
    return 0;
}
