// The sandbox table at 10,000 rows: what a refresh costs when it is applied as a
// diff by ID (SandboxTableModel::setSandboxes) versus a model reset with the same
// data, measured side by side in one process, interleaved; memory per row; and what
// the once-a-second countdown invalidates and costs.
//
//   build/bin/bench_sandboxmodel [--reps N] [--quick] [--only "model+proxy+view 1% added"]

#include "benchutil.h"

#include "models/sandboxfilterproxymodel.h"
#include "models/sandboxtablemodel.h"
#include "sandboxtableview.h"

#include <QApplication>
#include <QColor>
#include <QFontDatabase>
#include <QHeaderView>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QRandomGenerator>
#include <QSortFilterProxyModel>

#include <malloc.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <set>

using namespace sd;
using namespace sd::bench;

namespace {

constexpr int kRows = 10000;
constexpr int kOnePercent = kRows / 100;

// --- data ---------------------------------------------------------------------

QString randomToken(QRandomGenerator &rng, int length)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString text(length, Qt::Uninitialized);
    for (int i = 0; i < length; ++i)
        text[i] = QLatin1Char(alphabet[rng.bounded(36)]);
    return text;
}

QString randomUuid(QRandomGenerator &rng)
{
    static const char hex[] = "0123456789abcdef";
    QString text(36, Qt::Uninitialized);
    for (int i = 0; i < 36; ++i)
        text[i] = (i == 8 || i == 13 || i == 18 || i == 23) ? QLatin1Char('-')
                                                            : QLatin1Char(hex[rng.bounded(16)]);
    return text;
}

// What a `GET /v2/sandboxes` row looks like once parsed: E2B-shaped IDs, a few
// templates, and (for most rows, as the app creates them) the creation tags.
Sandbox makeSandbox(QRandomGenerator &rng, const QDateTime &now, const QString &installId)
{
    static const QString templates[][2] = {
        { QStringLiteral("rki5dems9wqfm4r03t7g"), QStringLiteral("base") },
        { QStringLiteral("k0wmnzir0zuzye6dndlw"), QStringLiteral("mcp-gateway") },
        { QStringLiteral("nlhz8vlwyupq845jsdg9"), QStringLiteral("code-interpreter-v1") },
        { QStringLiteral("8k3b2x7q1m9v4n6c5z0p"), QStringLiteral("desktop") },
        { QStringLiteral("q9w8e7r6t5y4u3i2o1p0"), QString() },
    };
    static const QString owners[]
        = { QStringLiteral("alice"), QStringLiteral("bob"), QStringLiteral("ci") };
    Sandbox s;
    s.sandboxId = randomToken(rng, 20);
    const auto &tpl = templates[rng.bounded(5)];
    s.templateId = tpl[0];
    s.alias = tpl[1];
    s.clientId = QStringLiteral("6532622b");
    s.envdVersion = QStringLiteral("0.2.4");
    s.startedAt = now.addSecs(-qint64(rng.bounded(86400)));
    s.endAt = now.addSecs(60 + qint64(rng.bounded(3600)));
    s.cpuCount = 2;
    s.memoryMB = 512 << rng.bounded(3);
    s.diskSizeMB = 10240;
    if (rng.bounded(10) < 7) {
        s.metadata.insert(QStringLiteral("sandbox-desk.creation"), randomUuid(rng));
        s.metadata.insert(QStringLiteral("sandbox-desk.install"), installId);
    }
    s.metadata.insert(QStringLiteral("owner"), owners[rng.bounded(3)]);
    s.state = rng.bounded(10) == 0 ? SandboxState::Paused : SandboxState::Running;
    return s;
}

QList<Sandbox> makeSandboxes(QRandomGenerator &rng, const QDateTime &now, int count)
{
    const QString installId = randomUuid(rng);
    QList<Sandbox> list;
    list.reserve(count);
    for (int i = 0; i < count; ++i)
        list.append(makeSandbox(rng, now, installId));
    return list;
}

std::set<int> distinctRows(QRandomGenerator &rng, int count, int range)
{
    std::set<int> rows;
    while (int(rows.size()) < count)
        rows.insert(int(rng.bounded(range)));
    return rows;
}

