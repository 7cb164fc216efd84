#include "creationstate.h"

#include <QCoreApplication>

namespace sd {

namespace {
// State names are shown in the window and the command line; one translation context.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(sd::CreationState)
};

struct StateName
{
    CreationState state;
    const char *text;
};

constexpr StateName stateNames[] = {
    { CreationState::Validating, "validating" },
    { CreationState::Allocating, "allocating" },
    { CreationState::StartingGateway, "starting_gateway" },
    { CreationState::Extending, "extending" },
    { CreationState::Ready, "ready" },
    { CreationState::RollingBack, "rolling_back" },
    { CreationState::RolledBack, "rolled_back" },
    { CreationState::RollbackFailed, "rollback_failed" },
    { CreationState::Rejected, "rejected" },
    { CreationState::Cancelled, "cancelled" },
};
} // namespace

bool isFinal(CreationState state)
{
    switch (state) {
    case CreationState::Ready:
    case CreationState::RolledBack:
    case CreationState::RollbackFailed:
    case CreationState::Rejected:
    case CreationState::Cancelled:
        return true;
    default:
        return false;
    }
}

QString toString(CreationState state)
{
    for (const StateName &name : stateNames) {
        if (name.state == state)
            return QString::fromLatin1(name.text);
    }
    return {};
}

std::optional<CreationState> creationStateFromString(const QString &text)
{
    for (const StateName &name : stateNames) {
        if (text == QLatin1String(name.text))
            return name.state;
    }
    return std::nullopt;
}

QString displayName(CreationState state)
{
    switch (state) {
    case CreationState::Validating:
        return Text::tr("Checking the request");
    case CreationState::Allocating:
        return Text::tr("Allocating the sandbox");
    case CreationState::StartingGateway:
        return Text::tr("Starting the MCP gateway");
    case CreationState::Extending:
        return Text::tr("Setting the sandbox timeout");
    case CreationState::Ready:
        return Text::tr("Ready");
    case CreationState::RollingBack:
        return Text::tr("Rolling back");
    case CreationState::RolledBack:
        return Text::tr("Rolled back");
    case CreationState::RollbackFailed:
        return Text::tr("Rollback failed");
    case CreationState::Rejected:
        return Text::tr("Rejected");
    case CreationState::Cancelled:
        return Text::tr("Cancelled");
    }
    return {};
}

QString toString(RollbackOutcome outcome)
{
    switch (outcome) {
    case RollbackOutcome::Killed:
        return QStringLiteral("killed");
    case RollbackOutcome::AlreadyGone:
        return QStringLiteral("already_gone");
    case RollbackOutcome::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

std::optional<RollbackOutcome> rollbackOutcomeFromString(const QString &text)
{
    for (RollbackOutcome o :
        { RollbackOutcome::Killed, RollbackOutcome::AlreadyGone, RollbackOutcome::Failed }) {
        if (toString(o) == text)
            return o;
    }
    return std::nullopt;
}

QString toString(OrphanReason reason)
{
    switch (reason) {
    case OrphanReason::RollbackFailed:
        return QStringLiteral("rollback-failed");
    case OrphanReason::Interrupted:
        return QStringLiteral("interrupted");
    case OrphanReason::LostResponse:
        return QStringLiteral("lost-response");
    case OrphanReason::GatewayDown:
        return QStringLiteral("gateway-down");
    }
    return {};
}

std::optional<OrphanReason> orphanReasonFromString(const QString &text)
{
    for (OrphanReason r : { OrphanReason::RollbackFailed, OrphanReason::Interrupted,
             OrphanReason::LostResponse, OrphanReason::GatewayDown }) {
        if (toString(r) == text)
            return r;
    }
    return std::nullopt;
}

QString rollbackText(const RollbackReport &report)
{
    QString text;
    switch (report.outcome) {
    case RollbackOutcome::Killed:
        text = Text::tr("the sandbox was removed");
        break;
    case RollbackOutcome::AlreadyGone:
        text = Text::tr("the sandbox was already gone");
        break;
    case RollbackOutcome::Failed:
        text = Text::tr("the sandbox could not be removed");
        break;
    }
    // The job's own sentence says more (an ambiguous allocation's search) when it has one.
    if (!report.summary.isEmpty())
        text = report.summary;
    text = Text::tr("%1 (attempts: %2)").arg(text).arg(report.attempts);
    if (!report.error.isEmpty())
        text += Text::tr("; last error: %1").arg(report.error);
    return text;
}

} // namespace sd
