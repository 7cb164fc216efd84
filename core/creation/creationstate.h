#pragma once

#include <QMetaType>
#include <QString>

#include <optional>

namespace sd {

/// Where a creation is. Every creation ends in one of the final states.
enum class CreationState
{
    Validating,
    Allocating,
    StartingGateway,
    Extending,
    Ready, ///< final: the sandbox runs and is the user's
    RollingBack,
    RolledBack, ///< final: failed or cancelled after allocation; nothing left running
    RollbackFailed, ///< final: something may still run; the orphan detector flags it
    Rejected, ///< final: refused before anything was allocated
    Cancelled, ///< final: cancelled before anything was allocated
};

bool isFinal(CreationState state);
/// The stable spelling used by the journal and the command line ("starting_gateway").
QString toString(CreationState state);
std::optional<CreationState> creationStateFromString(const QString &text);
/// A short phrase for people ("Starting the MCP gateway").
QString displayName(CreationState state);

/// What the rollback of a failed creation achieved.
enum class RollbackOutcome
{
    Killed,
    AlreadyGone,
    Failed
};
QString toString(RollbackOutcome outcome);
std::optional<RollbackOutcome> rollbackOutcomeFromString(const QString &text);

/// Why a sandbox is flagged as an orphan.
enum class OrphanReason
{
    RollbackFailed,
    Interrupted,
    LostResponse,
    GatewayDown
};
QString toString(OrphanReason reason);
std::optional<OrphanReason> orphanReasonFromString(const QString &text);

/// The rollback of one creation, reported beside its first error (never instead).
struct RollbackReport
{
    int attempts = 0;
    RollbackOutcome outcome = RollbackOutcome::Killed;
    QString error; ///< the rollback's own last error, empty when it succeeded
    /// For an ambiguous allocation: how many tagged sandboxes the search found.
    std::optional<int> found;
    /// One sentence for people, e.g. "The server may have created a sandbox: found and removed 1".
    QString summary;
};

/// What a rollback did, for people, worded once for the window, its history and the
/// command line: "the sandbox was removed (attempts: 1)", the report's own summary in
/// place of the outcome when it has one, and its last error when there is one.
QString rollbackText(const RollbackReport &report);

} // namespace sd

Q_DECLARE_METATYPE(sd::CreationState)
