#pragma once

#include "api/connectionsettings.h"
#include "api/sandbox.h"
#include "common/job.h"
#include "creation/creationstate.h"
#include "creation/retryingkilljob.h"
#include "journal/creationjournal.h"
#include "mcp/mcpconfigcheck.h"
#include "mcp/secretredactor.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace sd {

class CreationJournal;

/// What the user asked for.
struct CreationRequest
{
    QString templateId; ///< empty: `mcp-gateway` with mcp, `base` without (as the SDK)
    qint64 timeoutSeconds
        = 300; ///< 1 s .. 24 h; wide, so that any value given is reported as given
    Metadata metadata; ///< keys must not start with `sandbox-desk.`
    QMap<QString, QString> envVars; ///< values are secrets
    std::optional<QJsonObject> mcp; ///< option values are secrets
    bool force = false; ///< start although the MCP check found errors
};

/// Everything a creation talks to, injected so tests can shorten and observe it.
struct CreationContext
{
    QNetworkAccessManager *network = nullptr; ///< not owned; outlives the job
    ConnectionSettings connection;
    CreationJournal *journal = nullptr; ///< not owned; required
    QString installId; ///< see installationId()
    const McpCatalog *catalog = nullptr; ///< null: the compiled-in catalog
    /// More than 0, at most 24 h less a minute (the sandbox's first timeout adds one).
    std::chrono::milliseconds gatewayBudget { 120000 };
    /// Client limit for the create call itself.
    std::chrono::milliseconds allocationTimeout { 60000 };
    /// Client limit for the timeout, list and kill calls.
    std::chrono::milliseconds requestTimeout { 30000 };
    RetryPolicy rollback; ///< 3 tries, 0.5 s / 1 s / 2 s apart
};

/// Creates one sandbox and either hands it over Ready or takes it away again.
///
/// ```
///  Validating ──reject──────────────────────────────────────────────▶ Rejected
///      │ journal: intent (fsync'd)                       cancel ────▶ Cancelled
///      ▼
///  Allocating ── POST /v2/sandboxes {metadata: sandbox-desk.creation,
///      │          sandbox-desk.install; timeout: budget + 60 s}
///      │   clear failure (4xx, unreachable) ─────────────────────────▶ Rejected / RolledBack
///      │   ambiguous (timeout/reset after send, 5xx, bad 201) ──┐
///      │ journal: sandbox id, one write with the next state      │ search by tag
///      │   (sent twice or more: search by tag, kill duplicates)  │
///      ▼                                                         ▼
///  StartingGateway (only with mcp) ── envd Start ─┐        RollingBack ── DELETE ×3
///      │  "mcp-gateway --config '<json>'"         │ exit≠0,     │  (0.5 s, 1 s, 2 s)
///      │  stdout/stderr ▶ signals, live           │ stream      ├──gone──▶ RolledBack
///      ▼                                          │ error,      └──not──▶ RollbackFailed
///  Extending ── POST /sandboxes/{id}/timeout ─────┤ budget,
///      │                                          │ cancel, a
///      │ journal: outcome                         │ journal write
///      │   (not written: roll back) ──────────────┤ that failed
///      ▼                                          └──────────▶ RollingBack
///    Ready
/// ```
///
/// Each state change is journalled before the call it starts: the job writes each
/// record through the journal's writer thread and starts the call once the record
/// is durable, so the thread it runs on never waits for the disk. A journal write that
/// fails after the intent (disk full, I/O error) stops the creation at its next step
/// and rolls it back with an Error::Kind::Journal error, and so does a Ready outcome
/// that cannot be written: a creation whose records stop short looks interrupted
/// later, and its sandbox would be killed as an orphan even when Ready. The error
/// reported is always the first one; the rollback's outcome is reported beside it
/// (rollback()).
/// cancel() in any state stops waiting and rolls back what exists (a create answer
/// that arrives after the cancel is killed); during the rollback it is ignored.
/// finished() fires once, after the final state is journalled.
class CreationJob : public Job
{
    Q_OBJECT

public:
    CreationJob(CreationContext context, CreationRequest request, QObject *parent = nullptr);
    ~CreationJob() override;

    /// A uuid made at construction; it tags the sandbox and names the journal entries.
    QString creationId() const { return m_creationId; }
    QString templateId() const { return m_templateId; }
    CreationState state() const { return m_state; }
    /// Empty until the create answer was read.
    QString sandboxId() const { return m_sandbox.sandboxId; }
    /// The create answer (holds the envd token: a secret).
    const Sandbox &sandbox() const { return m_sandbox; }
    /// The token clients need to reach the gateway (a secret; empty without mcp).
    QString gatewayAccessToken() const { return m_gatewayToken; }

