#include "logging.h"

Q_LOGGING_CATEGORY(lcApi, "sd.api", QtInfoMsg)
Q_LOGGING_CATEGORY(lcEnvd, "sd.envd", QtInfoMsg)
Q_LOGGING_CATEGORY(lcCreation, "sd.creation", QtInfoMsg)
Q_LOGGING_CATEGORY(lcJournal, "sd.journal", QtInfoMsg)
Q_LOGGING_CATEGORY(lcOrphans, "sd.orphans", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProfiles, "sd.profiles", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLocal, "sd.local", QtInfoMsg)

namespace sd {

namespace {
QLoggingCategory::CategoryFilter previousFilter = nullptr;
bool verbose = false;

void verboseFilter(QLoggingCategory *category)
{
    if (previousFilter)
        previousFilter(category);
    if (qstrncmp(category->categoryName(), "sd.", 3) == 0) {
        category->setEnabled(QtDebugMsg, true);
        category->setEnabled(QtInfoMsg, true);
    }
}
} // namespace

bool verboseLoggingEnabled()
{
    return verbose;
}

void enableVerboseLogging()
{
    if (verbose)
        return;
    verbose = true;
    qSetMessagePattern(QStringLiteral("%{time yyyy-MM-dd hh:mm:ss.zzz} %{category} "
                                      "%{if-debug}debug%{endif}%{if-info}info%{endif}%{if-warning}warning%{endif}"
                                      "%{if-critical}critical%{endif}%{if-fatal}fatal%{endif}: %{message}"));
    // Installing the filter runs it on every category that exists; later ones get it too.
    previousFilter = QLoggingCategory::installFilter(verboseFilter);
}

} // namespace sd
