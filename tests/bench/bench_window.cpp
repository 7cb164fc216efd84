// The main window on a large account: the real MainWindow, in this process, against
// its own sandbox-desk-local (`--isolation none`) holding 10,000 running sandboxes.
//
// Each repetition builds and shows a new window and measures:
//  - cold start to the first painted rows: from constructing the window to the first
//    paint of the table's viewport while the table has rows;
//  - time to all rows: to the window's refreshed() with every sandbox in the model;
//  - whether pages stream: how many paints with rows happened before the last page;
//  - the longest event-loop stall while loading (a 1 ms timer runs throughout; a stall
//    is the longest gap between two of its ticks), counted from show();
//  - one refresh with 1% of the sandboxes changed (their timeout set anew on the
//    backend): wall time and the longest stall;
//  - memory per row: heap in use (glibc mallinfo2) and RSS of the loaded window, less
//    those of the same window loaded from an empty backend, divided by the rows.
//
// QT_QPA_PLATFORM=offscreen unless set: widgets are laid out and painted into an
// offscreen backing store, as on a screen, without a display server.
// Figures are printed, never asserted. Under callgrind each load's and each refresh's
// costs are dumped on their own (callgrind.out.<pid>.<n>, in that order):
//   valgrind --tool=callgrind --trace-children=no build/bin/bench_window --reps 1

#include "benchbackend.h"
#include "benchutil.h"
#include "network/networkaccessmanager.h"

#include "api/sandboxjobs.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "models/sandboxtablemodel.h"

#include <QApplication>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name)
#endif

#include <cstdio>
#include <fstream>
#include <memory>

using namespace sd::bench;
using sd::MainWindow;

namespace {

/// The longest gap between two ticks of a 1 ms timer: how long the event loop could
/// not answer anything (input, paints).
class StallMeter
{
public:
    StallMeter()
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        m_tick.setInterval(1);
        QObject::connect(&m_tick, &QTimer::timeout, &m_tick, [this] {
            m_longestNs = std::max(m_longestNs, m_sinceTick.nsecsElapsed());
            m_sinceTick.restart();
        });
    }
    void start()
    {
        m_longestNs = 0;
        m_sinceTick.start();
        m_tick.start();
    }
    qint64 stop()
    {
        m_longestNs = std::max(m_longestNs, m_sinceTick.nsecsElapsed());
        m_tick.stop();
        return m_longestNs;
    }

private:
    QTimer m_tick;
    QElapsedTimer m_sinceTick;
    qint64 m_longestNs = 0;
};

/// Watches the table's viewport for paints with rows.
class PaintProbe : public QObject
{
public:
    PaintProbe(MainWindow *window, const QElapsedTimer *clock, qint64 cpu0)
        : m_window(window)
        , m_clock(clock)
        , m_cpu0(cpu0)
    {
        window->table()->viewport()->installEventFilter(this);
    }

    qint64 firstRowsNs = -1;
    qint64 firstRowsCpuNs = -1; ///< this (the GUI) thread's CPU time until then
    int rowsAtFirstPaint = 0;
    int paintsWhileLoading = 0; ///< paints with rows before the last page was in

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            const int rows = m_window->table()->model()->rowCount();
            if (rows > 0 && firstRowsNs < 0) {
                firstRowsNs = m_clock->nsecsElapsed();
                firstRowsCpuNs = threadCpuNs() - m_cpu0;
                rowsAtFirstPaint = rows;
            }
            if (rows > 0 && m_window->isRefreshing())
                ++paintsWhileLoading;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    MainWindow *m_window;
    const QElapsedTimer *m_clock;
    qint64 m_cpu0;
};

/// Spins until `signal` of `sender` fires or `timeoutMs` passes; true if it fired.
template<typename Sender, typename Signal>
bool waitFor(Sender *sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    bool fired = false;
    QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return fired;
}

/// Lets pending paints, deferred deletions and timers run for `ms`.
void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