    /// The first error's sentence (error() holds it as a value); empty when Ready.
    QString errorMessage() const;
    /// Finished because it was cancelled, with nothing left behind: reported as
    /// cancelled, not as a failure.
    bool endedCancelled() const;
    /// Sandboxes with our tag besides ours, made by a create the network stack resent
    /// after a dropped connection; each was killed (or is flagged by the detector).
    QStringList duplicatesRemoved() const { return m_duplicates; }
    /// Set when a rollback ran.
    std::optional<RollbackReport> rollback() const { return m_rollback; }
    /// Why something may be left running (RollbackFailed only).
    std::optional<OrphanReason> orphanReason() const { return m_orphanReason; }
    /// What the MCP check found (warnings; errors too when forced).
    QList<McpFinding> mcpFindings() const { return m_findings; }

    /// The gateway's output so far, secrets masked. Past maxOutputBytes the END is
    /// kept (where the error usually is), after a line saying how much was cut.
    QByteArray gatewayStdout() const { return m_stdout.text(); }
    QByteArray gatewayStderr() const { return m_stderr.text(); }
    int gatewayExitCode() const { return m_exitCode; }

    static constexpr int maxOutputBytes = 1024 * 1024;

Q_SIGNALS:
    /// Each state as it is entered (also the final one, before finished()).
    void stateChanged(sd::CreationState state);
    /// The sandbox exists (its id is journalled).
    void sandboxAllocated(const QString &sandboxId);
    /// Gateway output as it arrives, secrets masked (a secret split across two pieces
    /// too: up to the longest secret's length is held back until the next piece).
    void gatewayStdoutReceived(const QByteArray &data);
    void gatewayStderrReceived(const QByteArray &data);

protected:
    void doStart() override;
    void doCancel() override;

private:
    bool validate();
    void allocate();
    void sendCreate();
    void onAllocated();
    void removeDuplicates();
    void afterAllocation();
    void startGateway();
    void runGateway();
    void onGatewayFinished();
    /// How the gateway's process stream ended.
    struct GatewayEnd
    {
        bool ended = false; ///< an end event arrived
        bool exited = false; ///< exited, not killed by a signal
        int exitCode = -1;
        Error error; ///< the stream's own failure, if any
    };
    void afterGateway(const GatewayEnd &end);
    void extend();
    void sendExtend();
    void rollBack(const Error &error);
    void killOwn();
    void searchAndRollBack(const Error &error);
    void searchAttempt();
    void killFound();
    /// Journals the outcome, then announceFinished().
    void finish(CreationState state);
    void announceFinished(CreationState state);

    /// Enters `state`; once its record is durable, tells the listeners and goes on
    /// with `next`.
    void setState(CreationState state, std::function<void()> next = {});
    /// Queues `record` on the journal and goes on with `next` once it is durable, or
    /// failed (journalled() noted it, and the next step stops).
    void journalThen(QJsonObject record, std::function<void()> next);
    /// Queues `record` on the journal, after the sandbox's id when that waits to go
    /// with it (then sandboxAllocated() follows the write); `done` gets the result.
    void journal(QJsonObject record, CreationJournal::Written done);
    /// Notes a journal write after the intent that failed; the next step stops.
    void journalled(bool written);
    /// Rolls back when the user cancelled or a journal write failed; true if it did.
    bool rollBackIfStopped();
    void keepFirstError(const Error &error);
    QString redact(QString text) const;
    QByteArray redact(const QByteArray &data) const;

    CreationContext m_context;
    QPointer<CreationJournal> m_journalAlive;
    CreationRequest m_request;
    QString m_creationId;
    QString m_templateId;
    QString m_gatewayToken;
    SecretRedactor m_redactor; ///< every secret of this creation
    CreationState m_state = CreationState::Validating;
    Sandbox m_sandbox;
    QList<McpFinding> m_findings;
    Error m_firstError;
    Error m_journalError; ///< the first journal write after the intent that failed
    std::optional<RollbackReport> m_rollback;
    std::optional<OrphanReason> m_orphanReason;

    QPointer<Job> m_step;
    QTimer m_budgetTimer;
    QTimer m_retryTimer;
    bool m_budgetExceeded = false;
    bool m_intentWritten = false;
    bool m_intentQueued = false; ///< a cancel then waits for the intent's outcome
    bool m_idUnwritten = false; ///< the sandbox's id goes with the next record
    bool m_finishing = false; ///< the outcome record is on its way
    int m_searchAttempts = 0;
    QStringList m_found;
    QStringList m_duplicates;
    int m_foundIndex = 0;
    int m_killAttempts = 0;
    QString m_lastRollbackError;

    /// One output stream of the gateway: masked on the stream, the end kept.
    struct Output
    {
        SecretRedactor redactor;
        QByteArray kept;
        qint64 cut = 0; ///< bytes dropped from the start
        QByteArray text() const;
        /// The text in at most `maxBytes`, the end kept (the journal's record).
        QByteArray tail(int maxBytes) const;
    };
    void appendOutput(Output *output, const QByteArray &masked, bool isStderr);
    void flushOutputs();

    Output m_stdout;
    Output m_stderr;
    int m_exitCode = -1;
};

} // namespace sd
