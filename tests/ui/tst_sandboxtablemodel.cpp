#include "models/sandboxfilterproxymodel.h"
#include "models/sandboxtablemodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QElapsedTimer>
#include <QIcon>
#include <QImage>
#include <QItemSelectionModel>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using namespace sd;

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 1, 2), QTime(10, 0), Qt::UTC);

Sandbox makeSandbox(const QString &id, int secondsLeft = 300, Metadata metadata = {},
                    SandboxState state = SandboxState::Running)
{
    Sandbox s;
    s.sandboxId = id;
    s.templateId = QStringLiteral("base");
    s.clientId = QStringLiteral("local");
    s.startedAt = kNow.addSecs(-60);
    s.endAt = kNow.addSecs(secondsLeft);
    s.cpuCount = 2;
    s.memoryMB = 512;
    s.metadata = std::move(metadata);
    s.state = state;
    return s;
}

QString idAt(const QAbstractItemModel &model, int row)
{
    return model.index(row, SandboxTableModel::IdColumn).data(SandboxTableModel::SandboxIdRole).toString();
}

} // namespace

class TestSandboxTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appliesDiffsWithoutReset();
    void identicalRefreshSignalsNothing();
    void pagesMergeWithoutRemovingUntilTheListIsWhole();
    void scatteredRemovalsKeepIndexConsistent();
    void randomPagesAndListsKeepRowsAndCounts();
    void selectionSurvivesRefresh();
    void textFilter_data();
    void textFilter();
    void metadataEntriesStayApart_data();
    void metadataEntriesStayApart();
    void stateAndOrphanFilters();
    void orphanFlagsChangeOnlyTheirRows();
    void stateColumnTellsOrphansApart();
    void countdownSignalsOnlyItsColumn();
    void countdownRedUnderAMinute();
    void countdownTimerTicks();
    void staleGreysRows();
    void tenThousandRowsWithOnePercentChanged();
};

