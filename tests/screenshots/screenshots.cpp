// The README's screenshots, made from the real window: starts its own
// sandbox-desk-local with fault injection, drives MainWindow and its dialogs to each
// state the README shows (a failed rollback, a refused kill, creations in the
// background...) and saves them to docs/screenshots. `make screenshots` runs it on a
// virtual X display with the xcb platform, so fonts and style are what a user sees;
// CTest never runs it.
//
// Everything it touches is its own: a temporary HOME and XDG folders (settings,
// journals, a fake E2B CLI login), a backend with a throwaway key, and keys that are
// obviously fake. Nothing reaches the keychain.

#include "../creation/creationtestutil.h"
#include "clilogin.h"
#include "common/translations.h"
#include "creationspanel.h"
#include "firstrunhint.h"
#include "historyview.h"
#include "keyvaluetable.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "newsandboxdialog.h"
#include "sessionlogview.h"

#include "api/lifecyclejobs.h"
#include "common/logging.h"
#include "common/sessionlog.h"
#include "profiles/e2bclilogin.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QCursor>
#include <QDir>
#include <QDockWidget>
#include <QHash>
#include <QHeaderView>
#include <QImageWriter>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

using namespace sd;
using sd::test::rule;

namespace {

constexpr int kWait = 60000;
// The window's size in the README's screenshots (the default), and a taller one for the history.
const QSize kWindowSize(1280, 760);
const QSize kHistoryWindowSize(1400, 900);

// Obviously fake: nothing here is anybody's key.
const QByteArray kFakeEnvironmentKey = QByteArrayLiteral("e2b_0000000000000000000000000000fake0000");
const QString kFakeCliKey = QStringLiteral("e2b_1111111111111111111111111111fake1111");
const QString kFakeCliToken = QStringLiteral("sk_e2b_fake_access_token_for_screenshots");

/// A state the run waits for did not come: the run stops with this message.
struct NotReached : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

void waitFor(const std::function<bool()> &reached, const char *what, int timeoutMs = kWait)
{
    if (!QTest::qWaitFor(reached, timeoutMs))
        throw NotReached(std::string("did not reach: ") + what);
}

/// A temporary HOME with its XDG folders, and none of the E2B variables: no setting,
/// journal, login or key of whoever runs this can show.
void isolateEnvironment(const QString &root)
{
    const QString home = root + QStringLiteral("/home");
    const QList<QPair<const char *, QString>> folders {
        { "HOME", home },
        { "XDG_CONFIG_HOME", home + QStringLiteral("/.config") },
        { "XDG_DATA_HOME", home + QStringLiteral("/.local/share") },
        { "XDG_STATE_HOME", home + QStringLiteral("/.local/state") },
        { "XDG_CACHE_HOME", home + QStringLiteral("/.cache") },
    };
    for (const auto &[name, path] : folders) {
        QDir().mkpath(path);
        qputenv(name, QFile::encodeName(path));
    }
    for (const char *name : { "E2B_API_KEY", "E2B_ACCESS_TOKEN", "E2B_DOMAIN", "E2B_API_URL", "E2B_SANDBOX_URL" })
        qunsetenv(name);
    // The session's Secret Service stays out of reach: no key is stored here.
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
}

class Screenshots
{
public:
    Screenshots(QString outputDirectory, QString root)
        : m_outputDirectory(std::move(outputDirectory))
        , m_root(std::move(root))
    { }