sd::ConnectionSettings settingsOf(const sd::test::LocalBackend &backend)
{
    sd::ConnectionSettings settings;
    settings.apiUrl = backend.url();
    settings.sandboxUrl = backend.url();
    settings.domain.clear();
    settings.apiKey = backend.apiKey();
    return settings;
}

struct Load
{
    bool ok = false;
    qint64 constructNs = 0; ///< constructing and showing the window
    qint64 firstRowsNs = -1;
    qint64 allRowsNs = -1;
    qint64 firstRowsCpuNs = -1; ///< the GUI thread's CPU time, for a loaded machine
    qint64 allRowsCpuNs = -1;
    qint64 longestStallNs = 0;
    int rows = 0;
    int rowsAtFirstPaint = 0;
    int paintsWhileLoading = 0;
    qint64 heapBytes = 0; ///< heap in use with the loaded window, above before it
    qint64 rssBytes = 0;
};

/// Builds, shows and loads one window on `backend`; `keep` receives it when given.
Load loadWindow(const sd::DesktopOptions &options, std::unique_ptr<MainWindow> *keep = nullptr)
{
    Load load;
    settle(50);
    malloc_trim(0);
    const qint64 heap0 = heapInUse();
    const qint64 rss0 = rssBytes();

    StallMeter stall;
    QElapsedTimer clock;
    clock.start();
    const qint64 cpu0 = threadCpuNs();
    CALLGRIND_ZERO_STATS;
    auto window = std::make_unique<MainWindow>(options);
    PaintProbe probe(window.get(), &clock, cpu0);
    window->setRefreshInterval(0);
    window->resize(1280, 800);
    window->show();
    load.constructNs = clock.nsecsElapsed();
    stall.start();
    const bool refreshed = waitFor(window.get(), &MainWindow::refreshed, 600000);
    CALLGRIND_DUMP_STATS_AT("load");
    load.allRowsNs = clock.nsecsElapsed();
    load.allRowsCpuNs = threadCpuNs() - cpu0;
    load.longestStallNs = stall.stop();
    load.rows = window->model()->rowCount();
    load.ok = refreshed && window->lastGoodRefresh().isValid();
    if (!load.ok)
        std::fprintf(stderr, "the window did not load: %s\n", qPrintable(window->banner()->text()));
    // The orphan scan of the list, then the last paints.
    waitFor(window.get(), &MainWindow::orphansScanned, 60000);
    settle(300);
    load.firstRowsNs = probe.firstRowsNs;
    load.firstRowsCpuNs = probe.firstRowsCpuNs;
    load.rowsAtFirstPaint = probe.rowsAtFirstPaint;
    load.paintsWhileLoading = probe.paintsWhileLoading;
    malloc_trim(0);
    load.heapBytes = heapInUse() - heap0;
    load.rssBytes = rssBytes() - rss0;
    if (keep)
        *keep = std::move(window);
    return load;
}

struct Refresh
{
    bool ok = false;
    qint64 wallNs = 0;
    qint64 longestStallNs = 0;
    int changedRows = 0; ///< rows the model announced as changed (all columns)
};

