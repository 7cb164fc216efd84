#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"
#include "models/sandboxtablemodel.h"
#include "orphans/orphandetector.h"
#include "session/session.h"

#include <QDateTime>
#include <QMainWindow>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QDockWidget;
class QToolBar;
class QLabel;
class QPushButton;
class QLineEdit;
class QSettings;
class QNetworkAccessManager;
class QSplitter;
class QTableView;
class QToolButton;

namespace sd {

class CreationJournal;
class CreationsPanel;
class DetailPane;
class NewSandboxDialog;
class CreationHistoryView;
class TrayIcon;
class FirstRunHint;
class SessionLogView;
class ProfileStore;
class KeyStore;

class MessageBanner;
class SandboxFilterProxyModel;

/// How the desktop application starts.
struct DesktopOptions
{
    /// Port of the local backend for the "Local (this computer)" profile; 0 takes the
    /// port stored in that profile.
    quint16 localPort = 0;
    /// Start sandbox-desk-local when nothing answers on localPort.
    bool startLocalBackend = true;
    /// Where the local backend's API key is read from (empty: the default file).
    QString localKeyFile;
    /// Use these settings for the Local profile instead of probing (tests).
    std::optional<ConnectionSettings> localConnection;
    /// Read and write window state in QSettings.
    bool rememberState = true;
    /// The E2B CLI's login offered as a profile (empty: E2bCliLogin::defaultPath()).
    QString cliLoginPath;
    /// Where the creation journals live (empty: CreationJournal::defaultDirectory()).
    QString journalDirectory;
    /// How long an MCP sandbox may run without its gateway before it is flagged.
    std::chrono::seconds gatewayGrace{120};
    /// How long quitting waits for the rollbacks of cancelled creations.
    std::chrono::milliseconds quitTimeout{60000};
};

/// The main window: the sandbox table of the chosen profile with its filter bar,
/// auto-refresh, the actions on the selection, an inline banner for failures, the
/// detail pane and the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    enum class ConnectionState { Connecting, StartingBackend, Connected, Failed };
    Q_ENUM(ConnectionState)

    explicit MainWindow(DesktopOptions options = {}, QWidget *parent = nullptr);
    ~MainWindow() override;

    SandboxTableModel *model() const { return m_model; }
    SandboxFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    MessageBanner *banner() const { return m_banner; }
    /// What the last batch of kills, extensions, pauses or resumes failed at.
    MessageBanner *actionBanner() const { return m_actionBanner; }
    /// Shown for as long as the connection puts the user at risk: a local backend running
    /// sandboxes without isolation, a key sent unencrypted.
    MessageBanner *connectionWarning() const { return m_connectionWarning; }
    DetailPane *detailPane() const { return m_detail; }
    CreationHistoryView *historyView() const { return m_history; }
    /// The creations running now (also those sent to the background), with Cancel.
    CreationsPanel *creationsPanel() const { return m_creationsPanel; }
    /// The first-run hint; null once it has been dismissed or acted on in an earlier run.
    FirstRunHint *firstRunHint() const { return m_hint; }
    TrayIcon *trayIcon() const { return m_tray; }
    ConnectionState connectionState() const { return m_connectionState; }
    const ConnectionSettings &connection() const { return m_connection; }
    QString profileId() const { return m_profileId; }
    ProfileStore *profiles() const { return m_profiles; }
    QDateTime lastGoodRefresh() const { return m_lastGoodRefresh; }
    bool isRefreshing() const { return m_refreshJob != nullptr; }
    /// Auto-refresh interval in seconds; 0 is off.
    int refreshInterval() const;
    bool isAutoRefreshActive() const { return m_autoRefresh.isActive(); }

    /// Sandbox IDs of the selected rows, in view order.
    QStringList selectedIds() const;
    /// Selects the row of `sandboxId` (returns false if it is not shown).
    bool selectSandbox(const QString &sandboxId);
    /// Orphan flags (normally from the orphan detector after each refresh).
    void setOrphanFlags(const QHash<QString, OrphanFlag> &flags);
    /// The journal of the current profile (null until connected).
    CreationJournal *journal() const;
    /// The session of the current profile (null until connected).
    Session *session() const { return m_session; }
    /// True from the first quit request until the process may exit.
    bool isQuitting() const { return m_quitting; }
    const QNetworkAccessManager *network() const { return m_network; }

