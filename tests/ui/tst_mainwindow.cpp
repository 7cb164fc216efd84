#include "api/infojobs.h"
#include "api/lifecyclejobs.h"
#include "api/sandboxjobs.h"
#include "detailpane.h"
#include "detailtabs.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "models/sandboxfilterproxymodel.h"
#include "network/networkaccessmanager.h"
#include "profiles/profilestore.h"
#include "sandboxtableview.h"
#include "uitest.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTcpServer>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

using namespace sd;

namespace {

constexpr int kWait = 20000;

using test::runJob;

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void listsSandboxesCreatedThroughTheApi();
    void refreshKeepsSelection();
    void detailPaneShowsTheSelection();
    void detailTabsLoadLogsAndProcesses();
    void metricsTabChartsBackendSamples();
    void killWithConfirmationRemovesOnBackend();
    void cancelledKillKillsNothing();
    void suspectedOrphansAreKilledOnlyWhenChosen();
    void extendTimeout();
    void shorteningTimeoutAsksFirst();
    void pauseAndResume();
    void filterBar();
    void menuBarHoldsEveryAction();
    void staleBannerWhenBackendStops();
    void remembersRefreshInterval();
    void switchesToACustomProfile();
    void longProfileNameKeepsTheActionsInTheToolBar();
    void unreachableProfileIsNotAnEmptyAccount();
    void warnsWhileTheKeyTravelsUnencrypted();
    void metadataIsShownEscaped();
    void durationsReadAsDurations();
    void detailPaneSaysWhatTheInternetDefaultIs();
    void longMetadataHasATooltip();
    void profileWithoutKeyIsNotAnEmptyAccount();
    void savedNarrowStateColumnStillFits();

private:
    QString createSandbox(const Metadata &metadata = {}, int timeoutSeconds = 600);
    QStringList backendIds();
    bool refreshWindow();
    std::unique_ptr<MainWindow> makeWindow(bool rememberState = false);
    template<typename T>
    T *waitForDialog(const QString &objectName);

    sd::NetworkAccessManager m_network;
    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_settings;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    // QSettings goes to a folder of this test only.
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::init()
{
    m_backend = std::make_unique<test::LocalBackend>();
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_settings = test::backendSettings(*m_backend);
}

void TestMainWindow::cleanup()
{
    m_window.reset();
    m_backend.reset();
}

QString TestMainWindow::createSandbox(const Metadata &metadata, int timeoutSeconds)
{
    NewSandbox request;
    request.templateId = QStringLiteral("base");
    request.metadata = metadata;
    request.timeoutSeconds = timeoutSeconds;
    std::unique_ptr<CreateSandboxJob> job(new CreateSandboxJob(&m_network, m_settings, request));
    if (!runJob(job.get())) {
        qWarning() << "create failed:" << job->error().message();
        return {};
    }
    return job->sandbox().sandboxId;
}

QStringList TestMainWindow::backendIds()
{
    std::unique_ptr<ListSandboxesJob> job(new ListSandboxesJob(&m_network, m_settings));
    if (!runJob(job.get()))
        return {QStringLiteral("<list failed>")};
    QStringList ids;
    for (const Sandbox &s : job->sandboxes())
        ids.append(s.sandboxId);
    ids.sort();
    return ids;
}

std::unique_ptr<MainWindow> TestMainWindow::makeWindow(bool rememberState)
{
    return test::makeWindow(m_settings, m_journalDir.path(), rememberState);
}

bool TestMainWindow::refreshWindow()
{
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    // A refresh may be in flight already (the first one); wait for it, then ask again.
    if (m_window->isRefreshing() && !refreshed.wait(kWait))
        return false;
    refreshed.clear();
    m_window->refresh();
    if (!refreshed.wait(kWait))
        return false;
    return refreshed.last().at(0).toBool();
}

template<typename T>
T *TestMainWindow::waitForDialog(const QString &objectName)
{
    T *dialog = nullptr;
    (void)QTest::qWaitFor([&] { return (dialog = m_window->findChild<T *>(objectName)) && dialog->isVisible(); }, kWait);
    return dialog && dialog->isVisible() ? dialog : nullptr;
}

void TestMainWindow::listsSandboxesCreatedThroughTheApi()
{
    const QString a = createSandbox({{"owner", "alice"}});
    const QString b = createSandbox({{"owner", "bob"}, {"purpose", "demo"}});
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    m_window = makeWindow();
    QVERIFY(refreshWindow());

    SandboxTableModel *model = m_window->model();
    QCOMPARE(model->rowCount(), 2);
    QVERIFY(model->rowOf(a) >= 0);
    QVERIFY(model->rowOf(b) >= 0);
    QCOMPARE(model->index(model->rowOf(b), SandboxTableModel::MetadataColumn).data().toString(),
             QStringLiteral("owner=bob, purpose=demo"));
    QCOMPARE(model->index(model->rowOf(a), SandboxTableModel::TemplateColumn).data().toString(),
             QStringLiteral("base"));
    QCOMPARE(m_window->table()->model()->rowCount(), 2);
    QCOMPARE(m_window->connectionState(), MainWindow::ConnectionState::Connected);
    QVERIFY(m_window->banner()->isHidden());
    QVERIFY(m_window->lastGoodRefresh().isValid());
}

void TestMainWindow::refreshKeepsSelection()
{
    const QString a = createSandbox();
    const QString b = createSandbox();
    const QString c = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(b));
    QCOMPARE(m_window->selectedIds(), QStringList{b});

