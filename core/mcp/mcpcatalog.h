#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sd {

/// One option of an MCP server, as the catalog records it.
struct McpOption
{
    QString name;
    /// JSON type: "string", "integer", "number", "boolean", "array", "object", or
    /// "any" when E2B's schema names a required option without describing it.
    QString type;
    /// For arrays, the type of each element ("string"); empty otherwise.
    QString itemType;
    bool required = false;
    /// The name suggests a credential (key, token, password...): mask it in the UI.
    bool secret = false;
};

/// One MCP server of the catalog: its id (the key in an `mcp` config object),
/// its display title and its options sorted by name.
struct McpServer
{
    QString id;
    QString title;
    QList<McpOption> options;

    bool isValid() const { return !id.isEmpty(); }
    /// The option named \a name, or nullptr. The pointer lives as long as this value.
    const McpOption *option(const QString &name) const;
    QStringList requiredOptions() const;
};

/// The catalog of MCP servers the E2B gateway knows (265 servers, derived from E2B's
/// schema by tools/gen-mcp-catalog.py into resources/mcp-catalog.json, which the build
/// turns into constant tables in sdcore: see mcpcatalogtables.h). Immutable after
/// loading, so safe to share across threads.
class McpCatalog
{
public:
    /// The catalog compiled into the program, built from its tables on first use.
    static const McpCatalog &instance();
    /// Parses a catalog document; on failure the catalog is empty and errorString() says why.
    static McpCatalog fromJson(const QByteArray &json);
    /// A catalog of these servers, sorted by id; empty with an error when there are none.
    static McpCatalog fromServers(QList<McpServer> servers);

    /// Every server, sorted by id.
    const QList<McpServer> &servers() const { return m_servers; }
    /// The server with this exact id, or an invalid McpServer.
    McpServer server(const QString &id) const;
    bool contains(const QString &id) const;
    /// A server whose id differs from \a id only in letter case (for "did you mean").
    QString findCaseInsensitive(const QString &id) const;

    bool isEmpty() const { return m_servers.isEmpty(); }
    QString errorString() const { return m_error; }

private:
    const McpServer *find(const QString &id) const;

    QList<McpServer> m_servers;
    QString m_error;
};

} // namespace sd
