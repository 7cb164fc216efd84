#include "creationjob.h"

#include "api/sandboxjobs.h"
#include "common/logging.h"
#include "creation/envdaccess.h"
#include "envd/processjobs.h"
#include "journal/creationjournal.h"
#include "mcp/mcpcommand.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUuid>

#include <climits>

#include <cmath>
#include <memory>

namespace sd {

namespace {

const QString creationTag = QStringLiteral("sandbox-desk.creation");
const QString installTag = QStringLiteral("sandbox-desk.install");
const QString reservedPrefix = QStringLiteral("sandbox-desk.");
/// The sandbox's first timeout: the gateway's budget plus this.
constexpr std::chrono::seconds initialTimeoutMargin { 60 };

/// The create may have happened on the server although we have no answer.
bool isAmbiguous(const CreateSandboxJob *job)
{
    const Error &error = job->error();
    switch (error.kind()) {
    case Error::Kind::Timeout:
    case Error::Kind::Transport:
    case Error::Kind::Cancelled:
        return job->requestWasSent();
    case Error::Kind::BadResponse: // a 201 we could not read: it exists
        return true;
    case Error::Kind::Http:
        return error.httpStatus() >= 500;
    default:
        return false;
    }
}

} // namespace

CreationJob::CreationJob(CreationContext context, CreationRequest request, QObject *parent)
    : Job(parent)
    , m_context(std::move(context))
    , m_request(std::move(request))
    , m_creationId(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    Q_ASSERT(m_context.network && m_context.journal);
    m_templateId = m_request.templateId.trimmed();
    if (m_templateId.isEmpty())
        m_templateId = m_request.mcp ? QString(McpGatewayTemplate) : QStringLiteral("base");
    if (m_request.mcp)
        m_gatewayToken = QUuid::createUuid().toString(QUuid::WithoutBraces);

    // Everything that must never reach the journal, the signals or the logs.
    for (const QString &value : m_request.envVars)
        m_redactor.addSecret(value);
    if (m_request.mcp)
        m_redactor.addSecretsIn(*m_request.mcp);
    m_redactor.addSecret(m_gatewayToken);
    m_redactor.addSecret(m_context.connection.apiKey);

    // The journal may go first (e.g. both owned by one object); QPointer notices.
    m_journalAlive = m_context.journal;
    m_budgetTimer.setSingleShot(true);
    connect(&m_budgetTimer, &QTimer::timeout, this, [this] {
        m_budgetExceeded = true;
        if (m_step)
            m_step->cancel();
    });
    m_retryTimer.setSingleShot(true);
}

CreationJob::~CreationJob()
{
    if (m_journalAlive)
        m_context.journal->setActive(m_creationId, false);
}

QString CreationJob::errorMessage() const { return redact(m_firstError.message()); }

QString CreationJob::redact(QString text) const { return m_redactor.redact(text); }

QByteArray CreationJob::redact(const QByteArray &data) const { return m_redactor.redact(data); }

void CreationJob::setState(CreationState state, std::function<void()> next)
{
    if (m_state == state) {
        if (next)
            next();
        return;
    }
    const auto announce = [this, state, next = std::move(next)] {
        Q_EMIT stateChanged(state);
        if (next)
            next();
    };
    m_state = state;
    qCDebug(lcCreation) << m_creationId << "->" << toString(state);
    // Journalled before the step it announces starts.
    if (m_intentWritten && !isFinal(state))
        journalThen(CreationJournal::stateRecord(m_creationId, state), announce);
    else
        announce();
}

void CreationJob::journalThen(QJsonObject record, std::function<void()> next)
{
    journal(std::move(record), [this, next = std::move(next)](bool written) {
        journalled(written);
        if (next)
            next();
    });
}

void CreationJob::journal(QJsonObject record, CreationJournal::Written done)
{
    QList<QJsonObject> records;
    const bool withId = std::exchange(m_idUnwritten, false);
    if (withId)
        records.append(CreationJournal::sandboxIdRecord(m_creationId, m_sandbox.sandboxId));
    records.append(std::move(record));
    m_context.journal->appendQueued(
        records, this, [this, withId, done = std::move(done)](bool written) {
            if (withId)
                Q_EMIT sandboxAllocated(m_sandbox.sandboxId);
            done(written);
        });
}

void CreationJob::journalled(bool written)
{
    if (written || m_journalError || !m_journalAlive)
        return;
    m_journalError = Error::journal(m_context.journal->errorString());
    m_journalError.withContext(tr("The creation could not be recorded, so it was stopped"));
    qCWarning(lcCreation) << m_creationId << m_journalError.message();
}

bool CreationJob::rollBackIfStopped()
{
    if (m_journalError)
        rollBack(m_journalError);
    else if (isCancelRequested())
        rollBack(Error::cancelled());
    else
        return false;
    return true;
}

void CreationJob::keepFirstError(const Error &error)
{
    if (!m_firstError)
        m_firstError = error;
}

void CreationJob::doStart()
{
    Q_EMIT stateChanged(m_state);
    if (!validate()) {
        finish(CreationState::Rejected);
        return;
    }
    allocate();
}

bool CreationJob::validate()
{
    const auto reject = [this](const QString &message) {
        m_firstError = Error::rejected(message);
        return false;
    };
    if (m_request.timeoutSeconds < 1 || m_request.timeoutSeconds > kMaxTimeoutSeconds)
        return reject(tr("The timeout must be between 1 second and 24 hours (%1 s given)")
                          .arg(m_request.timeoutSeconds));
    // The sandbox starts with a timeout of the budget plus a minute (see sendCreate()),
    // which must be one the API accepts.
    const std::chrono::milliseconds maxBudget
        = std::chrono::seconds(kMaxTimeoutSeconds) - initialTimeoutMargin;
    if (m_context.gatewayBudget <= std::chrono::milliseconds::zero()
        || m_context.gatewayBudget > maxBudget)
        return reject(tr("The gateway's start budget must be more than 0 s and at most %1 s, "
                         "since the sandbox starts with a timeout of the budget plus %2 s and "
                         "a timeout may not exceed 24 hours (%3 s given)")
                          .arg(std::chrono::duration_cast<std::chrono::seconds>(maxBudget).count())
                          .arg(initialTimeoutMargin.count())
                          .arg(double(m_context.gatewayBudget.count()) / 1000.0, 0, 'g', 12));
    for (auto it = m_request.metadata.begin(); it != m_request.metadata.end(); ++it) {
        if (it.key().isEmpty())
            return reject(tr("A metadata key is empty"));
        if (it.key().startsWith(reservedPrefix))
            return reject(
                tr("The metadata key \"%1\" is reserved: keys starting with \"%2\" are set "
                   "by Sandbox Desk")
                    .arg(it.key(), reservedPrefix));
    }
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (auto it = m_request.envVars.begin(); it != m_request.envVars.end(); ++it) {
        if (!envName.match(it.key()).hasMatch())
            return reject(
                tr("\"%1\" is not a valid environment variable name (letters, digits and _, "
                   "not starting with a digit)")
                    .arg(it.key()));
    }
    if (m_request.mcp) {
        const McpCatalog &catalog = m_context.catalog ? *m_context.catalog : McpCatalog::instance();
        const QList<McpFinding> findings = McpConfigCheck(catalog).check(*m_request.mcp);
        QStringList errors;
        for (const McpFinding &finding : findings) {
            if (finding.isError())
                errors << finding.message;
            if (!finding.isError() || m_request.force)
                m_findings << finding;
        }
        if (!errors.isEmpty() && !m_request.force)
            return reject(tr("The MCP configuration has problems: %1")
                              .arg(errors.join(QStringLiteral("; "))));
        const QString sizeError = argumentSizeError(mcpGatewayCommand(*m_request.mcp));
        if (!sizeError.isEmpty())
            return reject(sizeError);
    }
    return true;
}

void CreationJob::allocate()
{
    CreationIntent intent;
    intent.creationId = m_creationId;
    intent.templateId = m_templateId;
    if (m_request.mcp)
        intent.mcpServers = m_request.mcp->keys();
    intent.installId = m_context.installId;
    intent.timeoutSeconds = int(m_request.timeoutSeconds); // validated: at most 24 h
    m_context.journal->setActive(m_creationId, true);
    // Ownership is recorded before anything exists.
    m_intentQueued = true;
    m_context.journal->appendQueued(
        CreationJournal::intentRecord(intent), this, [this](bool written) {
            if (!written) {
                m_firstError = Error::journal(m_context.journal->errorString());
                m_firstError.withContext(
                    tr("The creation could not be recorded; nothing was created"));
                finish(CreationState::Rejected);
                return;
            }
            m_intentWritten = true;
            if (isCancelRequested()) { // while the intent was on its way: nothing sent
                keepFirstError(Error::cancelled());
                finish(CreationState::Cancelled);
                return;
            }
            m_state = CreationState::Allocating; // the intent record stands for this state
            Q_EMIT stateChanged(m_state);
            sendCreate();
        });
}

void CreationJob::sendCreate()
{
    NewSandbox request;
    request.templateId = m_templateId;
    // Short: an orphan of a crashed run dies by itself soon. Extending sets the real one.
    const auto budgetSeconds = std::chrono::ceil<std::chrono::seconds>(m_context.gatewayBudget);
    request.timeoutSeconds = int((budgetSeconds + initialTimeoutMargin).count());
    request.metadata = m_request.metadata;
    request.metadata.insert(creationTag, m_creationId);
    request.metadata.insert(installTag, m_context.installId);
    request.envVars = m_request.envVars;
    request.mcp = m_request.mcp;

    auto *job = new CreateSandboxJob(m_context.network, m_context.connection, request, this);
    job->setTimeout(m_context.allocationTimeout);
    m_step = job;
    connect(job, &Job::finished, this, &CreationJob::onAllocated);
    job->start();
}

void CreationJob::onAllocated()
{
    auto *job = qobject_cast<CreateSandboxJob *>(m_step.data());
    m_step = nullptr;
    if (!job)
        return;
    if (!job->hasError()) {
        m_sandbox = job->sandbox();
        m_redactor.addSecret(m_sandbox.envdAccessToken);
        const int timesSent = job->timesSent();
        if (timesSent == 1 && !isCancelRequested() && !m_journalError) {
            // The usual case. afterAllocation() goes on to the next step, whose record
            // it queues straight away: the id goes with it, one write and one fsync
            // where two would follow each other.
            m_idUnwritten = true;
            afterAllocation();
            return;
        }
        journalThen(
            CreationJournal::sandboxIdRecord(m_creationId, m_sandbox.sandboxId), [this, timesSent] {
                Q_EMIT sandboxAllocated(m_sandbox.sandboxId);
                // Also when cancelled meanwhile: a resent create may have made more than one,
                // and the rollback has to take them all (afterAllocation() then rolls back).
                // Written out once, it made at most the one the answer names.
                if (timesSent == 1)
                    afterAllocation();
                else
                    removeDuplicates();
            });
        return;
    }

    Error error = job->error();
    error.withContext(tr("Could not create the sandbox"));
    if (isAmbiguous(job)) {
        searchAndRollBack(error);
        return;
    }
    // Clearly refused: nothing was allocated.
    keepFirstError(isCancelRequested() ? Error::cancelled() : error);
    if (isCancelRequested()) {
        finish(CreationState::Cancelled);
        return;
    }
    const int status = error.httpStatus();
    const bool inputRefused = error.kind() == Error::Kind::Http && status >= 400 && status < 500
        && status != 401 && status != 403 && status != 408 && status != 429;
    finish(inputRefused ? CreationState::Rejected : CreationState::RolledBack);
}

void CreationJob::removeDuplicates()
{
    // Qt's HTTP stack silently resends a request whose connection closed before the
    // answer, POST included: each try may have made a sandbox. They carry our tag.
    SandboxFilter filter;
    filter.metadata.insert(creationTag, m_creationId);
    auto *job = new ListSandboxesJob(m_context.network, m_context.connection, filter, this);
    job->setTimeout(m_context.requestTimeout);
    m_step = job;
    connect(job, &Job::finished, this, [this, job] {
        m_step = nullptr;
        if (job->hasError()) {
            // Not fatal: the orphan detector finds any duplicate by its tag later.
            qCWarning(lcCreation) << "duplicate check failed:" << job->error().message();
            afterAllocation();
            return;
        }
        for (const Sandbox &sandbox : job->sandboxes()) {
            if (sandbox.sandboxId != m_sandbox.sandboxId
                && sandbox.metadata.value(creationTag) == m_creationId)
                m_duplicates << sandbox.sandboxId;
        }
        if (m_duplicates.isEmpty()) {
            afterAllocation();
            return;
        }
        qCWarning(lcCreation) << "removing" << m_duplicates.size() << "duplicate sandbox(es) of"
                              << m_creationId;
        journalThen(CreationJournal::foundRecord(m_creationId, m_duplicates), [this] {
            auto remaining = std::make_shared<int>(int(m_duplicates.size()));
            for (const QString &id : std::as_const(m_duplicates)) {
                auto *kill = new RetryingKillJob(
                    m_context.network, m_context.connection, id, m_context.rollback, this);
                connect(kill, &Job::finished, this, [this, remaining, kill] {
                    if (kill->hasError())
                        qCWarning(lcCreation) << "could not remove duplicate" << kill->sandboxId();
                    if (--*remaining == 0)
                        afterAllocation();
                });
                kill->start();
            }
        });
    });
    job->start();
}

void CreationJob::afterAllocation()
{
    if (rollBackIfStopped())
        return;
    if (m_request.mcp)
        startGateway();
    else
        extend();
}

void CreationJob::startGateway()
{
    setState(CreationState::StartingGateway, [this] { runGateway(); });
}

void CreationJob::runGateway()
{
    if (rollBackIfStopped()) // cancelled from a stateChanged() slot, or not journalled
        return;
    const QString command = mcpGatewayCommand(*m_request.mcp);
    ProcessConfig config = StartProcessJob::shellCommand(
        command, { { QStringLiteral("GATEWAY_ACCESS_TOKEN"), m_gatewayToken } });
    EnvdTarget target = envdTargetFor(m_context.connection, m_sandbox);
    target.user = QStringLiteral("root");
    auto *job = new StartProcessJob(m_context.network, target, config, this);
    // The server's deadline comes after ours, so the budget is what the user reads.
    job->setConnectTimeoutMs(int(m_context.gatewayBudget.count()) + 5000);
    m_step = job;
    // Masked on the stream: a secret may arrive split across two pieces.
    m_stdout.redactor = m_redactor;
    m_stderr.redactor = m_redactor;
    connect(job, &ProcessStreamJob::stdoutReceived, this, [this](const QByteArray &chunk) {
        appendOutput(&m_stdout, m_stdout.redactor.feed(chunk), false);
    });
    connect(job, &ProcessStreamJob::stderrReceived, this, [this](const QByteArray &chunk) {
        appendOutput(&m_stderr, m_stderr.redactor.feed(chunk), true);
    });
    connect(job, &Job::finished, this, &CreationJob::onGatewayFinished);
    m_budgetTimer.start(m_context.gatewayBudget);
    job->start();
}

QByteArray CreationJob::Output::text() const { return tail(maxOutputBytes); }

QByteArray CreationJob::Output::tail(int maxBytes) const
{
    const qint64 dropped = cut + qMax<qint64>(0, kept.size() - maxBytes);
    if (dropped == 0)
        return kept;
    QByteArray head
        = tr("[first %n byte(s) of output cut]\n", nullptr, int(qMin<qint64>(dropped, INT_MAX)))
              .toUtf8();
    QByteArray end = kept.right(qMax<qsizetype>(0, maxBytes - head.size()));
    // Do not start in the middle of a UTF-8 sequence.
    while (!end.isEmpty() && (uchar(end.at(0)) & 0xC0) == 0x80)
        end.remove(0, 1);
    return head + end;
}

void CreationJob::appendOutput(Output *output, const QByteArray &masked, bool isStderr)
{
    if (masked.isEmpty())
        return;
    output->kept.append(masked);
    // Keep the end, where the error usually is; the live view saw all of it.
    if (output->kept.size() > maxOutputBytes) {
        const qsizetype excess = output->kept.size() - maxOutputBytes;
        output->kept.remove(0, excess);
        output->cut += excess;
    }
    if (isStderr)
        Q_EMIT gatewayStderrReceived(masked);
    else
        Q_EMIT gatewayStdoutReceived(masked);
}

void CreationJob::flushOutputs()
{
    appendOutput(&m_stdout, m_stdout.redactor.flush(), false);
    appendOutput(&m_stderr, m_stderr.redactor.flush(), true);
}

void CreationJob::onGatewayFinished()
{
    m_budgetTimer.stop();
    auto *job = qobject_cast<StartProcessJob *>(m_step.data());
    m_step = nullptr;
    if (!job)
        return;
    m_exitCode = job->exitCode();
    flushOutputs();
    // Read now: the job deletes itself after its finished().
    GatewayEnd end { job->hasEnded(), job->exited(), job->exitCode(), job->error() };
    if (m_stderr.text().isEmpty()) {
        afterGateway(end);
        return;
    }
    journalThen(CreationJournal::gatewayStderrRecord(
                    m_creationId, m_stderr.tail(CreationJournal::maxStderrBytes)),
        [this, end] { afterGateway(end); });
}

void CreationJob::afterGateway(const GatewayEnd &end)
{
    const QByteArray stderrText = m_stderr.text();
    const QString context = tr("Failed to start MCP gateway");
    // A clean exit 0 is a started gateway, whatever the stream said after it.
    const bool exitedCleanly = end.ended && end.exited && end.exitCode == 0;
    if (isCancelRequested()) {
        rollBack(Error::cancelled());
    } else if (m_budgetExceeded) {
        QString message = tr("the MCP gateway did not start within %1 s")
                              .arg(double(m_context.gatewayBudget.count()) / 1000.0);
        const QString output = QString::fromUtf8(stderrText).trimmed();
        if (!output.isEmpty())
            message += tr("; its error output so far:\n%1").arg(output);
        rollBack(Error::timeout(message).withContext(context));
    } else if (exitedCleanly) {
        extend();
    } else if (end.error) {
        Error error = end.error;
        rollBack(error.withContext(context));
    } else if (!end.ended || !end.exited || end.exitCode != 0) {
        QString detail = QString::fromUtf8(stderrText).trimmed();
        if (detail.isEmpty())
            detail = end.ended ? tr("exit code %1").arg(end.exitCode)
                               : tr("the process stream ended without an exit status");
        rollBack(Error::rejected(detail).withContext(context));
    } else {
        extend();
    }
}

void CreationJob::extend()
{
    setState(CreationState::Extending, [this] { sendExtend(); });
}

void CreationJob::sendExtend()
{
    if (rollBackIfStopped())
        return;
    auto *job = new SetTimeoutJob(m_context.network, m_context.connection, m_sandbox.sandboxId,
        int(m_request.timeoutSeconds), this);
    job->setTimeout(m_context.requestTimeout);
    m_step = job;
    connect(job, &Job::finished, this, [this, job] {
        m_step = nullptr;
        if (isCancelRequested()) {
            rollBack(Error::cancelled());
        } else if (job->hasError()) {
            Error error = job->error();
            rollBack(error.withContext(tr("Could not set the sandbox timeout")));
        } else {
            finish(CreationState::Ready);
        }
    });
    job->start();
}

void CreationJob::rollBack(const Error &error)
{
    keepFirstError(error);
    setState(CreationState::RollingBack, [this] { killOwn(); });
}

void CreationJob::killOwn()
{
    auto *job = new RetryingKillJob(
        m_context.network, m_context.connection, m_sandbox.sandboxId, m_context.rollback, this);
    m_step = job;
    connect(job, &Job::finished, this, [this, job] {
        m_step = nullptr;
        RollbackReport report;
        report.attempts = job->attempts();
        if (!job->hasError()) {
            report.outcome
                = job->wasAlreadyGone() ? RollbackOutcome::AlreadyGone : RollbackOutcome::Killed;
            m_rollback = report;
            finish(CreationState::RolledBack);
            return;
        }
        report.outcome = RollbackOutcome::Failed;
        report.error = redact(job->error().message());
        report.summary = tr("The sandbox %1 could not be removed and may still be running")
                             .arg(m_sandbox.sandboxId);
        m_rollback = report;
        m_orphanReason = OrphanReason::RollbackFailed;
        finish(CreationState::RollbackFailed);
    });
    job->start();
}

void CreationJob::searchAndRollBack(const Error &error)
{
    keepFirstError(isCancelRequested() ? Error::cancelled() : error);
    m_searchAttempts = 0;
    setState(CreationState::RollingBack, [this] { searchAttempt(); });
}

void CreationJob::searchAttempt()
{
    ++m_searchAttempts;
    SandboxFilter filter;
    filter.metadata.insert(creationTag, m_creationId);
    auto *job = new ListSandboxesJob(m_context.network, m_context.connection, filter, this);
    job->setTimeout(m_context.requestTimeout);
    m_step = job;
    connect(job, &Job::finished, this, [this, job] {
        m_step = nullptr;
        if (job->hasError()) {
            m_lastRollbackError = redact(job->error().message());
            const int status = job->error().httpStatus();
            if (m_searchAttempts < m_context.rollback.attempts && status != 401 && status != 403) {
                m_retryTimer.callOnTimeout(
                    this, &CreationJob::searchAttempt, Qt::SingleShotConnection);
                m_retryTimer.start(m_context.rollback.delayBefore(m_searchAttempts + 1));
                return;
            }
            RollbackReport report;
            report.attempts = m_searchAttempts;
            report.outcome = RollbackOutcome::Failed;
            report.error = m_lastRollbackError;
            report.summary
                = tr("The server may have created a sandbox, and searching for it failed; "
                     "it will be looked for again on the next refresh");
            m_rollback = report;
            m_orphanReason = OrphanReason::LostResponse;
            finish(CreationState::RollbackFailed);
            return;
        }
        m_found.clear();
        for (const Sandbox &sandbox : job->sandboxes()) {
            // The server filtered by our tag; check again so a careless server can
            // never make us kill someone else's sandbox.
            if (sandbox.metadata.value(creationTag) == m_creationId)
                m_found << sandbox.sandboxId;
        }
        journalThen(CreationJournal::foundRecord(m_creationId, m_found), [this] {
            m_foundIndex = 0;
            m_killAttempts = 0;
            m_lastRollbackError.clear();
            killFound();
        });
    });
    job->start();
}

void CreationJob::killFound()
{
    if (m_foundIndex >= m_found.size()) {
        RollbackReport report;
        report.attempts = m_searchAttempts + m_killAttempts;
        report.found = int(m_found.size());
        const bool failed = !m_lastRollbackError.isEmpty();
        report.outcome = failed
            ? RollbackOutcome::Failed
            : (m_found.isEmpty() ? RollbackOutcome::AlreadyGone : RollbackOutcome::Killed);
        report.error = m_lastRollbackError;
        report.summary = failed
            ? tr("The server may have created a sandbox: found %n, and not all could be "
                 "removed",
                nullptr, int(m_found.size()))
            : tr("The server may have created a sandbox: found and removed %n", nullptr,
                int(m_found.size()));
        m_rollback = report;
        if (failed) {
            m_orphanReason = OrphanReason::RollbackFailed;
            finish(CreationState::RollbackFailed);
        } else {
            finish(isCancelRequested() && m_found.isEmpty() ? CreationState::Cancelled
                                                            : CreationState::RolledBack);
        }
        return;
    }
    const QString id = m_found.at(m_foundIndex);
    auto *job = new RetryingKillJob(
        m_context.network, m_context.connection, id, m_context.rollback, this);
    m_step = job;
    connect(job, &Job::finished, this, [this, job] {
        m_step = nullptr;
        m_killAttempts += job->attempts();
        if (job->hasError())
            m_lastRollbackError = redact(job->error().message());
        ++m_foundIndex;
        killFound();
    });
    job->start();
}

bool CreationJob::endedCancelled() const
{
    return m_state == CreationState::Cancelled
        || (m_state == CreationState::RolledBack && error().kind() == Error::Kind::Cancelled);
}

void CreationJob::doCancel()
{
    switch (m_state) {
    case CreationState::Validating:
        if (m_intentQueued)
            break; // the intent's write ends in Cancelled, with its outcome journalled
        // Not started yet (validation runs in one go): nothing exists.
        m_firstError = Error::cancelled();
        finish(CreationState::Cancelled);
        break;
    case CreationState::Allocating:
        // Stop waiting for the user, but not for the server: the answer names the
        // sandbox to kill. onAllocated() sees the cancel and rolls back.
        keepFirstError(Error::cancelled());
        setState(CreationState::RollingBack);
        break;
    case CreationState::StartingGateway:
    case CreationState::Extending:
        keepFirstError(Error::cancelled());
        if (m_step)
            m_step->cancel(); // its finished() leads to the rollback
        break;
    default:
        // Rolling back (it finishes in the background) or already final.
        break;
    }
}

void CreationJob::finish(CreationState state)
{
    if (isFinished() || m_finishing)
        return;
    m_budgetTimer.stop();
    m_retryTimer.stop();
    if (!m_intentWritten) {
        announceFinished(state);
        return;
    }
    m_finishing = true;
    CreationOutcome outcome;
    outcome.state = state;
    outcome.error = errorMessage();
    outcome.rollback = m_rollback;
    outcome.orphanReason = m_orphanReason;
    // The history tells a cancel from a failure by this, as endedCancelled() does here.
    outcome.cancelled
        = state != CreationState::Ready && m_firstError.kind() == Error::Kind::Cancelled;
    journal(CreationJournal::outcomeRecord(m_creationId, outcome), [this, state](bool written) {
        m_finishing = false;
        journalled(written);
        if (!written && state == CreationState::Ready) {
            // Without its outcome a Ready creation looks interrupted once this
            // process ends, and its sandbox would be killed as an orphan: take it
            // away now.
            rollBack(m_journalError);
            return;
        }
        announceFinished(state);
    });
}

void CreationJob::announceFinished(CreationState state)
{
    m_context.journal->setActive(m_creationId, false);
    m_state = state;
    qCDebug(lcCreation) << m_creationId << "finished:" << toString(state);
    Q_EMIT stateChanged(state);
    if (m_firstError)
        setError(m_firstError);
    emitResult();
}

} // namespace sd