    // The backend changes under the window: one gone, one new, the selected one extended.
    std::unique_ptr<KillSandboxJob> kill(new KillSandboxJob(&m_network, m_settings, a));
    QVERIFY(runJob(kill.get()));
    std::unique_ptr<SetTimeoutJob> extend(new SetTimeoutJob(&m_network, m_settings, b, 3000));
    QVERIFY(runJob(extend.get()));
    const QString d = createSandbox();

    QSignalSpy resets(m_window->table()->model(), &QAbstractItemModel::modelReset);
    QVERIFY(refreshWindow());
    QCOMPARE(resets.count(), 0);
    QCOMPARE(m_window->model()->rowCount(), 3);
    QCOMPARE(m_window->model()->rowOf(a), -1);
    QVERIFY(m_window->model()->rowOf(d) >= 0);
    QCOMPARE(m_window->selectedIds(), QStringList{b});
    QCOMPARE(m_window->table()->currentIndex().data(SandboxTableModel::SandboxIdRole).toString(), b);
    Q_UNUSED(c);
}

void TestMainWindow::detailPaneShowsTheSelection()
{
    const QString a = createSandbox({{"team", "infra"}});
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->detailPane()->sandboxId().isEmpty());
    QVERIFY(m_window->selectSandbox(a));
    QCOMPARE(m_window->detailPane()->sandboxId(), a);
    QCOMPARE(m_window->detailPane()->fieldText(QStringLiteral("id")), a);
    QCOMPARE(m_window->detailPane()->fieldText(QStringLiteral("template")), QStringLiteral("base"));
    QCOMPARE(m_window->detailPane()->fieldText(QStringLiteral("state")), QStringLiteral("running"));

    // Killed elsewhere: the pane lets go of it at the next refresh.
    std::unique_ptr<KillSandboxJob> kill(new KillSandboxJob(&m_network, m_settings, a));
    QVERIFY(runJob(kill.get()));
    QVERIFY(refreshWindow());
    QVERIFY(m_window->detailPane()->sandboxId().isEmpty());
}

void TestMainWindow::detailTabsLoadLogsAndProcesses()
{
    const QString a = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    LogsTab *logs = m_window->detailPane()->logsTab();
    QSignalSpy logsLoaded(logs, &DetailTab::loaded);
    m_window->detailPane()->tabs()->setCurrentWidget(logs);
    QVERIFY(logsLoaded.wait(kWait));
    QVERIFY2(logsLoaded.first().at(0).toBool(), qPrintable(logs->statusText()));
    QVERIFY(logs->table()->rowCount() >= 1); // at least the creation event

    ProcessesTab *processes = m_window->detailPane()->processesTab();
    QSignalSpy processesLoaded(processes, &DetailTab::loaded);
    m_window->detailPane()->tabs()->setCurrentWidget(processes);
    QVERIFY(processesLoaded.wait(kWait));
    QVERIFY2(processesLoaded.first().at(0).toBool(), qPrintable(processes->statusText()));
}

void TestMainWindow::metricsTabChartsBackendSamples()
{
    const QString a = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    auto *metrics = m_window->detailPane()->findChild<MetricsTab *>(QStringLiteral("metricsTab"));
    QVERIFY(metrics);
    auto *view = metrics->findChild<QChartView *>();
    QVERIFY(view);
    QLineSeries *cpu = nullptr;
    QLineSeries *memory = nullptr;
    for (QAbstractSeries *series : view->chart()->series()) {
        if (series->name() == QLatin1String("CPU %"))
            cpu = qobject_cast<QLineSeries *>(series);
        else if (series->name() == QLatin1String("Memory MiB"))
            memory = qobject_cast<QLineSeries *>(series);
    }
    QVERIFY(cpu && memory);

    QSignalSpy loaded(metrics, &DetailTab::loaded);
    m_window->detailPane()->tabs()->setCurrentWidget(metrics);
    QVERIFY(loaded.wait(kWait));
    QVERIFY2(loaded.first().at(0).toBool(), qPrintable(metrics->statusText()));

    // The backend samples every 5 s: press Refresh now and then until two samples show.
    QTimer poll;
    connect(&poll, &QTimer::timeout, metrics, &DetailTab::reload);
    poll.start(1000);
    QTRY_VERIFY_WITH_TIMEOUT(memory->count() >= 2, 60000);
    poll.stop();
    QCOMPARE(cpu->count(), memory->count());

    // The points are the endpoint's samples, in order.
    std::unique_ptr<SandboxMetricsJob> job(new SandboxMetricsJob(&m_network, m_settings, a));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    job->setInterval(now.addSecs(-3600), now.addSecs(60));
    QVERIFY(runJob(job.get()));
    const QList<SandboxMetric> samples = job->metrics();
    QVERIFY(samples.size() >= memory->count());
    for (int i = 0; i < memory->count(); ++i) {
        const double t = double(samples.at(i).timestamp.toMSecsSinceEpoch());
        QCOMPARE(cpu->at(i).x(), t);
        QCOMPARE(memory->at(i).x(), t);
        QVERIFY(qAbs(cpu->at(i).y() - samples.at(i).cpuUsedPct) < 1e-9);
        QVERIFY(qAbs(memory->at(i).y() - double(samples.at(i).memUsed) / (1024 * 1024)) < 1e-9);
    }
    // Nothing selected: the old points go.
    m_window->table()->clearSelection();
    QTRY_COMPARE_WITH_TIMEOUT(memory->count(), 0, kWait);
}

