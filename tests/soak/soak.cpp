// The fault soak: drives the real creation job against sandbox-desk-local
// --fault-injection, a seeded random mix of faults per creation, several creations at
// a time, with the window's list refresh running beside them. After each round it
// clears the faults and checks what the backend shows against the journal and the
// orphan detector: what a Ready creation made runs, what was rolled back is gone, and
// everything else still running is flagged. The faults of one creation name it by its
// `sandbox-desk.creation` tag, so the creations of a round do not take each other's.
//
//   soak --creations N [--seed S]
//
// Ends with `soak: creations=N ready=A rolled_back=B rollback_failed=C flagged=F
// unflagged_running=U journal_mismatches=M` and fails unless U and M are 0, or when the
// client's memory or open files at the end differ from after the first 50 creations
// by more than 10%.

#include "creationtestutil.h"
#include "network/networkaccessmanager.h"

#include "api/sandboxjobs.h"
#include "creation/creationjob.h"
#include "journal/creationjournal.h"
#include "orphans/orphandetector.h"
#include "session/session.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <memory>
#include <optional>

#if defined(__SANITIZE_ADDRESS__)
// Freed memory stays in AddressSanitizer's quarantine (up to 256 MiB) and would read
// as growth of the resident size; the soak measures what the client keeps.
extern "C" const char *__asan_default_options() { return "quarantine_size_mb=0"; }
#endif

using namespace sd;
using namespace std::chrono_literals;
using sd::test::rule;

namespace {

const QString creationTag = QStringLiteral("sandbox-desk.creation");

/// What goes wrong in one creation.
struct Plan
{
    enum class Fault
    {
        None,
        GatewayExit1, ///< the gateway fails (exit 1) after printing to stderr
        GatewayExit127, ///< no gateway on the template's PATH
        StreamCut, ///< the Start stream is dropped after the first output
        GatewayHang, ///< the gateway never ends: past its budget
        Create5xx, ///< the create is performed, then answered 5xx
        CreateDropped, ///< the create is performed, then the connection closed
        EnvdUnavailable, ///< envd answers 503
        TimeoutRefused, ///< the timeout call answers 5xx: rollback after the gateway
    };
    Fault fault = Fault::None;
    bool mcp = true;
    int faultCount = 1; ///< how many times the create or envd fault applies
    int status = 500;
    int killFailures = 0; ///< 0, 1, 2, or -1: always
    int cancelAfterMs = -1; ///< -1: not cancelled

