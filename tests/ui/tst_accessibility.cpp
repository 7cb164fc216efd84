// Every control of the main window and its dialogs has a name a screen reader can
// say and can be reached from the keyboard (issue: "every control has an accessible
// name and is reachable by keyboard").

#include "api/sandboxjobs.h"
#include "clilogin.h"
#include "historyview.h"
#include "journal/creationjournal.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "mcp/mcpcatalog.h"
#include "network/networkaccessmanager.h"
#include "newsandboxdialog.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profilesdialog.h"
#include "sessionlogview.h"
#include "uitest.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QAction>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableView>
#include <QTabWidget>
#include <QTest>
#include <QWidgetAction>
#include <QMainWindow>
#include <QTextEdit>
#include <QToolBar>
#include <QToolButton>

using namespace sd;

namespace {

constexpr int kWait = 20000;

bool isControl(const QWidget *w)
{
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLineEdit *>(w)
        || qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractSpinBox *>(w)
        || qobject_cast<const QAbstractItemView *>(w) || qobject_cast<const QPlainTextEdit *>(w)
        || qobject_cast<const QTextEdit *>(w) || qobject_cast<const QTabBar *>(w)
        || (qobject_cast<const QAbstractSlider *>(w) && !w->inherits("QScrollBar"));
}

// Parts of a composite control that the control itself names and focuses: the line
// edit inside a combo box or spin box, the header of a view, a line edit's clear
// button.
bool isPartOfAnother(const QWidget *w)
{
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (qobject_cast<const QComboBox *>(p) || qobject_cast<const QAbstractSpinBox *>(p)
            || qobject_cast<const QAbstractItemView *>(p) || qobject_cast<const QLineEdit *>(p))
            return true;
    }
    return false;
}

QString describe(const QWidget *w)
{
    QString text = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        text += QLatin1String(" \"") + w->objectName() + QLatin1Char('"');
    if (const auto *button = qobject_cast<const QAbstractButton *>(w); button && !button->text().isEmpty())
        text += QLatin1String(" text=") + button->text();
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (!p->objectName().isEmpty()) {
            text += QLatin1String(" in ") + p->objectName();
            break;
        }
    }
    return text;
}

// Toolbar buttons take no focus, as in every desktop application; their actions must
// then be reachable another way: a shortcut or the table's context menu.
// The actions of the window's menu bar, which Alt and the arrow keys reach.
QList<QAction *> menuBarActions(const QWidget *w)
{
    QList<QAction *> actions;
    const auto *window = qobject_cast<const QMainWindow *>(w->window());
    if (!window || !window->menuWidget())
        return actions;
    for (QAction *menu : window->menuWidget()->actions()) {
        if (menu->menu())
            actions += menu->menu()->actions();
    }
    return actions;
}

bool reachableWithoutFocus(const QWidget *w, const QList<QAction *> &contextActions)
{
    const auto *button = qobject_cast<const QToolButton *>(w);
    const auto *toolBar = qobject_cast<const QToolBar *>(w->parentWidget());
    if (!button || !toolBar)
        return false;
    const QList<QAction *> inMenus = menuBarActions(w);
    const auto reachable = [&](QAction *action) {
        return action
               && (!action->shortcut().isEmpty() || contextActions.contains(action) || inMenus.contains(action));
    };
    // The overflow button of a narrow tool bar only offers the tool bar's own actions.
    if (w->objectName() == QLatin1String("qt_toolbar_ext_button")) {
        for (QAction *action : toolBar->actions()) {
            if (!action->isSeparator() && !qobject_cast<QWidgetAction *>(action) && !reachable(action))
                return false;
        }
        return true;
    }
    return reachable(button->defaultAction());
}

// Every problem found under `root`, one line each; empty when all is well.
QStringList problems(QWidget *root, const QList<QAction *> &contextActions = {})
{
    QStringList found;
    int checked = 0;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(root) || !isControl(w) || isPartOfAnother(w))
            continue;
        ++checked;
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        const QString name = iface ? iface->text(QAccessible::Name).trimmed() : QString();
        if (name.isEmpty())
            found.append(QStringLiteral("no accessible name: ") + describe(w));
        if (!(w->focusPolicy() & Qt::TabFocus) && !reachableWithoutFocus(w, contextActions))
            found.append(QStringLiteral("not reachable by keyboard: ") + describe(w));
    }
    if (checked < 3)
        found.append(QStringLiteral("only %1 controls found under %2").arg(checked).arg(describe(root)));
    return found;
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void mainWindow();
    void newSandboxDialog();
    void profilesDialog();
    void sessionLogView();