void TestMainWindow::killWithConfirmationRemovesOnBackend()
{
    const QString keep = createSandbox();
    const QString gone1 = createSandbox();
    const QString gone2 = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());

    QVERIFY(m_window->selectSandbox(gone1));
    const QModelIndex second = m_window->proxy()->mapFromSource(
        m_window->model()->index(m_window->model()->rowOf(gone2), 0));
    m_window->table()->selectionModel()->select(second, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(m_window->selectedIds().size(), 2);
    QVERIFY(m_window->killAction()->isEnabled());

    m_window->killAction()->trigger();
    auto *box = waitForDialog<QMessageBox>(QStringLiteral("killConfirmation"));
    QVERIFY(box);
    QVERIFY(box->informativeText().contains(gone1));
    QVERIFY(box->informativeText().contains(gone2));
    QVERIFY(!box->informativeText().contains(keep));
    auto *confirm = box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"));
    QVERIFY(confirm);

    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    confirm->click();
    QVERIFY(done.wait(kWait));
    QCOMPARE(backendIds(), QStringList{keep});
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), kWait); // the refresh that follows the action
    QCOMPARE(m_window->model()->rowCount(), 1);
    QVERIFY(m_window->model()->rowOf(keep) >= 0);
    QVERIFY(m_window->banner()->isHidden());
}

void TestMainWindow::cancelledKillKillsNothing()
{
    const QString a = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    m_window->killAction()->trigger();
    auto *box = waitForDialog<QMessageBox>(QStringLiteral("killConfirmation"));
    QVERIFY(box);
    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"))
                                 || m_window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"))->isHidden(),
                             kWait);
    QVERIFY(refreshWindow());
    QCOMPARE(done.count(), 0);
    QCOMPARE(backendIds(), QStringList{a});
    QCOMPARE(m_window->model()->rowCount(), 1);
}

void TestMainWindow::suspectedOrphansAreKilledOnlyWhenChosen()
{
    // What an old SDK leaves: an mcp-gateway sandbox of nobody's with no gateway.
    NewSandbox request;
    request.templateId = QStringLiteral("mcp-gateway");
    std::unique_ptr<CreateSandboxJob> create(new CreateSandboxJob(&m_network, m_settings, request));
    QVERIFY(runJob(create.get()));
    const QString leftover = create->sandbox().sandboxId;
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    m_window->session()->detector()->setGatewayGrace(std::chrono::seconds(0));
    QSignalSpy scanned(m_window.get(), &MainWindow::orphansScanned);
    m_window->refresh();
    QVERIFY(scanned.wait(kWait));
    QCOMPARE(scanned.last().at(0).toInt(), 1);
    const auto flag = m_window->model()->orphanFlag(leftover);
    QVERIFY(flag && flag->suspected);
    const QModelIndex cell = m_window->model()->index(m_window->model()->rowOf(leftover), SandboxTableModel::FlagColumn);
    QVERIFY(cell.data(Qt::AccessibleTextRole).toString().startsWith(QLatin1String("Suspected orphan")));
    // The State column and the detail pane say it is only suspected, and still running.
    const QModelIndex state = m_window->model()->index(
        m_window->model()->rowOf(leftover), SandboxTableModel::StateColumn);
    QCOMPARE(state.data().toString(), QStringLiteral("running · suspected orphan"));
    QVERIFY(m_window->table()->columnWidth(SandboxTableModel::StateColumn)
        > m_window->table()->fontMetrics().horizontalAdvance(state.data().toString()));
    QVERIFY(m_window->selectSandbox(leftover));
    QCOMPARE(m_window->detailPane()->fieldText(QStringLiteral("state")),
        QStringLiteral("running · suspected orphan"));
    // Started moments ago: not "up for 0 min".
    const QString evidence = m_window->detailPane()->fieldText(QStringLiteral("orphan"));
    QVERIFY2(evidence.contains(QLatin1String("up for less than a minute,")), qPrintable(evidence));
    QVERIFY2(!evidence.contains(QLatin1String("0 min")), qPrintable(evidence));

    // The bulk kill lists it apart, unchecked: confirming kills nothing.
    for (const bool include : {false, true}) {
        m_window->killOrphansAction()->trigger();
        auto *box = waitForDialog<QMessageBox>(QStringLiteral("killConfirmation"));
        QVERIFY(box);
        QVERIFY(box->informativeText().contains(QLatin1String("Suspected")));
        QVERIFY(box->informativeText().contains(leftover));
        QVERIFY(box->checkBox());
        QCOMPARE(box->checkBox()->objectName(), QStringLiteral("includeSuspected"));
        QVERIFY(!box->checkBox()->isChecked());
        // The question counts what Kill would kill, as the box is ticked and unticked.
        QCOMPARE(box->text(), QStringLiteral("No orphan is certainly ours; 1 is only suspected."));
        box->checkBox()->setChecked(true);
        QCOMPARE(box->text(), QStringLiteral("Kill 1 orphan sandbox(es)?"));
        box->checkBox()->setChecked(false);
        QCOMPARE(box->text(), QStringLiteral("No orphan is certainly ours; 1 is only suspected."));
        box->checkBox()->setChecked(include);
        QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
        QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
        box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
        if (include) {
            QVERIFY(done.wait(kWait));
            QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), kWait); // the refresh that follows
        } else {
            QVERIFY(refreshWindow());
        }
        QCOMPARE(backendIds(), include ? QStringList() : QStringList{leftover});
    }
}

