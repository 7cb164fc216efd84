#pragma once

#include <QLoggingCategory>

// One category per module, so a user can enable exactly what they need, e.g.
// QT_LOGGING_RULES="sd.envd.debug=true". Nothing logged here ever holds a secret.
Q_DECLARE_LOGGING_CATEGORY(lcApi)
Q_DECLARE_LOGGING_CATEGORY(lcEnvd)
Q_DECLARE_LOGGING_CATEGORY(lcCreation)
Q_DECLARE_LOGGING_CATEGORY(lcJournal)
Q_DECLARE_LOGGING_CATEGORY(lcOrphans)
Q_DECLARE_LOGGING_CATEGORY(lcProfiles)
Q_DECLARE_LOGGING_CATEGORY(lcLocal)

namespace sd {

/// --verbose: turns on debug output of every sd.* category. It wins over
/// QT_LOGGING_RULES for those categories (other categories keep their rules), and
/// messages on stderr then carry their time, category and level.
void enableVerboseLogging();
/// Whether enableVerboseLogging() was called in this process.
bool verboseLoggingEnabled();

} // namespace sd
