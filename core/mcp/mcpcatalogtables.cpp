#include "mcpcatalogtables.h"

namespace sd {

namespace mcpcatalogtables {

namespace {

// No copy: the text stays in the tables. Empty stays null, as a missing JSON field reads.
QString fromTable(QStringView text)
{
    return text.isEmpty() ? QString() : QString::fromRawData(text.data(), text.size());
}

} // namespace

QList<McpServer> servers(std::span<const Server> servers, std::span<const Option> options)
{
    QList<McpServer> result;
    result.reserve(qsizetype(servers.size()));
    for (const Server &s : servers) {
        McpServer server;
        server.id = fromTable(s.id);
        server.title = fromTable(s.title);
        server.options.reserve(s.optionCount);
        for (const Option &o : options.subspan(size_t(s.firstOption), size_t(s.optionCount))) {
            server.options.append({ fromTable(o.name), fromTable(o.type), fromTable(o.itemType),
                o.required, o.secret });
        }
        result.append(std::move(server));
    }
    return result;
}

} // namespace mcpcatalogtables

namespace {
// Generated from resources/mcp-catalog.json: catalogServers and catalogOptions.
#include "mcpcatalogdata.inc"
} // namespace

const McpCatalog &McpCatalog::instance()
{
    // Function-local static: built once, thread-safe initialisation.
    static const McpCatalog catalog
        = fromServers(mcpcatalogtables::servers(catalogServers, catalogOptions));
    return catalog;
}

} // namespace sd