void TestMainWindow::extendTimeout()
{
    const QString a = createSandbox(); // 600 s
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    m_window->extendAction()->trigger();
    auto *dialog = waitForDialog<QInputDialog>(QStringLiteral("extendDialog"));
    QVERIFY(dialog);
    // Offered: what is left (10 minutes, rounded up) and 15 more; at most the API's 24 hours.
    QVERIFY2(dialog->intValue() >= 24 && dialog->intValue() <= 25,
        qPrintable(QString::number(dialog->intValue())));
    QCOMPARE(dialog->intMaximum(), 24 * 60);
    dialog->setIntValue(90);
    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    dialog->accept();
    QVERIFY(done.wait(kWait));
    QVERIFY(refreshWindow());
    const Sandbox *s = m_window->model()->sandbox(a);
    QVERIFY(s);
    const qint64 left = QDateTime::currentDateTimeUtc().secsTo(s->endAt);
    QVERIFY2(left > 80 * 60 && left <= 90 * 60, qPrintable(QString::number(left)));
}

// Less than a sandbox has left shortens it: asked first, Cancel changes nothing.
void TestMainWindow::shorteningTimeoutAsksFirst()
{
    const QString a = createSandbox(); // 600 s
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    const auto timeLeft = [&] {
        std::unique_ptr<ListSandboxesJob> job(new ListSandboxesJob(&m_network, m_settings));
        if (!runJob(job.get()) || job->sandboxes().isEmpty())
            return qint64(-1);
        return QDateTime::currentDateTimeUtc().secsTo(job->sandboxes().constFirst().endAt);
    };
    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    for (const bool confirm : { false, true }) {
        m_window->extendAction()->trigger();
        auto *dialog = waitForDialog<QInputDialog>(QStringLiteral("extendDialog"));
        QVERIFY(dialog);
        dialog->setIntValue(2);
        dialog->accept();
        auto *box = waitForDialog<QMessageBox>(QStringLiteral("shortenConfirmation"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QLatin1String("shortens")), qPrintable(box->text()));
        QVERIFY(box->informativeText().contains(a));
        QCOMPARE(
            static_cast<QAbstractButton *>(box->defaultButton()), box->button(QMessageBox::Cancel));
        if (!confirm) {
            box->button(QMessageBox::Cancel)->click();
            QVERIFY(refreshWindow());
            QCOMPARE(done.count(), 0);
            QVERIFY2(timeLeft() > 5 * 60, qPrintable(QString::number(timeLeft())));
        } else {
            box->findChild<QPushButton *>(QStringLiteral("confirmShortenButton"))->click();
            QVERIFY(done.wait(kWait));
            const qint64 left = timeLeft();
            QVERIFY2(left > 0 && left <= 2 * 60, qPrintable(QString::number(left)));
        }
    }
}

void TestMainWindow::pauseAndResume()
{
    const QString a = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    QVERIFY(m_window->pauseAction()->isEnabled());
    QVERIFY(!m_window->resumeAction()->isEnabled());

    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    m_window->pauseAction()->trigger();
    QVERIFY(done.wait(kWait));
    QVERIFY(refreshWindow());
    QVERIFY(m_window->model()->sandbox(a)->state == SandboxState::Paused);
    const QModelIndex state = m_window->model()->index(m_window->model()->rowOf(a), SandboxTableModel::StateColumn);
    QCOMPARE(state.data().toString(), QStringLiteral("paused"));
    QVERIFY(m_window->resumeAction()->isEnabled());
    QVERIFY(!m_window->pauseAction()->isEnabled());
    QCOMPARE(m_window->selectedIds(), QStringList{a});

    done.clear();
    m_window->resumeAction()->trigger();
    QVERIFY(done.wait(kWait));
    QVERIFY(refreshWindow());
    QVERIFY(m_window->model()->sandbox(a)->state == SandboxState::Running);
}