void TestSandboxTableModel::appliesDiffsWithoutReset()
{
    SandboxTableModel model;
    model.setClock([] { return kNow; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb"), makeSandbox("ccc")});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(changed.count(), 0);

    inserted.clear();
    Sandbox changedB = makeSandbox("bbb", 600);
    model.setSandboxes({changedB, makeSandbox("ccc"), makeSandbox("ddd")});
    QCOMPARE(resets.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(1).toInt(), 0); // "aaa" was row 0
    QCOMPARE(removed.at(0).at(2).toInt(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 2);
    QCOMPARE(changed.count(), 1);
    const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
    const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
    QCOMPARE(topLeft.row(), model.rowOf("bbb"));
    QCOMPARE(bottomRight.row(), model.rowOf("bbb"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(idAt(model, 0), QStringLiteral("bbb"));
    QCOMPARE(idAt(model, 1), QStringLiteral("ccc"));
    QCOMPARE(idAt(model, 2), QStringLiteral("ddd"));
    QCOMPARE(model.sandbox("bbb")->endAt, changedB.endAt);
    QCOMPARE(model.rowOf("aaa"), -1);
    QCOMPARE(model.rowOf("ddd"), 2);

    model.setSandboxes({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.count(), 0);
}

void TestSandboxTableModel::identicalRefreshSignalsNothing()
{
    SandboxTableModel model;
    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb")});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setSandboxes({makeSandbox("bbb"), makeSandbox("aaa")}); // order alone is no change
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(changed.count(), 0);
}

void TestSandboxTableModel::pagesMergeWithoutRemovingUntilTheListIsWhole()
{
    SandboxTableModel model;
    model.setClock([] { return kNow; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb"), makeSandbox("ccc")});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // The next list, a page at a time: "bbb" changed, "ddd" is new, "aaa" is gone,
    // and "ccc" is on the page not merged yet.
    const Sandbox changedB = makeSandbox("bbb", 600);
    model.mergeSandboxes({changedB, makeSandbox("ddd")});
    QCOMPARE(removed.count(), 0);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.sandbox("bbb")->endAt, changedB.endAt);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowOf("ddd"), 3);
    QVERIFY(model.sandbox("aaa"));

    // The same sandbox again on a later page (the list moved between pages): one row.
    model.mergeSandboxes({makeSandbox("ddd"), makeSandbox("ccc")});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(removed.count(), 0);

    // The whole list: only what no page held is removed; nothing else is signalled.
    changed.clear();
    inserted.clear();
    model.setSandboxes({changedB, makeSandbox("ddd"), makeSandbox("ccc")});
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.rowOf("aaa"), -1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(inserted.count(), 0);
}

void TestSandboxTableModel::scatteredRemovalsKeepIndexConsistent()
{
    SandboxTableModel model;
    QList<Sandbox> all;
    for (int i = 0; i < 1000; ++i)
        all.append(makeSandbox(QStringLiteral("sbx%1").arg(i, 4, 10, QLatin1Char('0'))));
    model.setSandboxes(all);
    QCOMPARE(model.rowCount(), 1000);

    // Every 7th gone, every 50th changed, 20 new ones.
    QList<Sandbox> next;
    QSet<QString> changedIds;
    for (int i = 0; i < 1000; ++i) {
        if (i % 7 == 0)
            continue;
        Sandbox s = all.at(i);
        if (i % 50 == 1) {
            s.metadata.insert("touched", "yes");
            changedIds.insert(s.sandboxId);
        }
        next.append(s);
    }
    for (int i = 0; i < 20; ++i)
        next.append(makeSandbox(QStringLiteral("new%1").arg(i)));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes(next);
    QCOMPARE(model.rowCount(), next.size());
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.rowOf(model.sandboxAt(row).sandboxId), row);
    for (const Sandbox &s : next)
        QCOMPARE(*model.sandbox(s.sandboxId), s);
    int changedRows = 0;
    for (const auto &args : changed) {
        const auto tl = args.at(0).value<QModelIndex>();
        const auto br = args.at(1).value<QModelIndex>();
        for (int row = tl.row(); row <= br.row(); ++row) {
            QVERIFY(changedIds.contains(model.sandboxAt(row).sandboxId));
            ++changedRows;
        }
    }
    QCOMPARE(changedRows, changedIds.size());
}

// Pages merged and whole lists set at random, with changed states, new IDs and the
// same ID twice in one answer: the rows are those of a plain list kept the same way
// (order of first appearance, the last value of an answer winning, unlisted rows gone
// only with a whole list), and the counts those of its rows.
void TestSandboxTableModel::randomPagesAndListsKeepRowsAndCounts()
{
    SandboxTableModel model;
    model.setClock([] { return kNow; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QRandomGenerator random(712);
    QList<Sandbox> expected;
    const auto apply = [&expected](const QList<Sandbox> &answer, bool whole) {
        QHash<QString, Sandbox> last;
        QStringList order;
        for (const Sandbox &s : answer) {
            if (!last.contains(s.sandboxId))
                order << s.sandboxId;
            last.insert(s.sandboxId, s);
        }
        QList<Sandbox> next;
        for (const Sandbox &s : std::as_const(expected)) {
            if (last.contains(s.sandboxId))
                next << last.take(s.sandboxId);
            else if (!whole)
                next << s;
        }
        for (const QString &id : std::as_const(order)) {
            if (last.contains(id))
                next << last.take(id);
        }
        expected = next;
    };
    for (int step = 0; step < 300; ++step) {
        QList<Sandbox> answer;
        const int size = int(random.bounded(12));
        for (int i = 0; i < size; ++i) {
            answer << makeSandbox(QStringLiteral("sbx-%1").arg(random.bounded(40)),
                int(random.bounded(2)) * 300 + 60, {},
                random.bounded(3) ? SandboxState::Running : SandboxState::Paused);
        }
        const bool whole = random.bounded(5) == 0;
        if (whole)
            model.setSandboxes(answer);
        else
            model.mergeSandboxes(answer);
        apply(answer, whole);
        if (random.bounded(4) == 0) {
            QHash<QString, OrphanFlag> flags;
            for (int i = 0; i < 3; ++i)
                flags.insert(QStringLiteral("sbx-%1").arg(random.bounded(40)), {});
            model.setOrphanFlags(flags);
        }

        QCOMPARE(model.rowCount(), int(expected.size()));
        int running = 0, paused = 0, orphans = 0;
        for (int row = 0; row < expected.size(); ++row) {
            QVERIFY(model.sandboxAt(row) == expected.at(row));
            QCOMPARE(model.rowOf(expected.at(row).sandboxId), row);
            running += expected.at(row).state == SandboxState::Running;
            paused += expected.at(row).state == SandboxState::Paused;
            orphans += model.isOrphan(expected.at(row).sandboxId);
        }
        QCOMPARE(model.count(SandboxTableModel::DisplayState::Running), running);
        QCOMPARE(model.count(SandboxTableModel::DisplayState::Paused), paused);
        QCOMPARE(model.count(SandboxTableModel::DisplayState::Orphan), orphans);
    }
}

void TestSandboxTableModel::selectionSurvivesRefresh()
{
    SandboxTableModel model;
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxTableModel::IdColumn);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QItemSelectionModel selection(&proxy);

    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb"), makeSandbox("ccc"), makeSandbox("ddd")});
    const int row = model.rowOf("ccc");
    const QModelIndex ccc = proxy.mapFromSource(model.index(row, 0));
    selection.select(ccc, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selection.setCurrentIndex(ccc, QItemSelectionModel::NoUpdate);

    // Rows before it vanish, it changes, a row sorting before it arrives.
    model.setSandboxes({makeSandbox("0first"), makeSandbox("ccc", 900), makeSandbox("ddd")});
    const QModelIndexList rows = selection.selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().data(SandboxTableModel::SandboxIdRole).toString(), QStringLiteral("ccc"));
    QCOMPARE(selection.currentIndex().data(SandboxTableModel::SandboxIdRole).toString(), QStringLiteral("ccc"));
    QCOMPARE(idAt(proxy, 0), QStringLiteral("0first"));
    QCOMPARE(idAt(proxy, 1), QStringLiteral("ccc"));
}

void TestSandboxTableModel::textFilter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("empty shows all") << QString() << QStringList{"alpha1", "beta22", "gamma3"};
    QTest::newRow("by id") << "beta" << QStringList{"beta22"};
    QTest::newRow("case-insensitive id") << "GAMMA" << QStringList{"gamma3"};
    QTest::newRow("by template") << "mcp-gate" << QStringList{"gamma3"};
    QTest::newRow("by metadata value") << "alice" << QStringList{"alpha1"};
    QTest::newRow("by metadata k=v") << "owner=bob" << QStringList{"beta22"};
    QTest::newRow("every word must match") << "owner bob" << QStringList{"beta22"};
    QTest::newRow("no match") << "zzz" << QStringList{};
}

void TestSandboxTableModel::textFilter()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    SandboxTableModel model;
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxTableModel::IdColumn);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Sandbox gamma = makeSandbox("gamma3");
    gamma.templateId = "mcp-gateway";
    model.setSandboxes({makeSandbox("alpha1", 300, {{"owner", "alice"}}),
                        makeSandbox("beta22", 300, {{"owner", "bob"}}), gamma});
    proxy.setText(text);
    QStringList shown;
    for (int row = 0; row < proxy.rowCount(); ++row)
        shown.append(idAt(proxy, row));
    QCOMPARE(shown, expected);
}

void TestSandboxTableModel::metadataEntriesStayApart_data()
{
    QTest::addColumn<Metadata>("metadata");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << Metadata { { "owner", "bob" }, { "team", "a b" } }
                           << "owner=bob, team=a b";
    QTest::newRow("own tags left out")
        << Metadata { { "sandbox-desk.creation", "c1" }, { "owner", "bob" } } << "owner=bob";
    // Without quotes this would read as two entries, a=1 and b=2.
    QTest::newRow("separators in a value") << Metadata { { "a", "1, b=2" } } << "a=\"1, b=2\"";
    QTest::newRow("separator in a key") << Metadata { { "k=v", "x" } } << "\"k=v\"=x";
    QTest::newRow("quotes") << Metadata { { "q", "say \"hi\"" } } << "q=\"say \\\"hi\\\"\"";
    QTest::newRow("empty value") << Metadata { { "e", "" } } << "e=\"\"";
    QTest::newRow("blank at an end") << Metadata { { "s", " x" } } << "s=\" x\"";
    QTest::newRow("escaped and quoted") << Metadata { { "v",
        QStringLiteral("a\x1b"
                       ",b") } } << "v=\"a\\x1b,b\"";
}

void TestSandboxTableModel::metadataEntriesStayApart()
{
    QFETCH(Metadata, metadata);
    QFETCH(QString, shown);
    SandboxTableModel model;
    model.setSandboxes({ makeSandbox("alpha1", 300, metadata) });
    QCOMPARE(model.index(0, SandboxTableModel::MetadataColumn).data().toString(), shown);
}

void TestSandboxTableModel::stateAndOrphanFilters()
{
    SandboxTableModel model;
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxTableModel::IdColumn);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({makeSandbox("run1"), makeSandbox("pau1", 300, {}, SandboxState::Paused),
                        makeSandbox("orp1")});
    model.setOrphanFlags({{"orp1", {"creation failed", "journal entry 7"}}});

    proxy.setStateFilter(SandboxFilterProxyModel::StateFilter::Paused);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(idAt(proxy, 0), QStringLiteral("pau1"));

    proxy.setStateFilter(SandboxFilterProxyModel::StateFilter::Running);
    QCOMPARE(proxy.rowCount(), 2);

    proxy.setOrphansOnly(true);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(idAt(proxy, 0), QStringLiteral("orp1"));

    // A row that becomes an orphan on a later detection shows up at once.
    model.setOrphanFlags({{"orp1", {"creation failed", "journal entry 7"}}, {"run1", {"r", "e"}}});
    QCOMPARE(proxy.rowCount(), 2);

    proxy.setOrphansOnly(false);
    proxy.setStateFilter(SandboxFilterProxyModel::StateFilter::All);
    QCOMPARE(proxy.rowCount(), 3);
}

void TestSandboxTableModel::orphanFlagsChangeOnlyTheirRows()
{
    SandboxTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb"), makeSandbox("ccc")});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // A flag for an ID not listed yet is kept, and applies when it appears.
    model.setOrphanFlags({{"bbb", {"Rollback failed", "kill answered HTTP 500"}}, {"zzz", {"x", "y"}}});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), model.rowOf("bbb"));
    const QModelIndex flag = model.index(model.rowOf("bbb"), SandboxTableModel::FlagColumn);
    QVERIFY(flag.data(Qt::ToolTipRole).toString().contains("Rollback failed"));
    QVERIFY(flag.data(Qt::ToolTipRole).toString().contains("kill answered HTTP 500"));
    QVERIFY(!flag.data(Qt::DecorationRole).isNull());
    QCOMPARE(model.index(model.rowOf("bbb"), SandboxTableModel::StateColumn).data().toString(),
        QStringLiteral("running · orphan"));
    QVERIFY(model.index(model.rowOf("aaa"), SandboxTableModel::FlagColumn).data(Qt::ToolTipRole).isNull());
    QCOMPARE(model.count(SandboxTableModel::DisplayState::Orphan), 1);
    QCOMPARE(model.orphanIds(), QStringList{"bbb"});

    changed.clear();
    model.setSandboxes({makeSandbox("aaa"), makeSandbox("bbb"), makeSandbox("ccc"), makeSandbox("zzz")});
    QCOMPARE(model.count(SandboxTableModel::DisplayState::Orphan), 2);

    changed.clear();
    model.setOrphanFlags({{"zzz", {"x", "y"}}});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), model.rowOf("bbb"));
    QCOMPARE(model.index(model.rowOf("bbb"), SandboxTableModel::StateColumn).data().toString(),
             QStringLiteral("running"));
}

