#pragma once

// The E2B CLI's ~/.e2b/config.json, as `e2b auth login` (@e2b/cli 2.x) writes it,
// for the tests of its import.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace sd::test {

/// Version 2 holds the project's key, version 1 the team's; both sit beside the
/// email, the OAuth endpoints and the tokens.
inline QJsonObject cliLoginJson(int version, const QString &key, const QString &accessToken)
{
    QJsonObject config { { QStringLiteral("version"), version },
        { QStringLiteral("identity"), QJsonObject { { QStringLiteral("email"), QStringLiteral("ada@example.test") } } },
        { QStringLiteral("oauth"),
            QJsonObject { { QStringLiteral("token_endpoint"), QStringLiteral("https://auth.example.test/token") },
                { QStringLiteral("revoke_endpoint"), QStringLiteral("https://auth.example.test/revoke") },
                { QStringLiteral("client_id"), QStringLiteral("cli") } } },
        { QStringLiteral("tokens"),
            QJsonObject { { QStringLiteral("access_token"), accessToken },
                { QStringLiteral("refresh_token"), accessToken + QStringLiteral("-refresh") } } },
        { QStringLiteral("last_refresh"), QStringLiteral("2026-12-01T10:00:00.000Z") } };
    if (version == 2) {
        config.insert(QStringLiteral("projectName"), QStringLiteral("Data team sandbox"));
        config.insert(QStringLiteral("projectId"), QStringLiteral("prj-7f3a"));
        config.insert(QStringLiteral("projectApiKey"), key);
    } else {
        config.insert(QStringLiteral("teamName"), QStringLiteral("Ada's team"));
        config.insert(QStringLiteral("teamId"), QStringLiteral("team-42"));
        config.insert(QStringLiteral("teamApiKey"), key);
    }
    return config;
}

/// Writes `content` to `path` (folders made), readable by its owner only as the CLI
/// leaves it; false when it could not.
inline bool writeCliLogin(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        return false;
    file.close();
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
}

} // namespace sd::test