// 1% of the rows changed, scattered: most had their timeout extended, some were
// paused or resumed.
QList<Sandbox> withChanges(QRandomGenerator &rng, QList<Sandbox> list)
{
    for (int row : distinctRows(rng, kOnePercent, int(list.size()))) {
        Sandbox &s = list[row];
        if (row % 4 == 0)
            s.state
                = s.state == SandboxState::Paused ? SandboxState::Running : SandboxState::Paused;
        else
            s.endAt = s.endAt.addSecs(300);
    }
    return list;
}

// 1% of the rows gone (scattered), 1% new ones at the end.
QList<Sandbox> withChurn(QRandomGenerator &rng, const QDateTime &now, const QList<Sandbox> &list)
{
    const std::set<int> gone = distinctRows(rng, kOnePercent, int(list.size()));
    QList<Sandbox> out;
    out.reserve(list.size());
    for (int row = 0; row < int(list.size()); ++row) {
        if (!gone.count(row))
            out.append(list.at(row));
    }
    const QString installId = randomUuid(rng);
    for (int i = 0; i < kOnePercent; ++i)
        out.append(makeSandbox(rng, now, installId));
    return out;
}

// The same churn with the gone rows side by side: one removal range instead of ~100,
// to show what announcing scattered removals costs.
QList<Sandbox> withContiguousChurn(
    QRandomGenerator &rng, const QDateTime &now, const QList<Sandbox> &list)
{
    const int first = int(rng.bounded(int(list.size()) - kOnePercent));
    QList<Sandbox> out = list;
    out.remove(first, kOnePercent);
    const QString installId = randomUuid(rng);
    for (int i = 0; i < kOnePercent; ++i)
        out.append(makeSandbox(rng, now, installId));
    return out;
}

// --- the reset baseline ---------------------------------------------------------

QIcon dotIcon(const QColor &color)
{
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(3, 3, 10, 10));
    painter.end();
    return QIcon(pixmap);
}

// The simplest model that shows the same table: it keeps the list (an implicitly
// shared copy, so storing it is free) and resets on every refresh. data() answers
// the roles the view and the proxy ask for with the same values as
// SandboxTableModel, so the two differ in how they signal a refresh, not in what
// they show.
class ResetTableModel : public QAbstractTableModel
{
public:
    void resetTo(const QList<Sandbox> &rows)
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : SandboxTableModel::ColumnCount;
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
            return QStringLiteral("Column %1").arg(section);
        return {};
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        const Sandbox &s = m_rows.at(index.row());
        const bool paused = s.state == SandboxState::Paused;
        if (role == SandboxTableModel::FilterTextRole)
            return s.sandboxId + QLatin1Char(' ') + s.templateId + QLatin1Char(' ') + s.alias
                + QLatin1Char(' ') + SandboxTableModel::compactMetadata(s.metadata);
        const bool display = role == Qt::DisplayRole;
        const bool sort = role == SandboxTableModel::SortRole;
        switch (index.column()) {
        case SandboxTableModel::IdColumn:
            if (display || sort)
                return s.sandboxId;
            if (role == Qt::FontRole)
                return QFontDatabase::systemFont(QFontDatabase::FixedFont);
            break;
        case SandboxTableModel::TemplateColumn:
            if (display || sort)
                return s.alias.isEmpty() ? s.templateId : s.alias;
            break;
        case SandboxTableModel::StateColumn:
            if (display)
                return paused ? QStringLiteral("paused") : QStringLiteral("running");
            if (sort)
                return paused ? 1 : 0;
            if (role == Qt::DecorationRole)
                return paused ? m_pausedIcon : m_runningIcon;
            break;
        case SandboxTableModel::StartedColumn:
            if (display)
                return QLocale().toString(s.startedAt.toLocalTime(), QLocale::ShortFormat);
            if (sort)
                return s.startedAt;
            break;
        case SandboxTableModel::TimeLeftColumn: {
            const qint64 left = paused ? 0 : QDateTime::currentDateTimeUtc().secsTo(s.endAt);
            if (display)
                return paused ? QStringLiteral("paused") : SandboxTableModel::formatDuration(left);
            if (sort)
                return paused ? std::numeric_limits<qint64>::max() : s.endAt.toMSecsSinceEpoch();
            if (role == Qt::ForegroundRole && !paused && left < 60)
                return QColor(0xd6, 0x3b, 0x3b);
            if (role == Qt::TextAlignmentRole)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            break;
        }
        case SandboxTableModel::CpuColumn:
            if (display || sort)
                return s.cpuCount;
            if (role == Qt::TextAlignmentRole)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case SandboxTableModel::MemoryColumn:
            if (display)
                return QStringLiteral("%1 MiB").arg(s.memoryMB);
            if (sort)
                return s.memoryMB;
            if (role == Qt::TextAlignmentRole)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case SandboxTableModel::MetadataColumn:
            if (display || sort)
                return SandboxTableModel::compactMetadata(s.metadata);
            break;
        case SandboxTableModel::FlagColumn:
            if (sort)
                return 0;
            break;
        default:
            break;
        }
        return {};
    }

