#include "local/controlplane.h"

#include "local/processrunner.h"

#include "common/isotime.h"
#include "common/jsonstring.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace sd::local {

namespace {

constexpr int kTokenMacBytes = 12;

QString isoTime(const QDateTime &time) { return sd::isoTime(time, IsoPrecision::Milliseconds); }

HttpResponse notFound(const QString &id)
{
    return HttpResponse::error(404, QStringLiteral("sandbox \"%1\" not found").arg(id));
}

/// Parses the request body as a JSON object. An empty body is an empty object when
/// `emptyOk`; anything else that is not an object is an error naming the body.
bool parseBody(const HttpRequest &request, bool emptyOk, QJsonObject *out, HttpResponse *error)
{
    if (request.body.trimmed().isEmpty() && emptyOk) {
        *out = {};
        return true;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = HttpResponse::error(400, QStringLiteral("request body: not a valid JSON object"));
        return false;
    }
    *out = doc.object();
    return true;
}

/// Reads `timeout` (seconds): an integer in 0..86400. Absent -> nullopt (or an error
/// when required).
bool parseTimeout(
    const QJsonObject &body, bool required, std::optional<int> *out, HttpResponse *error)
{
    const QJsonValue value = body.value(QStringLiteral("timeout"));
    if (value.isUndefined() || value.isNull()) {
        if (required) {
            *error = HttpResponse::error(400,
                QStringLiteral("timeout: required (seconds, 0..%1)")
                    .arg(SandboxRegistry::kMaxTimeoutSec));
            return false;
        }
        *out = std::nullopt;
        return true;
    }
    const double d = value.toDouble(-1);
    if (!value.isDouble() || std::floor(d) != d) {
        *error = HttpResponse::error(
            400, QStringLiteral("timeout: must be an integer number of seconds"));
        return false;
    }
    if (d < 0) {
        *error = HttpResponse::error(400, QStringLiteral("timeout: must not be negative"));
        return false;
    }
    if (d > SandboxRegistry::kMaxTimeoutSec) {
        *error = HttpResponse::error(400,
            QStringLiteral("timeout: must be at most %1 seconds (24 h)")
                .arg(SandboxRegistry::kMaxTimeoutSec));
        return false;
    }
    *out = int(d);
    return true;
}

/// Reads a string-to-string map such as `metadata` or `envVars`.
bool parseStringMap(
    const QJsonObject &body, const QString &field, QMap<QString, QString> *out, HttpResponse *error)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return true;
    if (!value.isObject()) {
        *error = HttpResponse::error(
            400, QStringLiteral("%1: must be an object of strings").arg(field));
        return false;
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isString()) {
            *error = HttpResponse::error(
                400, QStringLiteral("%1: value of \"%2\" must be a string").arg(field, it.key()));
            return false;
        }
        out->insert(it.key(), it.value().toString());
    }
    return true;
}

