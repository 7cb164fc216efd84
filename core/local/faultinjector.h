#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace sd::local {

/// What a fault rule does to a matching request. "before" actions replace the
/// operation; "after" actions let it happen and then spoil the answer.
enum class FaultAction
{
    /// Answer `status` with an Error body (or with `"body"`, sent as text/html, the way
    /// a proxy in front of the API answers); nothing is performed.
    Status,
    StatusAfter, ///< perform, then answer as Status does
    Drop, ///< close the connection without answering; nothing is performed
    DropAfter, ///< perform, then close without answering
    Delay, ///< wait `delayMs` (without blocking), then handle normally
    DelayAfter, ///< perform, then hold the answer `delayMs`; a client gone by then never gets it
    EmptyAfter, ///< perform, then answer the success status with an empty body
    GarbageAfter, ///< perform, then answer the success status with a non-JSON body
    CutAfterOutput, ///< envd Start: send `chunks` (default 1) data events, then drop the stream

    // Extension point: the envd part adds its stream actions here (e.g. cutting a
    // stream after N bytes) together with their names in faultinjector.cpp; extra
    // parameters of a rule are in FaultRule::params.
};

/// The metadata of the sandbox a request is about: the one named in its path or envd
/// target, or the one a create asks for. Empty for requests about no sandbox (list).
using FaultSubject = QMap<QString, QString>;

/// One rule as posted to `POST /_local/faults`, e.g.
/// `{"method":"DELETE","path":"/sandboxes/*","action":"status","status":500,"count":3}`.
/// With `"metadata": {"key": "value", ...}` the rule matches only requests about a
/// sandbox whose metadata holds all these pairs, so that several creations running at
/// once can each be given their own faults.
struct FaultRule
{
    QString method; ///< upper case; empty or "*" matches any method
    QString path; ///< glob: `*` matches any run of characters, '/' included
    FaultSubject metadata; ///< pairs the request's sandbox must carry; empty: any
    FaultAction action = FaultAction::Status;
    int status = 0; ///< for Status / StatusAfter
    int delayMs = 0; ///< for Delay and DelayAfter
    int remaining = -1; ///< matches left; -1 is unlimited
    QJsonObject params; ///< the rule as posted, for action-specific parameters

    bool matches(
        const QString &method, const QString &path, const FaultSubject &subject = {}) const;
    QJsonObject toJson() const;
};

QString faultActionName(FaultAction action);
std::optional<FaultAction> faultActionFromName(const QString &name);

/// The list of fault rules and their matcher. Rules are consulted in the order they
/// were added; take() consumes one use of the first matching rule whose action the
/// caller can carry out, and drops the rule when its count is used up. Not thread-safe
/// (it lives on the server's thread).
class FaultInjector
{
public:
    /// Parses and appends `rules` (a JSON array of rule objects). All or nothing: on
    /// a bad rule nothing is added and `error` names the field.
    bool addRules(const QJsonArray &rules, QString *error);
    void clear();
    QJsonArray toJson() const;
    bool isEmpty() const { return m_rules.isEmpty(); }

    /// The first rule matching (method, path, subject) whose action is in `accepted`,
    /// with one use consumed; nullopt when none matches.
    std::optional<FaultRule> take(const QString &method, const QString &path,
        const QList<FaultAction> &accepted, const FaultSubject &subject = {});

    static std::optional<FaultRule> parseRule(const QJsonObject &object, QString *error);

private:
    QList<FaultRule> m_rules;
};

} // namespace sd::local