    QString describe() const
    {
        static const char *const names[]
            = { "none", "gateway-exit-1", "gateway-exit-127", "stream-cut", "gateway-hang",
                  "create-5xx", "create-dropped", "envd-503", "timeout-5xx" };
        QString text = QString::fromLatin1(names[int(fault)]);
        if (fault == Fault::Create5xx || fault == Fault::CreateDropped
            || fault == Fault::EnvdUnavailable)
            text += QStringLiteral("x%1").arg(faultCount);
        if (!mcp)
            text += QStringLiteral(" no-mcp");
        if (killFailures)
            text += killFailures < 0 ? QStringLiteral(" kill-fails-always")
                                     : QStringLiteral(" kill-fails-%1x").arg(killFailures);
        if (cancelAfterMs >= 0)
            text += QStringLiteral(" cancel@%1ms").arg(cancelAfterMs);
        return text;
    }
};

Plan randomPlan(QRandomGenerator *random)
{
    using Fault = Plan::Fault;
    struct Weighted
    {
        Fault fault;
        int weight;
    };
    static const Weighted weights[] = { { Fault::None, 18 }, { Fault::GatewayExit1, 10 },
        { Fault::GatewayExit127, 10 }, { Fault::StreamCut, 10 }, { Fault::GatewayHang, 8 },
        { Fault::Create5xx, 12 }, { Fault::CreateDropped, 12 }, { Fault::EnvdUnavailable, 10 },
        { Fault::TimeoutRefused, 10 } };
    int total = 0;
    for (const Weighted &w : weights)
        total += w.weight;
    int pick = int(random->bounded(total));
    Plan plan;
    for (const Weighted &w : weights) {
        if (pick < w.weight) {
            plan.fault = w.fault;
            break;
        }
        pick -= w.weight;
    }
    static const int statuses[] = { 500, 502, 503 };
    plan.status = statuses[random->bounded(3)];
    plan.faultCount = 1 + int(random->bounded(3));
    const bool needsGateway = plan.fault == Fault::GatewayExit1
        || plan.fault == Fault::GatewayExit127 || plan.fault == Fault::StreamCut
        || plan.fault == Fault::GatewayHang || plan.fault == Fault::EnvdUnavailable;
    plan.mcp = needsGateway || random->bounded(100) >= 20;
    if (random->bounded(100) < 40) {
        static const int kills[] = { 1, 2, -1 };
        plan.killFailures = kills[random->bounded(3)];
    }
    if (random->bounded(100) < 15)
        plan.cancelAfterMs = int(random->bounded(2500));
    return plan;
}

QJsonObject mcpConfig() { return QJsonObject { { QStringLiteral("duckduckgo"), QJsonObject {} } }; }

/// The fault rules of one creation, each naming it by its tag.
QJsonArray faultRules(const Plan &plan, const QString &creationId)
{
    using Fault = Plan::Fault;
    const QJsonObject mine { { creationTag, creationId } };
    const auto tagged = [&mine](QJsonObject r) {
        r.insert(QStringLiteral("metadata"), mine);
        return r;
    };
    QJsonArray rules;
    switch (plan.fault) {
    case Fault::StreamCut: {
        QJsonObject cut = rule(QStringLiteral("POST"), QStringLiteral("*/process.Process/Start"),
            QStringLiteral("cut-after-output"));
        cut.insert(QStringLiteral("chunks"), 1);
        rules.append(tagged(cut));
        break;
    }
    case Fault::Create5xx:
        rules.append(tagged(rule(QStringLiteral("POST"), QStringLiteral("*sandboxes"),
            QStringLiteral("status-after"), plan.faultCount, plan.status)));
        break;
    case Fault::CreateDropped:
        rules.append(tagged(rule(QStringLiteral("POST"), QStringLiteral("*sandboxes"),
            QStringLiteral("drop-after"), plan.faultCount)));
        break;
    case Fault::EnvdUnavailable:
        rules.append(tagged(rule(QStringLiteral("POST"), QStringLiteral("/process.Process/*"),
            QStringLiteral("status"), plan.faultCount, 503)));
        break;
    case Fault::TimeoutRefused:
        rules.append(tagged(rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
            QStringLiteral("status"), 1, plan.status)));
        break;
    default:
        break;
    }
    if (plan.killFailures != 0) {
        QJsonObject kill = tagged(rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), qMax(1, plan.killFailures), plan.status));
        if (plan.killFailures < 0)
            kill.remove(QStringLiteral("count")); // every try
        rules.append(kill);
    }
    return rules;
}

/// Resident size in bytes and open file descriptors of this process.
struct Footprint
{
    qint64 rssBytes = 0;
    int fds = 0;

    static Footprint now()
    {
#if defined(__GLIBC__)
        // Free pages the allocator still holds are not the client's: give them back
        // first, so that the resident size counts what is kept.
        malloc_trim(0);
#endif
        Footprint f;
        const QByteArray statm = sd::test::readFile(QStringLiteral("/proc/self/statm"));
        const QList<QByteArray> fields = statm.split(' ');
        if (fields.size() > 1)
            f.rssBytes = fields.at(1).toLongLong() * 4096;
        f.fds = int(QDir(QStringLiteral("/proc/self/fd"))
                        .entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)
                        .size());
        return f;
    }
    QString describe() const
    {
        return QStringLiteral("rss=%1 MiB fds=%2")
            .arg(double(rssBytes) / (1024.0 * 1024.0), 0, 'f', 1)
            .arg(fds);
    }
};

/// Whether `later` is at most `fraction` of `earlier` above it, or `slack` above it
/// when that is more. Less is never a leak.
bool grewAtMost(double later, double earlier, double fraction, double slack = 0)
{
    return later <= earlier + qMax(fraction * earlier, slack);
}