/// Reads what happens at the timeout: `autoPause` (paused instead of killed), and
/// whether a request to the paused sandbox's envd resumes it (`autoResume.enabled`).
/// What the local backend cannot do is refused, not ignored: a filesystem-only snapshot
/// (`autoPauseMemory: false`; a paused local sandbox keeps its memory).
bool parseLifecycle(const QJsonObject &body, bool *autoPause, bool *autoResume, HttpResponse *error)
{
    const QJsonValue pause = body.value(QStringLiteral("autoPause"));
    if (!pause.isUndefined() && !pause.isNull() && !pause.isBool()) {
        *error = HttpResponse::error(400, QStringLiteral("autoPause: must be a boolean"));
        return false;
    }
    *autoPause = pause.toBool(false);
    const QJsonValue memory = body.value(QStringLiteral("autoPauseMemory"));
    if (!memory.isUndefined() && !memory.isNull()) {
        if (!memory.isBool()) {
            *error = HttpResponse::error(400, QStringLiteral("autoPauseMemory: must be a boolean"));
            return false;
        }
        if (!memory.toBool()) {
            *error = HttpResponse::error(400,
                QStringLiteral("autoPauseMemory: false (a filesystem-only snapshot) is not "
                               "supported by the local backend: a paused local sandbox keeps its "
                               "memory and processes; leave keepMemory at true"));
            return false;
        }
    }
    const QJsonValue resume = body.value(QStringLiteral("autoResume"));
    if (resume.isUndefined() || resume.isNull())
        return true;
    const QJsonValue enabled = resume.toObject().value(QStringLiteral("enabled"));
    if (!resume.isObject() || !enabled.isBool()) {
        *error = HttpResponse::error(
            400, QStringLiteral("autoResume: must be an object {\"enabled\": boolean}"));
        return false;
    }
    if (enabled.toBool() && !*autoPause) {
        *error = HttpResponse::error(400,
            QStringLiteral("autoResume: needs autoPause (onTimeout \"pause\"): a sandbox that "
                           "is killed at its timeout is never paused, so nothing resumes it"));
        return false;
    }
    *autoResume = enabled.toBool();
    return true;
}