void TestMainWindow::filterBar()
{
    const QString a = createSandbox({{"owner", "alice"}});
    const QString b = createSandbox({{"owner", "bob"}});
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    auto *edit = m_window->findChild<QLineEdit *>(QStringLiteral("filterEdit"));
    QVERIFY(edit);
    QTest::keyClicks(edit, QStringLiteral("owner=bob"));
    QCOMPARE(m_window->table()->model()->rowCount(), 1);
    QCOMPARE(m_window->table()->model()->index(0, 0).data(SandboxTableModel::SandboxIdRole).toString(), b);
    auto *status = m_window->findChild<QLabel *>(QStringLiteral("filterStatus"));
    auto *clear = m_window->findChild<QPushButton *>(QStringLiteral("clearFilterButton"));
    QVERIFY(status && clear);
    QVERIFY(status->isVisible());
    QCOMPARE(status->text(), QStringLiteral("Showing 1 of 2"));
    edit->clear();
    QCOMPARE(m_window->table()->model()->rowCount(), 2);
    QVERIFY(!status->isVisible());
    QVERIFY(!clear->isVisible());
    Q_UNUSED(a);

    // A filter that matches nothing says so, not "No sandboxes yet", and Clear brings all back.
    QTest::keyClicks(edit, QStringLiteral("no-such-sandbox"));
    auto *view = static_cast<SandboxTableView *>(m_window->table());
    QCOMPARE(view->model()->rowCount(), 0);
    QCOMPARE(view->placeholderText(), QStringLiteral("No sandbox matches the filter. Clear it to see all 2."));
    QCOMPARE(status->text(), QStringLiteral("Showing 0 of 2"));
    QVERIFY(clear->isVisible());
    clear->click();
    QVERIFY(edit->text().isEmpty());
    QCOMPARE(view->model()->rowCount(), 2);
    QVERIFY(!clear->isVisible());
}

// The menus a desktop user expects, with Quit outside the tray, and the headline
// actions with their text in the tool bar.
void TestMainWindow::menuBarHoldsEveryAction()
{
    m_window = makeWindow();
    QMenuBar *bar = m_window->menuBar();
    QStringList titles;
    for (QAction *menu : bar->actions())
        titles.append(menu->text());
    QCOMPARE(titles, (QStringList{QStringLiteral("&File"), QStringLiteral("&Sandbox"), QStringLiteral("&View"),
                                  QStringLiteral("&Help")}));
    const auto entries = [bar](int index) {
        QStringList texts;
        for (QAction *action : bar->actions().at(index)->menu()->actions()) {
            if (!action->isSeparator())
                texts.append(action->text());
        }
        return texts;
    };
    QCOMPARE(entries(0), (QStringList{QStringLiteral("&New sandbox…"), QStringLiteral("&Profiles…"), QStringLiteral("&Quit")}));
    QVERIFY(entries(1).contains(QStringLiteral("Kill all &orphans…")));
    QVERIFY(entries(1).contains(QStringLiteral("&Extend timeout…")));
    QVERIFY(entries(2).contains(QStringLiteral("Creations history")));
    QCOMPARE(entries(3), (QStringList{QStringLiteral("Session &log"), QStringLiteral("&About Sandbox Desk")}));
    auto *quit = m_window->findChild<QAction *>(QStringLiteral("quitAction"));
    QCOMPARE(quit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));

    auto *toolBar = m_window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    for (QAction *action : {m_window->killAction(), m_window->findChild<QAction *>(QStringLiteral("kill-orphansAction")),
                            m_window->findChild<QAction *>(QStringLiteral("extendAction"))}) {
        QVERIFY(action);
        auto *button = qobject_cast<QToolButton *>(toolBar->widgetForAction(action));
        QVERIFY(button);
        QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
    }
}

void TestMainWindow::staleBannerWhenBackendStops()
{
    const QString a = createSandbox();
    const QString b = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->banner()->isHidden());
    QVERIFY(m_window->selectSandbox(b));

    m_backend->stop();
    QVERIFY(!refreshWindow());
    QVERIFY(m_window->banner()->isVisible());
    QVERIFY2(m_window->banner()->text().contains(QStringLiteral("Could not refresh")),
             qPrintable(m_window->banner()->text()));
    // The error and the note on the list are two sentences.
    static const QRegularExpression staleNote(QStringLiteral(
        "[^.!?][.!?] Showing the list from \\d\\d:\\d\\d:\\d\\d, which may be out of date\\.$"));
    QVERIFY2(staleNote.match(m_window->banner()->text()).hasMatch(),
        qPrintable(m_window->banner()->text()));
    QCOMPARE(m_window->connectionState(), MainWindow::ConnectionState::Failed);
    // The last good list stays, marked stale, with the selection.
    QVERIFY(m_window->model()->isStale());
    QCOMPARE(m_window->model()->rowCount(), 2);
    QVERIFY(m_window->model()->rowOf(a) >= 0);
    QCOMPARE(m_window->selectedIds(), QStringList{b});
    const QModelIndex id = m_window->model()->index(0, SandboxTableModel::IdColumn);
    QVERIFY(!id.data(Qt::ForegroundRole).isNull());
}