/// Spins until `job` finished (this is a test program; the library never blocks).
bool await(Job *job, int timeoutMs = 120000) { return sd::test::runJob(job, timeoutMs); }

struct Totals
{
    int creations = 0;
    int ready = 0;
    int rolledBack = 0;
    int rollbackFailed = 0;
    int flagged = 0;
    int unflaggedRunning = 0;
    int journalMismatches = 0;
    int refreshes = 0;
    int refreshFailures = 0;
};

class Soak
{
public:
    Soak(sd::test::FaultBackend *backend, quint32 seed)
        : m_backend(backend)
        , m_random(seed)
    { }

    bool open(const QString &journalDir)
    {
        m_session = new Session(&m_network, m_backend->settings());
        if (!m_session->open(journalDir)) {
            std::fprintf(stderr, "soak: journal: %s\n", qPrintable(m_session->errorString()));
            return false;
        }
        // Probe gateways at once, so a Ready creation whose gateway is not running
        // would be flagged (and counted as a mismatch) within the round.
        m_session->detector()->setGatewayGrace(0s);
        return true;
    }

    ~Soak()
    {
        if (m_session)
            delete m_session.data();
    }

    /// Runs `count` creations; false when the harness itself could not go on.
    bool run(int count, int maxConcurrent)
    {
        while (m_totals.creations < count) {
            int size = qMin(
                count - m_totals.creations, 1 + int(m_random.bounded(quint32(maxConcurrent))));
            if (m_totals.creations < 50)
                size = qMin(size, 50 - m_totals.creations); // a round ends at 50

            if (!runRound(size))
                return false;
            if (!m_afterFifty && m_totals.creations >= qMin(50, count)) {
                m_afterFifty = footprint();
                std::printf("soak: after %d creations: %s\n", m_totals.creations,
                    qPrintable(m_afterFifty->describe()));
                std::fflush(stdout);
            }
        }
        return true;
    }

    /// Measured with the idle keep-alive connections closed: what the client keeps,
    /// not how many connections the last round happened to leave open.
    Footprint footprint()
    {
        m_network.clearConnectionCache();
        m_backend->network()->clearConnectionCache();
        QCoreApplication::processEvents();
        return Footprint::now();
    }

    const Totals &totals() const { return m_totals; }
    std::optional<Footprint> afterFifty() const { return m_afterFifty; }

private:
    struct Creation
    {
        Plan plan;
        std::unique_ptr<CreationJob> job;
    };