    void run()
    {
        if (!m_backend.start())
            throw NotReached("the local backend did not start");
        firstRun();
        cliLogin();
        QSettings().setValue(QStringLiteral("FirstRun/hintDone"), true);

        auto window = makeWindow();
        newSandboxDialog(window.get());
        failedCreation(window.get());
        seedSandboxes(window.get());
        mainWindow(window.get());
        menuBar(window.get());
        failedAction(window.get());
        creationsHistory(window.get());
        creationInBackground(window.get());
        sessionLog(window.get());
        m_backend.clearFaults();
    }

private:
    std::unique_ptr<MainWindow> makeWindow()
    {
        DesktopOptions options;
        // As the Local profile connects: no public domain, so no made-up MCP URLs.
        ConnectionSettings local = m_backend.settings();
        local.domain.clear();
        options.localConnection = local;
        options.rememberState = false;
        options.journalDirectory = m_root + QStringLiteral("/journals");
        // An MCP sandbox without its gateway is flagged at once, not after two minutes.
        options.gatewayGrace = std::chrono::seconds(0);
        auto window = std::make_unique<MainWindow>(options);
        window->move(0, 0);
        window->show();
        window->activateWindow();
        if (!QTest::qWaitForWindowActive(window.get(), 5000))
            std::fprintf(stderr, "screenshots: the window did not become active; it is drawn inactive\n");
        waitFor([&] { return window->lastGoodRefresh().isValid(); }, "the window's first refresh");
        return window;
    }

    /// Lets pending layouts and repaints happen, with the pointer out of the way.
    static void settle()
    {
        if (QScreen *screen = QGuiApplication::primaryScreen())
            QCursor::setPos(screen->geometry().bottomRight());
        QTest::qWait(200);
    }

    /// `widget` as drawn, with the windows in `above` (menus, message boxes) drawn over
    /// it where they are on the screen. There is no window manager to frame a dialog,
    /// so a dialog gets a thin border that sets it apart (menus draw their own).
    static QImage grab(QWidget *widget, const QList<QWidget *> &above = {})
    {
        settle();
        QPixmap shot = widget->grab();
        QPainter painter(&shot);
        const QPoint origin = widget->mapToGlobal(QPoint(0, 0));
        for (QWidget *window : above) {
            const QRect area(window->mapToGlobal(QPoint(0, 0)) - origin, window->size());
            painter.drawPixmap(area.topLeft(), window->grab());
            if (!qobject_cast<QMenu *>(window)) {
                painter.setPen(window->palette().color(QPalette::Shadow));
                painter.drawRect(area.adjusted(-1, -1, 0, 0));
            }
        }
        painter.end();
        return shot.toImage().convertToFormat(QImage::Format_RGB32);
    }

    static int distance(QRgb a, QRgb b)
    {
        const int dr = qRed(a) - qRed(b);
        const int dg = qGreen(a) - qGreen(b);
        const int db = qBlue(a) - qBlue(b);
        return dr * dr + dg * dg + db * db;
    }

    /// `image` with a palette of 256 colours: the most frequent colours, each further
    /// than `spread` from those before it, with the smallest spread that leaves no colour
    /// further than it from the palette. A window is flat colours and greys, so the
    /// common colours stay exact, a small red icon keeps its red, and only the edges of
    /// anti-aliased text move by a shade; the files (they are committed) halve.
    static QImage withPalette(const QImage &image)
    {
        QHash<QRgb, qint64> frequency;
        for (int y = 0; y < image.height(); ++y) {
            const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
            for (int x = 0; x < image.width(); ++x)
                ++frequency[line[x]];
        }
        QList<QRgb> colours = frequency.keys();
        std::sort(colours.begin(), colours.end(), [&](QRgb a, QRgb b) {
            return frequency.value(a) != frequency.value(b) ? frequency.value(a) > frequency.value(b) : a < b;
        });
        QList<QRgb> palette;
        for (int spread = 0;; spread += 2) {
            palette.clear();
            for (const QRgb colour : std::as_const(colours)) {
                const bool near = std::any_of(palette.cbegin(), palette.cend(),
                                              [&](QRgb chosen) { return distance(colour, chosen) <= spread * spread; });
                if (!near)
                    palette.append(colour);
                if (palette.size() > 256)
                    break;
            }
            if (palette.size() <= 256)
                break;
        }
        QHash<QRgb, uchar> index;
        for (const QRgb colour : std::as_const(colours)) {
            const auto nearest = std::min_element(palette.cbegin(), palette.cend(), [&](QRgb a, QRgb b) {
                return distance(colour, a) < distance(colour, b);
            });
            index.insert(colour, uchar(nearest - palette.cbegin()));
        }
        QImage indexed(image.size(), QImage::Format_Indexed8);
        indexed.setColorTable(palette);
        for (int y = 0; y < image.height(); ++y) {
            const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
            uchar *out = indexed.scanLine(y);
            for (int x = 0; x < image.width(); ++x)
                out[x] = index.value(line[x]);
        }
        return indexed;
    }