/// Sets a new timeout on `count` random sandboxes of the window's list, then refreshes.
Refresh refreshWithChanges(MainWindow *window, QNetworkAccessManager *network,
    const sd::ConnectionSettings &settings, int count, int rep)
{
    Refresh result;
    QRandomGenerator rng(quint32(rep + 1));
    int pending = 0;
    bool allSet = true;
    QEventLoop loop;
    for (int i = 0; i < count; ++i) {
        const QString id
            = window->model()->sandboxAt(int(rng.bounded(window->model()->rowCount()))).sandboxId;
        auto *job = new sd::SetTimeoutJob(network, settings, id, 3000 + rep * 10 + i % 7);
        ++pending;
        QObject::connect(job, &sd::Job::finished, &loop, [&, job] {
            allSet = allSet && !job->hasError();
            if (--pending == 0)
                loop.quit();
        });
        job->start();
    }
    loop.exec();
    if (!allSet)
        return result;

    const auto connection = QObject::connect(window->model(), &QAbstractItemModel::dataChanged,
        window, [&](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
            if (topLeft.column() == 0)
                result.changedRows += bottomRight.row() - topLeft.row() + 1;
        });
    StallMeter stall;
    QElapsedTimer clock;
    clock.start();
    stall.start();
    CALLGRIND_ZERO_STATS;
    window->refresh();
    result.ok = waitFor(window, &MainWindow::refreshed, 600000) && !window->model()->isStale();
    CALLGRIND_DUMP_STATS_AT("refresh");
    result.wallNs = clock.nsecsElapsed();
    result.longestStallNs = stall.stop();
    QObject::disconnect(connection);
    return result;
}

} // namespace

