#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sd {

/// The kernel's MAX_ARG_STRLEN (32 pages of 4 KiB): the most bytes one argv or envp
/// string may take, the terminating NUL included. execve() fails with E2BIG beyond it,
/// so the whole `bash -c` command must fit.
inline constexpr qsizetype MaxArgStrLen = 131072;

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
