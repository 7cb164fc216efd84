#include "mainwindow.h"

#include "common/logging.h"
#include "creation/creationregistry.h"
#include "session/session.h"

#include "api/infojobs.h"
#include "api/lifecyclejobs.h"
#include "api/sandboxjobs.h"
#include "creation/installation.h"
#include "creationspanel.h"
#include "detailpane.h"
#include "firstrunhint.h"
#include "historyview.h"
#include "icons.h"
#include "journal/creationjournal.h"
#include "messagebanner.h"
#include "models/sandboxfilterproxymodel.h"
#include "network/networkaccessmanager.h"
#include "newsandboxdialog.h"
#include "orphans/orphandetector.h"
#include "profiles/e2bclilogin.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/resolveprofilejob.h"
#include "profilesdialog.h"
#include "sandboxtableview.h"
#include "session/localbackendstarter.h"
#include "sessionlogview.h"
#include "trayicon.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sd {

namespace {

constexpr int kIntervals[] = {0, 5, 15, 30, 60};
constexpr int kDefaultInterval = 5;
constexpr int kMaxIdsListed = 15;
constexpr int kResumeTimeoutSeconds = 300;
// The profile box's widest, in characters: a long profile name must not push the
// sandbox actions into the tool bar's overflow menu.
constexpr int kProfileComboChars = 28;

// A combo box that elides its current text when capped narrower than it; the popup
// list and the tool tip keep the whole name.
class ElidingComboBox : public QComboBox
{
public:
    using QComboBox::QComboBox;

protected:
    void paintEvent(QPaintEvent *) override
    {
        QStylePainter painter(this);
        painter.setPen(palette().color(QPalette::Text));
        QStyleOptionComboBox option;
        initStyleOption(&option);
        painter.drawComplexControl(QStyle::CC_ComboBox, option);
        const QRect field = style()->subControlRect(
            QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
        option.currentText
            = fontMetrics().elidedText(option.currentText, Qt::ElideRight, field.width() - 2);
        painter.drawControl(QStyle::CE_ComboBoxLabel, option);
    }
};

QString idList(const QStringList &ids)
{
    QStringList shown = ids.mid(0, kMaxIdsListed);
    QString text = shown.join(QLatin1Char('\n'));
    if (ids.size() > kMaxIdsListed)
        text += QLatin1Char('\n') + MainWindow::tr("… and %n more", nullptr, int(ids.size() - kMaxIdsListed));
    return text;
}

QString orphanReasonText(OrphanReason reason)
{
    switch (reason) {
    case OrphanReason::RollbackFailed:
        return MainWindow::tr("The rollback of a failed creation could not kill it");
    case OrphanReason::Interrupted:
        return MainWindow::tr("Its creation was interrupted before it finished");
    case OrphanReason::LostResponse:
        return MainWindow::tr("Created by a request whose answer was lost");
    case OrphanReason::GatewayDown:
        return MainWindow::tr("Its MCP gateway is not running");
    }
    return {};
}

// Where a request went, for a message that must say which server did not answer:
// scheme://host:port, the port said even when it is the scheme's default.
QString serverOrigin(const QUrl &url)
{
    QUrl origin;
    origin.setScheme(url.scheme());
    origin.setHost(url.host());
    origin.setPort(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
    return origin.toString();
}

} // namespace

MainWindow::MainWindow(DesktopOptions options, QWidget *parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
    , m_network(new NetworkAccessManager(this))
    , m_model(new SandboxTableModel(this))
    , m_proxy(new SandboxFilterProxyModel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Sandbox Desk"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/sandbox-desk.svg")));
    m_proxy->setSourceModel(m_model);
    m_settings = new QSettings(this);
    m_profiles = new ProfileStore(m_settings, this);
    m_keys = new KeyStore(this);
    m_profileId = Profile::localId();

    createActions();
    createToolBar();
    createCentralWidget();
    createStatusBar();

    m_autoRefresh.setTimerType(Qt::CoarseTimer);
    connect(&m_autoRefresh, &QTimer::timeout, this, &MainWindow::refresh);

    m_history = new CreationHistoryView(this);
    m_historyDock = new QDockWidget(tr("Creations history"), this);
    m_historyDock->setObjectName(QStringLiteral("historyDock"));
    m_historyDock->setWidget(m_history);
    m_historyDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_historyDock);
    m_historyDock->hide();
    QAction *historyAction = m_historyDock->toggleViewAction();
    historyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    historyAction->setIcon(themedIcon(QStringLiteral("history"), palette()));
    historyAction->setToolTip(tr("Show every creation and how it ended (Ctrl+H)"));
    m_toolBar->addSeparator();
    m_toolBar->addAction(historyAction);
    createMenuBar(historyAction);

    restoreState();
    updateActions();
    m_tray = new TrayIcon(this);
    connectProfile();
}

MainWindow::~MainWindow()
{
    // Open dialogs hold creation jobs that write to m_journal: they go first.
    qDeleteAll(findChildren<NewSandboxDialog *>(Qt::FindDirectChildrenOnly));
    if (m_scanJob)
        m_scanJob->disconnect(this);
    // Jobs are children of this window; stop them before the models they feed go.
    for (Job *job : std::as_const(m_actionJobs))
        job->disconnect(this);
    if (m_refreshJob)
        m_refreshJob->disconnect(this);
    if (m_connectJob)
        m_connectJob->disconnect(this);
    // Jobs still running hold replies that m_network owns; children are deleted in
    // the order they were made, the network first, so the jobs go now. A job may own
    // others: guard against deleting one twice.
    const QList<Job *> jobs = findChildren<Job *>();
    const QList<QPointer<Job>> guarded(jobs.cbegin(), jobs.cend());
    for (const QPointer<Job> &job : guarded)
        delete job.data();
}

