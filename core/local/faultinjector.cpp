#include "local/faultinjector.h"

#include <QRegularExpression>

#include <algorithm>

namespace sd::local {

namespace {

struct ActionName
{
    FaultAction action;
    const char *name;
};

constexpr ActionName kActionNames[] = {
    { FaultAction::Status, "status" },
    { FaultAction::StatusAfter, "status-after" },
    { FaultAction::Drop, "drop" },
    { FaultAction::DropAfter, "drop-after" },
    { FaultAction::Delay, "delay" },
    { FaultAction::DelayAfter, "delay-after" },
    { FaultAction::EmptyAfter, "empty-after" },
    { FaultAction::GarbageAfter, "garbage-after" },
    { FaultAction::CutAfterOutput, "cut-after-output" },
};

bool globMatch(const QString &glob, const QString &text)
{
    QStringList parts = glob.split(QLatin1Char('*'));
    for (QString &part : parts)
        part = QRegularExpression::escape(part);
    const QString pattern = parts.join(QStringLiteral(".*"));
    const QRegularExpression re(QRegularExpression::anchoredPattern(pattern),
        QRegularExpression::DotMatchesEverythingOption);
    return re.match(text).hasMatch();
}

} // namespace

QString faultActionName(FaultAction action)
{
    for (const auto &entry : kActionNames) {
        if (entry.action == action)
            return QString::fromLatin1(entry.name);
    }
    return {};
}

std::optional<FaultAction> faultActionFromName(const QString &name)
{
    for (const auto &entry : kActionNames) {
        if (name == QLatin1String(entry.name))
            return entry.action;
    }
    return std::nullopt;
}

bool FaultRule::matches(
    const QString &requestMethod, const QString &requestPath, const FaultSubject &subject) const
{
    if (!method.isEmpty() && method != QLatin1String("*") && method != requestMethod)
        return false;
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
        const auto found = subject.constFind(it.key());
        if (found == subject.cend() || *found != it.value())
            return false;
    }
    return globMatch(path, requestPath);
}

QJsonObject FaultRule::toJson() const
{
    QJsonObject object = params;
    object.insert(QStringLiteral("method"), method.isEmpty() ? QStringLiteral("*") : method);
    object.insert(QStringLiteral("path"), path);
    object.insert(QStringLiteral("action"), faultActionName(action));
    if (remaining >= 0)
        object.insert(QStringLiteral("count"), remaining);
    else
        object.remove(QStringLiteral("count"));
    return object;
}

std::optional<FaultRule> FaultInjector::parseRule(const QJsonObject &object, QString *error)
{
    FaultRule rule;
    rule.params = object;
    rule.method = object.value(QStringLiteral("method")).toString().toUpper();
    const QJsonValue path = object.value(QStringLiteral("path"));
    if (!path.isString() || path.toString().isEmpty()) {
        *error = QStringLiteral("rule field 'path' must be a non-empty string");
        return std::nullopt;
    }
    rule.path = path.toString();
    if (object.contains(QStringLiteral("metadata"))) {
        const QJsonValue metadata = object.value(QStringLiteral("metadata"));
        const QJsonObject pairs = metadata.toObject();
        const bool allStrings = std::all_of(
            pairs.begin(), pairs.end(), [](const QJsonValue &value) { return value.isString(); });
        if (!metadata.isObject() || !allStrings) {
            *error = QStringLiteral("rule field 'metadata' must be an object of strings");
            return std::nullopt;
        }
        for (auto it = pairs.begin(); it != pairs.end(); ++it)
            rule.metadata.insert(it.key(), it.value().toString());
    }
    const auto action = faultActionFromName(object.value(QStringLiteral("action")).toString());
    if (!action) {
        *error = QStringLiteral("rule field 'action' must be one of status, status-after, drop, "
                                "drop-after, delay, delay-after, empty-after, garbage-after, cut-after-output");
        return std::nullopt;
    }
    rule.action = *action;
    if (rule.action == FaultAction::Status || rule.action == FaultAction::StatusAfter) {
        const int status = object.value(QStringLiteral("status")).toInt(0);
        if (status < 100 || status > 599) {
            *error = QStringLiteral("rule field 'status' must be an HTTP status (100..599)");
            return std::nullopt;
        }
        rule.status = status;
        if (object.contains(QStringLiteral("body"))
            && !object.value(QStringLiteral("body")).isString()) {
            *error = QStringLiteral("rule field 'body' must be a string (sent as text/html)");
            return std::nullopt;
        }
    }
    if (rule.action == FaultAction::Delay || rule.action == FaultAction::DelayAfter) {
        const QJsonValue delay = object.value(QStringLiteral("delayMs"));
        if (!delay.isDouble() || delay.toDouble() < 0 || delay.toDouble() > 600000) {
            *error = QStringLiteral(
                "rule field 'delayMs' must be a number of milliseconds (0..600000)");
            return std::nullopt;
        }
        rule.delayMs = delay.toInt();
    }
    if (object.contains(QStringLiteral("count"))) {
        const QJsonValue count = object.value(QStringLiteral("count"));
        if (!count.isDouble() || count.toDouble() < 1) {
            *error = QStringLiteral("rule field 'count' must be a positive number");
            return std::nullopt;
        }
        rule.remaining = count.toInt();
    }
    return rule;
}

bool FaultInjector::addRules(const QJsonArray &rules, QString *error)
{
    QList<FaultRule> parsed;
    for (const QJsonValue &value : rules) {
        if (!value.isObject()) {
            *error = QStringLiteral("each entry of 'rules' must be an object");
            return false;
        }
        auto rule = parseRule(value.toObject(), error);
        if (!rule)
            return false;
        parsed.append(*rule);
    }
    m_rules.append(parsed);
    return true;
}

void FaultInjector::clear() { m_rules.clear(); }

QJsonArray FaultInjector::toJson() const
{
    QJsonArray array;
    for (const FaultRule &rule : m_rules)
        array.append(rule.toJson());
    return array;
}

std::optional<FaultRule> FaultInjector::take(const QString &method, const QString &path,
    const QList<FaultAction> &accepted, const FaultSubject &subject)
{
    for (qsizetype i = 0; i < m_rules.size(); ++i) {
        FaultRule &rule = m_rules[i];
        if (!accepted.contains(rule.action) || !rule.matches(method, path, subject))
            continue;
        FaultRule taken = rule;
        if (rule.remaining > 0 && --rule.remaining == 0)
            m_rules.removeAt(i);
        return taken;
    }
    return std::nullopt;
}

} // namespace sd::local