QJsonObject stringMapJson(const QMap<QString, QString> &map)
{
    QJsonObject object;
    for (auto it = map.begin(); it != map.end(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

/// isoTime() as a JSON string.
void appendJsonTime(QByteArray *out, const QDateTime &time)
{
    appendJsonPiece(out, "\"");
    appendIsoTime(out, time, IsoPrecision::Milliseconds);
    appendJsonPiece(out, "\"");
}

/// Decodes one component of an application/x-www-form-urlencoded string.
QString formDecode(QString text)
{
    text.replace(QLatin1Char('+'), QLatin1Char(' '));
    return QUrl::fromPercentEncoding(text.toUtf8());
}

QString queryValue(const HttpRequest &request, const QString &key)
{
    return request.query.queryItemValue(key, QUrl::FullyDecoded);
}

int levelRank(const QString &level)
{
    static const QStringList levels { QStringLiteral("debug"), QStringLiteral("info"),
        QStringLiteral("warn"), QStringLiteral("error") };
    return int(levels.indexOf(level));
}

} // namespace

ControlPlane::ControlPlane(SandboxRegistry *registry, Info info)
    : m_registry(registry)
    , m_info(std::move(info))
{
    for (int i = 0; i < 4; ++i) {
        const quint64 word = QRandomGenerator::system()->generate64();
        m_tokenKey.append(reinterpret_cast<const char *>(&word), sizeof word);
    }
}

void ControlPlane::registerRoutes(Router *router)
{
    const auto id = [](const RouteParams &params) { return params.value(QStringLiteral("id")); };
    router->add("GET", QStringLiteral("/health"),
        [this](const HttpRequest &r, const RouteParams &) { return health(r); });
    for (const QString &path : { QStringLiteral("/sandboxes"), QStringLiteral("/v2/sandboxes") }) {
        const bool v2 = path.startsWith(QLatin1String("/v2"));
        router->add("POST", path,
            [this](const HttpRequest &r, const RouteParams &) { return createSandbox(r); });
        router->add("GET", path,
            [this, v2](const HttpRequest &r, const RouteParams &) { return listSandboxes(r, v2); });
    }
    router->add("GET", QStringLiteral("/sandboxes/{id}"),
        [this, id](const HttpRequest &, const RouteParams &p) { return getSandbox(id(p)); });
    router->add("DELETE", QStringLiteral("/sandboxes/{id}"),
        [this, id](const HttpRequest &, const RouteParams &p) { return killSandbox(id(p)); });
    router->add("POST", QStringLiteral("/sandboxes/{id}/timeout"),
        [this, id](const HttpRequest &r, const RouteParams &p) { return setTimeout(r, id(p)); });
    router->add("POST", QStringLiteral("/sandboxes/{id}/pause"),
        [this, id](const HttpRequest &, const RouteParams &p) { return pauseSandbox(id(p)); });
    router->add("POST", QStringLiteral("/sandboxes/{id}/resume"),
        [this, id](const HttpRequest &r, const RouteParams &p) { return resumeSandbox(r, id(p)); });
    // The SDK 2.51 line connects through /v2, older lines through the v1 path.
    for (const QString &path : { QStringLiteral("/sandboxes/{id}/connect"),
             QStringLiteral("/v2/sandboxes/{id}/connect") }) {
        router->add("POST", path, [this, id](const HttpRequest &r, const RouteParams &p) {
            return connectSandbox(r, id(p));
        });
    }
    router->add("GET", QStringLiteral("/sandboxes/{id}/logs"),
        [this, id](const HttpRequest &r, const RouteParams &p) { return logs(r, id(p), false); });
    router->add("GET", QStringLiteral("/v2/sandboxes/{id}/logs"),
        [this, id](const HttpRequest &r, const RouteParams &p) { return logs(r, id(p), true); });
    router->add("GET", QStringLiteral("/templates"),
        [this](const HttpRequest &, const RouteParams &) { return listTemplates(); });
}

QJsonObject ControlPlane::sandboxJson(const SandboxRecord &record)
{
    return QJsonObject {
        { QStringLiteral("sandboxID"), record.sandboxId },
        { QStringLiteral("templateID"), record.templateId },
        { QStringLiteral("alias"), record.alias },
        { QStringLiteral("clientID"), record.clientId },
        { QStringLiteral("envdVersion"), record.envdVersion },
        { QStringLiteral("envdAccessToken"), record.envdAccessToken },
        { QStringLiteral("trafficAccessToken"), QJsonValue::Null },
        // The sandbox URL is the server's own: no domain.
        { QStringLiteral("domain"), QJsonValue::Null },
    };
}

QJsonObject ControlPlane::listedSandboxJson(const SandboxRecord &record)
{
    return QJsonObject {
        { QStringLiteral("sandboxID"), record.sandboxId },
        { QStringLiteral("templateID"), record.templateId },
        { QStringLiteral("alias"), record.alias },
        { QStringLiteral("clientID"), record.clientId },
        { QStringLiteral("startedAt"), isoTime(record.startedAt) },
        { QStringLiteral("endAt"), isoTime(record.endAt) },
        { QStringLiteral("cpuCount"), record.cpuCount },
        { QStringLiteral("memoryMB"), record.memoryMB },
        { QStringLiteral("diskSizeMB"), record.diskSizeMB },
        { QStringLiteral("metadata"), stringMapJson(record.metadata) },
        { QStringLiteral("state"), sandboxStateName(record.state) },
        { QStringLiteral("envdVersion"), record.envdVersion },
        { QStringLiteral("volumeMounts"), QJsonArray() },
    };
}

void ControlPlane::appendListedSandboxJson(QByteArray *out, const SandboxRecord &record)
{
    // The keys in QJsonObject's (sorted) order, so both ways write the same bytes.
    appendJsonPiece(out, "{\"alias\":");
    appendJsonString(out, record.alias);
    appendJsonPiece(out, ",\"clientID\":");
    appendJsonString(out, record.clientId);
    appendJsonPiece(out, ",\"cpuCount\":");
    appendJsonInteger(out, record.cpuCount);
    appendJsonPiece(out, ",\"diskSizeMB\":");
    appendJsonInteger(out, record.diskSizeMB);
    appendJsonPiece(out, ",\"endAt\":");
    appendJsonTime(out, record.endAt);
    appendJsonPiece(out, ",\"envdVersion\":");
    appendJsonString(out, record.envdVersion);
    appendJsonPiece(out, ",\"memoryMB\":");
    appendJsonInteger(out, record.memoryMB);
    appendJsonPiece(out, ",\"metadata\":{");
    for (auto it = record.metadata.begin(); it != record.metadata.end(); ++it) {
        if (it != record.metadata.begin())
            appendJsonPiece(out, ",");
        appendJsonString(out, it.key());
        appendJsonPiece(out, ":");
        appendJsonString(out, it.value());
    }
    appendJsonPiece(out, "},\"sandboxID\":");
    appendJsonString(out, record.sandboxId);
    appendJsonPiece(out, ",\"startedAt\":");
    appendJsonTime(out, record.startedAt);
    appendJsonPiece(out, ",\"state\":");
    appendJsonString(out, sandboxStateName(record.state));
    appendJsonPiece(out, ",\"templateID\":");
    appendJsonString(out, record.templateId);
    appendJsonPiece(out, ",\"volumeMounts\":[]}");
}

QJsonObject ControlPlane::sandboxDetailJson(const SandboxRecord &record)
{
    QJsonObject object = listedSandboxJson(record);
    object.insert(QStringLiteral("envdAccessToken"), record.envdAccessToken);
    object.insert(QStringLiteral("domain"), QJsonValue::Null);
    object.insert(QStringLiteral("allowInternetAccess"),
        record.allowInternetAccess ? QJsonValue(*record.allowInternetAccess)
                                   : QJsonValue(QJsonValue::Null));
    object.insert(QStringLiteral("lifecycle"),
        QJsonObject { { QStringLiteral("autoResume"), record.autoResume },
            { QStringLiteral("onTimeout"),
                record.autoPause ? QStringLiteral("pause") : QStringLiteral("kill") } });
    return object;
}

QJsonObject ControlPlane::logEntryJson(const SandboxEvent &event)
{
    return QJsonObject {
        { QStringLiteral("timestamp"), isoTime(event.timestamp) },
        { QStringLiteral("level"), event.level },
        { QStringLiteral("message"), event.message },
        { QStringLiteral("fields"), stringMapJson(event.fields) },
    };
}

bool ControlPlane::parseMetadataQuery(const QString &value, QMap<QString, QString> *out)
{
    for (const QString &pair : value.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return false;
        // Form-decode the pair, then undo the SDK's own encodeURIComponent.
        const QString key = QUrl::fromPercentEncoding(formDecode(pair.left(eq)).toUtf8());
        const QString val = QUrl::fromPercentEncoding(formDecode(pair.mid(eq + 1)).toUtf8());
        out->insert(key, val);
    }
    return true;
}

QJsonObject ControlPlane::resourcesJson() const
{
    const SandboxLimits &limits = m_info.limits;
    QJsonObject resources { { QStringLiteral("maxSandboxes"), limits.maxSandboxes },
        { QStringLiteral("maxProcessesPerSandbox"), limits.maxProcessesPerSandbox },
        { QStringLiteral("cgroup"),
            limits.cgroup.isEmpty() ? QStringLiteral("none") : limits.cgroup } };
    if (limits.cgroup.isEmpty())
        resources.insert(QStringLiteral("cgroupUnavailable"), limits.cgroupUnavailable);
    return resources;
}

HttpResponse ControlPlane::health(const HttpRequest &)
{
    return HttpResponse::json(200,
        QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") },
            { QStringLiteral("isolation"), m_info.isolation },
            { QStringLiteral("version"), m_info.version },
            { QStringLiteral("resources"), resourcesJson() } });
}

HttpResponse ControlPlane::createSandbox(const HttpRequest &request)
{
    HttpResponse error;
    QJsonObject body;
    if (!parseBody(request, false, &body, &error))
        return error;
    const QJsonValue templateId = body.value(QStringLiteral("templateID"));
    if (!templateId.isString() || templateId.toString().isEmpty())
        return HttpResponse::error(
            400, QStringLiteral("templateID: required (a template ID or alias)"));
    std::optional<int> timeout;
    if (!parseTimeout(body, false, &timeout, &error))
        return error;
    SandboxRegistry::CreateParams params;
    if (!parseStringMap(body, QStringLiteral("metadata"), &params.metadata, &error)
        || !parseStringMap(body, QStringLiteral("envVars"), &params.envVars, &error))
        return error;
    if (const QString envError = environmentNamesError(params.envVars); !envError.isEmpty())
        return HttpResponse::error(400, QStringLiteral("envVars: %1").arg(envError));
    const QJsonValue internet = body.value(QStringLiteral("allow_internet_access"));
    if (!internet.isUndefined() && !internet.isNull()) {
        if (!internet.isBool())
            return HttpResponse::error(
                400, QStringLiteral("allow_internet_access: must be a boolean"));
        params.allowInternetAccess = internet.toBool();
    }
    if (!parseLifecycle(body, &params.autoPause, &params.autoResume, &error))
        return error;
    const LocalTemplate *tmpl = SandboxRegistry::findTemplate(templateId.toString());
    if (!tmpl)
        return HttpResponse::error(
            404, QStringLiteral("template \"%1\" not found").arg(templateId.toString()));
    if (m_registry->count() >= m_info.limits.maxSandboxes)
        return HttpResponse::error(429,
            QStringLiteral("too many sandboxes: this backend keeps at most %1 at once "
                           "(--max-sandboxes); kill one first")
                .arg(m_info.limits.maxSandboxes));
    params.templateId = tmpl->templateId;
    params.timeoutSec = timeout.value_or(0);
    const SandboxRecord record = m_registry->create(params);
    return HttpResponse::json(201, sandboxJson(record));
}

std::optional<HttpResponse> ControlPlane::parseListQuery(
    const HttpRequest &request, bool v2, ListQuery *out) const
{
    if (request.query.hasQueryItem(QStringLiteral("metadata"))
        && !parseMetadataQuery(queryValue(request, QStringLiteral("metadata")), &out->metadata))
        return HttpResponse::error(
            400, QStringLiteral("metadata: must be URL-encoded key=value pairs joined by '&'"));

    // v1 lists running sandboxes unless asked otherwise; v2 both states.
    out->running = true;
    out->paused = v2;
    const QStringList stateValues
        = request.query.allQueryItemValues(QStringLiteral("state"), QUrl::FullyDecoded);
    if (!stateValues.isEmpty()) {
        out->running = out->paused = false;
        // Both `state=running,paused` and `state=running&state=paused`.
        for (const QString &value : stateValues) {
            for (const QString &state : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                if (state == QLatin1String("running"))
                    out->running = true;
                else if (state == QLatin1String("paused"))
                    out->paused = true;
                else
                    return HttpResponse::error(400,
                        QStringLiteral("state: \"%1\" is not one of running, paused").arg(state));
            }
        }
    }

    out->templateId = queryValue(request, QStringLiteral("template"));

    if (request.query.hasQueryItem(QStringLiteral("startedAfter"))) {
        out->startedAfter = QDateTime::fromString(
            queryValue(request, QStringLiteral("startedAfter")), Qt::ISODateWithMs);
        if (!out->startedAfter.isValid())
            return HttpResponse::error(
                400, QStringLiteral("startedAfter: must be an RFC 3339 timestamp"));
    }

    if (request.query.hasQueryItem(QStringLiteral("order"))) {
        const QString order = queryValue(request, QStringLiteral("order"));
        if (order != QLatin1String("asc") && order != QLatin1String("desc"))
            return HttpResponse::error(400, QStringLiteral("order: must be asc or desc"));
        out->ascending = order == QLatin1String("asc");
    }

    // v1 answered everything in one go; keep that unless a limit is asked for.
    out->limit = v2 ? 100 : -1;
    if (request.query.hasQueryItem(QStringLiteral("limit"))) {
        bool ok = false;
        out->limit = queryValue(request, QStringLiteral("limit")).toInt(&ok);
        if (!ok || out->limit < 1 || out->limit > 100)
            return HttpResponse::error(
                400, QStringLiteral("limit: must be an integer between 1 and 100"));
    }

    if (request.query.hasQueryItem(QStringLiteral("nextToken"))) {
        out->cursor = parsePageToken(queryValue(request, QStringLiteral("nextToken")));
        if (!out->cursor)
            return HttpResponse::error(
                400, QStringLiteral("nextToken: not a token this server issued"));
    }
    return std::nullopt;
}

bool ControlPlane::ListQuery::matches(const SandboxRecord &record) const
{
    const bool isRunning = record.state == SandboxState::Running;
    if ((isRunning && !running) || (!isRunning && !paused))
        return false;
    if (!templateId.isEmpty() && record.templateId != templateId && record.alias != templateId)
        return false;
    if (startedAfter.isValid() && record.startedAt < startedAfter)
        return false;
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
        const auto found = record.metadata.constFind(it.key());
        if (found == record.metadata.constEnd() || *found != it.value())
            return false;
    }
    return true;
}