private:
    QList<Sandbox> m_rows;
    QIcon m_runningIcon = dotIcon(QColor(0x2e, 0x9e, 0x4f));
    QIcon m_pausedIcon = dotIcon(QColor(0xd0, 0x8c, 0x16));
};

// Counts data() calls per column for the display role: the cells a view painted.
class CountingModel : public SandboxTableModel
{
public:
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DisplayRole && index.isValid())
            ++m_displayCalls[size_t(index.column())];
        return SandboxTableModel::data(index, role);
    }
    void resetCounts() { m_displayCalls.fill(0); }
    int displayCalls(int column) const { return m_displayCalls[size_t(column)]; }
    int displayCallsExcept(int column) const
    {
        int n = 0;
        for (int c = 0; c < ColumnCount; ++c)
            n += c == column ? 0 : m_displayCalls[size_t(c)];
        return n;
    }

private:
    mutable std::array<int, ColumnCount> m_displayCalls {};
};

// --- rigs: a model with what users attach to it -----------------------------------

enum class Level
{
    Model,
    Proxy,
    View
};

const char *levelName(Level level)
{
    switch (level) {
    case Level::Model:
        return "model";
    case Level::Proxy:
        return "model+proxy";
    case Level::View:
        return "model+proxy+view";
    }
    return "";
}

// The main window's table set-up (ui/mainwindow.cpp), minus what only looks.
void setUpView(QTableView *table, QAbstractItemModel *model)
{
    table->setModel(model);
    table->setSortingEnabled(true);
    table->sortByColumn(SandboxTableModel::StartedColumn, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 10);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(SandboxTableModel::MetadataColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SandboxTableModel::FlagColumn, QHeaderView::Fixed);
    table->resize(1280, 800);
    table->show();
    // Selection and a scrolled position, as a user who is looking at the list has.
    table->selectRow(40);
    table->scrollTo(model->index(40, 0));
}

// Delivers what an update posted: proxy work, layout, and the repaint.
void flushEvents()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

struct Rig
{
    std::unique_ptr<QAbstractItemModel> model;
    std::unique_ptr<QSortFilterProxyModel> proxy;
    std::unique_ptr<SandboxTableView> view;
    std::function<void(const QList<Sandbox> &)> update;

    void attach(Level level)
    {
        if (level == Level::Model)
            return;
        proxy->setSourceModel(model.get());
        if (level == Level::Proxy) {
            proxy->sort(SandboxTableModel::StartedColumn, Qt::DescendingOrder);
            return;
        }
        view = std::make_unique<SandboxTableView>();
        setUpView(view.get(), proxy.get());
        flushEvents();
    }
};

Rig diffRig(Level level, const QList<Sandbox> &initial)
{
    Rig rig;
    auto *model = new SandboxTableModel;
    model->setCountdownRunning(false); // the tick is measured on its own
    model->setSandboxes(initial);
    rig.model.reset(model);
    rig.proxy = std::make_unique<SandboxFilterProxyModel>();
    rig.update = [model](const QList<Sandbox> &list) { model->setSandboxes(list); };
    rig.attach(level);
    return rig;
}