void TestSandboxTableModel::stateColumnTellsOrphansApart()
{
    SandboxTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({ makeSandbox("ours"), makeSandbox("theirs"),
        makeSandbox("pausedOurs", 300, {}, SandboxState::Paused), makeSandbox("plain") });
    OrphanFlag suspected { "Its MCP gateway is not running", {} };
    suspected.suspected = true;
    model.setOrphanFlags({ { "ours", { "Rollback failed", {} } }, { "theirs", suspected },
        { "pausedOurs", { "Interrupted", {} } } });

    const auto state = [&model](const char *id, int role = Qt::DisplayRole) {
        return model.index(model.rowOf(QString::fromLatin1(id)), SandboxTableModel::StateColumn)
            .data(role);
    };
    // Certain and suspected read differently, and running or paused stays in view.
    QCOMPARE(state("ours").toString(), QStringLiteral("running · orphan"));
    QCOMPARE(state("theirs").toString(), QStringLiteral("running · suspected orphan"));
    QCOMPARE(state("pausedOurs").toString(), QStringLiteral("paused · orphan"));
    QCOMPARE(state("plain").toString(), QStringLiteral("running"));
    QCOMPARE(state("theirs", Qt::AccessibleTextRole).toString(),
        QStringLiteral("running · suspected orphan"));
    // Not the same dot either.
    const QImage certainDot = state("ours", Qt::DecorationRole).value<QIcon>().pixmap(16).toImage();
    const QImage suspectedDot
        = state("theirs", Qt::DecorationRole).value<QIcon>().pixmap(16).toImage();
    QVERIFY(!certainDot.isNull() && !suspectedDot.isNull());
    QVERIFY(certainDot != suspectedDot);
    // Sorting puts the certain orphans at one end, the suspected ones next to them.
    QVERIFY(state("theirs", SandboxTableModel::SortRole).toInt()
        > state("plain", SandboxTableModel::SortRole).toInt());
    QVERIFY(state("ours", SandboxTableModel::SortRole).toInt()
        > state("theirs", SandboxTableModel::SortRole).toInt());
}