    void save(const QImage &shot, const QString &name)
    {
        const QString path = QDir(m_outputDirectory).filePath(name + QStringLiteral(".png"));
        const QImage image = withPalette(shot);
        QImageWriter writer(path, "png");
        writer.setQuality(0); // the smallest file: they are committed
        if (!writer.write(image))
            throw NotReached(qPrintable(QStringLiteral("could not write %1: %2").arg(path, writer.errorString())));
        std::printf("%s: %dx%d, %lld KiB\n", qPrintable(path), image.width(), image.height(),
                    QFileInfo(path).size() / 1024);
    }

    // The first launch with E2B_API_KEY set, on an empty list.
    void firstRun()
    {
        qputenv("E2B_API_KEY", kFakeEnvironmentKey);
        auto window = makeWindow();
        qunsetenv("E2B_API_KEY");
        waitFor([&] { return window->firstRunHint() && window->firstRunHint()->isVisible(); }, "the first-run hint");
        save(grab(window.get()), QStringLiteral("first-run"));
    }

    // The first launch with the E2B CLI logged in: its offer, and the question before
    // the key is copied.
    void cliLogin()
    {
        const QString path = E2bCliLogin::defaultPath();
        if (!test::writeCliLogin(path, QJsonDocument(test::cliLoginJson(2, kFakeCliKey, kFakeCliToken)).toJson()))
            throw NotReached("could not write the fake E2B CLI login");
        auto window = makeWindow();
        FirstRunHint *hint = window->firstRunHint();
        auto *use = hint ? hint->findChild<QToolButton *>(QStringLiteral("useCliLoginButton")) : nullptr;
        if (!use || !use->isVisible())
            throw NotReached("the first-run hint offers no E2B CLI login");
        use->click();
        QPointer<QMessageBox> question = hint->findChild<QMessageBox *>(QStringLiteral("cliLoginConfirmation"));
        waitFor([&] { return question && question->isVisible(); }, "the question about the CLI's key");
        save(grab(window.get(), { question.data() }), QStringLiteral("cli-login"));
        question->button(QMessageBox::Cancel)->click(); // nothing copied
        waitFor([&] { return !question; }, "the question to close");
        QFile::remove(path);
    }

    // The form: a server picked whose required option is still empty.
    void newSandboxDialog(MainWindow *window)
    {
        QPointer<NewSandboxDialog> dialog = window->newSandbox();
        if (!dialog)
            throw NotReached("no New sandbox dialog");
        dialog->findChild<QLineEdit *>(QStringLiteral("serverSearch"))->setText(QStringLiteral("github"));
        if (!dialog->pickServer(QStringLiteral("github")))
            throw NotReached("the github server is not in the catalog");
        waitFor([&] { return !dialog->canCreate(); }, "the missing option to be named");
        save(grab(dialog), QStringLiteral("new-sandbox-dialog"));
        dialog->reject();
        waitFor([&] { return !dialog; }, "the dialog to close");
    }