Rig resetRig(Level level, const QList<Sandbox> &initial)
{
    Rig rig;
    auto *model = new ResetTableModel;
    model->resetTo(initial);
    rig.model.reset(model);
    // The same proxy settings as SandboxFilterProxyModel (which only accepts a
    // SandboxTableModel as its source).
    rig.proxy = std::make_unique<QSortFilterProxyModel>();
    rig.proxy->setSortRole(SandboxTableModel::SortRole);
    rig.proxy->setFilterRole(SandboxTableModel::FilterTextRole);
    rig.proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    rig.proxy->setDynamicSortFilter(true);
    rig.update = [model](const QList<Sandbox> &list) { model->resetTo(list); };
    rig.attach(level);
    return rig;
}

// --diff-only: skip the baseline (for a profiler looking at the diff alone).
bool g_diffOnly = false;

using NextList = std::function<QList<Sandbox>(const QList<Sandbox> &)>;

// Each refresh derives the next list from the current one (fresh rows changed,
// fresh rows gone), so every refresh carries a new 1% and removals stay scattered.
// The two rigs get the same list and take turns (ABBA), so drift on a shared machine
// hits both alike.

void compareRefresh(const char *variant, Level level, const QList<Sandbox> &base,
    const NextList &makeNext, int reps)
{
    Rig diff = diffRig(level, base);
    Rig reset = resetRig(level, base);
    // How the diff announced itself: the signal count is what the proxy and view pay for.
    qint64 removedSignals = 0, insertedSignals = 0, changedSignals = 0;
    QAbstractItemModel *diffModel = diff.model.get();
    QObject::connect(
        diffModel, &QAbstractItemModel::rowsRemoved, diffModel, [&] { ++removedSignals; });
    QObject::connect(
        diffModel, &QAbstractItemModel::rowsInserted, diffModel, [&] { ++insertedSignals; });
    QObject::connect(
        diffModel, &QAbstractItemModel::dataChanged, diffModel, [&] { ++changedSignals; });
    Samples diffSamples, resetSamples, diffCpu, resetCpu;
    const int warmup = 4;
    QList<Sandbox> current = base;
    for (int rep = 0; rep < reps + warmup; ++rep) {
        current = makeNext(current);
        const auto measure = [&](Rig &rig) {
            return timeBoth([&] {
                rig.update(current);
                flushEvents();
            });
        };
        Timing diffNs, resetNs;
        if (g_diffOnly) {
            diffNs = measure(diff);
            if (rep >= warmup) {
                diffSamples.add(diffNs.wallNs);
                diffCpu.add(diffNs.cpuNs);
            }
            continue;
        }
        if (rep % 4 == 0 || rep % 4 == 3) {
            diffNs = measure(diff);
            resetNs = measure(reset);
        } else {
            resetNs = measure(reset);
            diffNs = measure(diff);
        }
        if (rep >= warmup) {
            diffSamples.add(diffNs.wallNs);
            resetSamples.add(resetNs.wallNs);
            diffCpu.add(diffNs.cpuNs);
            resetCpu.add(resetNs.cpuNs);
        }
    }
    std::printf(
        "  %-17s %-22s diff %7.2f ms (p95 %7.2f, cpu %7.2f)   reset %7.2f ms (p95 %7.2f, cpu %7.2f)"
        "   reset/diff %5.2fx wall, %5.2fx cpu\n",
        levelName(level), variant, diffSamples.medianMs(), diffSamples.p95Ms(), diffCpu.medianMs(),
        resetSamples.medianMs(), resetSamples.p95Ms(), resetCpu.medianMs(),
        ratio(resetSamples.medianMs(), diffSamples.medianMs()),
        ratio(resetCpu.medianMs(), diffCpu.medianMs()));
    if (level == Level::Model) {
        const double refreshes = double(reps + warmup);
        std::printf(
            "  %-17s %-22s (the diff signals per refresh: %.0f rowsRemoved, %.0f rowsInserted,"
            " %.0f dataChanged)\n",
            "", "", double(removedSignals) / refreshes, double(insertedSignals) / refreshes,
            double(changedSignals) / refreshes);
    }
    std::fflush(stdout);
}

// --- memory -------------------------------------------------------------------------