void TestSandboxTableModel::countdownSignalsOnlyItsColumn()
{
    SandboxTableModel model;
    QDateTime now = kNow;
    model.setClock([&now] { return now; });
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxTableModel::TimeLeftColumn);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({makeSandbox("aaa", 300), makeSandbox("bbb", 100)});

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy proxyLayout(&proxy, &QAbstractItemModel::layoutChanged);
    const QModelIndex cell = model.index(model.rowOf("aaa"), SandboxTableModel::TimeLeftColumn);
    QCOMPARE(cell.data().toString(), QStringLiteral("5 min 00 s"));
    now = now.addSecs(1);
    model.tick();
    QCOMPARE(changed.count(), 1);
    const auto tl = changed.at(0).at(0).value<QModelIndex>();
    const auto br = changed.at(0).at(1).value<QModelIndex>();
    QCOMPARE(tl.column(), int(SandboxTableModel::TimeLeftColumn));
    QCOMPARE(br.column(), int(SandboxTableModel::TimeLeftColumn));
    QCOMPARE(tl.row(), 0);
    QCOMPARE(br.row(), 1);
    const auto roles = changed.at(0).at(2).value<QList<int>>();
    QVERIFY(roles.contains(Qt::DisplayRole));
    QVERIFY(!roles.contains(SandboxTableModel::SortRole));
    QCOMPARE(cell.data().toString(), QStringLiteral("4 min 59 s"));
    QCOMPARE(proxyLayout.count(), 0);
    QCOMPARE(idAt(proxy, 0), QStringLiteral("bbb"));
}

