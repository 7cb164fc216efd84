#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sd {

/// The kernel's MAX_ARG_STRLEN (32 pages of 4 KiB): the most bytes one argv or envp
/// string may take, the terminating NUL included. execve() fails with E2BIG beyond it,
/// so the whole `bash -c` command must fit.
inline constexpr qsizetype MaxArgStrLen = 131072;

/// The template whose sandboxes have the MCP gateway on their PATH: a creation with an
/// MCP configuration and no template of its own uses it, as the official SDK does.
inline constexpr QLatin1String McpGatewayTemplate("mcp-gateway");

/// Whether sandboxes of \a templateId are known to have the MCP gateway: only those of
/// McpGatewayTemplate are. On another template the gateway's start may fail, after the
/// sandbox was allocated; the window and the command line ask before using one.
inline bool isKnownGatewayTemplate(const QString &templateId)
{
    return templateId.trimmed() == McpGatewayTemplate;
}

/// Wraps \a value in single quotes for a POSIX shell, writing each ' as '"'"'
/// (close the quote, a double-quoted ', reopen). The result is one shell word whose
/// value is exactly \a value, whatever it holds: $(), backticks, newlines, quotes.
QString shellSingleQuote(const QString &value);

/// The config as the official SDK serialises it: compact JSON (JSON.stringify).
/// Keys come out sorted (QJsonObject keeps them so); the meaning is the same.
QByteArray mcpConfigJson(const QJsonObject &config);

/// The command the official SDK runs through `/bin/bash -l -c` to start the gateway:
/// `mcp-gateway --config '<compact json>'`.
QString mcpGatewayCommand(const QJsonObject &config);

/// Checks a single argv string against MaxArgStrLen. Returns an empty string if it
/// fits, otherwise a sentence saying how large it is and what to do.
QString argumentSizeError(const QString &argument);

} // namespace sd