    bool runRound(int size)
    {
        std::vector<Creation> round;
        QJsonArray rules;
        for (int i = 0; i < size; ++i) {
            Creation c;
            c.plan = randomPlan(&m_random);
            CreationContext context = m_session->creationContext();
            context.gatewayBudget = c.plan.fault == Plan::Fault::GatewayHang ? 1500ms : 30000ms;
            CreationRequest request;
            request.timeoutSeconds = 600;
            request.metadata.insert(
                QStringLiteral("soak"), QString::number(m_totals.creations + i));
            if (c.plan.mcp)
                request.mcp = mcpConfig();
            if (c.plan.fault == Plan::Fault::GatewayExit127)
                request.templateId = QStringLiteral("base"); // no mcp-gateway on its PATH
            if (c.plan.fault == Plan::Fault::GatewayExit1
                || c.plan.fault == Plan::Fault::GatewayHang)
                request.envVars.insert(QStringLiteral("SD_TEST_GATEWAY_ECHO"), QStringLiteral("1"));
            if (c.plan.fault == Plan::Fault::GatewayHang)
                request.envVars.insert(QStringLiteral("SD_TEST_GATEWAY_HANG"), QStringLiteral("1"));
            c.job = std::make_unique<CreationJob>(context, request);
            c.job->setAutoDelete(false);
            for (const QJsonValue &r : faultRules(c.plan, c.job->creationId()))
                rules.append(r);
            round.push_back(std::move(c));
        }
        if (!rules.isEmpty() && !m_backend->setFaults(rules)) {
            std::fprintf(stderr, "soak: the backend refused the fault rules\n");
            return false;
        }

        QEventLoop loop;
        int running = size;
        for (Creation &c : round) {
            QObject::connect(c.job.get(), &Job::finished, &loop, [&running, &loop] {
                if (--running == 0)
                    loop.quit();
            });
            m_session->track(c.job.get());
            c.job->start();
            if (c.plan.cancelAfterMs >= 0) {
                QTimer::singleShot(
                    c.plan.cancelAfterMs, c.job.get(), [job = c.job.get()] { job->cancel(); });
            }
        }
        // The window's list fails for a refresh or two at some moment of the round (or
        // the creations' own searches, whichever lists first).
        QTimer listFailure;
        listFailure.setSingleShot(true);
        const int listFailures = m_random.bounded(100) < 40 ? 1 + int(m_random.bounded(3)) : 0;
        QObject::connect(&listFailure, &QTimer::timeout, [this, listFailures] {
            postFaults({ rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"),
                QStringLiteral("status"), listFailures, 503) });
        });
        if (listFailures)
            listFailure.start(int(m_random.bounded(1500)));
        QTimer refreshTimer;
        QObject::connect(&refreshTimer, &QTimer::timeout, [this] { refresh(); });
        refreshTimer.start(200);
        QTimer watchdog;
        watchdog.setSingleShot(true);
        QObject::connect(&watchdog, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
        watchdog.start(300000);
        if (loop.exec() != 0) {
            std::fprintf(stderr, "soak: a round of creations did not end in 5 minutes\n");
            return false;
        }
        refreshTimer.stop();
        listFailure.stop();
        if (m_faultPost && !m_faultPost->isFinished()) {
            QEventLoop posted;
            QObject::connect(m_faultPost, &QNetworkReply::finished, &posted, &QEventLoop::quit);
            posted.exec();
        }
        while (m_refresh && !m_refresh->isFinished()) // the last refresh ends before the faults go
            await(m_refresh.data());

        if (!m_backend->clearFaults())
            return false;
        const bool checked = check(round);
        m_totals.creations += size;
        if (!checked || !cleanUp())
            return false;
        // The journal keeps every creation of a session in memory (it compacts when
        // opened); compacting here keeps that by-design history out of the footprint.
        if (!m_session->journal()->compact(0)) {
            std::fprintf(stderr, "soak: journal compaction failed: %s\n",
                qPrintable(m_session->journal()->errorString()));
            return false;
        }
        return true;
    }

    /// Adds fault rules without waiting for the answer (creations run meanwhile).
    void postFaults(const QJsonArray &rules)
    {
        QNetworkRequest request(QUrl(m_backend->url() + QStringLiteral("/_local/faults")));
        request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_network.post(
            request, QJsonDocument(QJsonObject { { QStringLiteral("rules"), rules } }).toJson());
        QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
        m_faultPost = reply;
    }

    /// What the window does every few seconds: list, then judge orphans.
    void refresh()
    {
        if (m_refresh)
            return;
        ++m_totals.refreshes;
        auto *list = new ListSandboxesJob(&m_network, m_backend->settings());
        m_refresh = list;
        QObject::connect(list, &Job::finished, list, [this, list] {
            if (list->hasError()) {
                ++m_totals.refreshFailures;
                m_refresh = nullptr;
                return;
            }
            auto *scan = m_session->detector()->scan(list->sandboxes(), list->serverDate());
            m_refresh = scan;
            scan->start();
        });
        list->start();
    }

    bool listAndScan(QList<Sandbox> *sandboxes, QHash<QString, Orphan> *orphans)
    {
        ListSandboxesJob list(&m_network, m_backend->settings());
        list.setAutoDelete(false);
        if (!await(&list) || list.hasError()) {
            std::fprintf(stderr, "soak: list failed without faults: %s\n",
                qPrintable(list.error().message()));
            return false;
        }
        *sandboxes = list.sandboxes();
        std::unique_ptr<OrphanScanJob> scan(
            m_session->detector()->scan(*sandboxes, list.serverDate()));
        scan->setAutoDelete(false);
        if (!await(scan.get()))
            return false;
        orphans->clear();
        for (const Orphan &orphan : scan->orphans())
            orphans->insert(orphan.sandboxId, orphan);
        return true;
    }