void TestSandboxTableModel::countdownRedUnderAMinute()
{
    SandboxTableModel model;
    model.setClock([] { return kNow; });
    model.setSandboxes({makeSandbox("soon", 30), makeSandbox("later", 3600 + 62),
                        makeSandbox("gone", -5), makeSandbox("held", 10, {}, SandboxState::Paused)});
    const auto cell = [&model](const char *id) {
        return model.index(model.rowOf(id), SandboxTableModel::TimeLeftColumn);
    };
    QCOMPARE(cell("soon").data().toString(), QStringLiteral("30 s"));
    QCOMPARE(cell("soon").data(Qt::ForegroundRole).value<QColor>(), QColor(0xd6, 0x3b, 0x3b));
    QCOMPARE(cell("later").data().toString(), QStringLiteral("1 h 01 min"));
    QVERIFY(cell("later").data(Qt::ForegroundRole).isNull());
    QCOMPARE(cell("gone").data().toString(), QStringLiteral("expiring"));
    QCOMPARE(cell("held").data().toString(), QStringLiteral("paused"));
    QVERIFY(cell("held").data(Qt::ForegroundRole).isNull());
}

void TestSandboxTableModel::countdownTimerTicks()
{
    SandboxTableModel model;
    QVERIFY(!model.isCountdownRunning());
    model.setSandboxes({makeSandbox("aaa")});
    QVERIFY(model.isCountdownRunning());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.wait(10000));
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().column(), int(SandboxTableModel::TimeLeftColumn));
    model.setCountdownRunning(false);
    QVERIFY(!model.isCountdownRunning());
    model.setSandboxes({});
    model.setCountdownRunning(true);
    QVERIFY(!model.isCountdownRunning()); // nothing to count down
}

