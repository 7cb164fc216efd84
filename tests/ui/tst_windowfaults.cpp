// The real window when things go wrong, against the real sandbox-desk-local with
// fault injection: quitting while a creation runs (cancelled, rolled back, recorded,
// and only then may the process exit), and failed actions that stay on screen.

#include "../creation/creationtestutil.h"
#include "creationspanel.h"
#include "detailpane.h"
#include "detailtabs.h"
#include "historyview.h"
#include "journal/creationjournal.h"
#include "messagebanner.h"
#include "newsandboxdialog.h"
#include "orphans/orphandetector.h"
#include "session/session.h"
#include "testwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace sd;
using sd::test::rule;

class TestWindowFaults : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    QTemporaryDir m_journalDir;

    /// A delay on the timeout call, so that a creation waits in Extending.
    bool holdCreationsInExtending(int delayMs = 1500)
    {
        return m_backend.clearFaults()
            && m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                QStringLiteral("delay"), 1, 0, delayMs) });
    }

    /// Opens the New sandbox dialog of a connected `window` and starts a creation there;
    /// null when the window did not connect.
    static NewSandboxDialog *startCreation(MainWindow *window)
    {
        if (!QTest::qWaitFor([window] { return window->newSandboxAction()->isEnabled(); }, 20000))
            return nullptr;
        NewSandboxDialog *dialog = window->newSandbox();
        if (dialog)
            dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
        return dialog;
    }

    /// Kills the selected sandboxes as a user does (Delete, then Kill in the
    /// confirmation); true once the batch finished (`finished` watches actionsFinished).
    static bool killSelected(MainWindow *window, QSignalSpy *finished)
    {
        window->killAction()->trigger();
        auto *box = window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"));
        if (!box)
            return false;
        box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
        return finished->wait(20000);
    }

    std::unique_ptr<MainWindow> makeWindow()
    {
        return test::makeWindow(m_backend.settings(), m_journalDir.path());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_backend.start());
        test::useTestSettings(m_journalDir.path(), QStringLiteral("tst_windowfaults"));
    }

    void init()
    {
        // A failed row must not leave its sandbox to the next one.
        for (const QString &id : m_backend.listIds()) {
            KillSandboxJob kill(m_backend.network(), m_backend.settings(), id);
            kill.setAutoDelete(false);
            sd::test::runJob(&kill);
        }
    }

    void quitWaitsForTheRollback_data()
    {
        QTest::addColumn<QJsonObject>("fault");
        QTest::addColumn<bool>("mcp");
        QTest::addColumn<int>("state");
        QTest::newRow("starting the gateway")
            << rule(QStringLiteral("POST"), QStringLiteral("*/process.Process/Start"), QStringLiteral("delay"), 1, 0, 2500)
            << true << int(CreationState::StartingGateway);
        QTest::newRow("extending") << rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                                           QStringLiteral("delay"), 1, 0, 2500)
                                   << false << int(CreationState::Extending);
    }

    void quitWaitsForTheRollback()
    {
        QFETCH(QJsonObject, fault);
        QFETCH(bool, mcp);
        QFETCH(int, state);
        QVERIFY(m_backend.clearFaults());
        QVERIFY(m_backend.setFaults({ fault }));
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->newSandboxAction()->isEnabled(), 20000);

        NewSandboxDialog *dialog = window->newSandbox();
        QVERIFY(dialog);
        if (mcp)
            dialog->setMcpJson(QStringLiteral("{\"duckduckgo\": {}}"));
        dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
        QVERIFY(dialog->job());
        QTRY_COMPARE_WITH_TIMEOUT(int(dialog->job()->state()), state, 20000);
        const QString creationId = dialog->job()->creationId();
        QTRY_COMPARE(m_backend.listIds().size(), 1);

        QSignalSpy waiting(window.get(), &MainWindow::quitWaiting);
        QSignalSpy ready(window.get(), &MainWindow::quitReady);
        // Ctrl+Q, as a user quits.
        auto *quitAction = window->findChild<QAction *>(QStringLiteral("quitAction"));
        QVERIFY(quitAction);
        QCOMPARE(quitAction->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
        quitAction->trigger();
        // Not yet: the creation is being cancelled and rolled back, and the window says so.
        QVERIFY(ready.isEmpty());
        QVERIFY(window->isQuitting());
        QVERIFY(!waiting.isEmpty());
        QVERIFY2(waiting.last().at(0).toStringList().join(QString()).contains(creationId),
            qPrintable(waiting.last().at(0).toStringList().join(QLatin1Char(';'))));
        QCOMPARE(window->statusBar()->currentMessage(),
            QStringLiteral("Quitting: cancelling 1 creation(s) and removing what they created…"));
        QVERIFY(!window->newSandboxAction()->isEnabled());

        // A second request says what leaving now would leave; keep waiting.
        window->quit();
        auto *box = window->findChild<QMessageBox *>(QStringLiteral("quitNowConfirmation"));
        QVERIFY(box);
        QVERIFY2(box->detailedText().contains(creationId), qPrintable(box->detailedText()));
        QAbstractButton *keepWaiting = nullptr;
        for (QAbstractButton *button : box->buttons()) {
            if (button->text() == QLatin1String("&Keep waiting"))
                keepWaiting = button;
        }
        QVERIFY(keepWaiting);
        keepWaiting->click();

        QVERIFY(ready.wait(30000));
        QCOMPARE(ready.size(), 1);
        QVERIFY(m_backend.listIds().isEmpty()); // nothing left running
        QVERIFY(waiting.last().at(0).toStringList().isEmpty());

        CreationJournal journal(
            CreationJournal::filePathFor(m_journalDir.path(), Session::journalKey(m_backend.settings().apiUrl)));
        QVERIFY(journal.open());
        bool found = false;
        for (const CreationRecord &record : journal.history()) {
            if (record.creationId != creationId)
                continue;
            found = true;
            QVERIFY(record.isFinished());
            QVERIFY2(record.state == CreationState::Cancelled || record.state == CreationState::RolledBack,
                qPrintable(toString(record.state)));
        }
        QVERIFY(found);
    }

    // A kill the server refuses leaves a message naming the sandbox and the server's
    // reason, which the refresh that follows does not hide; Retry kills it.
    void failedKillStaysOnScreenWithRetry()
    {
        QVERIFY(m_backend.clearFaults());
        const QString id = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!id.isEmpty());
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 1, 500) }));
        auto window = makeWindow();
        QSignalSpy refreshed(window.get(), &MainWindow::refreshed);
        QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(id), 20000);
        QSignalSpy finished(window.get(), &MainWindow::actionsFinished);
        QVERIFY(killSelected(window.get(), &finished));
        refreshed.clear();
        QVERIFY(refreshed.wait(20000)); // the refresh after the action
        QVERIFY(refreshed.last().at(0).toBool());
        MessageBanner *banner = window->actionBanner();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("1 of 1 kills failed: %1: ").arg(id)), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("500")), qPrintable(banner->text()));
        QCOMPARE(m_backend.listIds(), QStringList { id }); // still running, and said so

        auto *retry = banner->findChild<QAction *>(QStringLiteral("retryFailedAction"));
        QVERIFY(retry);
        retry->trigger();
        QVERIFY(finished.wait(20000));
        QVERIFY(!banner->isVisible());
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // "Kill all orphans" where the server refuses the kill: one sandbox tried, one
    // failed, said once with the server's reason (not "2 of 1").
    void failedOrphanKillIsCountedOnce()
    {
        QVERIFY(m_backend.clearFaults());
        // What an old SDK leaves: an mcp-gateway sandbox of nobody's with no gateway.
        const QString id = m_backend.createRaw(QStringLiteral("mcp-gateway")).sandboxId;
        QVERIFY(!id.isEmpty());
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(id), 20000);
        window->session()->detector()->setGatewayGrace(std::chrono::seconds(0));
        QSignalSpy scanned(window.get(), &MainWindow::orphansScanned);
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!scanned.isEmpty() && scanned.last().at(0).toInt() == 1, 20000);

        // Refused on every try of the kill's retries.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 10, 503) }));
        QTRY_VERIFY_WITH_TIMEOUT(window->killOrphansAction()->isEnabled(), 20000);
        window->killOrphansAction()->trigger();
        auto *box = window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"));
        QVERIFY(box && box->checkBox());
        box->checkBox()->setChecked(true);
        QSignalSpy finished(window.get(), &MainWindow::actionsFinished);
        box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
        QVERIFY(finished.wait(30000));
        MessageBanner *banner = window->actionBanner();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("1 of 1 kills failed: %1: ").arg(id)),
            qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("503")), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QLatin1String("could not be removed")),
            qPrintable(banner->text()));
        QCOMPARE(m_backend.listIds(), QStringList { id }); // still running, and said so
        QVERIFY(m_backend.clearFaults());
    }

    // A proxy in front of the API answers with an HTML page of its own: the message
    // quotes it as text, tags and all, instead of rendering a heading and a link.
    void serverHtmlIsShownAsText()
    {
        QVERIFY(m_backend.clearFaults());
        const QString id = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!id.isEmpty());
        const QString page = QStringLiteral("<html><body><h1>Bad Gateway</h1><a "
                                            "href=\"https://example.invalid/login\">Sign in "
                                            "again</a></body></html>");
        QJsonObject fault = rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 1, 502);
        fault.insert(QStringLiteral("body"), page);
        QVERIFY(m_backend.setFaults({ fault }));
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(id), 20000);
        QSignalSpy finished(window.get(), &MainWindow::actionsFinished);
        QVERIFY(killSelected(window.get(), &finished));
        MessageBanner *banner = window->actionBanner();
        QTRY_VERIFY(banner->isVisible());
        auto *label = banner->findChild<QLabel *>(QStringLiteral("messageText"));
        QVERIFY(label);
        QVERIFY2(label->text().contains(page), qPrintable(label->text()));
        // What the user selects and copies is what the label shows: rendered as HTML,
        // the tags would be gone from it.
        label->setSelection(0, int(label->text().size()));
        QCOMPARE(label->selectedText(), label->text());
        QCOMPARE(m_backend.listIds(), QStringList { id });
    }

    // Escape while a creation runs asks first; "Keep watching" cancels nothing.
    void escapeAsksAndKeepsTheCreation()
    {
        QVERIFY(holdCreationsInExtending());
        auto window = makeWindow();
        NewSandboxDialog *dialog = startCreation(window.get());
        QVERIFY(dialog);
        QVERIFY(!dialog->isModal()); // the list stays usable
        QSignalSpy finished(dialog, &NewSandboxDialog::creationFinished);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->job()->state() == CreationState::Extending, 20000);
        QTest::keyClick(dialog, Qt::Key_Escape);
        auto *box = dialog->findChild<QMessageBox *>(QStringLiteral("cancelCreationConfirmation"));
        QVERIFY(box);
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->job()->isFinished());
        QTest::keyClick(box, Qt::Key_Escape); // "Keep watching"
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.first().at(1).toBool(), true);
        QCOMPARE(m_backend.listIds(), QStringList { dialog->job()->sandboxId() });
    }

    // "Run in background": the dialog goes, the creation goes on and the window says
    // how it ended.
    void runInBackgroundEndsInTheWindow()
    {
        QVERIFY(holdCreationsInExtending());
        auto window = makeWindow();
        QPointer<NewSandboxDialog> dialog = startCreation(window.get());
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->job()->state() == CreationState::Extending, 20000);
        const QString creationId = dialog->job()->creationId();
        dialog->findChild<QPushButton *>(QStringLiteral("backgroundButton"))->click();
        QVERIFY(!dialog->isVisible());
        // Still running, and in sight in the window.
        QVERIFY(!dialog->job()->isFinished());
        QVERIFY(window->creationsPanel()->isVisible());
        QVERIFY(window->creationsPanel()->row(creationId));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog, 20000); // gone once the creation ended
        QVERIFY(!window->creationsPanel()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window->statusBar()->currentMessage().startsWith(QLatin1String("Sandbox ")), 20000);
        QCOMPARE(m_backend.listIds().size(), 1);
        bool ready = false;
        for (const CreationRecord &record : window->journal()->history())
            ready = ready || (record.creationId == creationId && record.state == CreationState::Ready);
        QVERIFY(ready);
    }

    // A creation sent to the background shows in the window's creations panel with
    // the step it is in and its sandbox; Cancel there removes what it made, the window
    // reports it as cancelled (not failed) and the creation ends in the history.
    void backgroundCreationCancelledFromThePanel()
    {
        QVERIFY(holdCreationsInExtending(5000));
        auto window = makeWindow();
        QPointer<NewSandboxDialog> dialog = startCreation(window.get());
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->job()->state() == CreationState::Extending, 20000);
        CreationJob *job = dialog->job();
        const QString creationId = job->creationId();
        const QString sandboxId = job->sandboxId();
        const QString templateId = job->templateId();
        dialog->findChild<QPushButton *>(QStringLiteral("backgroundButton"))->click();
        QVERIFY(!dialog->isVisible());

        CreationsPanel *panel = window->creationsPanel();
        QVERIFY(panel->isVisible());
        QTreeWidgetItem *row = panel->row(creationId);
        QVERIFY(row);
        // The panel shows a step once the job announces it, after its journal record is
        // durable; job->state() already names it before then.
        QTRY_COMPARE_WITH_TIMEOUT(
            row->text(CreationsPanel::StepColumn), displayName(CreationState::Extending), 20000);
        QCOMPARE(row->text(CreationsPanel::SandboxColumn), sandboxId);
        QCOMPARE(row->text(CreationsPanel::TemplateColumn), templateId);
        QCOMPARE(row->text(CreationsPanel::McpColumn), QStringLiteral("none"));
        QVERIFY(!row->text(CreationsPanel::StartedColumn).isEmpty());
        QCOMPARE(m_backend.listIds(), QStringList { sandboxId }); // still being made

        auto *cancel = qobject_cast<QToolButton *>(panel->list()->itemWidget(row, CreationsPanel::CancelColumn));
        QVERIFY(cancel);
        QVERIFY(cancel->isEnabled());
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog, 20000); // the creation ended
        QCOMPARE(window->statusBar()->currentMessage(),
            QStringLiteral("The creation from %1 was cancelled; what it had created was removed.").arg(templateId));
        QVERIFY(!panel->isVisible());
        QVERIFY(!panel->row(creationId));
        QVERIFY(m_backend.listIds().isEmpty());
        const auto record = window->journal()->creation(creationId);
        QVERIFY(record);
        QVERIFY(record->isFinished());
        QCOMPARE(toString(record->state), toString(CreationState::RolledBack));
        QVERIFY(window->historyView()->select(creationId));
        // The history says it was cancelled, as the status bar did, not a failure.
        QTreeWidgetItem *historyRow = window->historyView()->list()->currentItem();
        QCOMPARE(historyRow->text(4), QStringLiteral("Cancelled"));
        QVERIFY(!historyRow->data(0, CreationHistoryView::FailedRole).toBool());
    }

    /// Runs a creation in `window`'s session to its end.
    static std::unique_ptr<CreationJob> createIn(MainWindow *window, const CreationRequest &request)
    {
        auto job = std::make_unique<CreationJob>(window->session()->creationContext(), request);
        job->setAutoDelete(false);
        [&] { QVERIFY(sd::test::runJob(job.get(), 60000)); }();
        return job;
    }

    static QStringList timelineSteps(const CreationRecord &record)
    {
        QStringList steps;
        for (const CreationStep &step : record.timeline) {
            if (step.kind == CreationStep::Kind::KillFailed)
                steps << QStringLiteral("kill-failed(%1)%2").arg(step.detail, step.failed ? QStringLiteral("!") : QString());
            else if (step.kind == CreationStep::Kind::OrphanKilled)
                steps << QStringLiteral("orphan-killed(%1)").arg(step.detail);
            else if (step.kind == CreationStep::Kind::Killed)
                steps << QStringLiteral("killed(%1)").arg(step.detail);
        }
        return steps;
    }

    // A sandbox whose rollback failed is killed later from the list: the kill the
    // server refuses and the one that works both join its creation's timeline.
    void laterKillsJoinTheTimeline()
    {
        QVERIFY(m_backend.clearFaults());
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->newSandboxAction()->isEnabled(), 20000);
        // No gateway on `base`: the creation rolls back, and every kill is refused.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 20, 500) }));
        CreationRequest broken;
        broken.templateId = QStringLiteral("base");
        broken.mcp = QJsonObject { { QStringLiteral("duckduckgo"), QJsonObject {} } };
        const auto job = createIn(window.get(), broken);
        QCOMPARE(toString(job->state()), toString(CreationState::RollbackFailed));
        const QString sandboxId = job->sandboxId();
        const QString creationId = job->creationId();

        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window->model()->orphanFlag(sandboxId).has_value(), 20000);
        QVERIFY(window->selectSandbox(sandboxId));
        // The reason, then the evidence, each a sentence.
        const QString orphanText = window->detailPane()->fieldText(QStringLiteral("orphan"));
        QVERIFY2(orphanText.startsWith(QLatin1String("The rollback of a failed creation could not kill it.\nCreation ")),
            qPrintable(orphanText));
        QSignalSpy finished(window.get(), &MainWindow::actionsFinished);
        QVERIFY(killSelected(window.get(), &finished));
        QVERIFY(window->actionBanner()->isVisible());
        // The journal writes the kill's record on its own thread, just after the kill.
        QTRY_COMPARE_WITH_TIMEOUT(timelineSteps(*window->journal()->creation(creationId)).size(), 1, 20000);
        QStringList steps = timelineSteps(*window->journal()->creation(creationId));
        QVERIFY2(steps.first().startsWith(QStringLiteral("kill-failed(%1: ").arg(sandboxId)), qPrintable(steps.first()));
        QVERIFY2(steps.first().contains(QLatin1String("500")) && steps.first().endsWith(QLatin1Char('!')),
            qPrintable(steps.first()));

        // The history shows it as a failed step of that creation.
        CreationHistoryView *history = window->historyView();
        QVERIFY(history->select(creationId));
        QTreeWidget *timeline = history->timeline();
        QTreeWidgetItem *last = timeline->topLevelItem(timeline->topLevelItemCount() - 1);
        QCOMPARE(last->text(CreationHistoryView::StepColumn), QStringLiteral("A later kill failed"));
        QVERIFY(last->data(0, CreationHistoryView::FailedRole).toBool());
        QVERIFY(last->text(CreationHistoryView::DetailColumn).contains(sandboxId));

        // Retry once the server lets it go: the kill that worked follows.
        QVERIFY(m_backend.clearFaults());
        window->actionBanner()->findChild<QAction *>(QStringLiteral("retryFailedAction"))->trigger();
        QVERIFY(finished.wait(20000));
        QVERIFY(m_backend.listIds().isEmpty());
        // The journal writes the kill's record on its own thread, just after the kill.
        QTRY_COMPARE_WITH_TIMEOUT(timelineSteps(*window->journal()->creation(creationId)).size(), 2, 20000);
        steps = timelineSteps(*window->journal()->creation(creationId));
        QCOMPARE(steps.last(), QStringLiteral("orphan-killed(%1)").arg(sandboxId));
        last = timeline->topLevelItem(timeline->topLevelItemCount() - 1);
        QCOMPARE(last->text(CreationHistoryView::StepColumn), QStringLiteral("Removed later as an orphan"));
        // The creation's row says so as well, not only its timeline.
        QTreeWidgetItem *row = history->list()->currentItem();
        QCOMPARE(row->data(0, CreationHistoryView::CreationIdRole).toString(), creationId);
        // No translator here: the plural reads "(s)".
        QCOMPARE(row->text(4), QStringLiteral("Rollback failed · 1 orphan(s) killed"));
    }

    // The user kills a Ready sandbox of ours from the list, no orphan: the refused
    // kill and the one that works join its creation's timeline, "killed at T".
    void killOfAReadySandboxJoinsTheTimeline()
    {
        QVERIFY(m_backend.clearFaults());
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->newSandboxAction()->isEnabled(), 20000);
        const auto job = createIn(window.get(), CreationRequest {});
        QCOMPARE(toString(job->state()), toString(CreationState::Ready));
        const QString sandboxId = job->sandboxId();
        const QString creationId = job->creationId();
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(sandboxId), 20000);
        QVERIFY(!window->model()->orphanFlag(sandboxId).has_value());

        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
            QStringLiteral("status"), 1, 500) }));
        QSignalSpy finished(window.get(), &MainWindow::actionsFinished);
        QVERIFY(killSelected(window.get(), &finished));
        QVERIFY(window->actionBanner()->isVisible());
        QCOMPARE(m_backend.listIds(), QStringList { sandboxId });
        // The journal writes the kill's record on its own thread, just after the kill.
        QTRY_COMPARE_WITH_TIMEOUT(timelineSteps(*window->journal()->creation(creationId)).size(), 1, 20000);
        QStringList steps = timelineSteps(*window->journal()->creation(creationId));
        QVERIFY2(steps.first().startsWith(QStringLiteral("kill-failed(%1: ").arg(sandboxId))
                && steps.first().contains(QLatin1String("500")) && steps.first().endsWith(QLatin1Char('!')),
            qPrintable(steps.first()));

        QVERIFY(m_backend.clearFaults());
        window->actionBanner()->findChild<QAction *>(QStringLiteral("retryFailedAction"))->trigger();
        QVERIFY(finished.wait(20000));
        QVERIFY(m_backend.listIds().isEmpty());
        // The journal writes the kill's record on its own thread, just after the kill.
        QTRY_COMPARE_WITH_TIMEOUT(timelineSteps(*window->journal()->creation(creationId)).size(), 2, 20000);
        const auto record = window->journal()->creation(creationId);
        steps = timelineSteps(*record);
        QCOMPARE(steps, (QStringList { steps.first(), QStringLiteral("killed(%1)").arg(sandboxId) }));
        QVERIFY(record->killedAt.isValid());
        QCOMPARE(toString(record->state), toString(CreationState::Ready)); // it was made; the user ended it

        CreationHistoryView *history = window->historyView();
        QVERIFY(history->select(creationId));
        QTreeWidget *timeline = history->timeline();
        QTreeWidgetItem *last = timeline->topLevelItem(timeline->topLevelItemCount() - 1);
        QCOMPARE(last->text(CreationHistoryView::StepColumn), QStringLiteral("Sandbox killed"));
        QCOMPARE(last->text(CreationHistoryView::DetailColumn), sandboxId);
        QVERIFY(!last->text(CreationHistoryView::TimeColumn).isEmpty());
        QVERIFY(!last->data(0, CreationHistoryView::FailedRole).toBool());
        QVERIFY2(history->summary()->text().contains(QLatin1String("The sandbox was killed later: ")),
            qPrintable(history->summary()->text()));
        // Its row no longer reads as a sandbox that is ready.
        QTreeWidgetItem *row = history->list()->currentItem();
        QCOMPARE(row->data(0, CreationHistoryView::CreationIdRole).toString(), creationId);
        QCOMPARE(row->text(4), QStringLiteral("Ready · sandbox killed"));
        QVERIFY(history->list()->columnWidth(4)
            >= history->list()->fontMetrics().horizontalAdvance(row->text(4)));
    }

    // The Processes tab that cannot load says why and shows no list it can no
    // longer vouch for.
    void processesTabClearsItsListOnError()
    {
        QVERIFY(m_backend.clearFaults());
        auto window = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window->newSandboxAction()->isEnabled(), 20000);
        CreationRequest withGateway;
        withGateway.mcp = QJsonObject { { QStringLiteral("duckduckgo"), QJsonObject {} } };
        const auto job = createIn(window.get(), withGateway);
        QCOMPARE(toString(job->state()), toString(CreationState::Ready));
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(job->sandboxId()), 20000);

        ProcessesTab *processes = window->detailPane()->processesTab();
        QSignalSpy loaded(processes, &DetailTab::loaded);
        window->detailPane()->tabs()->setCurrentWidget(processes);
        QVERIFY(loaded.wait(20000));
        QVERIFY2(loaded.last().at(0).toBool(), qPrintable(processes->statusText()));
        QVERIFY(processes->table()->rowCount() >= 1); // the gateway
        // Cut at the column's edge, whole on hover.
        QTableWidgetItem *command = processes->table()->item(0, 2);
        QCOMPARE(command->toolTip(), command->text());

        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("*/process.Process/List"),
            QStringLiteral("status"), 1, 500) }));
        processes->reload();
        QVERIFY(loaded.wait(20000));
        QVERIFY(!loaded.last().at(0).toBool());
        QVERIFY2(processes->statusText().contains(QLatin1String("500")), qPrintable(processes->statusText()));
        QCOMPARE(processes->table()->rowCount(), 0);

        // Logs: the whole message of the selected entry, wrapped, under the table.
        LogsTab *logs = window->detailPane()->logsTab();
        QSignalSpy logsLoaded(logs, &DetailTab::loaded);
        window->detailPane()->tabs()->setCurrentWidget(logs);
        QVERIFY(logsLoaded.wait(20000));
        QVERIFY(logs->table()->rowCount() >= 1);
        QVERIFY(!logs->entryView()->isVisible());
        QTableWidgetItem *message = logs->table()->item(0, 2);
        QCOMPARE(message->toolTip(), message->text());
        logs->table()->setCurrentCell(0, 2);
        QVERIFY(logs->entryView()->isVisible());
        QVERIFY(logs->entryView()->toPlainText().endsWith(message->text()));
    }

    // A cancelled creation is reported as cancelled, in a warning, not as a failure.
    void cancelledIsNotFailed()
    {
        QVERIFY(holdCreationsInExtending());
        auto window = makeWindow();
        NewSandboxDialog *dialog = startCreation(window.get());
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &NewSandboxDialog::creationFinished);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->job()->state() == CreationState::Extending, 20000);
        dialog->findChild<QPushButton *>(QStringLiteral("cancelCreationButton"))->click();
        QVERIFY(finished.wait(20000));
        QLabel *title = nullptr;
        for (QLabel *label : dialog->findChildren<QLabel *>()) {
            if (label->text().startsWith(QLatin1String("The creation")))
                title = label;
        }
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("The creation was cancelled."));
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // Closing the window with a creation running is a quit: it waits the same way.
    void closingTheWindowWaitsToo()
    {
        QVERIFY(holdCreationsInExtending(2500));
        auto window = makeWindow();
        QVERIFY(startCreation(window.get()));
        QTRY_COMPARE_WITH_TIMEOUT(m_backend.listIds().size(), 1, 20000);
        QSignalSpy ready(window.get(), &MainWindow::quitReady);
        QVERIFY(!window->close()); // refused for now: rollbacks first
        QVERIFY(window->isQuitting());
        QVERIFY(ready.wait(30000));
        QVERIFY(m_backend.listIds().isEmpty());
        QVERIFY(!window->isVisible());
    }
};

QTEST_MAIN(TestWindowFaults)
#include "tst_windowfaults.moc"