void TestMainWindow::remembersRefreshInterval()
{
    {
        QSettings().clear();
        m_window = makeWindow(true);
        auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("intervalCombo"));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(30));
        QCOMPARE(m_window->refreshInterval(), 30);
        QVERIFY(m_window->isAutoRefreshActive());
        m_window->close();
        m_window.reset();
    }
    DesktopOptions options;
    options.localConnection = m_settings;
    options.journalDirectory = m_journalDir.path();
    MainWindow again(options);
    QCOMPARE(again.refreshInterval(), 30);
    // No secret reaches the settings file.
    QSettings settings;
    for (const QString &key : settings.allKeys())
        QVERIFY(!settings.value(key).toString().contains(m_settings.apiKey));
}

void TestMainWindow::switchesToACustomProfile()
{
    const QString a = createSandbox({{"owner", "custom"}});
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QCOMPARE(m_window->model()->rowCount(), 1);

    // A self-hosted profile pointing at the same backend; its key from E2B_API_KEY
    // (the keychain is not reachable in tests).
    QString problem;
    const QString id = m_window->profiles()->save(
        Profile::custom(QStringLiteral("Self-hosted test"), m_backend->url(), m_backend->url()), &problem);
    QVERIFY2(!id.isEmpty(), qPrintable(problem));
    qputenv("E2B_API_KEY", m_backend->apiKey().toUtf8());
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    m_window->switchProfile(id);
    QCOMPARE(m_window->model()->rowCount(), 0); // the old list is gone at once
    QVERIFY(refreshed.wait(kWait));
    qunsetenv("E2B_API_KEY");
    QVERIFY(refreshed.last().at(0).toBool());
    QCOMPARE(m_window->profileId(), id);
    QCOMPARE(m_window->model()->rowCount(), 1);
    QVERIFY(m_window->model()->rowOf(a) >= 0);
    auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("profileCombo"));
    QCOMPARE(combo->currentData().toString(), id);
    m_window->profiles()->remove(id);
}

void TestMainWindow::longProfileNameKeepsTheActionsInTheToolBar()
{
    // The profile exists when the window opens, as it does for the user who made it.
    const QString name
        = QStringLiteral("Self-hosted staging cluster in the Frankfurt data centre, B2");
    QCOMPARE(name.size(), 60);
    QString id;
    {
        QSettings settings;
        ProfileStore store(&settings);
        QString problem;
        id = store.save(Profile::custom(name, m_backend->url(), m_backend->url()), &problem);
        QVERIFY2(!id.isEmpty(), qPrintable(problem));
    }
    m_window = makeWindow();
    m_window->resize(1280, 760); // the window's default size
    QTRY_COMPARE(m_window->width(), 1280);
    auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("profileCombo"));
    QVERIFY(combo->findData(id) >= 0);
    auto *toolBar = m_window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    const auto actionsShown = [&]() -> bool {
        for (QAction *action :
            { m_window->newSandboxAction(), m_window->killAction(), m_window->killOrphansAction(),
                m_window->extendAction(), m_window->pauseAction(), m_window->resumeAction() }) {
            QWidget *button = toolBar->widgetForAction(action);
            if (!button || !button->isVisible()) {
                qWarning() << "not in the tool bar:" << action->text();
                return false;
            }
        }
        return true;
    };
    QVERIFY(actionsShown());

    // Chosen, the name shows cut short; the tool tip and the popup list hold it whole.
    m_window->switchProfile(id);
    QCOMPARE(combo->currentText(), name);
    QVERIFY(actionsShown());
    QVERIFY2(combo->width() < combo->fontMetrics().horizontalAdvance(name) / 2,
        qPrintable(QString::number(combo->width())));
    QVERIFY(combo->toolTip().contains(name));
    QVERIFY(combo->view()->minimumWidth() >= combo->view()->fontMetrics().horizontalAdvance(name));
    m_window->profiles()->remove(id);
}

