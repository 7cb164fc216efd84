#include "api/sandboxjobs.h"
#include "creation/creationjob.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "network/networkaccessmanager.h"
#include "newsandboxdialog.h"
#include "trayicon.h"
#include "uitest.h"

#include <QAction>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace sd;

namespace {

constexpr int kWait = 30000;

QImage iconImage(const QIcon &icon)
{
    return icon.pixmap(32, 32).toImage().convertToFormat(QImage::Format_ARGB32);
}

QList<QAction *> menuEntries(QMenu *menu)
{
    QList<QAction *> entries;
    for (QAction *action : menu->actions()) {
        if (!action->isSeparator())
            entries.append(action);
    }
    return entries;
}

} // namespace

/// The tray icon's logic without a tray (offscreen has none): badge, tooltip, the
/// menu driving the window, and the notifications it asks for.
class TestTrayIcon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void menuActionsDriveTheWindow();
    void failedCreationBadgesAndNotifies();
    void quitSavesTheWindowAndCloses();

private:
    std::unique_ptr<MainWindow> makeWindow(bool rememberState = false);
    bool waitForRefresh();
    bool postFaults(const QJsonArray &rules);
    bool clearFaults();
    QStringList backendIds();

    sd::NetworkAccessManager m_network;
    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_settings;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_configDir;
    std::unique_ptr<QTemporaryDir> m_journalDir;
};

void TestTrayIcon::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_trayicon"));
}

void TestTrayIcon::init()
{
    QSettings().clear();
    m_backend = std::make_unique<test::LocalBackend>(QStringList{QStringLiteral("--fault-injection")});
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_settings = test::backendSettings(*m_backend);
    m_journalDir = std::make_unique<QTemporaryDir>();
}

void TestTrayIcon::cleanup()
{
    m_window.reset();
    m_backend.reset();
    m_journalDir.reset();
}

std::unique_ptr<MainWindow> TestTrayIcon::makeWindow(bool rememberState)
{
    return test::makeWindow(m_settings, m_journalDir->path(), rememberState);
}

bool TestTrayIcon::waitForRefresh()
{
    QSignalSpy refreshed(m_window.get(), &MainWindow::refreshed);
    return refreshed.wait(kWait) && refreshed.last().at(0).toBool();
}

bool TestTrayIcon::postFaults(const QJsonArray &rules)
{
    QNetworkRequest request(QUrl(m_backend->url().toString() + QStringLiteral("/_local/faults")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    std::unique_ptr<QNetworkReply> reply(
        m_network.post(request, QJsonDocument(QJsonObject{{QStringLiteral("rules"), rules}}).toJson()));
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    return done.wait(kWait) && reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
}

bool TestTrayIcon::clearFaults()
{
    QNetworkRequest request(QUrl(m_backend->url().toString() + QStringLiteral("/_local/faults")));
    request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    std::unique_ptr<QNetworkReply> reply(m_network.deleteResource(request));
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    return done.wait(kWait) && reply->error() == QNetworkReply::NoError;
}

QStringList TestTrayIcon::backendIds()
{
    std::unique_ptr<ListSandboxesJob> job(new ListSandboxesJob(&m_network, m_settings));
    if (!test::runJob(job.get(), kWait))
        return {QStringLiteral("<list failed>")};
    QStringList ids;
    for (const Sandbox &s : job->sandboxes())
        ids.append(s.sandboxId);
    return ids;
}

void TestTrayIcon::menuActionsDriveTheWindow()
{
    m_window = makeWindow();
    QVERIFY(waitForRefresh());
    TrayIcon *tray = m_window->trayIcon();
    QVERIFY(tray);
    QVERIFY(tray->menu());

    const QList<QAction *> entries = menuEntries(tray->menu());
    QStringList texts;
    for (QAction *action : entries)
        texts.append(action->text());
    QCOMPARE(texts, (QStringList{QStringLiteral("&Show Sandbox Desk"), QStringLiteral("&New sandbox…"),
                                 QStringLiteral("Kill all &orphans…"), QStringLiteral("&Quit")}));
    QCOMPARE(entries.at(0), tray->showAction());
    QCOMPARE(entries.at(1), m_window->newSandboxAction());
    QCOMPARE(entries.at(2), m_window->killOrphansAction());
    QCOMPARE(entries.at(3), tray->quitAction());
    // Nothing to kill yet: the entry follows the window's action.
    QVERIFY(!entries.at(2)->isEnabled());

    // Show brings a hidden window back.
    m_window->hide();
    QVERIFY(!m_window->isVisible());
    tray->showAction()->trigger();
    QVERIFY(m_window->isVisible());
    QVERIFY(!m_window->isMinimized());

    // New sandbox opens the dialog of the window.
    QVERIFY(entries.at(1)->isEnabled());
    entries.at(1)->trigger();
    NewSandboxDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_window->findChild<NewSandboxDialog *>()) && dialog->isVisible(), kWait);
    dialog->close();
}

