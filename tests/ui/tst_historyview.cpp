// The creations history against a journal written by real creations on the real
// sandbox-desk-local: one that succeeds, one whose gateway fails (exit 127 on the
// `base` template) and whose rollback needs a second try (fault injection).

#include "../creation/creationtestutil.h"
#include "../creation/teststrings.h"
#include "creation/creationjob.h"
#include "historyview.h"
#include "journal/creationjournal.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>

using namespace sd;
using sd::test::rule;

namespace {

constexpr int kWait = 120000;
const QString optionSecret = QStringLiteral("bb-secret-history-5e21c0");
const QColor failedColor(0xd6, 0x3b, 0x3b);

QStringList column(const QTreeWidget *tree, int column)
{
    QStringList texts;
    for (int row = 0; row < tree->topLevelItemCount(); ++row)
        texts << tree->topLevelItem(row)->text(column);
    return texts;
}

QList<int> failedRows(const QTreeWidget *tree)
{
    QList<int> rows;
    for (int row = 0; row < tree->topLevelItemCount(); ++row) {
        if (tree->topLevelItem(row)->data(0, CreationHistoryView::FailedRole).toBool())
            rows << row;
    }
    return rows;
}

} // namespace

class TestHistoryView : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    QTemporaryDir m_dir;
    std::unique_ptr<CreationJournal> m_journal;
    QString m_ok; ///< creation ids
    QString m_failed;
    QString m_failedSandbox;
    QString m_failedError;

    CreationContext context()
    {
        CreationContext c = m_backend.creationContext(m_journal.get(), QStringLiteral("history-test"));
        return c;
    }

    std::unique_ptr<CreationJob> create(const CreationRequest &request)
    {
        auto job = std::make_unique<CreationJob>(context(), request);
        job->setAutoDelete(false);
        [&] { QVERIFY(sd::test::runJob(job.get(), kWait)); }();
        return job;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_backend.start());
        m_journal = std::make_unique<CreationJournal>(m_dir.filePath(QStringLiteral("p.jsonl")));
        QVERIFY(m_journal->open());

        CreationRequest plain;
        plain.timeoutSeconds = 600;
        const auto ok = create(plain);
        QCOMPARE(str(ok->state()), str(CreationState::Ready));
        m_ok = ok->creationId();

        // No mcp-gateway on `base`: the gateway exits 127 and the creation rolls back;
        // the first DELETE fails, so the rollback takes two attempts.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 1, 502) }));
        CreationRequest broken;
        broken.templateId = QStringLiteral("base");
        broken.mcp = QJsonObject { { QStringLiteral("browserbase"),
            QJsonObject { { QStringLiteral("apiKey"), optionSecret },
                { QStringLiteral("projectId"), QStringLiteral("proj-1") },
                { QStringLiteral("geminiApiKey"), optionSecret } } } };
        const auto failed = create(broken);
        QVERIFY(m_backend.clearFaults());
        QCOMPARE(str(failed->state()), str(CreationState::RolledBack));
        QCOMPARE(failed->rollback()->attempts, 2);
        m_failed = failed->creationId();
        m_failedSandbox = failed->sandboxId();
        m_failedError = failed->errorMessage();
        QVERIFY2(m_failedError.contains(QLatin1String("not found")), qPrintable(m_failedError));
        QCOMPARE(m_backend.listIds(), QStringList { ok->sandboxId() });
    }

    void rowsNewestFirstWithFailuresHighlighted()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.resize(1200, 700);
        view.show();
        QTreeWidget *list = view.list();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->data(0, CreationHistoryView::CreationIdRole).toString(),
            m_failed);
        QCOMPARE(
            list->topLevelItem(1)->data(0, CreationHistoryView::CreationIdRole).toString(), m_ok);
        QCOMPARE(column(list, 1), (QStringList { QStringLiteral("base"), QStringLiteral("base") }));
        QCOMPARE(column(list, 2), (QStringList { QStringLiteral("browserbase"), QString() }));
        QCOMPARE(list->topLevelItem(0)->text(3), m_failedSandbox);
        QCOMPARE(column(list, 4),
            (QStringList {
                displayName(CreationState::RolledBack), displayName(CreationState::Ready) }));
        // Durations like "0.42 s".
        for (const QString &duration : column(list, 5))
            QVERIFY2(duration.contains(QRegularExpression(QStringLiteral("^[0-9.,]+ s$"))),
                qPrintable(duration));
        QCOMPARE(failedRows(list), QList<int> { 0 });
        QCOMPARE(list->topLevelItem(0)->foreground(4).color(), failedColor);
        QVERIFY(list->topLevelItem(1)->foreground(4).color() != failedColor);
        QVERIFY(!view.accessibleName().isEmpty());
        QVERIFY(!list->accessibleName().isEmpty());
        QVERIFY(!view.timeline()->accessibleName().isEmpty());
        QVERIFY(!view.gatewayStderr()->accessibleName().isEmpty());
        QVERIFY(!view.searchField()->accessibleName().isEmpty());
    }

    void failedCreationShowsTimelineErrorRollbackAndStderr()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.resize(1200, 700);
        view.show();
        QVERIFY(view.select(m_failed));

        QTreeWidget *timeline = view.timeline();
        QCOMPARE(column(timeline, CreationHistoryView::StepColumn),
            (QStringList { displayName(CreationState::Allocating),
                QStringLiteral("Sandbox allocated"), displayName(CreationState::StartingGateway),
                QStringLiteral("Gateway start ended; its output was recorded"),
                displayName(CreationState::RollingBack), displayName(CreationState::RolledBack) }));
        // The gateway start is the step that failed.
        QCOMPARE(failedRows(timeline), QList<int> { 2 });
        QCOMPARE(timeline->topLevelItem(2)->foreground(0).color(), failedColor);
        QCOMPARE(
            timeline->topLevelItem(1)->text(CreationHistoryView::DetailColumn), m_failedSandbox);
        // Each step with its time of day to the millisecond and the time since the one before.
        const QRegularExpression timeOfDay(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}$"));
        const QRegularExpression since(QStringLiteral("^\\+[0-9.,]+ s$"));
        for (int row = 0; row < timeline->topLevelItemCount(); ++row) {
            const QTreeWidgetItem *item = timeline->topLevelItem(row);
            const QString time = item->text(CreationHistoryView::TimeColumn);
            QVERIFY2(timeOfDay.match(time).hasMatch() || time.contains(QLatin1Char('-')),
                qPrintable(time));
            QVERIFY2(since.match(item->text(CreationHistoryView::SinceColumn)).hasMatch(),
                qPrintable(item->text(CreationHistoryView::SinceColumn)));
        }
        // The times shown are the journal's, in order.
        const auto record = m_journal->creation(m_failed);
        QCOMPARE(record->timeline.size(), qsizetype(timeline->topLevelItemCount()));
        for (int row = 1; row < timeline->topLevelItemCount(); ++row)
            QVERIFY(record->timeline.at(row - 1).time <= record->timeline.at(row).time);
        QCOMPARE(timeline->topLevelItem(0)->text(CreationHistoryView::TimeColumn).right(12),
            record->startedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")));

        // The error, and the rollback's result beside it.
        const QString summary = view.summary()->text();
        QVERIFY2(summary.contains(m_failedError.toHtmlEscaped()), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("the sandbox was removed (attempts: 2)")),
            qPrintable(summary));
        QCOMPARE(timeline->topLevelItem(5)->text(CreationHistoryView::DetailColumn),
            QStringLiteral("the sandbox was removed (attempts: 2)"));

        // The gateway's stderr, whole.
        const QString stderrText = view.gatewayStderr()->toPlainText();
        QCOMPARE(stderrText, record->gatewayStderr);
        QVERIFY2(stderrText.contains(QLatin1String("mcp-gateway")), qPrintable(stderrText));
        QVERIFY(stderrText.contains(QLatin1String("not found")));
        QCOMPARE(view.gatewayStderr()->font(), QFontDatabase::systemFont(QFontDatabase::FixedFont));

        // No option value reaches the view.
        for (const QString &text : { summary, stderrText })
            QVERIFY(!text.contains(optionSecret));
    }

    void searchAndCopyTheGatewayStderr()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.show();
        QVERIFY(view.select(m_failed));
        QPlainTextEdit *output = view.gatewayStderr();

        QTest::keyClicks(view.searchField(), QStringLiteral("FOUND"));
        QCOMPARE(output->textCursor().selectedText().toLower(), QStringLiteral("found"));
        const int first = output->textCursor().selectionStart();
        QCOMPARE(
            output->toPlainText().indexOf(QLatin1String("found"), 0, Qt::CaseInsensitive), first);
        const int matches
            = int(output->toPlainText().count(QLatin1String("found"), Qt::CaseInsensitive));
        QCOMPARE(view.searchStatus(), tr("%n match(es)", nullptr, matches));
        QCOMPARE(output->extraSelections().size(), matches);
        // Enter goes to the next match, wrapping around; Shift+Enter back.
        QTest::keyClick(view.searchField(), Qt::Key_Return);
        QCOMPARE(output->textCursor().selectedText().toLower(), QStringLiteral("found"));
        if (matches == 1)
            QCOMPARE(output->textCursor().selectionStart(), first);
        else
            QVERIFY(output->textCursor().selectionStart() > first);
        QTest::keyClick(view.searchField(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(output->textCursor().selectionStart(), first);

        view.searchField()->clear();
        QTest::keyClicks(view.searchField(), QStringLiteral("no-such-word-xyz"));
        QCOMPARE(view.searchStatus(), QStringLiteral("No match"));
        QVERIFY(!view.find());

        auto *copy = view.findChild<QPushButton *>(QStringLiteral("historyCopy"));
        QVERIFY(copy);
        QVERIFY(!copy->accessibleName().isEmpty());
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), output->toPlainText());
    }

    // Which creation printed this? The output filter searches every creation's gateway
    // stderr, shows those that match and marks the match in the shown one.
    void outputFilterFindsCreationsByTheirStderr()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.show();
        const int all = view.list()->topLevelItemCount();
        QVERIFY(all >= 2);
        const auto shownIds = [&view] {
            QStringList ids;
            for (int row = 0; row < view.list()->topLevelItemCount(); ++row) {
                const QTreeWidgetItem *item = view.list()->topLevelItem(row);
                if (!item->isHidden())
                    ids << item->data(0, CreationHistoryView::CreationIdRole).toString();
            }
            return ids;
        };
        QVERIFY(view.select(m_ok));

        QTest::keyClicks(view.outputFilter(), QStringLiteral("NOT FOUND"));
        QCOMPARE(shownIds(), QStringList { m_failed });
        QCOMPARE(view.outputFilterStatus(), QStringLiteral("Showing 1 of %1").arg(all));
        // The shown creation is one that matched, with the match marked.
        QCOMPARE(view.list()->currentItem()->data(0, CreationHistoryView::CreationIdRole).toString(), m_failed);
        QCOMPARE(view.searchField()->text(), QStringLiteral("NOT FOUND"));
        QVERIFY(!view.gatewayStderr()->extraSelections().isEmpty());

        view.outputFilter()->setText(QStringLiteral("no-such-output-xyz"));
        QVERIFY(shownIds().isEmpty());
        QCOMPARE(view.outputFilterStatus(), QStringLiteral("Showing 0 of %1").arg(all));

        view.outputFilter()->clear();
        QCOMPARE(shownIds().size(), all);
        QVERIFY(view.outputFilterStatus().isEmpty());
    }

    // Cells too narrow for their text show it whole on hover: the error above all.
    void longCellsHaveTooltips()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        QVERIFY(view.select(m_failed));
        const QTreeWidgetItem *row = view.list()->currentItem();
        QVERIFY2(row->toolTip(4).contains(m_failedError), qPrintable(row->toolTip(4)));
        QCOMPARE(row->toolTip(3), m_failedSandbox);
        QCOMPARE(row->toolTip(1), row->text(1));
        for (int step = 0; step < view.timeline()->topLevelItemCount(); ++step) {
            const QTreeWidgetItem *item = view.timeline()->topLevelItem(step);
            QCOMPARE(item->toolTip(CreationHistoryView::StepColumn), item->text(CreationHistoryView::StepColumn));
            QCOMPARE(item->toolTip(CreationHistoryView::DetailColumn), item->text(CreationHistoryView::DetailColumn));
        }
    }

    void successfulCreationHasACleanTimeline()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        QVERIFY(view.select(m_ok));
        QCOMPARE(column(view.timeline(), CreationHistoryView::StepColumn),
            (QStringList { displayName(CreationState::Allocating),
                QStringLiteral("Sandbox allocated"), displayName(CreationState::Extending),
                displayName(CreationState::Ready) }));
        QVERIFY(failedRows(view.timeline()).isEmpty());
        QVERIFY(view.gatewayStderr()->toPlainText().isEmpty());
        QVERIFY(!view.summary()->text().contains(QLatin1String("Error")));
    }

    void newCreationsKeepTheSelection()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.show();
        QVERIFY(view.select(m_failed));
        QTest::keyClicks(view.searchField(), QStringLiteral("found"));
        const int selected = view.gatewayStderr()->textCursor().selectionStart();

        // Another creation starts (here: its intent only, as a crash would leave it).
        CreationIntent intent;
        intent.creationId = QStringLiteral("later-1");
        intent.templateId = QStringLiteral("mcp-gateway");
        QVERIFY(m_journal->recordIntent(intent));
        QTRY_COMPARE_WITH_TIMEOUT(view.list()->topLevelItemCount(), 3, kWait);
        QCOMPARE(
            view.list()->topLevelItem(0)->data(0, CreationHistoryView::CreationIdRole).toString(),
            intent.creationId);
        // Not running here and never finished: flagged, and says so.
        QCOMPARE(failedRows(view.list()), (QList<int> { 0, 1 }));
        QVERIFY(view.list()->topLevelItem(0)->text(4).startsWith(QLatin1String("unfinished")));
        // The failed one stays selected, and the reader's place in its output stays put.
        QCOMPARE(
            view.list()->currentItem()->data(0, CreationHistoryView::CreationIdRole).toString(),
            m_failed);
        QCOMPARE(view.gatewayStderr()->textCursor().selectionStart(), selected);

        QVERIFY(view.select(intent.creationId));
        QCOMPARE(column(view.timeline(), CreationHistoryView::DetailColumn),
            QStringList { QStringLiteral("stopped here: the creation never finished") });
    }

    void aRunningCreationUpdatesItsRowInPlace()
    {
        CreationHistoryView view;
        view.setJournal(m_journal.get());
        view.show();
        QVERIFY(view.select(m_failed));
        const int rows = view.list()->topLevelItemCount();

        CreationRequest plain;
        plain.timeoutSeconds = 600;
        QStringList seen; // row 0 as each state is announced
        CreationJob job(context(), plain);
        job.setAutoDelete(false);
        connect(&job, &CreationJob::stateChanged, this, [&](CreationState state) {
            if (state != CreationState::Extending)
                return;
            const QTreeWidgetItem *top = view.list()->topLevelItem(0);
            seen << top->text(4) << top->text(5);
            QVERIFY(!top->data(0, CreationHistoryView::FailedRole).toBool());
        });
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QVERIFY(finished.wait(kWait));
        QCOMPARE(seen,
            (QStringList {
                QStringLiteral("running (%1)").arg(displayName(CreationState::Extending)),
                QStringLiteral("running") }));
        // Right when finished() arrives, without waiting for a redraw.
        QCOMPARE(view.list()->topLevelItemCount(), rows + 1);
        QCOMPARE(view.list()->topLevelItem(0)->text(3), job.sandboxId());
        QCOMPARE(view.list()->topLevelItem(0)->text(4), displayName(CreationState::Ready));
        QCOMPARE(
            view.list()->currentItem()->data(0, CreationHistoryView::CreationIdRole).toString(),
            m_failed);
    }

    // A rollback that failed leaves a sandbox that may run: once the window has listed
    // the sandboxes, the history says whether it still does.
    void rollbackFailedSaysWhatBecameOfTheSandbox()
    {
        CreationJournal journal(m_dir.filePath(QStringLiteral("rollback-failed.jsonl")));
        QVERIFY(journal.open());
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 20, 500) }));
        CreationRequest broken;
        broken.templateId = QStringLiteral("base");
        broken.mcp = QJsonObject { { QStringLiteral("duckduckgo"), QJsonObject {} } };
        auto job = std::make_unique<CreationJob>(
            m_backend.creationContext(&journal, QStringLiteral("history-test")), broken);
        job->setAutoDelete(false);
        QVERIFY(sd::test::runJob(job.get(), kWait));
        QVERIFY(m_backend.clearFaults());
        QCOMPARE(str(job->state()), str(CreationState::RollbackFailed));
        const QString sandboxId = job->sandboxId();

        CreationHistoryView view;
        view.setJournal(&journal);
        QVERIFY(view.select(job->creationId()));
        QVERIFY2(view.summary()->text().contains(QLatin1String("may still be running")),
            qPrintable(view.summary()->text()));
        view.setListedSandboxes({ sandboxId });
        QVERIFY2(view.summary()->text().contains(QLatin1String("The sandbox is still running")),
            qPrintable(view.summary()->text()));
        KillSandboxJob kill(m_backend.network(), m_backend.settings(), sandboxId);
        kill.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&kill, kWait));
        view.setListedSandboxes({});
        QVERIFY2(view.summary()->text().contains(QLatin1String("no longer running")),
            qPrintable(view.summary()->text()));
    }

    // The user cancels a creation after its sandbox was made: the rollback removes it,
    // and the history says "Cancelled", not "Rolled back" in a failure's colour.
    void cancelledCreationReadsAsCancelled()
    {
        CreationJournal journal(m_dir.filePath(QStringLiteral("cancelled.jsonl")));
        QVERIFY(journal.open());
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
            QStringLiteral("delay"), 1, 0, 1500) }));
        CreationRequest plain;
        auto job = std::make_unique<CreationJob>(
            m_backend.creationContext(&journal, QStringLiteral("history-test")), plain);
        job->setAutoDelete(false);
        CreationJob *raw = job.get();
        connect(raw, &CreationJob::stateChanged, this, [raw](CreationState state) {
            if (state == CreationState::Extending)
                QTimer::singleShot(0, raw, [raw] { raw->cancel(); });
        });
        const QStringList before = m_backend.listIds();
        QVERIFY(sd::test::runJob(raw, kWait));
        QVERIFY(m_backend.clearFaults());
        QCOMPARE(str(raw->state()), str(CreationState::RolledBack));
        QVERIFY(!raw->sandboxId().isEmpty());
        QCOMPARE(m_backend.listIds(), before); // nothing of it runs

        CreationHistoryView view;
        view.setJournal(&journal);
        view.resize(1200, 700);
        view.show();
        QTreeWidgetItem *row = view.list()->topLevelItem(0);
        QCOMPARE(row->text(3), raw->sandboxId());
        QCOMPARE(row->text(4), QStringLiteral("Cancelled"));
        QCOMPARE(row->toolTip(4), row->text(4));
        QVERIFY(!row->data(0, CreationHistoryView::FailedRole).toBool());
        QVERIFY(row->foreground(4).color() != failedColor);
        QVERIFY(view.select(raw->creationId()));
        const QString summary = view.summary()->text();
        QVERIFY2(summary.contains(QLatin1String("ended as Cancelled")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("Cancelled by the user; what it had made was removed.")),
            qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1String("Error")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("the sandbox was removed")), qPrintable(summary));
        // The timeline ends with who ended it; the rollback's report stays beside it.
        QTreeWidget *timeline = view.timeline();
        QTreeWidgetItem *last = timeline->topLevelItem(timeline->topLevelItemCount() - 1);
        QCOMPARE(last->text(CreationHistoryView::StepColumn), QStringLiteral("Cancelled"));
        QVERIFY(last->text(CreationHistoryView::DetailColumn).startsWith(QLatin1String("the sandbox was removed")));
        // The step the cancel stopped (the timeout) is not shown as failed.
        bool stoppedShown = false;
        for (int i = 0; i < timeline->topLevelItemCount(); ++i) {
            QTreeWidgetItem *step = timeline->topLevelItem(i);
            QVERIFY2(!step->data(0, CreationHistoryView::FailedRole).toBool(),
                qPrintable(step->text(CreationHistoryView::StepColumn)));
            QVERIFY(step->foreground(CreationHistoryView::StepColumn).color() != failedColor);
            if (step->text(CreationHistoryView::DetailColumn) == QLatin1String("stopped here by the cancel"))
                stoppedShown = true;
        }
        QVERIFY(stoppedShown);
    }

    void compactionElsewhereDropsItsRows()
    {
        const QString path = m_dir.filePath(QStringLiteral("copy.jsonl"));
        QVERIFY(QFile::copy(m_journal->filePath(), path));
        CreationJournal journal(path);
        QVERIFY(journal.open());
        CreationHistoryView view;
        view.setJournal(&journal);
        QVERIFY(view.list()->topLevelItemCount() >= 2);
        QVERIFY(view.select(m_ok));

        CreationJournal other(path); // another process keeps the newest only
        QVERIFY(other.open());
        QVERIFY(other.compact(1));
        journal.refresh();
        // The newest stays, and so does any creation that never finished.
        QCOMPARE(view.list()->topLevelItemCount(), int(other.history().size()));
        QCOMPARE(view.list()->topLevelItem(0)->data(0, CreationHistoryView::CreationIdRole),
            QVariant(other.history().constFirst().creationId));
        // The selected one is gone, and so is its detail.
        QVERIFY(!view.select(m_ok));
        QCOMPARE(view.timeline()->topLevelItemCount(), 0);
        QVERIFY(view.select(other.history().constFirst().creationId));
        QVERIFY(view.timeline()->topLevelItemCount() > 0);
    }

    // A sandbox writes the gateway's stderr: shown, it cannot reorder the text after it
    // (bidirectional override) nor hide bytes; a split character shows whole.
    void stderrFromTheSandboxIsShownEscaped()
    {
        CreationJournal journal(m_dir.filePath(QStringLiteral("hostile.jsonl")));
        QVERIFY(journal.open());
        CreationIntent intent;
        intent.creationId = QStringLiteral("hostile-stderr");
        intent.templateId = QStringLiteral("mcp-gateway");
        intent.timeoutSeconds = 300;
        int written = 0;
        const auto count = [&written](bool ok) { written += ok ? 1 : 0; };
        journal.appendQueued(CreationJournal::intentRecord(intent), this, count);
        journal.appendQueued(CreationJournal::gatewayStderrRecord(intent.creationId,
                                 "server \"a\xe2\x80\xae"
                                 "b\" failed \x1b[2J\tcaf\xc3\xa9\n"),
            this, count);
        QTRY_COMPARE(written, 2);

        CreationHistoryView view;
        view.setJournal(&journal);
        view.show();
        QVERIFY(view.select(intent.creationId));
        QCOMPARE(view.gatewayStderr()->toPlainText(),
            QStringLiteral("server \"a\\u202eb\" failed \\x1b[2J\tcafé\n"));
    }
};

QTEST_MAIN(TestHistoryView)
#include "tst_historyview.moc"