void TestSandboxTableModel::staleGreysRows()
{
    SandboxTableModel model;
    model.setSandboxes({makeSandbox("aaa")});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const QModelIndex id = model.index(0, SandboxTableModel::IdColumn);
    QVERIFY(id.data(Qt::ForegroundRole).isNull());
    model.setStale(true);
    QCOMPARE(changed.count(), 1);
    QVERIFY(!id.data(Qt::ForegroundRole).isNull());
    model.setStale(true);
    QCOMPARE(changed.count(), 1);
    model.setStale(false);
    QVERIFY(id.data(Qt::ForegroundRole).isNull());
}

void TestSandboxTableModel::tenThousandRowsWithOnePercentChanged()
{
    // The size the issue designs for, through a sorting proxy as in the window:
    // 1% changed, 0.5% gone, 0.5% new must arrive as exactly that.
    SandboxTableModel model;
    SandboxFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxTableModel::TimeLeftColumn);
    QList<Sandbox> all;
    all.reserve(10000);
    for (int i = 0; i < 10000; ++i)
        all.append(makeSandbox(QStringLiteral("sbx%1").arg(i, 17, 10, QLatin1Char('0')), 60 + i % 5000,
                               {{"owner", QStringLiteral("user%1").arg(i % 37)}}));
    model.setSandboxes(all);
    QCOMPARE(proxy.rowCount(), 10000);

    QList<Sandbox> next;
    next.reserve(10000);
    int changed = 0;
    for (int i = 0; i < 10000; ++i) {
        if (i % 200 == 3)
            continue;
        Sandbox s = all.at(i);
        if (i % 100 == 7) {
            s.endAt = s.endAt.addSecs(300);
            ++changed;
        }
        next.append(s);
    }
    for (int i = 0; i < 50; ++i)
        next.append(makeSandbox(QStringLiteral("new%1").arg(i, 17, 10, QLatin1Char('0'))));

    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
    QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);
    QElapsedTimer timer;
    timer.start();
    model.setSandboxes(next);
    const qint64 elapsed = timer.elapsed();
    qInfo("10,000 rows, 1%% changed: applied in %lld ms", elapsed); // informative, not asserted

    QCOMPARE(resets.count(), 0);
    QCOMPARE(model.rowCount(), 9950 + 50);
    QCOMPARE(proxy.rowCount(), 10000);
    int changedRows = 0;
    for (const auto &args : dataChanged)
        changedRows += args.at(1).value<QModelIndex>().row() - args.at(0).value<QModelIndex>().row() + 1;
    QCOMPARE(changedRows, changed);
    // Still sorted by time left after the diff.
    for (int row = 1; row < proxy.rowCount(); ++row) {
        const qint64 a = proxy.index(row - 1, SandboxTableModel::TimeLeftColumn).data(SandboxTableModel::SortRole).toLongLong();
        const qint64 b = proxy.index(row, SandboxTableModel::TimeLeftColumn).data(SandboxTableModel::SortRole).toLongLong();
        QVERIFY2(a <= b, qPrintable(QStringLiteral("row %1: %2 > %3 (%4, %5)").arg(row).arg(a).arg(b)
                                        .arg(proxy.index(row - 1, 0).data().toString(), proxy.index(row, 0).data().toString())));
    }
}

QTEST_MAIN(TestSandboxTableModel)
#include "tst_sandboxtablemodel.moc"
