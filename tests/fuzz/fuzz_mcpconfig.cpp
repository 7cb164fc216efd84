// Runs the MCP configuration check on arbitrary text, as `mcp-gateway --config`
// and the creation dialog get it from a user.

#include "mcp/mcpconfigcheck.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const sd::McpConfigParse parsed = sd::McpConfigCheck::parse(text);
    if (parsed.ok) {
        const QList<sd::McpFinding> findings = sd::McpConfigCheck().check(parsed.config);
        (void)sd::McpConfigCheck::hasErrors(findings);
    }
    int line = 0;
    int column = 0;
    sd::McpConfigCheck::lineColumn(text, qsizetype(size / 2), &line, &column);
    return 0;
}
