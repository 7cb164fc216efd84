#include "mcpconfigcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace sd {

namespace {

// What a JSON value is, in the words the catalog uses.
QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("boolean");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return std::isfinite(d) && std::floor(d) == d ? QStringLiteral("integer")
                                                      : QStringLiteral("number");
    }
    case QJsonValue::String: return QStringLiteral("string");
    case QJsonValue::Array: return QStringLiteral("array");
    case QJsonValue::Object: return QStringLiteral("object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("undefined");
}

// The same, with an article, for sentences ("but it is a string").
QString describe(const QJsonValue &v)
{
    const QString type = jsonTypeName(v);
    if (type == QLatin1String("null"))
        return type;
    const bool vowel = type.startsWith(QLatin1Char('a')) || type.startsWith(QLatin1Char('i'))
        || type.startsWith(QLatin1Char('o')) || type.startsWith(QLatin1Char('u'));
    return (vowel ? QStringLiteral("an ") : QStringLiteral("a ")) + type;
}

bool matchesType(const QJsonValue &v, const QString &type)
{
    if (type == QLatin1String("any") || type.isEmpty())
        return true;
    const QString actual = jsonTypeName(v);
    if (type == QLatin1String("number"))
        return actual == QLatin1String("number") || actual == QLatin1String("integer");
    return actual == type;
}

QString typeWithItems(const McpOption &option)
{
    if (option.type == QLatin1String("array") && !option.itemType.isEmpty())
        return QStringLiteral("array of %1").arg(option.itemType);
    return option.type;
}

} // namespace

McpConfigCheck::McpConfigCheck(const McpCatalog &catalog)
    : m_catalog(catalog)
{
}

void McpConfigCheck::lineColumn(const QByteArray &text, qsizetype offset, int *line, int *column)
{
    offset = qBound<qsizetype>(0, offset, text.size());
    const QByteArray before = text.left(offset);
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    *line = int(before.count('\n')) + 1;
    // Count characters, not bytes, so a column matches what an editor shows.
    *column = int(QString::fromUtf8(before.mid(lineStart)).toUcs4().size()) + 1;
}

McpConfigParse McpConfigCheck::parse(const QByteArray &text)
{
    McpConfigParse result;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        lineColumn(text, error.offset, &result.line, &result.column);
        result.message = tr("The MCP configuration is not valid JSON: %1 at line %2, column %3. "
                            "Fix the JSON there; it must be an object like "
                            "{\"server\": {\"option\": \"value\"}}.")
                             .arg(error.errorString())
                             .arg(result.line)
                             .arg(result.column);
        return result;
    }
    if (!doc.isObject()) {
        result.message = tr("The MCP configuration must be a JSON object mapping server names to "
                            "their options, like {\"server\": {\"option\": \"value\"}}, but it is %1.")
                             .arg(doc.isArray() ? tr("an array") : tr("a single value"));
        return result;
    }
    result.config = doc.object();
    result.ok = true;
    return result;
}

QList<McpFinding> McpConfigCheck::check(const QJsonObject &config) const
{
    QList<McpFinding> findings;
    auto add = [&findings](McpFinding::Severity severity, const QString &server,
                           const QStringList &options, const QString &message) {
        findings.append(McpFinding{severity, server, options, message});
    };

    for (auto it = config.constBegin(); it != config.constEnd(); ++it) {
        const QString id = it.key();
        const QJsonValue value = it.value();
        const McpServer server = m_catalog.server(id);

        if (!value.isObject()) {
            add(McpFinding::Severity::Error, id, {},
                tr("The settings of the MCP server \"%1\" must be a JSON object of options, "
                   "like {\"option\": \"value\"}, but they are %2. Put its options in braces.")
                    .arg(id, describe(value)));
            continue;
        }
        const QJsonObject options = value.toObject();

        if (!server.isValid()) {
            const QString similar = m_catalog.findCaseInsensitive(id);
            QString message = tr("\"%1\" is not an MCP server in the catalog, so its options "
                                 "cannot be checked; the gateway may not be able to start it.")
                                  .arg(id);
            if (!similar.isEmpty())
                message += QLatin1Char(' ') + tr("Did you mean \"%1\"? Server names are case-sensitive.").arg(similar);
            else
                message += QLatin1Char(' ') + tr("Check the spelling of the server name.");
            add(McpFinding::Severity::Warning, id, {}, message);
            continue;
        }

        QStringList missing;
        for (const McpOption &option : server.options) {
            if (option.required && !options.contains(option.name))
                missing.append(option.name);
        }
        if (!missing.isEmpty()) {
            add(McpFinding::Severity::Error, id, missing,
                tr("The MCP server \"%1\" (%2) is missing required options: %3. "
                   "Add them to its settings.")
                    .arg(id, server.title, missing.join(QLatin1String(", "))));
        }

        for (auto o = options.constBegin(); o != options.constEnd(); ++o) {
            const McpOption *option = server.option(o.key());
            if (!option) {
                add(McpFinding::Severity::Warning, id, {o.key()},
                    tr("The MCP server \"%1\" has no option \"%2\" in the catalog; it is passed "
                       "on unchecked. Check its spelling or remove it.")
                        .arg(id, o.key()));
                continue;
            }
            bool ok = matchesType(o.value(), option->type);
            if (ok && option->type == QLatin1String("array") && !option->itemType.isEmpty()) {
                const QJsonArray items = o.value().toArray();
                for (const QJsonValue &item : items)
                    ok = ok && matchesType(item, option->itemType);
            }
            if (!ok) {
                add(McpFinding::Severity::Error, id, {o.key()},
                    tr("The option \"%1\" of the MCP server \"%2\" must be of type %3, but it is "
                       "%4. Change its value to the right type.")
                        .arg(o.key(), id, typeWithItems(*option),
                             o.value().isArray() ? tr("an array holding other values")
                                                 : describe(o.value())));
            }
        }
    }
    return findings;
}

bool McpConfigCheck::hasErrors(const QList<McpFinding> &findings)
{
    for (const McpFinding &f : findings) {
        if (f.isError())
            return true;
    }
    return false;
}

} // namespace sd