void MainWindow::createActions()
{
    const QPalette pal = palette();
    const auto make = [this, &pal](const char *icon, const QString &text, const QKeySequence &shortcut,
                                   const QString &tip) {
        auto *action = new QAction(themedIcon(QLatin1String(icon), pal), text, this);
        action->setObjectName(QLatin1String(icon) + QStringLiteral("Action"));
        if (!shortcut.isEmpty()) {
            action->setShortcut(shortcut);
            action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, shortcut.toString(QKeySequence::NativeText)));
        } else {
            action->setToolTip(tip);
        }
        addAction(action);
        return action;
    };
    m_refreshAction = make("refresh", tr("&Refresh"), QKeySequence(Qt::Key_F5), tr("Refresh the list now"));
    m_newAction = make("new", tr("&New sandbox…"), QKeySequence(Qt::CTRL | Qt::Key_N),
                       tr("Create a sandbox"));
    m_killAction = make("kill", tr("&Kill…"), QKeySequence(Qt::Key_Delete), tr("Kill the selected sandboxes"));
    m_killOrphansAction = make("kill-orphans", tr("Kill all &orphans…"),
                               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete),
                               tr("Kill every sandbox flagged as an orphan"));
    m_extendAction = make("extend", tr("&Extend timeout…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                          tr("Give the selected sandboxes more time"));
    m_pauseAction = make("pause", tr("&Pause"), {}, tr("Pause the selected sandboxes"));
    m_resumeAction = make("resume", tr("Res&ume"), {}, tr("Resume the selected sandboxes"));
    m_copyIdAction = make("copy", tr("&Copy ID"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                          tr("Copy the selected sandbox IDs"));
    m_copyMcpAction = make("link", tr("Copy &MCP URL"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
                           tr("Copy the MCP gateway URL of the selected sandbox"));
    m_findAction = make("filter", tr("&Find"), QKeySequence::Find, tr("Filter the list"));
    m_retryAction = new QAction(tr("Retry"), this);
    // Ctrl+Q quits the way the tray's Quit does: running creations are rolled back first.
    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setObjectName(QStringLiteral("quitAction"));
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    addAction(m_quitAction);
    connect(m_quitAction, &QAction::triggered, this, &MainWindow::quit);

    connect(m_newAction, &QAction::triggered, this, &MainWindow::newSandbox);

    connect(m_refreshAction, &QAction::triggered, this, &MainWindow::refresh);
    connect(m_retryAction, &QAction::triggered, this, [this] {
        if (m_connected)
            refresh();
        else
            connectProfile();
    });
    connect(m_killAction, &QAction::triggered, this, [this] {
        confirmKill(selectedIds(), tr("Kill sandboxes"));
    });
    connect(m_killOrphansAction, &QAction::triggered, this, &MainWindow::killAllOrphans);
    connect(m_extendAction, &QAction::triggered, this, &MainWindow::extendSelected);
    connect(m_pauseAction, &QAction::triggered, this, [this] {
        const QStringList ids = selectedIds();
        runOnSandboxes(ids, tr("Pausing %n sandbox(es)…", nullptr, int(ids.size())), tr("%1 of %2 pauses failed: %3"), [this](const QString &id) {
            return new PauseSandboxJob(m_network, m_connection, id, this);
        });
        m_actionDoneText = tr("Paused %n sandbox(es).", nullptr, int(ids.size()));
    });
    connect(m_resumeAction, &QAction::triggered, this, [this] {
        const QStringList ids = selectedIds();
        runOnSandboxes(ids, tr("Resuming %n sandbox(es)…", nullptr, int(ids.size())), tr("%1 of %2 resumes failed: %3"), [this](const QString &id) {
            // Connect resumes and never shortens the time left.
            return new ConnectSandboxJob(m_network, m_connection, id, kResumeTimeoutSeconds, this);
        });
        m_actionDoneText = tr("Resumed %n sandbox(es).", nullptr, int(ids.size()));
    });
    connect(m_copyIdAction, &QAction::triggered, this, [this] {
        copyToClipboard(selectedIds().join(QLatin1Char('\n')), tr("ID"));
    });
    connect(m_copyMcpAction, &QAction::triggered, this, [this] {
        QStringList urls;
        for (const QString &id : selectedIds()) {
            if (const Sandbox *s = m_model->sandbox(id)) {
                if (const QString url = sandboxMcpUrl(m_connection, *s); !url.isEmpty())
                    urls.append(url);
            }
        }
        if (urls.isEmpty())
            statusBar()->showMessage(tr("These sandboxes have no public MCP URL."), 5000);
        copyToClipboard(urls.join(QLatin1Char('\n')), tr("MCP URL"));
    });
}

void MainWindow::createToolBar()
{
    auto *toolBar = addToolBar(tr("Main"));
    m_toolBar = toolBar;
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setMovable(false);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_profileCombo = new ElidingComboBox(toolBar);
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    m_profileCombo->setAccessibleName(tr("Profile"));
    m_profileCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_profileCombo->setMaximumWidth(
        m_profileCombo->fontMetrics().averageCharWidth() * kProfileComboChars);
    fillProfileCombo();
    connect(m_profileCombo, &QComboBox::activated, this, &MainWindow::onProfileActivated);
    auto *profileLabel = new QLabel(tr("&Profile:"), toolBar);
    profileLabel->setBuddy(m_profileCombo);
    profileLabel->setContentsMargins(4, 0, 4, 0);
    toolBar->addWidget(profileLabel);
    toolBar->addWidget(m_profileCombo);
    toolBar->addSeparator();

    toolBar->addAction(m_refreshAction);
    m_intervalCombo = new QComboBox(toolBar);
    m_intervalCombo->setObjectName(QStringLiteral("intervalCombo"));
    m_intervalCombo->setAccessibleName(tr("Auto-refresh interval"));
    m_intervalCombo->setToolTip(tr("Refresh the list automatically (paused while minimised)"));
    for (int seconds : kIntervals)
        m_intervalCombo->addItem(seconds == 0 ? tr("Auto-refresh off") : tr("Every %1 s").arg(seconds), seconds);
    m_intervalCombo->setCurrentIndex(m_intervalCombo->findData(kDefaultInterval));
    connect(m_intervalCombo, &QComboBox::currentIndexChanged, this, [this] { updateAutoRefresh(); });
    toolBar->addWidget(m_intervalCombo);
    toolBar->addSeparator();

    toolBar->addAction(m_newAction);
    toolBar->addAction(m_killAction);
    toolBar->addAction(m_killOrphansAction);
    toolBar->addAction(m_extendAction);
    toolBar->addAction(m_pauseAction);
    toolBar->addAction(m_resumeAction);
    toolBar->addSeparator();
    toolBar->addAction(m_copyIdAction);
    toolBar->addAction(m_copyMcpAction);
    // Where a narrow window puts what does not fit; every action is in the menus too.
    if (auto *more = toolBar->findChild<QToolButton *>(QStringLiteral("qt_toolbar_ext_button")))
        more->setAccessibleName(tr("More tool bar actions"));
    // The copy actions are secondary: icons only, so the headline actions keep their text.
    for (QAction *action : {m_copyIdAction, m_copyMcpAction}) {
        if (auto *button = qobject_cast<QToolButton *>(toolBar->widgetForAction(action)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
}

void MainWindow::createMenuBar(QAction *historyAction)
{
    // What a desktop user looks for first: every action, with its shortcut, in menus.
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    QAction *profiles = file->addAction(tr("&Profiles…"), this, &MainWindow::manageProfiles);
    profiles->setObjectName(QStringLiteral("profilesAction"));
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *sandbox = menuBar()->addMenu(tr("&Sandbox"));
    for (QAction *action : {m_killAction, m_killOrphansAction, m_extendAction, m_pauseAction, m_resumeAction})
        sandbox->addAction(action);
    sandbox->addSeparator();
    sandbox->addAction(m_copyIdAction);
    sandbox->addAction(m_copyMcpAction);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_refreshAction);
    view->addAction(m_findAction);
    view->addAction(historyAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *sessionLog = help->addAction(tr("Session &log"), this, &MainWindow::showSessionLog);
    sessionLog->setObjectName(QStringLiteral("sessionLogAction"));
    sessionLog->setToolTip(tr("This session's messages, to copy into a bug report"));
    QAction *about = help->addAction(tr("&About Sandbox Desk"), this, [this] {
        auto *box = new QMessageBox(QMessageBox::Information, tr("About Sandbox Desk"),
                                    tr("Sandbox Desk %1\n\nCreate, list and clean up E2B sandboxes, with every failed "
                                       "creation rolled back and every orphan flagged.")
                                        .arg(QCoreApplication::applicationVersion()),
                                    QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("aboutBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    about->setObjectName(QStringLiteral("aboutAction"));
}

void MainWindow::createCentralWidget()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);

    m_banner = new MessageBanner(central);
    m_banner->addAction(m_retryAction);
    m_banner->hide();
    layout->addWidget(m_banner);

    m_connectionWarning = new MessageBanner(central);
    m_connectionWarning->setObjectName(QStringLiteral("connectionWarning"));
    m_connectionWarning->setCloseButtonVisible(false);
    m_connectionWarning->hide();
    layout->addWidget(m_connectionWarning);

    // Failed kills, extensions, pauses and resumes: kept apart from the connection's
    // banner, which every good refresh hides.
    m_actionBanner = new MessageBanner(central);
    m_actionBanner->setObjectName(QStringLiteral("actionFailedBanner"));
    auto *retryFailed = new QAction(tr("Retry"), m_actionBanner);
    retryFailed->setObjectName(QStringLiteral("retryFailedAction"));
    connect(retryFailed, &QAction::triggered, this, [this] {
        // Copies: the retry starts a batch that replaces both.
        const auto retry = m_actionRetry;
        const QStringList failed = m_actionFailedIds;
        if (retry && m_actionJobs.isEmpty())
            retry(failed);
    });
    m_actionBanner->addAction(retryFailed);
    m_actionBanner->hide();
    layout->addWidget(m_actionBanner);

    // Creations sent to the background stay in sight here until they end.
    m_creationsPanel = new CreationsPanel(central);
    layout->addWidget(m_creationsPanel);

    if (FirstRunHint::isPending(*m_settings)) {
        m_hint = new FirstRunHint(m_settings, m_profiles, m_keys, cliLoginPath(),
                                  QProcessEnvironment::systemEnvironment(), central);
        connect(m_hint, &FirstRunHint::profileReady, this, &MainWindow::switchProfile);
        connect(m_hint, &FirstRunHint::manageProfilesRequested, this, &MainWindow::manageProfiles);
        layout->addWidget(m_hint);
    }

    // The filter bar.
    auto *filterBar = new QHBoxLayout;
    m_filterEdit = new QLineEdit(central);
    m_filterEdit->setObjectName(QStringLiteral("filterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by ID, template or metadata (Ctrl+F)"));
    m_filterEdit->setAccessibleName(tr("Filter text"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->addAction(themedIcon(QStringLiteral("filter"), palette()), QLineEdit::LeadingPosition);
    connect(m_filterEdit, &QLineEdit::textChanged, m_proxy, &SandboxFilterProxyModel::setText);
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    m_stateFilter = new QComboBox(central);
    m_stateFilter->setObjectName(QStringLiteral("stateFilter"));
    m_stateFilter->setAccessibleName(tr("State filter"));
    m_stateFilter->addItem(tr("All states"), int(SandboxFilterProxyModel::StateFilter::All));
    m_stateFilter->addItem(tr("Running"), int(SandboxFilterProxyModel::StateFilter::Running));
    m_stateFilter->addItem(tr("Paused"), int(SandboxFilterProxyModel::StateFilter::Paused));
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setStateFilter(SandboxFilterProxyModel::StateFilter(m_stateFilter->currentData().toInt()));
    });
    m_orphansOnly = new QCheckBox(tr("&Orphans only"), central);
    m_orphansOnly->setObjectName(QStringLiteral("orphansOnly"));
    m_orphansOnly->setAccessibleName(tr("Show orphans only"));
    connect(m_orphansOnly, &QCheckBox::toggled, m_proxy, &SandboxFilterProxyModel::setOrphansOnly);
    // Whenever a filter hides rows, say how many and offer to clear it.
    m_filterStatus = new QLabel(central);
    m_filterStatus->setObjectName(QStringLiteral("filterStatus"));
    m_clearFilterButton = new QPushButton(tr("C&lear filter"), central);
    m_clearFilterButton->setObjectName(QStringLiteral("clearFilterButton"));
    m_clearFilterButton->setAccessibleName(tr("Clear the filter"));
    connect(m_clearFilterButton, &QPushButton::clicked, this, &MainWindow::clearFilter);
    filterBar->addWidget(m_filterEdit, 1);
    filterBar->addWidget(m_stateFilter);
    filterBar->addWidget(m_orphansOnly);
    filterBar->addWidget(m_filterStatus);
    filterBar->addWidget(m_clearFilterButton);
    layout->addLayout(filterBar);

    auto *table = new SandboxTableView(central);
    m_table = table;
    table->setObjectName(QStringLiteral("sandboxTable"));
    table->setAccessibleName(tr("Sandboxes"));
    table->setModel(m_proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(SandboxTableModel::StartedColumn, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 10);
    // Uniform rows: the view need not measure 10,000 of them.
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setHighlightSections(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(SandboxTableModel::MetadataColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SandboxTableModel::FlagColumn, QHeaderView::Fixed);
    const QFontMetrics mono(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    table->setColumnWidth(SandboxTableModel::IdColumn, mono.horizontalAdvance(QString(22, QLatin1Char('m'))));
    table->setColumnWidth(SandboxTableModel::TemplateColumn, 120);
    // Wide enough for the longest state, "running · suspected orphan", in the user's language.
    int widestState = 0;
    for (const QString &state :
        { SandboxTableModel::tr("running"), SandboxTableModel::tr("paused") })
        widestState = std::max(widestState,
            table->fontMetrics().horizontalAdvance(
                SandboxTableModel::tr("%1 · suspected orphan").arg(state)));
    m_stateColumnWidth = widestState + 40; // with the dot and margins
    table->setColumnWidth(SandboxTableModel::StateColumn, m_stateColumnWidth);
    table->setColumnWidth(SandboxTableModel::StartedColumn, 110);
    // The longest countdown below a day, "23 h 59 min", or "expiring".
    m_timeLeftColumnWidth
        = std::max(table->fontMetrics().horizontalAdvance(
                       SandboxTableModel::formatDuration(24 * 3600 - 1)),
              table->fontMetrics().horizontalAdvance(SandboxTableModel::tr("expiring")))
        + 24;
    table->setColumnWidth(SandboxTableModel::TimeLeftColumn, m_timeLeftColumnWidth);
    table->setColumnWidth(SandboxTableModel::CpuColumn, 50);
    table->setColumnWidth(SandboxTableModel::MemoryColumn, 80);
    table->setColumnWidth(SandboxTableModel::FlagColumn, 30);
    table->setPlaceholderText(tr("No sandboxes yet."));
    // Rows hidden by the filter change the count without the proxy saying so: watch both.
    for (QAbstractItemModel *model : std::initializer_list<QAbstractItemModel *>{m_proxy, m_model}) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateFilterStatus);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateFilterStatus);
        connect(model, &QAbstractItemModel::modelReset, this, &MainWindow::updateFilterStatus);
        connect(model, &QAbstractItemModel::layoutChanged, this, &MainWindow::updateFilterStatus);
    }
    updateFilterStatus();

    connect(table, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        // popup(), not exec(): no nested event loop; the menu deletes itself on close.
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(m_copyIdAction);
        menu->addAction(m_copyMcpAction);
        menu->addSeparator();
        menu->addAction(m_extendAction);
        menu->addAction(m_pauseAction);
        menu->addAction(m_resumeAction);
        menu->addSeparator();
        menu->addAction(m_killAction);
        menu->popup(m_table->viewport()->mapToGlobal(pos));
    });
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateActions();
        updateDetail();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                const int row = m_model->rowOf(m_detail->sandboxId());
                if (row >= topLeft.row() && row <= bottomRight.row())
                    updateDetail();
            });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, [this] { updateDetail(); });

    m_detail = new DetailPane(central);
    connect(m_detail, &DetailPane::copyRequested, this, &MainWindow::copyToClipboard);

    m_splitter = new QSplitter(Qt::Horizontal, central);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(table);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({900, 360});
    m_splitter->setChildrenCollapsible(false);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    updateDetail();
}

void MainWindow::createStatusBar()
{
    const auto make = [this](const char *name, const QString &accessibleName) {
        auto *label = new QLabel(this);
        label->setObjectName(QLatin1String(name));
        label->setAccessibleName(accessibleName);
        label->setContentsMargins(6, 0, 6, 0);
        return label;
    };
    m_progressLabel = make("progressLabel", tr("Progress"));
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setAccessibleName(tr("Cancel the running actions"));
    m_cancelButton->setAutoRaise(true);
    connect(m_cancelButton, &QToolButton::clicked, this, [this] {
        const auto jobs = m_actionJobs;
        for (Job *job : jobs)
            job->cancel();
    });
    m_progressLabel->hide();
    m_cancelButton->hide();
    statusBar()->addWidget(m_progressLabel);
    statusBar()->addWidget(m_cancelButton);

    m_profileLabel = make("profileLabel", tr("Profile"));
    m_connectionLabel = make("connectionLabel", tr("Connection state"));
    m_countsLabel = make("countsLabel", tr("Sandbox counts"));
    m_lastRefreshLabel = make("lastRefreshLabel", tr("Last refresh"));
    statusBar()->addPermanentWidget(m_profileLabel);
    statusBar()->addPermanentWidget(m_connectionLabel);
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_lastRefreshLabel);
    m_profileLabel->setText(m_profileCombo->currentText());
    updateStatusCounts();
}

void MainWindow::connectProfile()
{
    m_connected = false;
    const Profile profile = m_profiles->profile(m_profileId).value_or(m_profiles->localProfile());
    m_profileLabel->setText(profile.name);
    // The platform adds the application's name ("Local (this computer) — Sandbox Desk").
    setWindowTitle(profile.name);
    if (!profile.isLocal()) {
        if (m_connectJob)
            return;
        auto *resolve = new ResolveProfileJob(m_keys, profile, this);
        m_connectJob = resolve;
        setConnectionState(ConnectionState::Connecting);
        connect(resolve, &Job::finished, this, [this, resolve] {
            if (resolve->profile().id != m_profileId)
                return; // the user switched away meanwhile
            if (resolve->hasError()) {
                setConnectionState(ConnectionState::Failed, resolve->error().message());
                showNoList(resolve->error().message());
                showError(resolve->error().message());
                return;
            }
            m_connection = resolve->settings();
            m_connected = true;
            // The key goes out with the first refresh: say so before, for as long as it lasts.
            if (const QString warning = m_connection.cleartextWarning(); !warning.isEmpty()) {
                m_connectionWarning->setMessage(MessageBanner::Type::Warning, warning);
                m_connectionWarning->show();
            }
            openJournal();
            if (!resolve->notice().isEmpty())
                statusBar()->showMessage(resolve->notice(), 15000);
            if (const QStringList overrides = resolve->environmentOverrides(); !overrides.isEmpty())
                statusBar()->showMessage(tr("Overridden by the environment: %1").arg(overrides.join(QStringLiteral(", "))),
                                         15000);
            refresh();
        });
        resolve->start();
        return;
    }
    if (m_options.localConnection) {
        m_connection = *m_options.localConnection;
        m_connected = true;
        openJournal();
        setConnectionState(ConnectionState::Connecting);
        refresh();
        return;
    }
    if (m_connectJob)
        return;
    const quint16 localPort = m_options.localPort ? m_options.localPort : m_profiles->localProfile().localPort();
    auto *job = new LocalBackendStarter(m_network, localPort, this);
    job->setStartAllowed(m_options.startLocalBackend);
    if (!m_options.localKeyFile.isEmpty())
        job->setKeyFile(m_options.localKeyFile);
    m_connectJob = job;
    setConnectionState(ConnectionState::Connecting);
    connect(job, &LocalBackendStarter::startingBackend, this, [this, job, localPort] {
        setConnectionState(ConnectionState::StartingBackend);
        statusBar()->showMessage(tr("Nothing answered on port %1: starting the local backend (pid %2)…")
                                     .arg(localPort)
                                     .arg(job->startedPid()));
    });
    connect(job, &Job::finished, this, [this, job, localPort] {
        if (job->hasError()) {
            setConnectionState(ConnectionState::Failed, job->error().message());
            showNoList(job->error().message());
            showError(job->error().message());
            return;
        }
        m_connection = job->settings();
        m_connected = true;
        // Unjailed sandboxes run as the user, next to their files: say so for as long as it lasts.
        if (job->isolation() == QLatin1String("none")) {
            m_connectionWarning->setMessage(MessageBanner::Type::Warning,
                tr("Sandboxes on this computer run without isolation: code in them runs as "
                   "you and can read and change your files. Install bubblewrap and restart "
                   "sandbox-desk-local without --isolation none."));
            m_connectionWarning->show();
        }
        openJournal();
        if (job->startedBackend())
            statusBar()->showMessage(tr("Started the local backend on port %1 (pid %2).")
                                         .arg(localPort)
                                         .arg(job->startedPid()),
                                     15000);
        refresh();
    });
    job->start();
}

void MainWindow::fillProfileCombo()
{
    const QSignalBlocker blocker(m_profileCombo);
    m_profileCombo->clear();
    for (const Profile &profile : m_profiles->profiles())
        m_profileCombo->addItem(profile.name, profile.id);
    m_profileCombo->insertSeparator(m_profileCombo->count());
    m_profileCombo->addItem(tr("Manage profiles…"), QStringLiteral("__manage"));
    const int index = m_profileCombo->findData(m_profileId);
    m_profileCombo->setCurrentIndex(index >= 0 ? index : 0);
    // The box may show the name cut short: the tool tip and the popup list show it whole.
    m_profileCombo->setToolTip(
        tr("%1\nWhich E2B deployment to show").arg(m_profileCombo->currentText()));
    QAbstractItemView *list = m_profileCombo->view();
    int widest = 0;
    for (int i = 0; i < m_profileCombo->count(); ++i)
        widest
            = std::max(widest, list->fontMetrics().horizontalAdvance(m_profileCombo->itemText(i)));
    // The text, the item's margins either side and room for a scroll bar.
    list->setMinimumWidth(widest + 4 * list->fontMetrics().averageCharWidth()
        + 2 * list->frameWidth()
        + list->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, list));
}

void MainWindow::onProfileActivated(int index)
{
    const QString id = m_profileCombo->itemData(index).toString();
    if (id == QLatin1String("__manage")) {
        fillProfileCombo(); // back to the profile in use
        manageProfiles();
        return;
    }
    switchProfile(id);
}

void MainWindow::switchProfile(const QString &profileId)
{
    if (profileId == m_profileId && (m_connected || m_connectJob))
        return;
    m_profileId = profileId;
    fillProfileCombo();
    // Another deployment: nothing of the old list applies.
    if (m_connectJob) {
        m_connectJob->disconnect(this);
        m_connectJob->cancel();
    }
    if (m_refreshJob) {
        m_refreshJob->disconnect(this);
        m_refreshJob->cancel();
        m_refreshJob = nullptr;
        m_refreshAction->setEnabled(true);
    }
    if (m_scanJob) {
        m_scanJob->disconnect(this);
        m_scanJob->cancel();
    }
    m_connected = false;
    m_orphans.clear();
    m_knownOrphans.clear();
    m_model->setOrphanFlags({});
    m_model->setSandboxes({});
    m_model->setStale(false);
    m_lastGoodRefresh = QDateTime();
    m_noListReason.clear();
    updateFilterStatus();
    m_banner->hide();
    m_connectionWarning->hide(); // said again if the next profile has the same problem
    updateStatusCounts();
    if (m_options.rememberState)
        m_profiles->setLastUsed(profileId);
    connectProfile();
}

QList<Session *> MainWindow::liveSessions() const
{
    QList<Session *> sessions;
    if (m_session)
        sessions.append(m_session);
    for (const QPointer<Session> &retired : m_retiredSessions) {
        if (retired)
            sessions.append(retired);
    }
    return sessions;
}

int MainWindow::runningCreations() const
{
    int running = 0;
    for (Session *session : liveSessions())
        running += int(session->creations()->active().size());
    return running;
}

void MainWindow::quit()
{
    if (m_quitDone)
        return;
    if (m_quitting) {
        // Asked again while rollbacks run: say what leaving now would leave behind.
        if (findChild<QMessageBox *>(QStringLiteral("quitNowConfirmation")))
            return;
        QStringList waiting;
        for (Session *session : liveSessions())
            waiting += session->creations()->describeActive();
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Quit now?"),
            tr("Still rolling back %n creation(s). Quitting now leaves what they created "
               "running until its timeout; it will be flagged as an orphan on the next start.",
                nullptr, int(waiting.size())),
            QMessageBox::NoButton, this);
        box->setObjectName(QStringLiteral("quitNowConfirmation"));
        box->setDetailedText(waiting.join(QLatin1Char('\n')));
        box->addButton(tr("&Keep waiting"), QMessageBox::RejectRole);
        QPushButton *now = box->addButton(tr("&Quit now"), QMessageBox::AcceptRole);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [this, box, now] {
            if (box->clickedButton() == now)
                finishQuit();
        });
        box->open();
        return;
    }
    m_quitting = true;
    saveState();
    updateActions();
    // Dialogs hand their running creations to the session, which cancels them below.
    qDeleteAll(findChildren<NewSandboxDialog *>(Qt::FindDirectChildrenOnly));
    const QList<Session *> sessions = liveSessions();
    if (runningCreations() == 0) {
        finishQuit();
        return;
    }
    const auto report = [this] {
        QStringList waiting;
        for (Session *session : liveSessions())
            waiting += session->creations()->describeActive();
        statusBar()->showMessage(tr("Quitting: cancelling %n creation(s) and removing what they created…",
                                    nullptr, int(waiting.size())));
        Q_EMIT quitWaiting(waiting);
    };
    for (Session *session : sessions) {
        connect(session, &Session::closing, this, report);
        connect(session, &Session::closed, this, [this](const QStringList &leftBehind) {
            if (!leftBehind.isEmpty())
                qCWarning(lcCreation) << "quit: creations left unfinished:" << leftBehind;
            // The closed session deletes itself after this signal.
            QTimer::singleShot(0, this, [this] {
                if (runningCreations() == 0)
                    finishQuit();
            });
        });
        session->close(m_options.quitTimeout);
    }
    report();
}

