#pragma once

#include "common/linebuffer.h"
#include "creation/creationjob.h"
#include "mcp/mcpcatalog.h"
#include "session/session.h"

#include <QDialog>
#include <QJsonObject>
#include <QMap>
#include <QPointer>

#include <memory>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;

namespace sd {



class KeyValueTable;
class MessageBanner;

/// "New sandbox": the settings form with live validation, then, on Create, the
/// progress of the CreationJob (steps, live gateway output, Cancel), then its
/// outcome with Retry.
///
///   form ──Create──▶ progress ──finished──▶ outcome ──Retry──▶ form (secrets cleared)
///     ▲  (disabled with the reason while invalid)      │
///     └──────────────────────── Close ◀────────────────┘
///
/// Nothing reaches the network before Create: validation is local (the MCP check
/// runs against the compiled-in catalog).
class NewSandboxDialog : public QDialog
{
    Q_OBJECT

public:
    /// `context` must name a network and a journal that outlive the dialog.
    explicit NewSandboxDialog(CreationContext context, QWidget *parent = nullptr);
    ~NewSandboxDialog() override;

    /// Adds the profile's templates to the template list.
    void addTemplates(const QStringList &templateIds);

    /// What Create would ask for now.
    CreationRequest request() const;
    /// True when Create is enabled.
    bool canCreate() const;
    /// The reason Create is disabled (or the warnings shown), empty when all is well.
    QString validationMessage() const;
    /// The running or finished creation (null before Create).
    CreationJob *job() const { return m_job.get(); }
    /// The session the creation runs in: it tracks the job (quitting waits for it) and
    /// takes it over, still running, when the dialog goes away.
    void setSession(Session *session) { m_session = session; }
    bool isShowingProgress() const;

    // The MCP section, for keyboard users and tests.
    void setMcpJson(const QString &text);
    QString mcpJson() const;
    /// Ticks `serverId` in the server list and shows its options.
    bool pickServer(const QString &serverId);
    /// Sets an option of the shown server through its form field.
    bool setOptionText(const QString &option, const QString &text);

Q_SIGNALS:
    /// The creation ended; `sandboxId` is set when it is Ready.
    void creationFinished(const QString &sandboxId, bool ready);
    /// The user sent the running creation to the background: the dialog is hidden and
    /// the creation goes on (the window reports how it ends).
    void movedToBackground();

public Q_SLOTS:
    /// While a creation runs, asks whether to cancel it, run it in the background or
    /// keep watching; never cancels without that answer.
    void reject() override;
    void runInBackground();

private:
    QWidget *createFormPage();
    QWidget *createMcpSection();
    QWidget *createProgressPage();
    void validate();
    void followMcpTemplate();
    void startCreation();
    void showForm(bool clearSecrets);
    void onStateChanged(CreationState state);
    void onFinished();
    void appendOutput(const QByteArray &text);

    void filterServers(const QString &text);
    void showServerOptions(const QString &serverId);
    void onServerItemChanged(QListWidgetItem *item);
    void onOptionEdited(const QString &serverId, const McpOption &option, const QString &text);
    void onJsonEdited();
    void writeJsonFromForm();
    void syncListChecks();
    std::optional<QJsonObject> mcpConfig() const;

    CreationContext m_context;
    const McpCatalog &m_catalog;

    QStackedWidget *m_pages = nullptr;
    // Form page.
    QComboBox *m_template = nullptr;
    QSpinBox *m_timeout = nullptr;
    KeyValueTable *m_metadata = nullptr;
    KeyValueTable *m_env = nullptr;
    QTabWidget *m_mcpTabs = nullptr;
    QLineEdit *m_serverSearch = nullptr;
    QListWidget *m_serverList = nullptr;
    QWidget *m_optionsHost = nullptr;
    QLabel *m_optionsTitle = nullptr;
    QFormLayout *m_optionsForm = nullptr;
    QString m_shownServer;
    QPlainTextEdit *m_json = nullptr;
    QLabel *m_jsonStatus = nullptr;
    QCheckBox *m_revealSecrets = nullptr;
    QPushButton *m_replaceJson = nullptr;
    bool m_jsonMasked = false; ///< the raw tab shows the form's JSON with secret values hidden
    QLabel *m_problem = nullptr;
    QCheckBox *m_force = nullptr;
    QPushButton *m_createButton = nullptr;
    QPushButton *m_cancelFormButton = nullptr;

    // Progress page.
    QLabel *m_progressTitle = nullptr;
    QListWidget *m_steps = nullptr;
    QPlainTextEdit *m_output = nullptr;
    LineBuffer m_gatewayStdout; ///< whole lines only: the two streams would mix mid-line
    LineBuffer m_gatewayStderr;
    QLabel *m_outputTitle = nullptr;
    MessageBanner *m_outcome = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_backgroundButton = nullptr;
    QPushButton *m_retryButton = nullptr;
    QPushButton *m_copyIdButton = nullptr;
    QPushButton *m_closeButton = nullptr;

    QString m_autoTemplate = QStringLiteral("base");
    QMap<QString, QJsonObject> m_mcp; ///< picked servers and their options (secrets)
    bool m_jsonValid = true;
    QString m_jsonError;
    bool m_syncing = false;
    bool m_valid = false;
    QString m_validation;

    std::unique_ptr<CreationJob> m_job;
    QPointer<Session> m_session;
    bool m_jobHasMcp = false;
    CreationState m_lastState = CreationState::Validating;
};

} // namespace sd
