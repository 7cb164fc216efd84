#include "api/lifecyclejobs.h"
#include "api/sandboxjobs.h"
#include "detailpane.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "models/sandboxfilterproxymodel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace sd;

namespace {

constexpr int kWait = 20000;

// Runs a job to its end (tests may spin the event loop).
bool runJob(Job *job)
{
    job->setAutoDelete(false);
    QSignalSpy finished(job, &Job::finished);
    job->start();
    if (!finished.wait(kWait))
        return false;
    return !job->hasError();
}

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
    void killWithConfirmationRemovesOnBackend();
    void cancelledKillKillsNothing();
    void extendTimeout();
    void pauseAndResume();
    void filterBar();
    void staleBannerWhenBackendStops();
    void remembersRefreshInterval();

private:
    QString createSandbox(const Metadata &metadata = {});
    QStringList backendIds();
    bool refreshWindow();
    std::unique_ptr<MainWindow> makeWindow(bool rememberState = false);
    template<typename T>
    T *waitForDialog(const QString &objectName);

    QNetworkAccessManager m_network;
    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_settings;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_configDir;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    // QSettings goes to a folder of this test only.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_configDir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::init()
{
    m_backend = std::make_unique<test::LocalBackend>();
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_settings = ConnectionSettings();
    m_settings.apiUrl = m_backend->url();
    m_settings.sandboxUrl = m_backend->url();
    m_settings.domain.clear();
    m_settings.apiKey = m_backend->apiKey();
}

void TestMainWindow::cleanup()
{
    m_window.reset();
    m_backend.reset();
}

QString TestMainWindow::createSandbox(const Metadata &metadata)
{
    NewSandbox request;
    request.templateId = QStringLiteral("base");
    request.metadata = metadata;
    request.timeoutSeconds = 600;
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
    DesktopOptions options;
    options.localConnection = m_settings;
    options.rememberState = rememberState;
    auto window = std::make_unique<MainWindow>(options);
    window->setRefreshInterval(0); // the tests refresh when they want to
    window->resize(1200, 700);
    window->show();
    return window;
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

void TestMainWindow::extendTimeout()
{
    const QString a = createSandbox(); // 600 s
    m_window = makeWindow();
    QVERIFY(refreshWindow());
    QVERIFY(m_window->selectSandbox(a));
    m_window->extendAction()->trigger();
    auto *dialog = waitForDialog<QInputDialog>(QStringLiteral("extendDialog"));
    QVERIFY(dialog);
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
    edit->clear();
    QCOMPARE(m_window->table()->model()->rowCount(), 2);
    Q_UNUSED(a);
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
    MainWindow again(options);
    QCOMPARE(again.refreshInterval(), 30);
    // No secret reaches the settings file.
    QSettings settings;
    for (const QString &key : settings.allKeys())
        QVERIFY(!settings.value(key).toString().contains(m_settings.apiKey));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
