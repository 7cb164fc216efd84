// The window's list of a large account, against the real sandbox-desk-local holding
// several pages of sandboxes: the first page is shown (and painted) while the later
// ones are still on their way, and a refresh removes a sandbox killed since, but only
// once the whole list is in, never a row merely not reached yet.

#include "../creation/creationtestutil.h"
#include "testwindow.h"
#include "models/sandboxfilterproxymodel.h"

#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace sd;
using sd::test::rule;

namespace {

constexpr int kSandboxes = 350; // four pages of 100
constexpr int kPageSize = 100;

/// Notes whether the table's viewport was painted with rows while the list was
/// still loading.
class PaintWatcher : public QObject
{
public:
    explicit PaintWatcher(MainWindow *window)
        : m_window(window)
    {
        window->table()->viewport()->installEventFilter(this);
    }

    bool paintedRowsWhileLoading() const { return m_paintedRowsWhileLoading; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_window->isRefreshing()
            && m_window->table()->model()->rowCount() > 0)
            m_paintedRowsWhileLoading = true;
        return QObject::eventFilter(watched, event);
    }

private:
    MainWindow *m_window;
    bool m_paintedRowsWhileLoading = false;
};

} // namespace

class TestWindowStreaming : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    QTemporaryDir m_journalDir;

    std::unique_ptr<MainWindow> makeWindow()
    {
        return test::makeWindow(m_backend.settings(), m_journalDir.path());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_backend.start());
        test::useTestSettings(m_journalDir.path(), QStringLiteral("tst_windowstreaming"));
        for (int i = 0; i < kSandboxes; ++i)
            QVERIFY(!m_backend.createRaw(QStringLiteral("base")).sandboxId.isEmpty());
    }

    void cleanup() { QVERIFY(m_backend.clearFaults()); }

    void firstPageIsShownBeforeTheRestArrives()
    {
        // The list's first page comes at once; the second is held back.
        QVERIFY(m_backend.setFaults({
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 1,
                0, 1),
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 1,
                0, 2000),
        }));
        auto window = makeWindow();
        PaintWatcher paints(window.get());
        QList<std::pair<int, bool>> insertions; // (rows after it, still loading)
        connect(window->model(), &QAbstractItemModel::rowsInserted, this, [&] {
            insertions.append({ window->model()->rowCount(), window->isRefreshing() });
        });
        QSignalSpy refreshed(window.get(), &MainWindow::refreshed);

        QVERIFY(refreshed.wait(60000));
        QCOMPARE(refreshed.first().first().toBool(), true);
        QCOMPARE(m_backend.faults().size(), 0); // both rules were used: the hold happened
        QCOMPARE(window->model()->rowCount(), kSandboxes);
        QCOMPARE(window->proxy()->rowCount(), kSandboxes);
        QVERIFY2(!insertions.isEmpty(), "no rows were inserted");
        QCOMPARE(insertions.first(), std::make_pair(kPageSize, true));
        QCOMPARE(insertions.size(), (kSandboxes + kPageSize - 1) / kPageSize);
        QVERIFY2(paints.paintedRowsWhileLoading(),
            "the table was not painted with the first page while the second was held back");
    }

    void refreshRemovesAKilledSandboxOnceTheListIsWhole()
    {
        auto window = makeWindow();
        QSignalSpy refreshed(window.get(), &MainWindow::refreshed);
        QVERIFY(refreshed.wait(60000));
        QCOMPARE(window->model()->rowCount(), kSandboxes);

        // One from the last page, so every page before it streams in first.
        const QString killed = window->model()->sandboxAt(kSandboxes - 1).sandboxId;
        KillSandboxJob kill(m_backend.network(), m_backend.settings(), killed);
        kill.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&kill));
        QVERIFY(!kill.hasError());

        QList<std::pair<int, bool>> removals; // (rows removed, still loading)
        connect(window->model(), &QAbstractItemModel::rowsRemoved, this,
            [&](const QModelIndex &, int first, int last) {
                removals.append({ last - first + 1, window->isRefreshing() });
            });
        // Hold the last page so the earlier ones are merged while it is awaited.
        QVERIFY(m_backend.setFaults({
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 3,
                0, 1),
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("delay"), 1,
                0, 500),
        }));
        refreshed.clear();
        window->refresh();
        QVERIFY(refreshed.wait(60000));
        QCOMPARE(refreshed.first().first().toBool(), true);

        QCOMPARE(window->model()->rowCount(), kSandboxes - 1);
        QCOMPARE(window->model()->rowOf(killed), -1);
        QCOMPARE(removals.size(), 1);
        QCOMPARE(removals.first(), std::make_pair(1, false));
    }
};

QTEST_MAIN(TestWindowStreaming)
#include "tst_windowstreaming.moc"