void MainWindow::finishQuit()
{
    if (m_quitDone)
        return;
    m_quitDone = true;
    Q_EMIT quitWaiting({});
    close();
    Q_EMIT quitReady();
}

void MainWindow::showSessionLog()
{
    if (!m_sessionLogView) {
        // Installed by main() at start; a window made elsewhere (tests) starts it here.
        m_sessionLogView = new SessionLogView(SessionLog::install(), this);
        m_sessionLogView->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_sessionLogView->show();
    m_sessionLogView->raise();
    m_sessionLogView->activateWindow();
}

QString MainWindow::cliLoginPath() const
{
    return m_options.cliLoginPath.isEmpty() ? E2bCliLogin::defaultPath() : m_options.cliLoginPath;
}

void MainWindow::manageProfiles()
{
    auto *dialog = new ProfilesDialog(m_profiles, m_keys, m_network, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setCliLoginPath(cliLoginPath());
    connect(dialog, &ProfilesDialog::profileSaved, this, [this] { fillProfileCombo(); });
    connect(dialog, &QDialog::finished, this, [this] {
        fillProfileCombo();
        // The profile in use may have been removed.
        if (!m_profiles->profile(m_profileId))
            switchProfile(Profile::localId());
    });
    dialog->open();
}

void MainWindow::setConnectionState(ConnectionState state, const QString &detail)
{
    m_connectionState = state;
    switch (state) {
    case ConnectionState::Connecting:
        m_connectionLabel->setText(tr("Connecting…"));
        break;
    case ConnectionState::StartingBackend:
        m_connectionLabel->setText(tr("Starting the local backend…"));
        break;
    case ConnectionState::Connected:
        m_connectionLabel->setText(tr("Connected"));
        break;
    case ConnectionState::Failed:
        m_connectionLabel->setText(tr("Disconnected"));
        break;
    }
    m_connectionLabel->setToolTip(detail);
    updateActions();
    Q_EMIT connectionStateChanged(state);
}

void MainWindow::refresh()
{
    if (!m_connected) {
        if (!m_connectJob)
            connectProfile();
        return;
    }
    if (m_refreshJob) {
        // One list at a time; the one running will show the newest state anyway.
        return;
    }
    auto *job = new ListSandboxesJob(m_network, m_connection, {}, this);
    m_refreshJob = job;
    m_refreshAction->setEnabled(false);
    // Each page is shown as it arrives, so a large account paints its first rows
    // without waiting for the last page; rows gone are removed once all are in.
    connect(job, &ListSandboxesJob::pageReceived, this, [this](const QList<Sandbox> &page) {
        m_model->mergeSandboxes(page);
        updateStatusCounts();
    });
    connect(job, &Job::finished, this, &MainWindow::onListFinished);
    job->start();
}

void MainWindow::onListFinished(Job *job)
{
    m_refreshAction->setEnabled(true);
    m_refreshJob = nullptr;
    if (job->hasError()) {
        Error error = job->error();
        const QString server = serverOrigin(m_connection.apiUrl);
        error.withContext(tr("Could not refresh the list from %1").arg(server));
        setConnectionState(ConnectionState::Failed, error.message());
        m_model->setStale(true);
        if (!m_lastGoodRefresh.isValid()) {
            // Nothing listed is not an empty account: say the list never came.
            const bool unreachable = job->error().kind() == Error::Kind::Transport
                || job->error().kind() == Error::Kind::Timeout;
            m_noListReason = unreachable
                ? tr("Could not reach %1: no list has been loaded.").arg(server)
                : tr("The list from %1 could not be loaded.").arg(server);
            updateFilterStatus();
        }
        QString text = error.message();
        if (m_lastGoodRefresh.isValid())
            text = joinSentences(text,
                tr("Showing the list from %1, which may be out of date.")
                    .arg(m_lastGoodRefresh.time().toString(QStringLiteral("HH:mm:ss"))));
        showError(text);
        updateStatusCounts();
        Q_EMIT refreshed(false);
        return;
    }
    const auto *list = static_cast<ListSandboxesJob *>(job);
    m_model->setSandboxes(list->sandboxes());
    QSet<QString> listed;
    listed.reserve(list->sandboxes().size());
    for (const Sandbox &sandbox : list->sandboxes())
        listed.insert(sandbox.sandboxId);
    m_history->setListedSandboxes(listed);
    scanOrphans(list->sandboxes(), list->serverDate());
    m_model->setStale(false);
    m_lastGoodRefresh = QDateTime::currentDateTime();
    if (!m_noListReason.isEmpty()) {
        m_noListReason.clear();
        updateFilterStatus();
    }
    if (!m_pendingSelection.isEmpty()) {
        // A sandbox just created through the dialog: show it.
        selectSandbox(m_pendingSelection);
        m_pendingSelection.clear();
    }
    m_banner->hide();
    setConnectionState(ConnectionState::Connected);
    updateStatusCounts();
    updateActions();
    updateDetail();
    Q_EMIT refreshed(true);
}

void MainWindow::openJournal()
{
    // The old profile's creations keep their session (and journal) until they end.
    if (m_session) {
        m_history->setJournal(nullptr);
        m_retiredSessions.removeAll(nullptr);
        m_retiredSessions.append(m_session);
        m_session->release();
    }
    m_session = new Session(m_network, m_connection, this);
    // Journals were named after the profile before they were named after the API.
    if (!m_session->open(m_options.journalDirectory, {m_profileId})) {
        // Without a journal the list still works; orphans from our creations cannot be told.
        showError(tr("The creation journal cannot be used: %1").arg(m_session->errorString()));
    }
    m_session->detector()->setGatewayGrace(m_options.gatewayGrace);
    m_creationsPanel->addSession(m_session);
    m_history->setJournal(m_session->journal());
    m_detail->setBackend(m_network, m_connection);
}

CreationJournal *MainWindow::journal() const
{
    return m_session ? m_session->journal() : nullptr;
}

void MainWindow::scanOrphans(const QList<Sandbox> &sandboxes, const QDateTime &serverDate)
{
    if (!m_session)
        return;
    if (m_scanJob)
        m_scanJob->cancel();
    if (journal())
        journal()->refresh(); // the command-line mode may have written to it
    OrphanScanJob *scan = m_session->detector()->scan(sandboxes, serverDate, this);
    m_scanJob = scan;
    connect(scan, &Job::finished, this, [this, scan] {
        if (scan->hasError())
            return;
        m_orphans = scan->orphans();
        QHash<QString, OrphanFlag> flags;
        QStringList fresh;
        QSet<QString> now;
        for (const Orphan &orphan : std::as_const(m_orphans)) {
            flags.insert(orphan.sandboxId,
                         {orphanReasonText(orphan.reason), orphan.evidence, orphan.isSuspected()});
            now.insert(orphan.sandboxId);
            if (!m_knownOrphans.contains(orphan.sandboxId))
                fresh.append(orphan.sandboxId);
        }
        m_knownOrphans = now;
        setOrphanFlags(flags);
        Q_EMIT orphansScanned(int(m_orphans.size()));
        if (!fresh.isEmpty())
            Q_EMIT newOrphansFound(fresh);
    });
    scan->start();
}

NewSandboxDialog *MainWindow::newSandbox()
{
    if (!m_connected || !journal() || m_quitting)
        return nullptr;
    auto *dialog = new NewSandboxDialog(m_session->creationContext(), this);
    dialog->setSession(m_session);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewSandboxDialog::creationFinished, this, [this, dialog](const QString &sandboxId, bool ready) {
        m_pendingSelection = ready ? sandboxId : QString();
        const bool inBackground = !dialog->isVisible();
        const CreationJob *job = dialog->job();
        const bool cancelled = job && job->endedCancelled();
        if (!ready && !cancelled && job && (inBackground || isMinimized()))
            m_tray->notifyCreationFailed(job->errorMessage());
        if (inBackground && job) {
            // Nobody watches the dialog: say how it ended here, then let it go.
            QString text;
            if (ready)
                text = tr("Sandbox %1 is ready.").arg(sandboxId);
            else if (cancelled)
                text = tr("The creation from %1 was cancelled; what it had created was removed.")
                           .arg(job->templateId());
            else
                text = tr("A creation running in the background ended: %1").arg(job->errorMessage());
            statusBar()->showMessage(text, 15000);
            dialog->deleteLater();
        }
        refresh();
    });
    connect(dialog, &NewSandboxDialog::movedToBackground, this, [this] {
        statusBar()->showMessage(tr("The creation goes on in the background, above the list, where it can be cancelled."),
                                 10000);
    });
    // The profile's own templates join the list when they arrive.
    auto *templates = new ListTemplatesJob(m_network, m_connection, dialog);
    connect(templates, &Job::finished, dialog, [dialog, templates] {
        QStringList ids;
        for (const SandboxTemplate &t : templates->templates())
            ids.append(t.aliases.isEmpty() ? t.templateId : t.aliases.first());
        dialog->addTemplates(ids);
    });
    templates->start();
    // Not modal: the list stays usable while a creation runs.
    dialog->show();
    return dialog;
}

void MainWindow::killAllOrphans()
{
    const QList<Orphan> orphans = m_orphans;
    if (orphans.isEmpty())
        return;
    QStringList certainIds;
    QStringList suspectedIds;
    for (const Orphan &orphan : orphans)
        (orphan.isSuspected() ? suspectedIds : certainIds).append(orphan.sandboxId);
    // The question counts what Kill would kill: the suspected ones only once ticked.
    const auto question = [certain = int(certainIds.size()), suspected = int(suspectedIds.size())](
                              bool includeSuspected) {
        const int count = certain + (includeSuspected ? suspected : 0);
        return count == 0
            ? tr("No orphan is certainly ours; %n is only suspected.", nullptr, suspected)
            : tr("Kill %n orphan sandbox(es)?", nullptr, count);
    };
    auto *box = new QMessageBox(
        QMessageBox::Warning, tr("Kill all orphans"), question(false), QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("killConfirmation"));
    QString details = idList(certainIds);
    if (!suspectedIds.isEmpty()) {
        // Suspected ones are other clients' sandboxes that only look abandoned: they
        // are killed only when chosen here.
        details += (details.isEmpty() ? QString() : QStringLiteral("\n\n"))
                   + tr("Suspected (not created by this app, no MCP gateway running):") + QLatin1Char('\n')
                   + idList(suspectedIds);
        auto *include = new QCheckBox(tr("Also kill the %n &suspected one(s)", nullptr, int(suspectedIds.size())));
        include->setObjectName(QStringLiteral("includeSuspected"));
        box->setCheckBox(include);
        connect(include, &QCheckBox::toggled, box,
            [box, question](bool checked) { box->setText(question(checked)); });
    }
    box->setInformativeText(details);
    QPushButton *kill = box->addButton(tr("Kill"), QMessageBox::DestructiveRole);
    kill->setObjectName(QStringLiteral("confirmKillButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, kill, orphans] {
        if (box->clickedButton() != kill)
            return;
        const QList<Orphan> chosen = orphansToKill(orphans, box->checkBox() && box->checkBox()->isChecked());
        if (chosen.isEmpty())
            return;
        const int count = int(chosen.size());
        // The journal records each kill, so the history shows the orphan was cleared.
        auto *job = new KillOrphansJob(m_network, m_connection, journal(), chosen, {}, this);
        startActionJobs({job}, tr("Killing %n orphan(s)…", nullptr, count), tr("%1 of %2 kills failed: %3"),
                        [this](const QStringList &) { killAllOrphans(); });
        m_actionDoneText = tr("Killed %n orphan(s).", nullptr, count);
    });
    box->open();
}

void MainWindow::showError(const QString &text)
{
    m_banner->setMessage(MessageBanner::Type::Error, text);
    m_banner->show();
}

int MainWindow::refreshInterval() const
{
    return m_intervalCombo->currentData().toInt();
}

void MainWindow::setRefreshInterval(int seconds)
{
    const int index = m_intervalCombo->findData(seconds);
    if (index >= 0)
        m_intervalCombo->setCurrentIndex(index);
}

void MainWindow::updateAutoRefresh()
{
    const int seconds = refreshInterval();
    const bool run = seconds > 0 && !isMinimized();
    if (run) {
        if (!m_autoRefresh.isActive() || m_autoRefresh.interval() != seconds * 1000)
            m_autoRefresh.start(seconds * 1000);
    } else {
        m_autoRefresh.stop();
    }
    // Nobody watches the countdown of a minimised window.
    m_model->setCountdownRunning(!isMinimized());
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::WindowStateChange) {
        const bool wasRunning = m_autoRefresh.isActive();
        updateAutoRefresh();
        // Back from minimised: show the current state at once, not in N seconds.
        if (!wasRunning && m_autoRefresh.isActive() && m_connected)
            refresh();
    } else if (event->type() == QEvent::PaletteChange) {
        for (QAction *action : actions()) {
            const QString name = action->objectName();
            if (name.endsWith(QLatin1String("Action")))
                action->setIcon(themedIcon(name.chopped(6), palette()));
        }
    }
}