HttpResponse ControlPlane::listSandboxes(const HttpRequest &request, bool v2)
{
    ListQuery query;
    if (auto error = parseListQuery(request, v2, &query))
        return *error;

    // Walk the registry's ordered index from the cursor: a page costs what it holds
    // (plus the non-matching sandboxes skipped on the way when filtering), never a
    // sort of everything. One more match past the page says whether a next one exists.
    QByteArray page = "[";
    // A listed sandbox is about 300 bytes: the page grows once or not at all.
    page.reserve(qsizetype(query.limit >= 0 ? qMin(query.limit, 1000) : 100) * 320);
    int listed = 0;
    std::optional<ListKey> last;
    bool more = false;
    m_registry->visitInOrder(query.ascending, query.cursor, [&](const SandboxRecord &record) {
        if (query.startedAfter.isValid() && record.startedAt < query.startedAfter)
            return query.ascending; // newest first: everything after is older still
        if (!query.matches(record))
            return true;
        if (query.limit >= 0 && listed >= query.limit) {
            more = true;
            return false;
        }
        if (listed++ > 0)
            page.append(',');
        appendListedSandboxJson(&page, record);
        last = ListKey::of(record);
        return true;
    });

    page.append(']');

    HttpResponse response;
    response.setHeader("Content-Type", "application/json");
    response.body = std::move(page);
    if (more && last)
        response.setHeader("X-Next-Token", pageToken(*last).toLatin1());
    if (query.running) {
        int totalRunning = 0;
        if (query.onlyStateFiltered()) {
            totalRunning = m_registry->runningCount();
        } else {
            // Filtered counts need every sandbox looked at; the page itself does not.
            m_registry->visitInOrder(true, std::nullopt, [&](const SandboxRecord &record) {
                if (record.state == SandboxState::Running && query.matches(record))
                    ++totalRunning;
                return true;
            });
        }
        response.setHeader("X-Total-Running", QByteArray::number(totalRunning));
    }
    // The server's own time, as a real API sends it: clients measure ages against it.
    response.setHeader("Date",
        QLocale::c()
            .toString(m_registry->now().toUTC(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
            .toLatin1());
    return response;
}

QString ControlPlane::pageToken(const ListKey &last) const
{
    const QByteArray key
        = QByteArray::number(last.startedAtMs) + '.' + QByteArray::number(last.sequence);
    const QByteArray mac
        = QMessageAuthenticationCode::hash(key, m_tokenKey, QCryptographicHash::Sha256)
              .left(kTokenMacBytes);
    return QString::fromLatin1(
        key + '.' + mac.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<ListKey> ControlPlane::parsePageToken(const QString &token) const
{
    const qsizetype dot = token.lastIndexOf(QLatin1Char('.'));
    if (dot <= 0)
        return std::nullopt;
    const QByteArray key = token.left(dot).toLatin1();
    const QByteArray expected
        = QMessageAuthenticationCode::hash(key, m_tokenKey, QCryptographicHash::Sha256)
              .left(kTokenMacBytes)
              .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    if (token.mid(dot + 1).toLatin1() != expected)
        return std::nullopt;
    const QList<QByteArray> parts = key.split('.');
    if (parts.size() != 2)
        return std::nullopt;
    bool okTime = false;
    bool okSeq = false;
    ListKey cursor { parts.at(0).toLongLong(&okTime), parts.at(1).toULongLong(&okSeq) };
    if (!okTime || !okSeq)
        return std::nullopt;
    return cursor;
}

HttpResponse ControlPlane::getSandbox(const QString &id)
{
    const SandboxRecord *record = m_registry->find(id);
    if (!record)
        return notFound(id);
    QJsonObject detail = sandboxDetailJson(*record);
    // Not in E2B's schema: lets the app show that a local sandbox is not isolated.
    detail.insert(QStringLiteral("isolation"), m_info.isolation);
    return HttpResponse::json(200, detail);
}

HttpResponse ControlPlane::killSandbox(const QString &id)
{
    if (!m_registry->kill(id, KillReason::Requested))
        return notFound(id);
    return HttpResponse::noContent();
}

HttpResponse ControlPlane::setTimeout(const HttpRequest &request, const QString &id)
{
    HttpResponse error;
    QJsonObject body;
    std::optional<int> timeout;
    if (!parseBody(request, false, &body, &error) || !parseTimeout(body, true, &timeout, &error))
        return error;
    if (m_registry->setTimeout(id, *timeout) == SandboxRegistry::Result::NotFound)
        return notFound(id);
    return HttpResponse::noContent();
}

HttpResponse ControlPlane::pauseSandbox(const QString &id)
{
    switch (m_registry->pause(id)) {
    case SandboxRegistry::Result::NotFound:
        return notFound(id);
    case SandboxRegistry::Result::Conflict:
        return HttpResponse::error(409, QStringLiteral("sandbox \"%1\" is already paused").arg(id));
    case SandboxRegistry::Result::Ok:
        break;
    }
    return HttpResponse::noContent();
}

HttpResponse ControlPlane::resumeSandbox(const HttpRequest &request, const QString &id)
{
    HttpResponse error;
    QJsonObject body;
    std::optional<int> timeout;
    if (!parseBody(request, true, &body, &error) || !parseTimeout(body, false, &timeout, &error))
        return error;
    switch (m_registry->resume(id, timeout)) {
    case SandboxRegistry::Result::NotFound:
        return notFound(id);
    case SandboxRegistry::Result::Conflict:
        return HttpResponse::error(409, QStringLiteral("sandbox \"%1\" is not paused").arg(id));
    case SandboxRegistry::Result::Ok:
        break;
    }
    return HttpResponse::json(201, sandboxJson(*m_registry->find(id)));
}

HttpResponse ControlPlane::connectSandbox(const HttpRequest &request, const QString &id)
{
    HttpResponse error;
    QJsonObject body;
    std::optional<int> timeout;
    if (!parseBody(request, true, &body, &error) || !parseTimeout(body, false, &timeout, &error))
        return error;
    switch (m_registry->connectTo(id, timeout.value_or(0))) {
    case SandboxRegistry::ConnectResult::NotFound:
        return notFound(id);
    case SandboxRegistry::ConnectResult::WasRunning:
        return HttpResponse::json(200, sandboxJson(*m_registry->find(id)));
    case SandboxRegistry::ConnectResult::Resumed:
        break;
    }
    return HttpResponse::json(201, sandboxJson(*m_registry->find(id)));
}

HttpResponse ControlPlane::logs(const HttpRequest &request, const QString &id, bool v2)
{
    const auto events = m_registry->events(id);
    if (!events)
        return notFound(id);

    bool ok = true;
    const QString startKey = v2 ? QStringLiteral("cursor") : QStringLiteral("start");
    qint64 startMs = -1;
    if (request.query.hasQueryItem(startKey)) {
        startMs = queryValue(request, startKey).toLongLong(&ok);
        if (!ok || startMs < 0)
            return HttpResponse::error(
                400, QStringLiteral("%1: must be a timestamp in milliseconds").arg(startKey));
    }
    int limit = 1000;
    if (request.query.hasQueryItem(QStringLiteral("limit"))) {
        limit = queryValue(request, QStringLiteral("limit")).toInt(&ok);
        if (!ok || limit < 0 || limit > 1000)
            return HttpResponse::error(
                400, QStringLiteral("limit: must be an integer between 0 and 1000"));
    }
    bool backward = false;
    int minLevel = 0;
    QString search;
    if (v2) {
        const QString direction = queryValue(request, QStringLiteral("direction"));
        if (!direction.isEmpty() && direction != QLatin1String("forward")
            && direction != QLatin1String("backward"))
            return HttpResponse::error(
                400, QStringLiteral("direction: must be forward or backward"));
        backward = direction == QLatin1String("backward");
        if (request.query.hasQueryItem(QStringLiteral("level"))) {
            minLevel = levelRank(queryValue(request, QStringLiteral("level")));
            if (minLevel < 0)
                return HttpResponse::error(
                    400, QStringLiteral("level: must be one of debug, info, warn, error"));
        }
        search = queryValue(request, QStringLiteral("search"));
    }

    QList<SandboxEvent> selected;
    for (const SandboxEvent &event : *events) {
        if (startMs >= 0 && event.timestamp.toMSecsSinceEpoch() < startMs)
            continue;
        if (levelRank(event.level) < minLevel)
            continue;
        if (!search.isEmpty() && !event.message.contains(search))
            continue;
        selected.append(event);
    }
    if (backward)
        std::reverse(selected.begin(), selected.end());
    if (selected.size() > limit)
        selected.resize(limit);

    QJsonArray entries;
    QJsonArray lines;
    for (const SandboxEvent &event : std::as_const(selected)) {
        entries.append(logEntryJson(event));
        // Each line is itself a JSON object, as E2B's are: `e2b sandbox logs` parses it
        // and reads its level and logger.
        QJsonObject line = stringMapJson(event.fields);
        line.insert(QStringLiteral("level"), event.level);
        line.insert(QStringLiteral("logger"), QStringLiteral("sandbox-desk-local"));
        line.insert(QStringLiteral("message"), event.message);
        lines.append(QJsonObject { { QStringLiteral("timestamp"), isoTime(event.timestamp) },
            { QStringLiteral("line"),
                QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)) } });
    }
    if (v2)
        return HttpResponse::json(200, QJsonObject { { QStringLiteral("logs"), entries } });
    return HttpResponse::json(200,
        QJsonObject {
            { QStringLiteral("logs"), lines }, { QStringLiteral("logEntries"), entries } });
}

HttpResponse ControlPlane::listTemplates()
{
    QJsonArray array;
    for (const LocalTemplate &t : SandboxRegistry::templates()) {
        array.append(QJsonObject {
            { QStringLiteral("templateID"), t.templateId },
            { QStringLiteral("buildID"), t.buildId },
            { QStringLiteral("cpuCount"), t.cpuCount },
            { QStringLiteral("memoryMB"), t.memoryMB },
            { QStringLiteral("diskSizeMB"), t.diskSizeMB },
            { QStringLiteral("public"), true },
            { QStringLiteral("aliases"), QJsonArray { t.alias } },
            { QStringLiteral("names"), QJsonArray { t.alias } },
            { QStringLiteral("createdAt"), isoTime(t.createdAt) },
            { QStringLiteral("updatedAt"), isoTime(t.createdAt) },
            { QStringLiteral("createdBy"), QJsonValue::Null },
            { QStringLiteral("lastSpawnedAt"), QJsonValue::Null },
            { QStringLiteral("spawnCount"), 0 },
            { QStringLiteral("buildCount"), 1 },
            { QStringLiteral("envdVersion"), t.envdVersion },
            { QStringLiteral("buildStatus"), QStringLiteral("ready") },
        });
    }
    return HttpResponse::json(200, array);
}

} // namespace sd::local