void TestTrayIcon::failedCreationBadgesAndNotifies()
{
    // Extending fails and so does every kill: the rollback fails and leaves an orphan.
    QVERIFY(postFaults(QJsonArray{
        QJsonObject{{"method", "POST"}, {"path", "/sandboxes/*/timeout"}, {"action", "status"}, {"status", 500}},
        QJsonObject{{"method", "DELETE"}, {"path", "/sandboxes/*"}, {"action", "status"}, {"status", 500}},
    }));
    m_window = makeWindow();
    QVERIFY(waitForRefresh());
    TrayIcon *tray = m_window->trayIcon();
    QCOMPARE(tray->orphanCount(), 0);
    QCOMPARE(tray->toolTip(), QStringLiteral("Sandbox Desk"));
    const QImage plain = iconImage(tray->icon());
    QVERIFY(!plain.isNull());

    QSignalSpy notified(tray, &TrayIcon::notificationRequested);
    NewSandboxDialog *dialog = m_window->newSandbox();
    QVERIFY(dialog);
    QSignalSpy finished(dialog, &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    // The user has moved on: the failure must reach them as a notification.
    dialog->hide();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().at(1).toBool(), false);
    const QString id = dialog->job()->sandboxId();
    QVERIFY(!id.isEmpty());

    QTRY_VERIFY_WITH_TIMEOUT(notified.size() >= 1, kWait);
    QCOMPARE(notified.first().at(0).toString(), QStringLiteral("A sandbox creation failed"));
    QCOMPARE(notified.first().at(1).toString(), dialog->job()->errorMessage());
    QVERIFY(!notified.first().at(1).toString().isEmpty());

    // The orphan it left: a badge, the count in the tooltip, one more notification.
    QTRY_COMPARE_WITH_TIMEOUT(tray->orphanCount(), 1, kWait);
    QCOMPARE(tray->toolTip(), QStringLiteral("Sandbox Desk: 1 orphan(s)"));
    QVERIFY(iconImage(tray->icon()) != plain);
    QTRY_COMPARE_WITH_TIMEOUT(notified.size(), 2, kWait);
    QCOMPARE(notified.at(1).at(0).toString(), QStringLiteral("Orphan sandboxes found"));
    QVERIFY2(notified.at(1).at(1).toString().contains(id), qPrintable(notified.at(1).at(1).toString()));

    // A later scan with the same orphan is not news.
    QSignalSpy scanned(m_window.get(), &MainWindow::orphansScanned);
    m_window->refresh();
    QVERIFY(scanned.wait(kWait));
    QCOMPARE(notified.size(), 2);

    // The menu's "Kill all orphans" asks the window's confirmation and clears it.
    QVERIFY(clearFaults());
    QAction *killOrphans = menuEntries(tray->menu()).at(2);
    QVERIFY(killOrphans->isEnabled());
    killOrphans->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_window->findChild<QMessageBox *>(QStringLiteral("killConfirmation")))
                                 && box->isVisible(),
                             kWait);
    QVERIFY(box->informativeText().contains(id));
    QSignalSpy done(m_window.get(), &MainWindow::actionsFinished);
    box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
    QVERIFY(done.wait(kWait));
    QCOMPARE(backendIds(), QStringList());
    QTRY_COMPARE_WITH_TIMEOUT(tray->orphanCount(), 0, kWait);
    QCOMPARE(tray->toolTip(), QStringLiteral("Sandbox Desk"));
    QCOMPARE(iconImage(tray->icon()), plain);
}

void TestTrayIcon::quitSavesTheWindowAndCloses()
{
    m_window = makeWindow(true);
    QVERIFY(waitForRefresh());
    QVERIFY(!QSettings().contains(QStringLiteral("window/geometry")));
    m_window->trayIcon()->quitAction()->trigger();
    QVERIFY(!m_window->isVisible());
    // Closing went through the window, which saved its layout.
    QVERIFY(QSettings().contains(QStringLiteral("window/geometry")));
}

QTEST_MAIN(TestTrayIcon)
#include "tst_trayicon.moc"