QStringList MainWindow::selectedIds() const
{
    QStringList ids;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &index : std::as_const(rows))
        ids.append(index.data(SandboxTableModel::SandboxIdRole).toString());
    return ids;
}

bool MainWindow::selectSandbox(const QString &sandboxId)
{
    const int row = m_model->rowOf(sandboxId);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void MainWindow::setOrphanFlags(const QHash<QString, OrphanFlag> &flags)
{
    m_model->setOrphanFlags(flags);
    updateStatusCounts();
    updateActions();
}

void MainWindow::updateActions()
{
    const int selected = m_table ? int(m_table->selectionModel()->selectedRows().size()) : 0;
    const bool busy = !m_actionJobs.isEmpty();
    m_newAction->setEnabled(m_connected && journal() && !m_quitting);
    m_killAction->setEnabled(m_connected && selected > 0 && !busy);
    m_extendAction->setEnabled(m_connected && selected > 0 && !busy);
    bool anyRunning = false;
    bool anyPaused = false;
    if (selected > 0) {
        for (const QString &id : selectedIds()) {
            if (const Sandbox *s = m_model->sandbox(id)) {
                anyRunning |= s->state == SandboxState::Running;
                anyPaused |= s->state == SandboxState::Paused;
            }
        }
    }
    m_pauseAction->setEnabled(m_connected && anyRunning && !busy);
    m_resumeAction->setEnabled(m_connected && anyPaused && !busy);
    m_copyIdAction->setEnabled(selected > 0);
    m_copyMcpAction->setEnabled(selected > 0);
    m_killOrphansAction->setEnabled(m_connected && !busy && m_model->count(SandboxTableModel::DisplayState::Orphan) > 0);
}

void MainWindow::updateFilterStatus()
{
    const int shown = m_proxy->rowCount();
    const int all = m_model->rowCount();
    const bool hiding = shown < all;
    m_filterStatus->setText(tr("Showing %1 of %2").arg(shown).arg(all));
    m_filterStatus->setVisible(hiding);
    m_clearFilterButton->setVisible(hiding);
    QString placeholder = tr("No sandboxes yet.");
    if (all > 0)
        placeholder = tr("No sandbox matches the filter. Clear it to see all %1.").arg(all);
    else if (!m_noListReason.isEmpty())
        placeholder = m_noListReason;
    static_cast<SandboxTableView *>(m_table)->setPlaceholderText(placeholder);
}

void MainWindow::showNoList(const QString &why)
{
    // Failed before any list was asked for: the table must not read as an empty account.
    if (m_lastGoodRefresh.isValid())
        return;
    m_noListReason = joinSentences(tr("No list has been loaded."), why);
    updateFilterStatus();
    updateStatusCounts();
}

void MainWindow::clearFilter()
{
    m_filterEdit->clear();
    m_stateFilter->setCurrentIndex(0);
    m_orphansOnly->setChecked(false);
}

void MainWindow::updateStatusCounts()
{
    const int running = m_model->count(SandboxTableModel::DisplayState::Running);
    const int paused = m_model->count(SandboxTableModel::DisplayState::Paused);
    const int orphans = m_model->count(SandboxTableModel::DisplayState::Orphan);
    QString text = tr("%1 running, %2 paused").arg(running).arg(paused);
    if (orphans > 0)
        text += QStringLiteral(", ") + tr("%n orphan(s)", nullptr, orphans);
    if (!m_noListReason.isEmpty() && m_model->rowCount() == 0)
        text = tr("No list loaded"); // not "0 running": nothing was counted
    m_countsLabel->setText(text);
    if (!m_lastGoodRefresh.isValid()) {
        m_lastRefreshLabel->setText(tr("Not refreshed yet"));
    } else {
        const QString time = m_lastGoodRefresh.time().toString(QStringLiteral("HH:mm:ss"));
        m_lastRefreshLabel->setText(m_model->isStale() ? tr("Stale: last good refresh %1").arg(time)
                                                       : tr("Refreshed %1").arg(time));
    }
}

void MainWindow::updateDetail()
{
    if (!m_detail || !m_table)
        return;
    const QStringList ids = selectedIds();
    if (ids.size() > 1) {
        m_detail->showSandbox(nullptr, std::nullopt, m_connection, {},
                              tr("%n sandboxes selected.", nullptr, int(ids.size())));
        return;
    }
    const Sandbox *sandbox = ids.isEmpty() ? nullptr : m_model->sandbox(ids.first());
    m_detail->showSandbox(sandbox, sandbox ? m_model->orphanFlag(sandbox->sandboxId) : std::nullopt,
                          m_connection, QDateTime::currentDateTimeUtc(),
                          m_model->rowCount() == 0 ? tr("No sandboxes to show.") : QString());
}

void MainWindow::confirmKill(const QStringList &ids, const QString &title)
{
    if (ids.isEmpty())
        return;
    // open(), not exec(): the confirmation must not spin a nested event loop.
    auto *box = new QMessageBox(QMessageBox::Warning, title,
                                tr("Kill %n sandbox(es)? Everything running in them is lost.", nullptr,
                                   int(ids.size())),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("killConfirmation"));
    box->setInformativeText(idList(ids));
    if (ids.size() > kMaxIdsListed)
        box->setDetailedText(ids.join(QLatin1Char('\n')));
    QPushButton *kill = box->addButton(tr("Kill"), QMessageBox::DestructiveRole);
    kill->setObjectName(QStringLiteral("confirmKillButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, kill, ids] {
        if (box->clickedButton() != kill)
            return;
        runOnSandboxes(ids, tr("Killing %n sandbox(es)…", nullptr, int(ids.size())), tr("%1 of %2 kills failed: %3"), [this](const QString &id) {
            return new KillSandboxJob(m_network, m_connection, id, this);
        });
        m_actionDoneText = tr("Killed %n sandbox(es).", nullptr, int(ids.size()));
    });
    box->open();
}

void MainWindow::extendSelected()
{
    const QStringList ids = selectedIds();
    if (ids.isEmpty())
        return;
    // The value is the time left from now, not time added: offered as is, a fixed
    // 15 minutes would shorten a sandbox with more left. The default extends the one
    // with the most left by 15 minutes, within the API's 24 hours.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    qint64 mostLeft = 0; // seconds
    for (const QString &id : ids) {
        if (const Sandbox *s = m_model->sandbox(id); s && s->endAt.isValid())
            mostLeft = std::max(mostLeft, now.secsTo(s->endAt));
    }
    constexpr int maxMinutes = kMaxTimeoutSeconds / 60;
    const int leftMinutes = int(std::min<qint64>((mostLeft + 59) / 60, maxMinutes));
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("extendDialog"));
    dialog->setWindowTitle(tr("Extend timeout"));
    dialog->setLabelText(tr(
        "Time left for %n sandbox(es), in minutes from now (at most %1):", nullptr, int(ids.size()))
                             .arg(maxMinutes));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setIntRange(1, maxMinutes);
    dialog->setIntValue(std::min(leftMinutes + 15, maxMinutes));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QInputDialog::intValueSelected, this, [this, ids](int minutes) {
        // Less than a sandbox has left shortens it: done only once the user says so.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QStringList shortened;
        for (const QString &id : ids) {
            if (const Sandbox *s = m_model->sandbox(id);
                s && s->endAt.isValid() && now.secsTo(s->endAt) > qint64(minutes) * 60)
                shortened.append(id);
        }
        if (shortened.isEmpty()) {
            setTimeoutOf(ids, minutes);
            return;
        }
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Shorten the timeout?"),
            tr("This shortens the time of %n sandbox(es): each ends in %1 minutes, sooner "
               "than it would now.",
                nullptr, int(shortened.size()))
                .arg(minutes),
            QMessageBox::Cancel, this);
        box->setObjectName(QStringLiteral("shortenConfirmation"));
        box->setInformativeText(idList(shortened));
        QPushButton *shorten = box->addButton(tr("&Shorten"), QMessageBox::DestructiveRole);
        shorten->setObjectName(QStringLiteral("confirmShortenButton"));
        box->setDefaultButton(QMessageBox::Cancel);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [this, box, shorten, ids, minutes] {
            if (box->clickedButton() == shorten)
                setTimeoutOf(ids, minutes);
        });
        box->open();
    });
    dialog->open();
}