    // An MCP creation whose timeout call fails and whose rollback is refused: first
    // while the rollback runs, then its outcome. Its sandbox stays, a certain orphan.
    void failedCreation(MainWindow *window)
    {
        if (!m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                                        QStringLiteral("status"), 1, 500),
                                   rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"),
                                        QStringLiteral("status"), 100, 500) }))
            throw NotReached("the fault rules were refused");
        QPointer<NewSandboxDialog> dialog = window->newSandbox();
        if (!dialog)
            throw NotReached("no New sandbox dialog");
        dialog->findChild<KeyValueTable *>(QStringLiteral("metadataTable"))
            ->setEntries({ { QStringLiteral("owner"), QStringLiteral("dave") } });
        dialog->setMcpJson(QStringLiteral("{\"duckduckgo\": {}}"));
        waitFor([&] { return dialog->canCreate(); }, "a valid form");
        dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
        auto *steps = dialog->findChild<QListWidget *>(QStringLiteral("stepList"));
        auto *output = dialog->findChild<QPlainTextEdit *>(QStringLiteral("gatewayOutput"));
        waitFor(
            [&] {
                return !steps->findItems(displayName(CreationState::RollingBack), Qt::MatchExactly).isEmpty()
                    && !output->toPlainText().isEmpty();
            },
            "the rollback step", kWait);
        save(grab(dialog), QStringLiteral("creation-in-progress"));
        auto *outcome = dialog->findChild<MessageBanner *>(QStringLiteral("outcomeBanner"));
        waitFor([&] { return dialog->job()->isFinished() && outcome->isVisible(); }, "the end of the rollback");
        if (dialog->job()->state() != CreationState::RollbackFailed)
            throw NotReached("the rollback did not fail");
        m_certainOrphan = dialog->job()->sandboxId();
        save(grab(dialog), QStringLiteral("creation-failed"));
        m_backend.clearFaults();
        dialog->findChild<QPushButton *>(QStringLiteral("closeButton"))->click();
        waitFor([&] { return !dialog; }, "the dialog to close");
    }

    /// Runs a creation in `window`'s session to its end.
    std::unique_ptr<CreationJob> create(MainWindow *window, const CreationRequest &request)
    {
        auto job = std::make_unique<CreationJob>(window->session()->creationContext(), request);
        job->setAutoDelete(false);
        if (!test::runJob(job.get(), kWait))
            throw NotReached("a creation did not end");
        return job;
    }

    // What a list holds on a working day: other clients' sandboxes, a paused one, a
    // ready MCP gateway, a suspected orphan, and a creation whose gateway failed.
    void seedSandboxes(MainWindow *window)
    {
        m_alice = m_backend.createRaw(QStringLiteral("base"),
                                      { { QStringLiteral("owner"), QStringLiteral("alice") },
                                        { QStringLiteral("purpose"), QStringLiteral("ci-cache") } },
                                      1800)
                      .sandboxId;
        m_backend.createRaw(QStringLiteral("base"),
                            { { QStringLiteral("branch"), QStringLiteral("feature/login") },
                              { QStringLiteral("owner"), QStringLiteral("erin") } },
                            900);
        // Another client's MCP sandbox whose gateway never started, as older SDKs leave.
        m_suspectedOrphan = m_backend.createRaw(QStringLiteral("mcp-gateway"),
                                                { { QStringLiteral("owner"), QStringLiteral("bob") },
                                                  { QStringLiteral("project"), QStringLiteral("search-eval") } },
                                                3600)
                                .sandboxId;
        const QString paused = m_backend.createRaw(QStringLiteral("base"),
                                                   { { QStringLiteral("owner"), QStringLiteral("grace") } }, 600)
                                   .sandboxId;
        PauseSandboxJob pause(m_backend.network(), m_backend.settings(), paused);
        pause.setAutoDelete(false);
        if (!test::runJob(&pause) || pause.hasError())
            throw NotReached("the pause failed");

        CreationRequest gateway;
        gateway.timeoutSeconds = 3600;
        gateway.metadata = { { QStringLiteral("owner"), QStringLiteral("carol") },
                             { QStringLiteral("purpose"), QStringLiteral("research") } };
        gateway.mcp = QJsonObject { { QStringLiteral("duckduckgo"), QJsonObject {} } };
        if (create(window, gateway)->state() != CreationState::Ready)
            throw NotReached("the MCP creation did not become ready");

        // Created anyway with a required option missing: the gateway refuses to start
        // and the creation is rolled back, its stderr kept in the history.
        CreationRequest missingOption;
        missingOption.templateId = QStringLiteral("mcp-gateway");
        missingOption.force = true;
        missingOption.mcp = QJsonObject { { QStringLiteral("browserbase"),
                                            QJsonObject { { QStringLiteral("apiKey"), QStringLiteral("bb_fake_key") },
                                                          { QStringLiteral("projectId"), QStringLiteral("proj-1") } } } };
        const auto failed = create(window, missingOption);
        if (failed->state() != CreationState::RolledBack)
            throw NotReached("the creation with a missing option was not rolled back");
        m_failedCreation = failed->creationId();

        window->refresh();
        waitFor(
            [&] {
                return window->model()->orphanFlag(m_certainOrphan) && window->model()->orphanFlag(m_suspectedOrphan)
                    && !window->isRefreshing();
            },
            "both orphans flagged");
    }

    // The list with both kinds of orphan, the certain one's details beside it.
    void mainWindow(MainWindow *window)
    {
        if (!window->selectSandbox(m_certainOrphan))
            throw NotReached("the orphan is not listed");
        save(grab(window), QStringLiteral("main-window"));
    }

    // The Sandbox menu open over the list.
    void menuBar(MainWindow *window)
    {
        if (!window->selectSandbox(m_alice))
            throw NotReached("alice's sandbox is not listed");
        QMenu *menu = nullptr;
        for (QAction *action : window->menuBar()->actions()) {
            if (action->menu() && action->menu()->actions().contains(window->killAction()))
                menu = action->menu();
        }
        if (!menu)
            throw NotReached("no Sandbox menu");
        window->menuBar()->setActiveAction(menu->menuAction());
        waitFor([&] { return menu->isVisible(); }, "the Sandbox menu");
        menu->setActiveAction(window->killAction());
        save(grab(window, { menu }), QStringLiteral("menu-bar"));
        menu->hide();
        waitFor([&] { return !menu->isVisible(); }, "the menu to close");
    }

    // A kill the server refuses, with Retry, above the list.
    void failedAction(MainWindow *window)
    {
        if (!m_backend.setFaults(
                { rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"), QStringLiteral("status"), 1, 500) }))
            throw NotReached("the fault rule was refused");
        if (!window->selectSandbox(m_alice))
            throw NotReached("alice's sandbox is not listed");
        QSignalSpy finished(window, &MainWindow::actionsFinished);
        QSignalSpy refreshed(window, &MainWindow::refreshed);
        window->killAction()->trigger();
        auto *confirmation = window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"));
        if (!confirmation)
            throw NotReached("no kill confirmation");
        confirmation->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
        waitFor([&] { return !finished.isEmpty(); }, "the kill to end");
        // The refresh after it, which must not hide the failure.
        refreshed.clear();
        waitFor([&] { return !refreshed.isEmpty(); }, "the refresh after the kill");
        if (!window->actionBanner()->isVisible())
            throw NotReached("the refused kill is not shown");
        save(grab(window), QStringLiteral("failed-action"));
        window->actionBanner()->hide();
        m_backend.clearFaults();
    }

    // Two creations held in their timeout step, sent to the background from the dialog.
    void creationInBackground(MainWindow *window)
    {
        if (!m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                                        QStringLiteral("delay"), 2, 0, 30000) }))
            throw NotReached("the fault rule was refused");
        QStringList creations;
        QStringList sandboxes;
        for (const bool withGateway : { false, true }) {
            QPointer<NewSandboxDialog> dialog = window->newSandbox();
            if (!dialog)
                throw NotReached("no New sandbox dialog");
            if (withGateway)
                dialog->setMcpJson(QStringLiteral("{\"duckduckgo\": {}}"));
            dialog->findChild<KeyValueTable *>(QStringLiteral("metadataTable"))
                ->setEntries({ { QStringLiteral("team"), QStringLiteral("data") } });
            waitFor([&] { return dialog->canCreate(); }, "a valid form");
            dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
            waitFor([&] { return dialog->job()->state() == CreationState::Extending; }, "the timeout step");
            creations << dialog->job()->creationId();
            sandboxes << dialog->job()->sandboxId();
            dialog->findChild<QPushButton *>(QStringLiteral("backgroundButton"))->click();
        }
        CreationsPanel *panel = window->creationsPanel();
        waitFor(
            [&] {
                for (const QString &id : std::as_const(creations)) {
                    QTreeWidgetItem *row = panel->row(id);
                    if (!row || row->text(CreationsPanel::StepColumn) != displayName(CreationState::Extending))
                        return false;
                }
                for (const QString &id : std::as_const(sandboxes)) {
                    if (window->model()->rowOf(id) < 0)
                        return false;
                }
                return !window->isRefreshing();
            },
            "both creations above the list");
        window->table()->clearSelection();
        save(grab(window), QStringLiteral("creation-in-background"));
        for (const QString &id : std::as_const(creations))
            panel->cancel(id);
        waitFor([&] { return !panel->isVisible(); }, "the cancelled creations to end");
        m_backend.clearFaults();
    }

    // The history with the rolled-back creation's timeline, its stderr searched.
    void creationsHistory(MainWindow *window)
    {
        window->resize(kHistoryWindowSize);
        auto *dock = window->findChild<QDockWidget *>(QStringLiteral("historyDock"));
        dock->show();
        window->resizeDocks({ dock }, { kHistoryWindowSize.height() * 6 / 10 }, Qt::Vertical);
        CreationHistoryView *history = window->historyView();
        waitFor([&] { return history->select(m_failedCreation); }, "the failed creation in the history");
        window->table()->clearSelection();
        window->statusBar()->clearMessage();
        // Wide enough for every column of the list, as a user drags it.
        for (auto *splitter : history->findChildren<QSplitter *>(Qt::FindDirectChildrenOnly)) {
            if (splitter->orientation() != Qt::Horizontal)
                continue;
            const int listWidth = history->list()->header()->length() + 2 * history->list()->frameWidth()
                + history->list()->verticalScrollBar()->sizeHint().width();
            const QList<int> sizes = splitter->sizes();
            splitter->setSizes({ listWidth, sizes.value(0) + sizes.value(1) - listWidth });
        }
        history->searchField()->setText(QStringLiteral("geminiApiKey"));
        if (!history->find())
            throw NotReached("the gateway's stderr does not name the missing option");
        save(grab(window), QStringLiteral("creations-history"));
        dock->hide();
        window->resize(kWindowSize);
    }

    // Help > Session log after all of the above.
    void sessionLog(MainWindow *window)
    {
        window->findChild<QAction *>(QStringLiteral("sessionLogAction"))->trigger();
        QPointer<SessionLogView> view = window->findChild<SessionLogView *>(QStringLiteral("sessionLogView"));
        waitFor([&] { return view && view->isVisible() && view->model()->rowCount() > 0; }, "the session log");
        save(grab(view), QStringLiteral("session-log"));
        view->close();
    }

    test::FaultBackend m_backend;
    QString m_outputDirectory;
    QString m_root;
    QString m_certainOrphan;
    QString m_suspectedOrphan;
    QString m_alice;
    QString m_failedCreation;
};

} // namespace

