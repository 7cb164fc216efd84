#pragma once

#include "mcp/mcpcatalog.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sd {

/// One thing wrong (or doubtful) in an `mcp` config object. Never holds option values.
struct McpFinding
{
    enum class Severity { Error, Warning };

    Severity severity = Severity::Error;
    QString server;      ///< the server key it is about
    QStringList options; ///< the option names it is about, possibly empty
    QString message;     ///< a sentence saying what is wrong and how to fix it

    bool isError() const { return severity == Severity::Error; }
};

/// The outcome of reading raw config text.
struct McpConfigParse
{
    QJsonObject config;
    bool ok = false;
    QString message; ///< why it was refused, with line and column for broken JSON
    int line = 0;    ///< 1-based, 0 when the text is valid JSON (but not an object)
    int column = 0;  ///< 1-based, counted in characters
};

/// Checks an `mcp` config object (server id -> options object) against the catalog,
/// the same way in the creation job, the UI and the local gateway:
/// - server value not an object, required options missing, or an option of the
///   wrong JSON type on a known server: Error (names server and options);
/// - unknown server: Warning (E2B's gateway starts with names it does not know);
/// - unknown option on a known server: Warning. E2B's schema forbids extra options
///   (additionalProperties: false), but their gateway only warns, and a catalog
///   older than the gateway must not block a user, so we warn and pass it on.
class McpConfigCheck
{
    Q_DECLARE_TR_FUNCTIONS(McpConfigCheck)

public:
    /// Keeps a reference: \a catalog must outlive the check.
    explicit McpConfigCheck(const McpCatalog &catalog = McpCatalog::instance());

    /// Reads raw JSON text; refuses broken JSON (with line and column) and non-objects.
    static McpConfigParse parse(const QByteArray &text);

    QList<McpFinding> check(const QJsonObject &config) const;

    static bool hasErrors(const QList<McpFinding> &findings);
    /// 1-based line and column (in characters) of a byte offset into UTF-8 text.
    static void lineColumn(const QByteArray &text, qsizetype offset, int *line, int *column);

private:
    const McpCatalog &m_catalog;
};

} // namespace sd