int main(int argc, char **argv)
{
    paintOffscreenUnlessSet();
    QApplication app(argc, argv);
    // One log line per created sandbox would be most of what the filling costs.
    QLoggingCategory::setFilterRules(QStringLiteral("*.info=false\n*.debug=false"));
    const QStringList args = app.arguments();
    const int reps = std::max(5, repetitions(args, 5));
    int count = optionValue(args, QStringLiteral("--count"), QStringLiteral("10000")).toInt();
    const int changed = std::max(1, count / 100);
    printMachine();
    std::printf("command: %s\n", qPrintable(args.join(QLatin1Char(' '))));
    std::printf("bench_window: the real MainWindow against sandbox-desk-local --isolation none "
                "holding %d running sandboxes, in process, QT_QPA_PLATFORM=%s, %d repetitions\n",
        count, qgetenv("QT_QPA_PLATFORM").constData(), reps);
    std::fflush(stdout);

    QTemporaryDir home;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, home.path());
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk-bench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_window"));

    sd::test::LocalBackend full({ QStringLiteral("--isolation"), QStringLiteral("none"),
        QStringLiteral("--max-sandboxes"), QString::number(count) });
    sd::test::LocalBackend empty({ QStringLiteral("--isolation"), QStringLiteral("none") });
    if (!full.start() || !empty.start()) {
        std::printf("sandbox-desk-local did not start: %s%s\n", qPrintable(full.errorString()),
            qPrintable(empty.errorString()));
        return 1;
    }
    sd::NetworkAccessManager network;
    QElapsedTimer filling;
    filling.start();
    if (!fillBackend(&network, full, 0, count)) {
        std::printf("could not create %d sandboxes\n", count);
        return 1;
    }
    std::printf("(creating the %d sandboxes took %lld ms)\n", count, filling.elapsed());
    std::fflush(stdout);

    const auto optionsFor = [&](const sd::test::LocalBackend &backend) {
        sd::DesktopOptions options;
        options.localConnection = settingsOf(backend);
        options.startLocalBackend = false;
        options.rememberState = false;
        options.journalDirectory = home.path() + QStringLiteral("/journal");
        options.cliLoginPath = home.path() + QStringLiteral("/no-e2b-cli/config.json");
        return options;
    };

    Samples construct, firstRows, allRows, firstRowsCpu, allRowsCpu, stalls, refreshWall,
        refreshStalls;
    Samples heapPerRow, rssPerRow;
    Load coldest;
    bool allOk = true;
    for (int rep = 0; rep < reps; ++rep) {
        const Load baseline = loadWindow(optionsFor(empty));
        std::unique_ptr<MainWindow> window;
        const Load load = loadWindow(optionsFor(full), &window);
        const Refresh refresh = load.ok
            ? refreshWithChanges(window.get(), &network, settingsOf(full), changed, rep)
            : Refresh();
        window.reset();
        settle(50);
        if (rep == 0)
            coldest = load;
        const bool ok = baseline.ok && load.ok && load.rows == count && refresh.ok;
        allOk = allOk && ok;
        std::printf(
            "rep %d: %s first rows %.0f ms (%d rows painted), all %d rows %.0f ms, "
            "%d paints while loading, longest stall %.0f ms; refresh with %d changed "
            "(%d rows signalled) %.0f ms, stall %.0f ms; memory %.0f B/row heap, %.0f B/row RSS\n",
            rep + 1, ok ? "ok" : "FAILED", double(load.firstRowsNs) / 1e6, load.rowsAtFirstPaint,
            load.rows, double(load.allRowsNs) / 1e6, load.paintsWhileLoading,
            double(load.longestStallNs) / 1e6, changed, refresh.changedRows,
            double(refresh.wallNs) / 1e6, double(refresh.longestStallNs) / 1e6,
            double(load.heapBytes - baseline.heapBytes) / count,
            double(load.rssBytes - baseline.rssBytes) / count);
        std::fflush(stdout);
        if (!ok)
            continue;
        construct.add(load.constructNs);
        firstRows.add(load.firstRowsNs);
        allRows.add(load.allRowsNs);
        firstRowsCpu.add(load.firstRowsCpuNs);
        allRowsCpu.add(load.allRowsCpuNs);
        stalls.add(load.longestStallNs);
        refreshWall.add(refresh.wallNs);
        refreshStalls.add(refresh.longestStallNs);
        heapPerRow.add((load.heapBytes - baseline.heapBytes) / count);
        rssPerRow.add((load.rssBytes - baseline.rssBytes) / count);
    }

    std::printf("\nmedian (p95) over %zu repetitions, %d sandboxes\n", firstRows.size(), count);
    std::printf("| figure | median | p95 | GUI thread CPU, median | goal |\n| --- | --- | --- | "
                "--- | --- |\n");
    std::printf("| constructing and showing the window | %.0f ms | %.0f ms | | |\n",
        construct.medianMs(), construct.p95Ms());
    std::printf(
        "| cold start to the first painted rows | **%.0f ms** | %.0f ms | %.0f ms | under 1 s |\n",
        firstRows.medianMs(), firstRows.p95Ms(), firstRowsCpu.medianMs());
    std::printf("| to all %d rows | %.0f ms | %.0f ms | %.0f ms | |\n", count, allRows.medianMs(),
        allRows.p95Ms(), allRowsCpu.medianMs());
    std::printf("| longest event-loop stall while loading | %.0f ms | %.0f ms | | |\n",
        stalls.medianMs(), stalls.p95Ms());
    std::printf("| refresh with %d changed (1%%) | %.0f ms | %.0f ms | | |\n", changed,
        refreshWall.medianMs(), refreshWall.p95Ms());
    std::printf("| longest stall during that refresh | %.0f ms | %.0f ms | | |\n",
        refreshStalls.medianMs(), refreshStalls.p95Ms());
    std::printf("| memory per row, heap in use | %.0f B | %.0f B | | under 2,048 B |\n",
        heapPerRow.quantileNs(0.5), heapPerRow.quantileNs(0.95));
    std::printf("| memory per row, RSS | %.0f B | %.0f B | | under 2,048 B |\n",
        rssPerRow.quantileNs(0.5), rssPerRow.quantileNs(0.95));
    std::printf("first repetition (the coldest, fonts and styles not loaded yet): first rows %.0f "
                "ms, all rows "
                "%.0f ms\n",
        double(coldest.firstRowsNs) / 1e6, double(coldest.allRowsNs) / 1e6);
    std::printf("pages stream: %s (first paint showed %d of %d rows)\n",
        coldest.rowsAtFirstPaint < count && coldest.paintsWhileLoading > 0 ? "yes" : "NO",
        coldest.rowsAtFirstPaint, count);
    // Before the backends stop: one holding thousands of sandboxes takes a while.
    std::fflush(stdout);
    return allOk ? 0 : 1;
}
