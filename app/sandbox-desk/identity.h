#pragma once

#include <QCoreApplication>

namespace sd {

/// The names both programs of `sandbox-desk` run under: they fix where settings and
/// the creation journal live, so the window and the command line share them.
inline void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_DESK_VERSION));
}

} // namespace sd
