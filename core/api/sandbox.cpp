#include "sandbox.h"

#include "common/isotime.h"

#include <QJsonArray>

#include <limits>

namespace sd {

QString toString(SandboxState state)
{
    return state == SandboxState::Paused ? QStringLiteral("paused") : QStringLiteral("running");
}

std::optional<SandboxState> sandboxStateFromString(QAnyStringView text)
{
    if (text == QLatin1String("running"))
        return SandboxState::Running;
    if (text == QLatin1String("paused"))
        return SandboxState::Paused;
    return std::nullopt;
}

namespace {

bool readString(
    const QJsonObject &json, const char *key, QString *out, QString *problem, bool required = true)
{
    const QJsonValue value = json.value(QLatin1String(key));
    if (value.isString()) {
        *out = value.toString();
        return true;
    }
    if (!required && (value.isUndefined() || value.isNull()))
        return true;
    if (problem)
        *problem = value.isUndefined()
            ? QStringLiteral("missing field '%1'").arg(QLatin1String(key))
            : QStringLiteral("field '%1' is not a string").arg(QLatin1String(key));
    return false;
}

bool readTime(const QJsonObject &json, const char *key, QDateTime *out, QString *problem)
{
    QString text;
    if (!readString(json, key, &text, problem))
        return false;
    *out = parseIsoTime(text);
    if (!out->isValid()) {
        if (problem)
            *problem = QStringLiteral("field '%1' is not an ISO 8601 time").arg(QLatin1String(key));
        return false;
    }
    return true;
}

bool readNumber(const QJsonObject &json, const char *key, double *out, QString *problem)
{
    const QJsonValue value = json.value(QLatin1String(key));
    if (!value.isDouble()) {
        if (problem)
            *problem = value.isUndefined()
                ? QStringLiteral("missing field '%1'").arg(QLatin1String(key))
                : QStringLiteral("field '%1' is not a number").arg(QLatin1String(key));
        return false;
    }
    *out = value.toDouble();
    return true;
}

/// A JSON number as an integer of type T: truncated, held to T's range (a server may
/// send 1e300, and casting a double out of range is undefined).
template <typename T>
T toIntegral(double number)
{
    if (!(number > double(std::numeric_limits<T>::min())))
        return std::numeric_limits<T>::min(); // NaN ends here too, harmlessly
    if (!(number < double(std::numeric_limits<T>::max())))
        return std::numeric_limits<T>::max();
    return T(number);
}

bool readInt(const QJsonObject &json, const char *key, int *out, QString *problem)
{
    double number = 0;
    if (!readNumber(json, key, &number, problem))
        return false;
    *out = toIntegral<int>(number);
    return true;
}

bool readInt64(const QJsonObject &json, const char *key, qint64 *out, QString *problem)
{
    double number = 0;
    if (!readNumber(json, key, &number, problem))
        return false;
    *out = toIntegral<qint64>(number);
    return true;
}

QStringList readStringList(const QJsonObject &json, const char *key)
{
    QStringList list;
    const QJsonArray array = json.value(QLatin1String(key)).toArray();
    for (const QJsonValue &value : array) {
        if (value.isString())
            list << value.toString();
    }
    return list;
}

bool readCommon(const QJsonObject &json, Sandbox *s, QString *problem)
{
    if (!readString(json, "sandboxID", &s->sandboxId, problem)
        || !readString(json, "templateID", &s->templateId, problem)
        || !readString(json, "alias", &s->alias, problem, false)
        || !readString(json, "clientID", &s->clientId, problem, false)
        || !readString(json, "envdVersion", &s->envdVersion, problem, false)
        || !readString(json, "envdAccessToken", &s->envdAccessToken, problem, false)
        || !readString(json, "domain", &s->domain, problem, false))
        return false;
    if (s->sandboxId.isEmpty()) {
        if (problem)
            *problem = QStringLiteral("field 'sandboxID' is empty");
        return false;
    }
    return true;
}

} // namespace

std::optional<Sandbox> Sandbox::fromCreated(const QJsonObject &json, QString *problem)
{
    Sandbox s;
    if (!readCommon(json, &s, problem))
        return std::nullopt;
    return s;
}

std::optional<Sandbox> Sandbox::fromListed(const QJsonObject &json, QString *problem)
{
    Sandbox s;
    if (!readCommon(json, &s, problem) || !readTime(json, "startedAt", &s.startedAt, problem)
        || !readTime(json, "endAt", &s.endAt, problem)
        || !readInt(json, "cpuCount", &s.cpuCount, problem)
        || !readInt(json, "memoryMB", &s.memoryMB, problem))
        return std::nullopt;
    s.diskSizeMB = json.value(QLatin1String("diskSizeMB")).toInt();
    QString state;
    if (!readString(json, "state", &state, problem))
        return std::nullopt;
    const auto parsedState = sandboxStateFromString(state);
    if (!parsedState) {
        if (problem)
            *problem = QStringLiteral("unknown state '%1'").arg(state);
        return std::nullopt;
    }
    s.state = *parsedState;
    const QJsonObject metadata = json.value(QLatin1String("metadata")).toObject();
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        s.metadata.insert(it.key(), it.value().toString());
    const QJsonValue internet = json.value(QLatin1String("allowInternetAccess"));
    if (internet.isBool())
        s.allowInternetAccess = internet.toBool();
    return s;
}

QJsonObject NewSandbox::toJson() const
{
    QJsonObject json { { QStringLiteral("templateID"), templateId } };
    if (timeoutSeconds)
        json.insert(QStringLiteral("timeout"), *timeoutSeconds);
    if (!metadata.isEmpty()) {
        QJsonObject m;
        for (auto it = metadata.begin(); it != metadata.end(); ++it)
            m.insert(it.key(), it.value());
        json.insert(QStringLiteral("metadata"), m);
    }
    if (!envVars.isEmpty()) {
        QJsonObject e;
        for (auto it = envVars.begin(); it != envVars.end(); ++it)
            e.insert(it.key(), it.value());
        json.insert(QStringLiteral("envVars"), e);
    }
    if (mcp)
        json.insert(QStringLiteral("mcp"), *mcp);
    if (allowInternetAccess)
        json.insert(QStringLiteral("allow_internet_access"), *allowInternetAccess);
    if (autoPause)
        json.insert(QStringLiteral("autoPause"), true);
    return json;
}

std::optional<SandboxLogEntry> SandboxLogEntry::fromJson(const QJsonObject &json, QString *problem)
{
    SandboxLogEntry entry;
    if (!readTime(json, "timestamp", &entry.timestamp, problem)
        || !readString(json, "message", &entry.message, problem)
        || !readString(json, "level", &entry.level, problem, false))
        return std::nullopt;
    if (entry.level.isEmpty())
        entry.level = QStringLiteral("info");
    const QJsonObject fields = json.value(QLatin1String("fields")).toObject();
    for (auto it = fields.begin(); it != fields.end(); ++it)
        entry.fields.insert(it.key(),
            it.value().isString() ? it.value().toString() : it.value().toVariant().toString());
    return entry;
}

std::optional<SandboxMetric> SandboxMetric::fromJson(const QJsonObject &json, QString *problem)
{
    SandboxMetric metric;
    // timestampUnix (seconds) replaces the deprecated timestamp string.
    const QJsonValue unix = json.value(QLatin1String("timestampUnix"));
    if (unix.isDouble())
        metric.timestamp
            = QDateTime::fromSecsSinceEpoch(toIntegral<qint64>(unix.toDouble()), Qt::UTC);
    else if (!readTime(json, "timestamp", &metric.timestamp, problem))
        return std::nullopt;
    if (!readInt(json, "cpuCount", &metric.cpuCount, problem)
        || !readNumber(json, "cpuUsedPct", &metric.cpuUsedPct, problem)
        || !readInt64(json, "memUsed", &metric.memUsed, problem)
        || !readInt64(json, "memTotal", &metric.memTotal, problem))
        return std::nullopt;
    metric.memCache = toIntegral<qint64>(json.value(QLatin1String("memCache")).toDouble());
    metric.diskUsed = toIntegral<qint64>(json.value(QLatin1String("diskUsed")).toDouble());
    metric.diskTotal = toIntegral<qint64>(json.value(QLatin1String("diskTotal")).toDouble());
    return metric;
}

std::optional<SandboxTemplate> SandboxTemplate::fromJson(const QJsonObject &json, QString *problem)
{
    SandboxTemplate t;
    if (!readString(json, "templateID", &t.templateId, problem)
        || !readString(json, "buildID", &t.buildId, problem, false)
        || !readString(json, "buildStatus", &t.buildStatus, problem, false))
        return std::nullopt;
    if (t.templateId.isEmpty()) {
        if (problem)
            *problem = QStringLiteral("field 'templateID' is empty");
        return std::nullopt;
    }
    t.aliases = readStringList(json, "aliases");
    t.names = readStringList(json, "names");
    t.cpuCount = json.value(QLatin1String("cpuCount")).toInt();
    t.memoryMB = json.value(QLatin1String("memoryMB")).toInt();
    t.diskSizeMB = json.value(QLatin1String("diskSizeMB")).toInt();
    t.isPublic = json.value(QLatin1String("public")).toBool();
    return t;
}

QJsonObject SandboxMetric::toJson() const
{
    return QJsonObject {
        { QStringLiteral("timestamp"), timestamp.toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("timestampUnix"), timestamp.toSecsSinceEpoch() },
        { QStringLiteral("cpuCount"), cpuCount },
        { QStringLiteral("cpuUsedPct"), cpuUsedPct },
        { QStringLiteral("memUsed"), memUsed },
        { QStringLiteral("memTotal"), memTotal },
        { QStringLiteral("memCache"), memCache },
        { QStringLiteral("diskUsed"), diskUsed },
        { QStringLiteral("diskTotal"), diskTotal },
    };
}

} // namespace sd