void TestMainWindow::unreachableProfileIsNotAnEmptyAccount()
{
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    // A port that was free a moment ago: nothing listens there.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    const QString server = QStringLiteral("http://127.0.0.1:%1").arg(port);
    QString problem;
    const QString id = m_window->profiles()->save(
        Profile::custom(QStringLiteral("Closed port"), QUrl(server), QUrl(server)), &problem);
    QVERIFY2(!id.isEmpty(), qPrintable(problem));
    qputenv("E2B_API_KEY", m_backend->apiKey().toUtf8());
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    m_window->switchProfile(id);
    QVERIFY(refreshed.wait(kWait));
    qunsetenv("E2B_API_KEY");
    QVERIFY(!refreshed.last().at(0).toBool());

    // Not an empty account: the list says the server was not reached, and which one.
    const QString placeholder
        = static_cast<SandboxTableView *>(m_window->table())->placeholderText();
    QVERIFY2(
        placeholder.contains(QLatin1String("Could not reach ") + server), qPrintable(placeholder));
    QVERIFY(!placeholder.contains(QLatin1String("No sandboxes yet")));
    const QString counts = m_window->findChild<QLabel *>(QStringLiteral("countsLabel"))->text();
    QVERIFY2(!counts.contains(QLatin1String("running")), qPrintable(counts));
    QVERIFY(m_window->banner()->isVisible());
    QVERIFY2(m_window->banner()->text().contains(server), qPrintable(m_window->banner()->text()));

    // Back on a reachable profile, the usual words return.
    m_window->switchProfile(Profile::localId());
    QVERIFY(refreshed.wait(kWait));
    QCOMPARE(static_cast<SandboxTableView *>(m_window->table())->placeholderText(),
        QStringLiteral("No sandboxes yet."));
    QVERIFY(m_window->findChild<QLabel *>(QStringLiteral("countsLabel"))
                ->text()
                .contains(QLatin1String("0 running")));
    m_window->profiles()->remove(id);
}

void TestMainWindow::warnsWhileTheKeyTravelsUnencrypted()
{
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(!m_window->connectionWarning()->isVisible()); // loopback: nothing to say

    // 0.0.0.0 reaches this computer on Linux, but a URL naming it is not loopback:
    // the same rule as for any other host.
    QUrl elsewhere(m_backend->url());
    elsewhere.setHost(QStringLiteral("0.0.0.0"));
    QString problem;
    const QString id = m_window->profiles()->save(
        Profile::custom(QStringLiteral("Lab over http"), elsewhere, elsewhere), &problem);
    QVERIFY2(!id.isEmpty(), qPrintable(problem));
    qputenv("E2B_API_KEY", m_backend->apiKey().toUtf8());
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    m_window->switchProfile(id);
    QVERIFY(refreshed.wait(kWait));
    qunsetenv("E2B_API_KEY");
    QVERIFY(m_window->connectionWarning()->isVisible());
    QCOMPARE(m_window->connectionWarning()->text(),
        QStringLiteral(
            "The API key and the sandboxes' access tokens go to 0.0.0.0 unencrypted (http://): "
            "anyone on the network in between can read and use them. Use an https:// URL "
            "unless that network is yours alone."));
    QVERIFY(!m_window->connectionWarning()->text().contains(m_backend->apiKey()));

    // Back on a profile that keeps the key on this computer, the warning goes.
    m_window->switchProfile(m_window->profiles()->localProfile().id);
    QVERIFY(!m_window->connectionWarning()->isVisible());
    m_window->profiles()->remove(id);
}