void MainWindow::setTimeoutOf(const QStringList &ids, int minutes)
{
    runOnSandboxes(ids, tr("Extending %n sandbox(es)…", nullptr, int(ids.size())),
        tr("%1 of %2 extensions failed: %3"), [this, minutes](const QString &id) {
            return new SetTimeoutJob(m_network, m_connection, id, minutes * 60, this);
        });
    m_actionDoneText
        = tr("%n sandbox(es) now end in %1 minutes.", nullptr, int(ids.size())).arg(minutes);
}

void MainWindow::runOnSandboxes(const QStringList &ids, const QString &progressText, const QString &failureText,
                                const std::function<Job *(const QString &)> &makeJob)
{
    QList<Job *> jobs;
    for (const QString &id : ids) {
        Job *job = makeJob(id);
        m_actionJobIds.insert(job, id);
        jobs.append(job);
    }
    // Retry repeats the same action on the sandboxes it failed for.
    startActionJobs(jobs, progressText, failureText,
                    [this, progressText, failureText, makeJob](const QStringList &failed) {
                        runOnSandboxes(failed, progressText, failureText, makeJob);
                    });
}

void MainWindow::startActionJobs(const QList<Job *> &jobs, const QString &progressText, const QString &failureText,
                                 const std::function<void(const QStringList &)> &retry)
{
    m_actionErrors.clear();
    m_actionFailedIds.clear();
    m_actionFailureText = failureText;
    m_actionRetry = retry;
    m_actionTotal = int(jobs.size());
    for (Job *job : jobs) {
        m_actionJobs.insert(job);
        connect(job, &Job::finished, this, &MainWindow::onActionJobFinished);
        job->start();
    }
    m_progressLabel->setText(progressText);
    m_progressLabel->show();
    m_cancelButton->show();
    updateActions();
}

