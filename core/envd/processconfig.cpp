#include "envd/processconfig.h"

#include <QJsonArray>

namespace sd {

QJsonObject ProcessConfig::toJson() const
{
    QJsonObject json { { QStringLiteral("cmd"), cmd },
        { QStringLiteral("args"), QJsonArray::fromStringList(args) } };
    if (!envs.isEmpty()) {
        QJsonObject e;
        for (auto it = envs.cbegin(); it != envs.cend(); ++it)
            e.insert(it.key(), it.value());
        json.insert(QStringLiteral("envs"), e);
    }
    if (!cwd.isEmpty())
        json.insert(QStringLiteral("cwd"), cwd);
    return json;
}

ProcessConfig ProcessConfig::fromJson(const QJsonObject &json)
{
    ProcessConfig config;
    config.cmd = json.value(QStringLiteral("cmd")).toString();
    const QJsonArray args = json.value(QStringLiteral("args")).toArray();
    for (const QJsonValue &arg : args)
        config.args.append(arg.toString());
    const QJsonObject envs = json.value(QStringLiteral("envs")).toObject();
    for (auto it = envs.begin(); it != envs.end(); ++it)
        config.envs.insert(it.key(), it.value().toString());
    config.cwd = json.value(QStringLiteral("cwd")).toString();
    return config;
}

QJsonObject ProcessSelector::toJson() const
{
    if (!tag.isEmpty())
        return QJsonObject { { QStringLiteral("tag"), tag } };
    return QJsonObject { { QStringLiteral("pid"), qint64(pid) } };
}

} // namespace sd
