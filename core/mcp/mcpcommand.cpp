#include "mcpcommand.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace sd {

QString shellSingleQuote(const QString &value)
{
    QString quoted = value;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\"'\"'"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QByteArray mcpConfigJson(const QJsonObject &config)
{
    return QJsonDocument(config).toJson(QJsonDocument::Compact);
}

QString mcpGatewayCommand(const QJsonObject &config)
{
    return QStringLiteral("mcp-gateway --config ")
        + shellSingleQuote(QString::fromUtf8(mcpConfigJson(config)));
}

QString argumentSizeError(const QString &argument)
{
    const qsizetype bytes = argument.toUtf8().size() + 1; // execve counts the NUL
    if (bytes <= MaxArgStrLen)
        return {};
    return QCoreApplication::translate("sd::McpCommand", "The MCP configuration is too large: the gateway command takes "
                          "%1 bytes, but Linux allows at most %2 bytes in one command-line "
                          "argument. Remove servers or shorten option values by %3 bytes.")
        .arg(bytes)
        .arg(MaxArgStrLen)
        .arg(bytes - MaxArgStrLen);
}

} // namespace sd