private:
    sd::NetworkAccessManager m_network;
    test::LocalBackend m_backend;
    ConnectionSettings m_settings;
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
};

void TestAccessibility::initTestCase()
{
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_accessibility"));
    QVERIFY2(m_backend.start(), qPrintable(m_backend.errorString()));
    m_settings = test::backendSettings(m_backend);
}

void TestAccessibility::mainWindow()
{
    NewSandbox request;
    request.templateId = QStringLiteral("base");
    std::unique_ptr<CreateSandboxJob> create(new CreateSandboxJob(&m_network, m_settings, request));
    QVERIFY2(test::runJob(create.get(), kWait), qPrintable(create->error().message()));

    const auto shown = test::makeWindow(m_settings, m_journalDir.path());
    MainWindow &window = *shown;
    QSignalSpy refreshed(&window, &MainWindow::refreshed);
    if (!window.isRefreshing())
        window.refresh();
    QVERIFY(refreshed.wait(kWait));
    // With a sandbox selected the detail pane and its tabs show their controls too.
    QVERIFY(window.selectSandbox(create->sandbox().sandboxId));
    // The table's context menu, opened from the keyboard: the platform turns the Menu
    // key into a keyboard context-menu event for the focused widget (offscreen has no
    // keyboard, so the test sends that event itself).
    auto *table = window.findChild<QTableView *>();
    QVERIFY(table);
    const QPoint pos = table->viewport()->rect().center();
    QContextMenuEvent menuKey(QContextMenuEvent::Keyboard, pos, table->viewport()->mapToGlobal(pos));
    QCoreApplication::sendEvent(table->viewport(), &menuKey);
    QMenu *menu = nullptr;
    QVERIFY(QTest::qWaitFor([&] {
        const auto menus = window.findChildren<QMenu *>();
        for (QMenu *m : menus) {
            if (m->isVisible())
                menu = m;
        }
        return menu != nullptr;
    }, kWait));
    const QList<QAction *> contextActions = menu->actions();
    QVERIFY(contextActions.contains(window.pauseAction()));
    menu->close();
    const QStringList found = problems(&window, contextActions);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

void TestAccessibility::newSandboxDialog()
{
    CreationJournal journal(CreationJournal::filePathFor(m_journalDir.path(), QStringLiteral("a11y")));
    QVERIFY(journal.open());
    CreationContext context;
    context.network = &m_network;
    context.connection = m_settings;
    context.journal = &journal;
    context.installId = QStringLiteral("test-install");
    NewSandboxDialog dialog(context);
    dialog.show();
    QStringList found = problems(&dialog);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));

    // The option form of a server with a secret option, then every tab in turn.
    QString serverId;
    for (const McpServer &server : McpCatalog::instance().servers()) {
        const bool hasSecret = std::any_of(server.options.begin(), server.options.end(),
            [](const McpOption &option) { return option.secret; });
        if (hasSecret && server.options.size() >= 2) {
            serverId = server.id;
            break;
        }
    }
    QVERIFY(!serverId.isEmpty());
    QVERIFY(dialog.pickServer(serverId));
    for (QTabWidget *tabs : dialog.findChildren<QTabWidget *>()) {
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            found = problems(&dialog);
            QVERIFY2(found.isEmpty(),
                qPrintable(tabs->tabText(tab) + QLatin1String(": ") + found.join(QLatin1Char('\n'))));
        }
    }
}

void TestAccessibility::profilesDialog()
{
    QSettings settings(m_configDir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
    ProfileStore store(&settings);
    KeyStore keys;
    ProfilesDialog dialog(&store, &keys, &m_network);
    // With the E2B CLI logged in, so its offer is checked too.
    const QString cliLogin = m_configDir.filePath(QStringLiteral("home/.e2b/config.json"));
    QVERIFY(test::writeCliLogin(cliLogin,
        QJsonDocument(test::cliLoginJson(2, QStringLiteral("e2b_key"), QStringLiteral("token"))).toJson()));
    dialog.setCliLoginPath(cliLogin);
    dialog.show();
    QVERIFY(dialog.findChild<QWidget *>(QStringLiteral("importCliLoginButton"))->isVisible());
    const QStringList found = problems(&dialog);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

void TestAccessibility::sessionLogView()
{
    SessionLog log(100);
    log.append({ QDateTime::currentDateTime(), QStringLiteral("sd.api"), QtDebugMsg, QStringLiteral("GET /v2/sandboxes") });
    SessionLogView view(&log);
    view.show();
    QTRY_COMPARE(view.model()->rowCount(), 1);
    const QStringList found = problems(&view);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