// Whoever created a sandbox wrote its metadata: in the list and the detail pane a
// bidirectional override cannot reorder the text, nor a control character hide in it.
void TestMainWindow::metadataIsShownEscaped()
{
    const QString a = createSandbox({ { "owner", QStringLiteral("eve\u202egnp.exe\x1b[8m") } });
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    const QString shown = QStringLiteral("owner=eve\\u202egnp.exe\\x1b[8m");
    SandboxTableModel *model = m_window->model();
    QCOMPARE(
        model->index(model->rowOf(a), SandboxTableModel::MetadataColumn).data().toString(), shown);
    QVERIFY(m_window->selectSandbox(a));
    auto *table
        = m_window->detailPane()->findChild<QTableWidget *>(QStringLiteral("sandboxMetadata"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text() + QLatin1Char('=') + table->item(0, 1)->text(), shown);
}

// Time left reads as a duration, not as a time of day ("16:38:50"), in the table and
// the detail pane, and still sorts by the time itself.
void TestMainWindow::durationsReadAsDurations()
{
    const QString soon = createSandbox({}, 600);
    const QString later = createSandbox({}, 2 * 3600 + 120);
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    const QRegularExpression minutes(QStringLiteral("^(9 min [0-5][0-9]|10 min 00) s$"));
    const QRegularExpression hours(QStringLiteral("^2 h 0[12] min$"));
    SandboxTableModel *model = m_window->model();
    const auto timeLeft = [model](const QString &id) {
        return model->index(model->rowOf(id), SandboxTableModel::TimeLeftColumn).data().toString();
    };
    QVERIFY2(minutes.match(timeLeft(soon)).hasMatch(), qPrintable(timeLeft(soon)));
    QVERIFY2(hours.match(timeLeft(later)).hasMatch(), qPrintable(timeLeft(later)));
    QVERIFY(m_window->table()->columnWidth(SandboxTableModel::TimeLeftColumn)
        > m_window->table()->fontMetrics().horizontalAdvance(QStringLiteral("23 h 59 min")));
    QVERIFY(m_window->selectSandbox(later));
    const QString shown = m_window->detailPane()->fieldText(QStringLiteral("timeLeft"));
    QVERIFY2(hours.match(shown).hasMatch(), qPrintable(shown));
    QVERIFY(m_window->selectSandbox(soon));
    QVERIFY2(
        minutes.match(m_window->detailPane()->fieldText(QStringLiteral("timeLeft"))).hasMatch(),
        qPrintable(m_window->detailPane()->fieldText(QStringLiteral("timeLeft"))));

    // Sorted by the time left, not by its words ("2 h" before "9 min" as text).
    m_window->table()->sortByColumn(SandboxTableModel::TimeLeftColumn, Qt::AscendingOrder);
    QAbstractItemModel *shownRows = m_window->table()->model();
    QCOMPARE(shownRows->index(0, SandboxTableModel::IdColumn).data().toString(), soon);
    QCOMPARE(shownRows->index(1, SandboxTableModel::IdColumn).data().toString(), later);
}

// Created without the field: E2B allows internet access then, and the pane says so.
void TestMainWindow::detailPaneSaysWhatTheInternetDefaultIs()
{
    const QString a = createSandbox();
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    QCOMPARE(m_window->detailPane()->fieldText(QStringLiteral("internet")),
        QStringLiteral("allowed (default)"));
}

// A metadata value cut at the column's edge is whole on hover.
void TestMainWindow::longMetadataHasATooltip()
{
    const QString longValue
        = QStringLiteral("a <b>long</b> note ") + QString(300, QLatin1Char('x'));
    const QString a = createSandbox({ { "note", longValue } });
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    auto *table
        = m_window->detailPane()->findChild<QTableWidget *>(QStringLiteral("sandboxMetadata"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 1)->text(), longValue);
    // The whole value on hover, as text: its tags are not read as markup.
    const QString tip = table->item(0, 1)->toolTip();
    QVERIFY2(tip.contains(longValue.toHtmlEscaped()), qPrintable(tip));
    QVERIFY(!tip.contains(QLatin1String("<b>")));
    QVERIFY(table->item(0, 0)->toolTip().contains(QLatin1String("note")));
}

// A profile that fails before any list is asked for (no API key) does not show the
// empty account's words.
void TestMainWindow::profileWithoutKeyIsNotAnEmptyAccount()
{
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QString problem;
    const QString id
        = m_window->profiles()->save(Profile::custom(QStringLiteral("No key yet"),
                                         QUrl(m_backend->url()), QUrl(m_backend->url())),
            &problem);
    QVERIFY2(!id.isEmpty(), qPrintable(problem));
    const QByteArray savedKey = qgetenv("E2B_API_KEY");
    qunsetenv("E2B_API_KEY");
    QSignalSpy state(m_window.get(), &MainWindow::connectionStateChanged);
    m_window->switchProfile(id);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->connectionState() == MainWindow::ConnectionState::Failed, kWait);
    if (!savedKey.isEmpty())
        qputenv("E2B_API_KEY", savedKey);

    const QString placeholder
        = static_cast<SandboxTableView *>(m_window->table())->placeholderText();
    QVERIFY2(!placeholder.contains(QLatin1String("No sandboxes yet")), qPrintable(placeholder));
    QVERIFY2(placeholder.startsWith(QLatin1String("No list has been loaded. ")),
        qPrintable(placeholder));
    QVERIFY2(placeholder.contains(QLatin1String("API key")), qPrintable(placeholder));
    QVERIFY2(m_window->findChild<QLabel *>(QStringLiteral("countsLabel"))->text()
            == QLatin1String("No list loaded"),
        qPrintable(m_window->findChild<QLabel *>(QStringLiteral("countsLabel"))->text()));

    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    m_window->switchProfile(Profile::localId());
    QVERIFY(refreshed.wait(kWait));
    QCOMPARE(static_cast<SandboxTableView *>(m_window->table())->placeholderText(),
        QStringLiteral("No sandboxes yet."));
    m_window->profiles()->remove(id);
}

// A table layout saved when the State column's texts were shorter still shows
// "running · suspected orphan" whole once restored.
void TestMainWindow::savedNarrowStateColumnStillFits()
{
    QSettings().clear();
    {
        m_window = makeWindow(true);
        m_window->table()->setColumnWidth(SandboxTableModel::StateColumn, 100);
        m_window->table()->setColumnWidth(SandboxTableModel::TimeLeftColumn, 60);
        m_window->table()->setColumnWidth(SandboxTableModel::TemplateColumn, 150);
        m_window->close();
        m_window.reset();
    }
    m_window = makeWindow(true);
    QTableView *table = m_window->table();
    QVERIFY(table->columnWidth(SandboxTableModel::StateColumn)
        > table->fontMetrics().horizontalAdvance(QStringLiteral("running · suspected orphan")));
    QVERIFY(table->columnWidth(SandboxTableModel::TimeLeftColumn)
        > table->fontMetrics().horizontalAdvance(QStringLiteral("23 h 59 min")));
    // The rest of the saved layout stays as it was.
    QCOMPARE(table->columnWidth(SandboxTableModel::TemplateColumn), 150);
    m_window.reset();
    QSettings().clear();
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"