    bool check(const std::vector<Creation> &round)
    {
        if (!listAndScan(&m_sandboxes, &m_orphans))
            return false;
        QSet<QString> ready;
        for (const Creation &c : round) {
            const CreationJob *job = c.job.get();
            const auto record = m_session->journal()->creation(job->creationId());
            QStringList tagged;
            for (const Sandbox &s : std::as_const(m_sandboxes)) {
                if (s.metadata.value(creationTag) == job->creationId())
                    tagged << s.sandboxId;
            }
            const auto mismatch = [&](const QString &why) {
                ++m_totals.journalMismatches;
                std::fprintf(stderr, "soak: MISMATCH %s [%s]: %s; job %s, journal %s, running %s\n",
                    qPrintable(job->creationId()), qPrintable(c.plan.describe()), qPrintable(why),
                    qPrintable(toString(job->state())),
                    record ? qPrintable(toString(record->state)) : "no record",
                    qPrintable(tagged.join(QLatin1Char(','))));
            };
            if (!record) {
                // Only a creation refused before its intent has no record.
                if (job->state() != CreationState::Rejected || !tagged.isEmpty())
                    mismatch(QStringLiteral("no journal record"));
                ++m_totals.rolledBack;
                continue;
            }
            if (!record->isFinished()) {
                mismatch(QStringLiteral("the job ended but the journal says interrupted"));
                continue;
            }
            if (record->state != job->state())
                mismatch(QStringLiteral("the journal's outcome is not the job's"));
            switch (record->state) {
            case CreationState::Ready:
                ++m_totals.ready;
                ready.insert(record->sandboxId);
                if (!tagged.contains(record->sandboxId))
                    mismatch(QStringLiteral("Ready, but its sandbox is not running"));
                else if (m_orphans.contains(record->sandboxId))
                    mismatch(QStringLiteral("Ready, but its sandbox is flagged as an orphan"));
                break;
            case CreationState::RollbackFailed: {
                ++m_totals.rollbackFailed;
                const bool allFlagged = std::all_of(tagged.begin(), tagged.end(),
                    [this](const QString &id) { return m_orphans.contains(id); });
                if (tagged.isEmpty())
                    mismatch(QStringLiteral("rollback failed, but nothing of it runs"));
                else if (!allFlagged)
                    mismatch(QStringLiteral("rollback failed, and not all it left is flagged"));
                break;
            }
            default: // RolledBack, Cancelled, Rejected: nothing may be left
                ++m_totals.rolledBack;
                if (!tagged.isEmpty())
                    mismatch(QStringLiteral("%1, but a sandbox of it runs")
                                 .arg(toString(record->state)));
                break;
            }
        }
        for (const Sandbox &s : std::as_const(m_sandboxes)) {
            if (m_orphans.contains(s.sandboxId)) {
                ++m_totals.flagged;
            } else if (!ready.contains(s.sandboxId)) {
                ++m_totals.unflaggedRunning;
                std::fprintf(stderr, "soak: UNFLAGGED %s (creation %s) runs and is not flagged\n",
                    qPrintable(s.sandboxId), qPrintable(s.metadata.value(creationTag)));
            }
        }
        return true;
    }

    /// Kills what the round left: orphans through the product's bulk kill, the rest
    /// one by one; then nothing may run.
    bool cleanUp()
    {
        QList<Orphan> orphans;
        for (const Orphan &orphan : std::as_const(m_orphans))
            orphans << orphan;
        KillOrphansJob killOrphans(
            &m_network, m_backend->settings(), m_session->journal(), orphansToKill(orphans, true));
        killOrphans.setAutoDelete(false);
        await(&killOrphans);
        for (const Sandbox &s : std::as_const(m_sandboxes)) {
            if (m_orphans.contains(s.sandboxId))
                continue;
            KillSandboxJob kill(&m_network, m_backend->settings(), s.sandboxId);
            kill.setAutoDelete(false);
            await(&kill);
        }
        ListSandboxesJob list(&m_network, m_backend->settings());
        list.setAutoDelete(false);
        if (!await(&list) || list.hasError() || !list.sandboxes().isEmpty()) {
            std::fprintf(stderr, "soak: cleaning up left %lld running %s\n",
                qlonglong(list.sandboxes().size()), qPrintable(list.error().message()));
            return false;
        }
        return true;
    }