int main(int argc, char **argv)
{
    QTemporaryDir root(QDir::tempPath() + QStringLiteral("/sandbox-desk-screenshots-XXXXXX"));
    if (!root.isValid()) {
        std::fprintf(stderr, "screenshots: no temporary folder\n");
        return 1;
    }
    isolateEnvironment(root.path());
    QApplication app(argc, argv);
    // Before anything logs, as the app does: the Session log shows this run's messages.
    SessionLog::install();
    // As `sandbox-desk --verbose`: the Session log shows the debug messages too.
    enableVerboseLogging();
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Sandbox Desk"));
    // English, with its plural forms, whatever the machine's language.
    installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Makes the README's screenshots of the real window."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("folder"), QStringLiteral("where the PNGs go (default: docs/screenshots)"));
    parser.process(app);
    const QString folder = parser.positionalArguments().value(0, QStringLiteral(SD_SCREENSHOTS_DIR));
    if (QGuiApplication::platformName() != QLatin1String("xcb"))
        std::fprintf(stderr, "screenshots: on the %s platform, not xcb: fonts and style may differ from the app's\n",
                     qPrintable(QGuiApplication::platformName()));
    if (!QDir().mkpath(folder)) {
        std::fprintf(stderr, "screenshots: cannot make %s\n", qPrintable(folder));
        return 1;
    }
    try {
        Screenshots(folder, root.path()).run();
    } catch (const NotReached &error) {
        std::fprintf(stderr, "screenshots: %s\n", error.what());
        return 1;
    }
    return 0;
}