void measureMemory(const QDateTime &now)
{
    std::printf(
        "\nMemory per row (%d rows; heap = glibc mallinfo2 in-use bytes, RSS = /proc/self/statm;"
        " the parsed list is dropped after the update, as after a refresh)\n",
        kRows);
    const auto perRow = [](qint64 bytes) { return double(bytes) / kRows; };
    QRandomGenerator rng(7);

    // The model alone.
    malloc_trim(0);
    const qint64 heap0 = heapInUse();
    const qint64 rss0 = rssBytes();
    auto list = std::make_unique<QList<Sandbox>>(makeSandboxes(rng, now, kRows));
    const qint64 heapList = heapInUse();
    auto model = std::make_unique<SandboxTableModel>();
    model->setCountdownRunning(false);
    model->setSandboxes(*list);
    list.reset(); // the parsed answer is gone; its strings now live in the model
    malloc_trim(0);
    const qint64 heapModel = heapInUse();
    const qint64 rssModel = rssBytes();
    model.reset();

    // Everything users have: the proxy and a shown view exist first (their fixed
    // costs, such as the 1280x800 backing store, are not per row), then the rows come.
    model = std::make_unique<SandboxTableModel>();
    model->setCountdownRunning(false);
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(model.get());
    auto view = std::make_unique<SandboxTableView>();
    setUpView(view.get(), &proxy);
    flushEvents();
    malloc_trim(0);
    const qint64 heapEmpty = heapInUse();
    const qint64 rssEmpty = rssBytes();
    list = std::make_unique<QList<Sandbox>>(makeSandboxes(rng, now, kRows));
    model->setSandboxes(*list);
    list.reset();
    flushEvents();
    flushEvents();
    malloc_trim(0);
    const qint64 heapFull = heapInUse();
    const qint64 rssFull = rssBytes();

    if (heapModel == heap0) {
        std::printf("  n/a: this allocator does not report in-use bytes (sanitizer build?)\n");
        return;
    }
    const double modelRow = perRow(heapModel - heap0);
    const double fullRow = perRow(heapFull - heapEmpty);
    std::printf(
        "  parsed list alone, for scale           heap %6.0f B/row\n", perRow(heapList - heap0));
    std::printf("  model (rows, ID index, strings)        heap %6.0f B/row   RSS %6.0f B/row\n",
        modelRow, perRow(rssModel - rss0));
    std::printf("  model + sorted proxy + shown view      heap %6.0f B/row   RSS %6.0f B/row\n",
        fullRow, perRow(rssFull - rssEmpty));
    std::printf("  goal under 2048 B/row: model %s, model + proxy + view %s\n",
        modelRow < 2048 ? "met" : "MISSED", fullRow < 2048 ? "met" : "MISSED");
    std::fflush(stdout);
}

// --- the countdown --------------------------------------------------------------------

