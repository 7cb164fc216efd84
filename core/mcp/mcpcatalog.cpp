#include "mcpcatalog.h"

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
    QList<McpServer> parsed;
    parsed.reserve(servers.size());
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
        parsed.append(std::move(server));
    }
    return fromServers(std::move(parsed));
}

McpCatalog McpCatalog::fromServers(QList<McpServer> servers)
{
    McpCatalog catalog;
    catalog.m_servers = std::move(servers);
    // Lookups rely on the order; the generator sorts, but do not trust a file to.
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

bool McpCatalog::contains(const QString &id) const { return find(id) != nullptr; }

QString McpCatalog::findCaseInsensitive(const QString &id) const
{
    for (const McpServer &s : m_servers) {
        if (s.id.compare(id, Qt::CaseInsensitive) == 0)
            return s.id;
    }
    return {};
}

} // namespace sd