void MainWindow::onActionJobFinished(Job *job)
{
    m_actionJobs.remove(job);
    const QString id = m_actionJobIds.take(job);
    auto *orphans = qobject_cast<KillOrphansJob *>(job);
    // The orphan kill's own error only sums up the failures it lists one by one
    // ("1 orphan could not be removed"): counted as well, one failure read as two.
    const bool summarisesFailures = orphans && !orphans->failed().isEmpty();
    if (job->hasError() && !summarisesFailures) {
        m_actionErrors.append(id.isEmpty() ? job->error().message() : tr("%1: %2").arg(id, job->error().message()));
        if (!id.isEmpty())
            m_actionFailedIds.append(id);
    }
    if (qobject_cast<KillSandboxJob *>(job))
        recordLaterKill(id, job);
    if (orphans) {
        // One job for many sandboxes: the total is the sandboxes it tried, and at
        // least the one job when it stopped before any (cancelled).
        m_actionTotal += std::max(int(orphans->killed().size() + orphans->failed().size()), 1) - 1;
        for (const KillOrphansJob::Failure &failure : orphans->failed()) {
            m_actionErrors.append(tr("%1: %2").arg(failure.sandboxId, failure.error));
            m_actionFailedIds.append(failure.sandboxId);
        }
    }
    if (!m_actionJobs.isEmpty())
        return;
    m_progressLabel->hide();
    m_cancelButton->hide();
    if (m_actionErrors.isEmpty()) {
        statusBar()->showMessage(m_actionDoneText, 10000);
        m_actionBanner->hide(); // what failed before has now succeeded
    } else {
        // Stays until dismissed or a later action succeeds: a refresh does not hide it.
        m_actionBanner->setMessage(MessageBanner::Type::Error,
                                   m_actionFailureText.arg(m_actionErrors.size())
                                       .arg(m_actionTotal)
                                       .arg(m_actionErrors.join(QStringLiteral("; "))));
        m_actionBanner->show();
    }
    updateActions();
    // Show the result at once rather than at the next tick.
    refresh();
    Q_EMIT actionsFinished();
}

