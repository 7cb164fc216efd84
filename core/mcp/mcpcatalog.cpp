#include "mcpcatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace sd {

const McpOption *McpServer::option(const QString &name) const
{
    for (const McpOption &o : options) {
        if (o.name == name)
            return &o;
    }
    return nullptr;
}

QStringList McpServer::requiredOptions() const
{
    QStringList names;
    for (const McpOption &o : options) {
        if (o.required)
            names.append(o.name);
    }
    return names;
}

const McpCatalog &McpCatalog::instance()
{
    // Function-local static: loaded once, thread-safe initialisation.
    static const McpCatalog catalog = [] {
        QFile file(QStringLiteral(":/sd/mcp-catalog.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            McpCatalog empty;
            empty.m_error = QStringLiteral("the MCP catalog resource is missing from this build");
            return empty;
        }
        return fromJson(file.readAll());
    }();
    return catalog;
}

McpCatalog McpCatalog::fromJson(const QByteArray &json)
{
    McpCatalog catalog;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        catalog.m_error = QStringLiteral("the MCP catalog is not a JSON object: %1")
                              .arg(parseError.errorString());
        return catalog;
    }
    const QJsonArray servers = doc.object().value(QLatin1String("servers")).toArray();
    catalog.m_servers.reserve(servers.size());
    for (const QJsonValue &serverValue : servers) {
        const QJsonObject s = serverValue.toObject();
        McpServer server;
        server.id = s.value(QLatin1String("id")).toString();
        server.title = s.value(QLatin1String("title")).toString();
        if (server.id.isEmpty())
            continue;
        const QJsonArray options = s.value(QLatin1String("options")).toArray();
        for (const QJsonValue &optionValue : options) {
            const QJsonObject o = optionValue.toObject();
            McpOption option;
            option.name = o.value(QLatin1String("name")).toString();
            option.type = o.value(QLatin1String("type")).toString(QStringLiteral("any"));
            option.itemType = o.value(QLatin1String("items")).toString();
            option.required = o.value(QLatin1String("required")).toBool();
            option.secret = o.value(QLatin1String("secret")).toBool();
            if (!option.name.isEmpty())
                server.options.append(option);
        }
        catalog.m_servers.append(server);
    }
    // The generator sorts, but lookups rely on it, so do not trust the file.
    std::sort(catalog.m_servers.begin(), catalog.m_servers.end(),
              [](const McpServer &a, const McpServer &b) { return a.id < b.id; });
    if (catalog.m_servers.isEmpty())
        catalog.m_error = QStringLiteral("the MCP catalog lists no servers");
    return catalog;
}

const McpServer *McpCatalog::find(const QString &id) const
{
    const auto it = std::lower_bound(m_servers.cbegin(), m_servers.cend(), id,
                                     [](const McpServer &s, const QString &key) { return s.id < key; });
    if (it == m_servers.cend() || it->id != id)
        return nullptr;
    return &*it;
}

McpServer McpCatalog::server(const QString &id) const
{
    const McpServer *s = find(id);
    return s ? *s : McpServer();
}

bool McpCatalog::contains(const QString &id) const
{
    return find(id) != nullptr;
}

QString McpCatalog::findCaseInsensitive(const QString &id) const
{
    for (const McpServer &s : m_servers) {
        if (s.id.compare(id, Qt::CaseInsensitive) == 0)
            return s.id;
    }
    return {};
}

} // namespace sd
