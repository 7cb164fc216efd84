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

/// `text` with what a terminal would act on written as visible escapes: C0 and C1
/// control characters (but tab, and newline when `keepNewlines`), DEL, and the
/// bidirectional overrides ("\x1b", "\u202e"). For text from a server, a sandbox or
/// a client on its way to a terminal, a log or the window: it cannot retitle the
/// terminal, write to its clipboard, hide or reorder what was shown, or forge a log
/// line. Returns `text` itself, shared, when nothing needs escaping.
QString terminalSafe(const QString &text, bool keepNewlines = true);

/// Passes every message of this process through terminalSafe(), newlines included so
/// that a message stays one line, before the handler that was installed until then.
/// Call once, at the start of main().
void installTerminalSafeLogging();

} // namespace sd