    sd::test::FaultBackend *m_backend;
    QRandomGenerator m_random;
    sd::NetworkAccessManager m_network;
    QPointer<Session> m_session;
    QPointer<Job> m_refresh;
    QPointer<QNetworkReply> m_faultPost;
    QList<Sandbox> m_sandboxes;
    QHash<QString, Orphan> m_orphans;
    Totals m_totals;
    std::optional<Footprint> m_afterFifty;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk-soak"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk-soak"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs creations against sandbox-desk-local with random faults and checks that "
        "the journal and the orphan listing agree with what runs."));
    parser.addHelpOption();
    const QCommandLineOption creationsOption(QStringLiteral("creations"),
        QStringLiteral("How many creations."), QStringLiteral("N"), QStringLiteral("100"));
    const QCommandLineOption seedOption(QStringLiteral("seed"),
        QStringLiteral("Seed of the fault mix (default: random, printed)."), QStringLiteral("S"));
    const QCommandLineOption concurrentOption(QStringLiteral("concurrent"),
        QStringLiteral("At most this many creations at once."), QStringLiteral("K"),
        QStringLiteral("6"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"),
        QStringLiteral("Keep the library's warnings (each injected fault logs some)."));
    parser.addOptions({ creationsOption, seedOption, concurrentOption, verboseOption });
    parser.process(app);
    if (!parser.isSet(verboseOption))
        QLoggingCategory::setFilterRules(QStringLiteral("sd.*.warning=false"));

    const int creations = parser.value(creationsOption).toInt();
    const int concurrent = parser.value(concurrentOption).toInt();
    if (creations < 1 || concurrent < 1) {
        std::fprintf(stderr, "soak: --creations and --concurrent take a positive number\n");
        return 2;
    }
    const quint32 seed = parser.isSet(seedOption) ? parser.value(seedOption).toUInt()
                                                  : QRandomGenerator::system()->generate();
    std::printf("soak: seed=%u creations=%d (reproduce with --seed %u --creations %d)\n", seed,
        creations, seed, creations);
    std::fflush(stdout);

    // The installation id and the journal live in a folder of this run, not the user's.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());

    sd::test::FaultBackend backend;
    if (!backend.start())
        return 1;
    QElapsedTimer clock;
    clock.start();
    Soak soak(&backend, seed);
    if (!soak.open(home.filePath(QStringLiteral("journal"))) || !soak.run(creations, concurrent)) {
        std::fprintf(stderr, "soak: stopped (seed %u)\n", seed);
        return 1;
    }
    const Footprint end = soak.footprint();
    const Totals &t = soak.totals();
    std::printf("soak: at the end: %s; %d refreshes, %d failed; %.0f s\n",
        qPrintable(end.describe()), t.refreshes, t.refreshFailures,
        double(clock.elapsed()) / 1000.0);

    bool footprintKept = true;
    if (const auto first = soak.afterFifty()) {
        // Sockets open and close with the connections in use, up to one per creation
        // running at once; a descriptor leaked per creation would add 50 or more.
        footprintKept = grewAtMost(double(end.rssBytes), double(first->rssBytes), 0.10)
            && grewAtMost(double(end.fds), double(first->fds), 0.10, concurrent + 2);
        if (!footprintKept)
            std::fprintf(stderr, "soak: memory or open files grew: %s after 50, %s at the end\n",
                qPrintable(first->describe()), qPrintable(end.describe()));
    }
    const bool passed = t.unflaggedRunning == 0 && t.journalMismatches == 0 && footprintKept;
    if (!passed)
        std::printf("soak: FAILED (seed %u)\n", seed);
    std::printf("soak: creations=%d ready=%d rolled_back=%d rollback_failed=%d flagged=%d "
                "unflagged_running=%d journal_mismatches=%d\n",
        t.creations, t.ready, t.rolledBack, t.rollbackFailed, t.flagged, t.unflaggedRunning,
        t.journalMismatches);
    return passed ? 0 : 1;
}
