#include "logging.h"

#include <algorithm>
#include <utility>

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

bool isControl(char16_t u, bool keepNewlines)
{
    const bool kept = u == u'\t' || (u == u'\n' && keepNewlines);
    return (u < 0x20 && !kept) || (u >= 0x7f && u <= 0x9f);
}

bool isBidiOverride(char16_t u)
{
    return (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
}
} // namespace

QString terminalSafe(const QString &text, bool keepNewlines)
{
    const auto unsafe = [keepNewlines](QChar c) {
        return isControl(c.unicode(), keepNewlines) || isBidiOverride(c.unicode());
    };
    if (std::none_of(text.begin(), text.end(), unsafe))
        return text; // the common case: shared, not copied (a table shows it per cell)
    QString safe;
    safe.reserve(text.size() + 16);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (isControl(u, keepNewlines))
            safe += QStringLiteral("\\x%1").arg(uint(u), 2, 16, QLatin1Char('0'));
        else if (isBidiOverride(u))
            safe += QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
        else
            safe += c;
    }
    return safe;
}

void installTerminalSafeLogging()
{
    static bool installed = false;
    if (std::exchange(installed, true))
        return; // a second time, it would pass messages on to itself
    static QtMessageHandler previous = nullptr;
    previous = qInstallMessageHandler(
        [](QtMsgType type, const QMessageLogContext &context, const QString &message) {
            if (previous)
                previous(type, context, terminalSafe(message, false));
        });
}

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
