#pragma once

#include "mcp/mcpcatalog.h"

#include <QStringView>

#include <array>
#include <span>

/// The catalog as constant tables. The build turns resources/mcp-catalog.json into
/// tables of this form (mcp-catalog-codegen, run by core/mcp/CMakeLists.txt), so a
/// program does not parse 54 KB of JSON to look up one server: that parse was most of
/// what the local gateway's start cost (9 of its 13 million instructions).
namespace sd::mcpcatalogtables {

struct Option
{
    QStringView name;
    QStringView type;
    QStringView itemType;
    bool required;
    bool secret;
};

struct Server
{
    QStringView id;
    QStringView title;
    int firstOption; ///< index of its first option in the options table
    int optionCount;
};

/// The servers these tables describe. Their strings point into the tables, which
/// must live as long as the strings do (static tables: the whole program).
QList<McpServer> servers(std::span<const Server> servers, std::span<const Option> options);

} // namespace sd::mcpcatalogtables
