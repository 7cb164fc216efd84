#pragma once

#include <QAnyStringView>
#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace sd {

using Metadata = QMap<QString, QString>;

enum class SandboxState
{
    Running,
    Paused
};

QString toString(SandboxState state);
std::optional<SandboxState> sandboxStateFromString(QAnyStringView text);

/// A sandbox as the control plane describes it. The same value carries the
/// `Sandbox` answer of a create (fewer fields), a `ListedSandbox` and a
/// `SandboxDetail`; fields the answer did not have stay empty.
struct Sandbox
{
    QString sandboxId;
    QString templateId;
    QString alias;
    QString clientId;
    QString envdVersion;
    QString envdAccessToken; ///< secret: never log it
    QString domain; ///< empty when the server said null
    QDateTime startedAt;
    QDateTime endAt;
    int cpuCount = 0;
    int memoryMB = 0;
    int diskSizeMB = 0;
    Metadata metadata;
    SandboxState state = SandboxState::Running;
    std::optional<bool> allowInternetAccess;

    /// Parses a `ListedSandbox` or `SandboxDetail`. Returns nullopt and names the
    /// first missing or malformed required field in `problem`.
    static std::optional<Sandbox> fromListed(const QJsonObject &json, QString *problem);
    /// Parses the `Sandbox` answer of create/resume/connect.
    static std::optional<Sandbox> fromCreated(const QJsonObject &json, QString *problem);

    bool operator==(const Sandbox &other) const = default;
};

/// The longest timeout the API takes, counted from the request, for a creation and for
/// an extension alike: 24 hours.
inline constexpr int kMaxTimeoutSeconds = 24 * 60 * 60;

/// What a create request asks for (E2B's `NewSandbox`).
struct NewSandbox
{
    QString templateId;
    std::optional<int> timeoutSeconds;
    Metadata metadata;
    QMap<QString, QString> envVars; ///< values are secrets: never log them
    std::optional<QJsonObject> mcp; ///< option values are secrets: never log them
    std::optional<bool> allowInternetAccess;
    bool autoPause = false;

    QJsonObject toJson() const;
};

/// One lifecycle log entry (`SandboxLogEntry`).
struct SandboxLogEntry
{
    QDateTime timestamp;
    QString level; ///< debug, info, warn, error
    QString message;
    QMap<QString, QString> fields;

    /// Parses a `SandboxLogEntry` (timestamp and message required).
    static std::optional<SandboxLogEntry> fromJson(const QJsonObject &json, QString *problem);
    bool operator==(const SandboxLogEntry &other) const = default;
};

/// One metrics sample (`SandboxMetric`).
struct SandboxMetric
{
    QDateTime timestamp;
    int cpuCount = 0;
    double cpuUsedPct = 0;
    qint64 memUsed = 0;
    qint64 memTotal = 0;
    qint64 memCache = 0;
    qint64 diskUsed = 0;
    qint64 diskTotal = 0;

    /// Parses a `SandboxMetric` (a timestamp, cpuCount, cpuUsedPct, memUsed and
    /// memTotal required; the rest default to 0).
    static std::optional<SandboxMetric> fromJson(const QJsonObject &json, QString *problem);
    /// As the API answers it (the local backend's metrics endpoint).
    QJsonObject toJson() const;
    bool operator==(const SandboxMetric &other) const = default;
};

/// A template the server offers.
struct SandboxTemplate
{
    QString templateId;
    QString buildId;
    QStringList aliases;
    QStringList names;
    int cpuCount = 0;
    int memoryMB = 0;
    int diskSizeMB = 0;
    bool isPublic = false;
    QString buildStatus;

    /// Parses a `Template` (only templateID is required: older servers send less).
    static std::optional<SandboxTemplate> fromJson(const QJsonObject &json, QString *problem);
    bool operator==(const SandboxTemplate &other) const = default;
};

} // namespace sd

// Each member is a pointer to shared data or a plain value, so a list of them grows by
// moving bytes instead of copying and destroying every sandbox.
Q_DECLARE_TYPEINFO(sd::Sandbox, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(sd::Sandbox)
Q_DECLARE_METATYPE(sd::SandboxLogEntry)
Q_DECLARE_METATYPE(sd::SandboxMetric)
Q_DECLARE_METATYPE(sd::SandboxTemplate)