void MainWindow::recordLaterKill(const QString &sandboxId, const Job *kill)
{
    // A sandbox of one of our creations, the user's own or an orphan (its rollback
    // failed, say): each later kill, good or not, joins that creation's timeline.
    CreationJournal *creations = journal();
    if (!creations || sandboxId.isEmpty())
        return;
    QString creationTag; // an orphan of a lost response is ours only by its tag
    for (const Orphan &orphan : std::as_const(m_orphans)) {
        if (orphan.sandboxId == sandboxId)
            creationTag = orphan.creationId;
    }
    // Written on the journal's thread; the history follows through creationChanged().
    creations->recordLaterKill(sandboxId, kill->hasError() ? kill->error().message() : QString(),
        creationTag, this, [](bool) { });
}

void MainWindow::copyToClipboard(const QString &text, const QString &what)
{
    if (text.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(tr("Copied %1 to the clipboard.").arg(what), 5000);
}

void MainWindow::restoreState()
{
    if (!m_options.rememberState) {
        resize(1280, 760);
        updateAutoRefresh();
        return;
    }
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 760);
    QMainWindow::restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    QHeaderView *header = m_table->horizontalHeader();
    header->restoreState(settings.value(QStringLiteral("table/header")).toByteArray());
    // A layout saved by an older version keeps columns too narrow for today's texts
    // ("running · suspected orphan", "23 h 59 min"): those columns still fit them.
    for (const auto &[column, width] :
        { std::pair { SandboxTableModel::StateColumn, m_stateColumnWidth },
            std::pair { SandboxTableModel::TimeLeftColumn, m_timeLeftColumnWidth } }) {
        if (!header->isSectionHidden(column) && header->sectionSize(column) < width)
            header->resizeSection(column, width);
    }
    m_profileId = m_profiles->lastUsed().id;
    fillProfileCombo();
    setRefreshInterval(settings.value(QStringLiteral("refresh/interval"), kDefaultInterval).toInt());
    updateAutoRefresh();
}

void MainWindow::saveState() const
{
    if (!m_options.rememberState)
        return;
    // Never secrets here: only layout and choices.
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), QMainWindow::saveState());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("table/header"), m_table->horizontalHeader()->saveState());
    m_profiles->setLastUsed(m_profileId);
    settings.setValue(QStringLiteral("refresh/interval"), refreshInterval());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Closing the window ends the process: it waits for rollbacks as quit() does.
    if (!m_quitDone && runningCreations() > 0) {
        event->ignore();
        quit();
        return;
    }
    saveState();
    QMainWindow::closeEvent(event);
}

} // namespace sd
