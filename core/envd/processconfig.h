#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sd {

// The values of envd's process service (process.proto), shared by the client's jobs
// and the local backend's envd, with no job attached.

/// What a process runs: `ProcessConfig` of process.proto.
struct ProcessConfig
{
    QString cmd;
    QStringList args;
    QMap<QString, QString> envs;
    QString cwd; ///< empty: the sandbox's default (/home/user)

    QJsonObject toJson() const;
    static ProcessConfig fromJson(const QJsonObject &json);
};

/// One running process as `List` reports it.
struct ProcessInfo
{
    ProcessConfig config;
    quint32 pid = 0;
    QString tag;
};

/// Names a process by pid or by tag (`ProcessSelector`).
struct ProcessSelector
{
    quint32 pid = 0;
    QString tag;

    static ProcessSelector byPid(quint32 pid) { return { pid, {} }; }
    static ProcessSelector byTag(const QString &tag) { return { 0, tag }; }
    QJsonObject toJson() const;
};

} // namespace sd