void measureCountdown(const QList<Sandbox> &base, int reps)
{
    std::printf("\nCountdown tick (SandboxTableModel::tick, once a second; %d rows)\n", kRows);
    // The clock moves one second per tick, as the real one does.
    QDateTime clock = QDateTime::currentDateTimeUtc();

    const auto cellsOf = [](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
        return qint64(bottomRight.row() - topLeft.row() + 1)
            * (bottomRight.column() - topLeft.column() + 1);
    };

    for (Level level : { Level::Model, Level::Proxy, Level::View }) {
        CountingModel model;
        model.setCountdownRunning(false); // ticked by hand
        model.setClock([&clock] { return clock; });
        model.setSandboxes(base);
        SandboxFilterProxyModel proxy;
        std::unique_ptr<SandboxTableView> view;
        if (level != Level::Model) {
            proxy.setSourceModel(&model);
            proxy.sort(SandboxTableModel::StartedColumn, Qt::DescendingOrder);
        }
        if (level == Level::View) {
            view = std::make_unique<SandboxTableView>();
            setUpView(view.get(), &proxy);
            flushEvents();
        }
        qint64 modelCells = 0, proxyCells = 0;
        const auto c1 = QObject::connect(&model, &QAbstractItemModel::dataChanged,
            [&](const QModelIndex &a, const QModelIndex &b) { modelCells += cellsOf(a, b); });
        const auto c2 = QObject::connect(&proxy, &QAbstractItemModel::dataChanged,
            [&](const QModelIndex &a, const QModelIndex &b) { proxyCells += cellsOf(a, b); });
        Samples samples, cpu;
        qint64 paintedTimeLeft = 0;
        std::array<qint64, SandboxTableModel::ColumnCount> paintedOther {};
        for (int rep = 0; rep < reps + 2; ++rep) {
            clock = clock.addSecs(1);
            modelCells = proxyCells = 0;
            model.resetCounts();
            const Timing t = timeBoth([&] {
                model.tick();
                flushEvents();
            });
            if (rep >= 2) {
                samples.add(t.wallNs);
                cpu.add(t.cpuNs);
                paintedTimeLeft += model.displayCalls(SandboxTableModel::TimeLeftColumn);
                for (int c = 0; c < SandboxTableModel::ColumnCount; ++c) {
                    if (c != SandboxTableModel::TimeLeftColumn)
                        paintedOther[size_t(c)] += model.displayCalls(c);
                }
            }
        }
        QObject::disconnect(c1);
        QObject::disconnect(c2);
        std::printf("  %-17s tick %7.3f ms (p95 %7.3f, cpu %7.3f)   dataChanged cells: model %lld",
            levelName(level), samples.medianMs(), samples.p95Ms(), cpu.medianMs(),
            static_cast<long long>(modelCells));
        if (level != Level::Model)
            std::printf(", proxy %lld", static_cast<long long>(proxyCells));
        if (level == Level::View) {
            const double n = double(samples.size());
            std::printf("; cells painted per tick: time-left %.0f", double(paintedTimeLeft) / n);
            for (int c = 0; c < SandboxTableModel::ColumnCount; ++c) {
                if (paintedOther[size_t(c)] > 0)
                    std::printf(", %s %.0f",
                        model.headerData(c, Qt::Horizontal).toString().toUtf8().constData(),
                        double(paintedOther[size_t(c)]) / n);
            }
        }
        std::printf("\n");
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char **argv)
{
    paintOffscreenUnlessSet();
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int reps = repetitions(args, 200);

    printMachine();
    std::printf("bench_sandboxmodel: %d sandboxes, %d repetitions per figure, medians (p95)\n",
        kRows, reps);

    // --only TEXT: just the refresh cases whose "<level> <variant>" contains TEXT
    // (for a profiler); memory and the countdown are skipped.
    QString only;
    if (const qsizetype at = args.indexOf(QStringLiteral("--only"));
        at >= 0 && at + 1 < args.size())
        only = args.at(at + 1);

    g_diffOnly = args.contains(QStringLiteral("--diff-only"));

    const QDateTime now = QDateTime::currentDateTimeUtc();
    // Memory first, before the heap holds anything else of ours.
    if (only.isEmpty())
        measureMemory(now);

    QRandomGenerator rng(42);
    const QList<Sandbox> base = makeSandboxes(rng, now, kRows);
    const NextList changed = [&rng](const QList<Sandbox> &list) { return withChanges(rng, list); };
    const NextList churnedAdjacent
        = [&rng, now](const QList<Sandbox> &list) { return withContiguousChurn(rng, now, list); };
    const NextList churned
        = [&rng, now](const QList<Sandbox> &list) { return withChurn(rng, now, list); };

    std::printf(
        "\nRefresh: diff by ID (SandboxTableModel::setSandboxes) vs reset with the same data;"
        " each figure includes delivering the posted events (proxy, layout, repaint)\n");
    for (Level level : { Level::Model, Level::Proxy, Level::View }) {
        for (const auto &[variant, next] :
            { std::pair { "1% changed", &changed }, std::pair { "1% added + 1% removed", &churned },
                std::pair { "same, removed adjacent", &churnedAdjacent } }) {
            if (only.isEmpty()
                || QStringLiteral("%1 %2")
                       .arg(QLatin1String(levelName(level)), QLatin1String(variant))
                       .contains(only))
                compareRefresh(variant, level, base, *next, reps);
        }
    }

    if (only.isEmpty())
        measureCountdown(base, reps);
    return 0;
}