    QAction *refreshAction() const { return m_refreshAction; }
    QAction *newSandboxAction() const { return m_newAction; }
    QAction *killAction() const { return m_killAction; }
    QAction *killOrphansAction() const { return m_killOrphansAction; }
    QAction *extendAction() const { return m_extendAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *resumeAction() const { return m_resumeAction; }
    QAction *copyIdAction() const { return m_copyIdAction; }
    QAction *copyMcpUrlAction() const { return m_copyMcpAction; }

public Q_SLOTS:
    void refresh();
    /// Opens the New sandbox dialog (non-modal); null when not connected.
    NewSandboxDialog *newSandbox();
    void setRefreshInterval(int seconds);
    /// Shows another profile's sandboxes (ids from ProfileStore; "local" is always there).
    void switchProfile(const QString &profileId);
    /// Closes the window (which saves its state) and quits the application, once every running creation was cancelled and rolled back (up to a
    /// bound); a second request while that runs asks whether to leave them.
    void quit();

Q_SIGNALS:
    /// Quitting waits for these creations ("creation c-1: Rolling back"); empty when
    /// nothing is left to wait for.
    void quitWaiting(const QStringList &creations);
    /// Nothing is left to wait for: the application may exit now.
    void quitReady();
    /// After each refresh, good or failed (orphan flags may follow: orphansScanned()).
    void refreshed(bool ok);
    /// After the orphan detector has judged the latest list.
    void orphansScanned(int count);
    /// New orphans appeared since the last scan (for a notification).
    void newOrphansFound(const QStringList &sandboxIds);
    /// When a batch of actions (kill, extend...) has finished.
    void actionsFinished();
    void connectionStateChanged(sd::MainWindow::ConnectionState state);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createActions();
    void createToolBar();
    void createMenuBar(QAction *historyAction);
    void createCentralWidget();
    void createStatusBar();
    void connectProfile();
    void fillProfileCombo();
    void onProfileActivated(int index);
    void manageProfiles();
    QString cliLoginPath() const;
    void showSessionLog();
    void setConnectionState(ConnectionState state, const QString &detail = {});
    void onListFinished(Job *job);
    void updateActions();
    void updateStatusCounts();
    void updateDetail();
    void updateAutoRefresh();
    void showError(const QString &text);
    void confirmKill(const QStringList &ids, const QString &title);
    /// `failureText` is the whole failure message, translated as one sentence:
    /// %1 failed of %2, then the errors ("%1 of %2 kills failed: %3").
    void runOnSandboxes(const QStringList &ids, const QString &progressText, const QString &failureText,
                        const std::function<Job *(const QString &id)> &makeJob);
    void startActionJobs(const QList<Job *> &jobs, const QString &progressText, const QString &failureText,
                         const std::function<void(const QStringList &)> &retry);
    void onActionJobFinished(Job *job);
    /// Writes a kill of a sandbox of one of our creations into that creation's timeline.
    void recordLaterKill(const QString &sandboxId, const Job *kill);
    void openJournal();
    void updateFilterStatus();
    /// Says in the empty table why no list came (`why`: what failed), until one does.
    void showNoList(const QString &why);
    void clearFilter();
    QList<Session *> liveSessions() const;
    int runningCreations() const;
    void finishQuit();
    void scanOrphans(const QList<Sandbox> &sandboxes, const QDateTime &serverDate);
    void killAllOrphans();
    void extendSelected();
    /// Sets the time left of `ids` to `minutes` from now.
    void setTimeoutOf(const QStringList &ids, int minutes);
    void copyToClipboard(const QString &text, const QString &what);
    void restoreState();
    void saveState() const;

    DesktopOptions m_options;
    QNetworkAccessManager *m_network;
    ConnectionSettings m_connection;
    ConnectionState m_connectionState = ConnectionState::Connecting;
    bool m_connected = false;

    SandboxTableModel *m_model;
    SandboxFilterProxyModel *m_proxy;
    QTableView *m_table = nullptr;
    MessageBanner *m_banner = nullptr;
    MessageBanner *m_actionBanner = nullptr;
    MessageBanner *m_connectionWarning = nullptr;
    CreationsPanel *m_creationsPanel = nullptr;
    QLabel *m_filterStatus = nullptr;
    QPushButton *m_clearFilterButton = nullptr;
    DetailPane *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_stateFilter = nullptr;
    QCheckBox *m_orphansOnly = nullptr;
    QComboBox *m_profileCombo = nullptr;
    QComboBox *m_intervalCombo = nullptr;

    QLabel *m_profileLabel = nullptr;
    QLabel *m_connectionLabel = nullptr;
    QLabel *m_countsLabel = nullptr;
    QLabel *m_lastRefreshLabel = nullptr;
    QLabel *m_progressLabel = nullptr;
    QToolButton *m_cancelButton = nullptr;

    QAction *m_refreshAction = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_killAction = nullptr;
    QAction *m_killOrphansAction = nullptr;
    QAction *m_extendAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_resumeAction = nullptr;
    QAction *m_copyIdAction = nullptr;
    QAction *m_copyMcpAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_retryAction = nullptr;
    QAction *m_quitAction = nullptr;

    QTimer m_autoRefresh;
    QPointer<Job> m_refreshJob;
    QPointer<Job> m_connectJob;
    QDateTime m_lastGoodRefresh;
    /// Why this profile has no list at all (its first refresh failed); empty once one loads.
    QString m_noListReason;
    /// What the State and Time left columns need for their longest texts.
    int m_stateColumnWidth = 0;
    int m_timeLeftColumnWidth = 0;
    QPointer<Session> m_session;
    /// Sessions of profiles switched away from, alive while their creations finish.
    QList<QPointer<Session>> m_retiredSessions;
    bool m_quitting = false;
    bool m_quitDone = false;
    QPointer<Job> m_scanJob;
    QList<Orphan> m_orphans;
    QSet<QString> m_knownOrphans;
    QString m_pendingSelection;
    QSettings *m_settings = nullptr;
    ProfileStore *m_profiles = nullptr;
    KeyStore *m_keys = nullptr;
    QString m_profileId;
    TrayIcon *m_tray = nullptr;
    FirstRunHint *m_hint = nullptr;
    QPointer<SessionLogView> m_sessionLogView;
    QToolBar *m_toolBar = nullptr;
    CreationHistoryView *m_history = nullptr;
    QDockWidget *m_historyDock = nullptr;
    bool m_refreshPending = false;

    // The batch of actions in flight (kill, extend...), for progress and cancel.
    QSet<Job *> m_actionJobs;
    int m_actionTotal = 0;
    QStringList m_actionErrors;
    QString m_actionDoneText;
    QHash<Job *, QString> m_actionJobIds;
    QStringList m_actionFailedIds;
    QString m_actionFailureText;
    std::function<void(const QStringList &)> m_actionRetry;
};

} // namespace sd
