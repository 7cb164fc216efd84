#include "local/localserver.h"

#include "common/logging.h"
#include "local/envdhandler.h"
#include "local/filesignature.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTimer>
#include <QUrl>

namespace sd::local {

namespace {

// Room for an upload's multipart boundaries and part headers besides the file.
constexpr qint64 kFormFramingBytes = 64 * 1024;

const QList<FaultAction> kApiActions { FaultAction::Status, FaultAction::StatusAfter,
    FaultAction::Drop, FaultAction::DropAfter, FaultAction::Delay, FaultAction::DelayAfter,
    FaultAction::EmptyAfter, FaultAction::GarbageAfter };
// envd requests cannot be delayed here: Qt's request object does not outlive the call.
const QList<FaultAction> kEnvdFrontActions { FaultAction::Status, FaultAction::Drop };

HttpResponse connectError(int status, const QString &code, const QString &message)
{
    return HttpResponse::json(status,
        QJsonObject { { QStringLiteral("code"), code }, { QStringLiteral("message"), message } });
}

// Splits a Host header value ("name", "name:port", "[v6]:port"); port -1 when absent.
bool splitHostPort(const QByteArray &value, QString *host, int *port)
{
    QByteArray rest = value.trimmed().toLower();
    *port = -1;
    if (rest.startsWith('[')) {
        const qsizetype close = rest.indexOf(']');
        if (close < 0)
            return false;
        *host = QString::fromLatin1(rest.mid(1, close - 1));
        rest = rest.mid(close + 1);
    } else {
        const qsizetype colon = rest.indexOf(':');
        *host = QString::fromLatin1(colon < 0 ? rest : rest.left(colon));
        rest = colon < 0 ? QByteArray() : rest.mid(colon);
    }
    if (host->isEmpty())
        return false;
    if (rest.isEmpty())
        return true;
    bool ok = false;
    *port = rest.startsWith(':') ? rest.mid(1).toInt(&ok) : -1;
    return ok && *port > 0 && *port < 65536;
}

HttpResponse injectedStatus(const FaultRule &rule)
{
    const QJsonValue body = rule.params.value(QLatin1String("body"));
    if (!body.isString())
        return HttpResponse::error(
            rule.status, QStringLiteral("injected fault: status %1").arg(rule.status));
    HttpResponse response;
    response.status = rule.status;
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    response.body = body.toString().toUtf8();
    return response;
}

} // namespace

LocalServer::LocalServer(Options options, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_options(std::move(options))
    , m_controlPlane(
          &m_registry, { m_options.version, m_options.isolation, m_options.sandboxLimits })
{
    m_controlPlane.registerRoutes(&m_router);
    if (m_options.faultInjection)
        registerFaultRoutes();
}

LocalServer::~LocalServer() = default;

bool LocalServer::listenOn(const QHostAddress &address, quint16 port, QString *error)
{
    auto *server = new ConnectionGuard(m_options.limits, this);
    if (!server->listen(address, port)) {
        *error = server->errorString();
        delete server;
        return false;
    }
    server->setHeadScreen(
        [this](const HttpRequest &head, qint64 bodyBytes) { return screenHead(head, bodyBytes); });
    bind(server);
    m_guard = server;
    m_listenAddress = address;
    return true;
}

bool LocalServer::isOwnHost(const QString &host, int port) const
{
    if (port != -1 && port != this->port())
        return false;
    // A sandbox host `<port>-<id>.<domain>` is as good as its domain.
    static const QRegularExpression sandboxHost(QStringLiteral("^\\d+-[a-z0-9]+\\.(.+)$"));
    QString name = host.toLower();
    if (const QRegularExpressionMatch match = sandboxHost.match(name); match.hasMatch())
        name = match.captured(1);
    if (name == QLatin1String("localhost")
        || m_options.allowedHosts.contains(name, Qt::CaseInsensitive))
        return true;
    // An IP literal cannot be rebound: a page can only name it by reaching it.
    QHostAddress address;
    if (!address.setAddress(host))
        return false;
    return address.isLoopback() || address.isEqual(m_listenAddress)
        || m_listenAddress == QHostAddress::Any || m_listenAddress == QHostAddress::AnyIPv4
        || m_listenAddress == QHostAddress::AnyIPv6;
}

QString LocalServer::addressRefusal(const HttpRequest &request) const
{
    QString host;
    int port = -1;
    if (!splitHostPort(request.header("host"), &host, &port) || !isOwnHost(host, port))
        return QStringLiteral("the Host header must name this server (localhost or its address "
                              "with its port)");
    if (!request.hasHeader("origin"))
        return {};
    // Browsers send Origin on cross-site requests; only this server's own pages (none
    // today) may call it.
    const QUrl origin(QString::fromLatin1(request.header("origin").trimmed()));
    const bool web
        = origin.scheme() == QLatin1String("http") || origin.scheme() == QLatin1String("https");
    const int originPort = origin.port(origin.scheme() == QLatin1String("https") ? 443 : 80);
    if (!web || !origin.path().isEmpty() || !isOwnHost(origin.host(), originPort))
        return QStringLiteral("requests from web pages of other origins are refused");
    return {};
}

HeadVerdict LocalServer::screenHead(const HttpRequest &head, qint64 bodyBytes) const
{
    if (const QString refusal = addressRefusal(head); !refusal.isEmpty())
        return { 403, refusal };
    const ConnectionLimits &limits = m_options.limits;
    int sandboxPort = 0;
    QString sandboxId;
    const bool envd
        = sandboxTarget(head, &sandboxPort, &sandboxId) || signedFilesTarget(head, &sandboxId);
    const bool upload = envd && head.method == "POST" && head.path == QLatin1String("/files");
    // An upload's multipart framing (boundaries, part headers) comes on top of the file.
    const qint64 routeLimit = upload ? limits.maxBodyBytes + kFormFramingBytes
                                     : qMin(limits.maxCallBodyBytes, limits.maxBodyBytes);
    if (bodyBytes > routeLimit) {
        return { 413,
            upload ? QStringLiteral("the upload is %1 bytes: envd takes a file of at most %2 "
                                    "bytes (--max-body-bytes) and its form framing")
                         .arg(bodyBytes)
                         .arg(limits.maxBodyBytes)
                   : QStringLiteral("the request body is %1 bytes: %2 %3 takes at most %4 (only "
                                    "envd's POST /files takes larger bodies)")
                         .arg(bodyBytes)
                         .arg(QString::fromLatin1(head.method), head.path)
                         .arg(routeLimit) };
    }
    if (bodyBytes >= 0 && bodyBytes <= limits.maxAnonymousBodyBytes)
        return { 0, {}, routeLimit };
    // A large (or chunked) body is read only for whom the route would answer.
    const QString size = bodyBytes < 0
        ? QStringLiteral("a chunked request body")
        : QStringLiteral("a request body over %1 bytes").arg(limits.maxAnonymousBodyBytes);
    if (envd) {
        // Compared either way, and one answer: no telling an unknown sandbox from a
        // wrong token.
        const SandboxRecord *record = m_registry.find(sandboxId);
        const QByteArray expected = record ? record->envdAccessToken.toUtf8()
                                           : QByteArrayLiteral("(no sandbox: nothing matches)");
        const bool signedFor
            = record && FileSignature::check(head, expected) == FileSignature::Check::Valid;
        if (!(constantTimeEquals(head.header("x-access-token"), expected) || signedFor) || !record)
            return { 401,
                QStringLiteral("%1 needs the sandbox's access token: sandbox \"%2\" not found, "
                               "or X-Access-Token is not its token")
                    .arg(size, sandboxId) };
    } else if (!apiKeyMatches(head)) {
        return { 401,
            QStringLiteral("%1 needs the API key: %2")
                .arg(size,
                    head.hasHeader("x-api-key")
                        ? QStringLiteral("invalid API key")
                        : QStringLiteral("send it in the X-API-Key header")) };
    }
    return { 0, {}, routeLimit };
}

quint16 LocalServer::port() const
{
    const auto servers = findChildren<QTcpServer *>();
    return servers.isEmpty() ? 0 : servers.first()->serverPort();
}

bool LocalServer::sandboxTarget(const HttpRequest &request, int *port, QString *sandboxId)
{
    const QByteArray portHeader = request.header("e2b-sandbox-port");
    if (!portHeader.isEmpty()) {
        bool ok = false;
        *port = portHeader.trimmed().toInt(&ok);
        *sandboxId = QString::fromLatin1(request.header("e2b-sandbox-id").trimmed());
        return ok;
    }
    static const QRegularExpression hostPattern(QStringLiteral("^(\\d+)-([a-z0-9]+)\\."));
    const QRegularExpressionMatch match
        = hostPattern.match(QString::fromLatin1(request.header("host")));
    if (!match.hasMatch())
        return false;
    *port = match.captured(1).toInt();
    *sandboxId = match.captured(2);
    return true;
}

bool LocalServer::signedFilesTarget(const HttpRequest &request, QString *sandboxId) const
{
    if (request.path != QLatin1String("/files") || !FileSignature::isSigned(request))
        return false;
    // One hash per sandbox, and only for a signed link (which only the SDK makes).
    m_registry.visitInOrder(true, std::nullopt, [&](const SandboxRecord &record) {
        const FileSignature::Check check
            = FileSignature::check(request, record.envdAccessToken.toUtf8());
        if (check == FileSignature::Check::Valid || check == FileSignature::Check::Expired)
            *sandboxId = record.sandboxId;
        return sandboxId->isEmpty();
    });
    return !sandboxId->isEmpty();
}

bool LocalServer::handleRequest(const QHttpServerRequest &qtRequest, QTcpSocket *socket)
{
    const HttpRequest request = HttpRequest::fromQt(qtRequest);
    if (m_guard)
        m_guard->requestTaken(socket);

    if (const QString refusal = addressRefusal(request); !refusal.isEmpty()) {
        respond(socket, request, HttpResponse::error(403, refusal));
        return true;
    }

    int sandboxPort = 0;
    QString sandboxId;
    if (sandboxTarget(request, &sandboxPort, &sandboxId)) {
        handleEnvd(qtRequest, request, socket, sandboxPort, sandboxId);
        return true;
    }
    if (signedFilesTarget(request, &sandboxId)) {
        handleEnvd(qtRequest, request, socket, kEnvdPort, sandboxId);
        return true;
    }
    if (request.path == QLatin1String("/files") && FileSignature::isSigned(request)) {
        respond(socket, request,
            HttpResponse::error(401,
                QStringLiteral("the link's signature matches no sandbox here: it was made for "
                               "another path or operation, or its sandbox is gone")));
        return true;
    }

    if (request.method == "GET" && request.path == QLatin1String("/health")) {
        dispatch(request, socket, std::nullopt);
        return true;
    }
    if (!apiKeyMatches(request)) {
        const QString message = request.hasHeader("x-api-key")
            ? QStringLiteral("invalid API key")
            : QStringLiteral("missing API key: send it in the X-API-Key header");
        respond(socket, request, HttpResponse::error(401, message));
        return true;
    }

    std::optional<FaultRule> rule;
    if (m_options.faultInjection && !request.path.startsWith(QLatin1String("/_local/")))
        rule = m_faults.take(
            QString::fromLatin1(request.method), request.path, kApiActions, faultSubject(request));
    if (!rule) {
        dispatch(request, socket, std::nullopt);
        return true;
    }
    qCInfo(lcLocal).noquote() << "fault" << faultActionName(rule->action) << "on" << request.method
                              << request.path;
    switch (rule->action) {
    case FaultAction::Status:
        respond(socket, request, injectedStatus(*rule));
        break;
    case FaultAction::Drop:
        dropConnection(socket, request, "drop");
        break;
    case FaultAction::Delay: {
        QPointer<QTcpSocket> guarded(socket);
        QTimer::singleShot(rule->delayMs, this, [this, request, guarded] {
            if (guarded && guarded->state() == QAbstractSocket::ConnectedState)
                dispatch(request, guarded, std::nullopt);
        });
        break;
    }
    default:
        dispatch(request, socket, rule);
        break;
    }
    return true;
}

void LocalServer::missingHandler(const QHttpServerRequest &qtRequest, QTcpSocket *socket)
{
    // handleRequest() answers everything; kept for completeness.
    respond(socket, HttpRequest::fromQt(qtRequest),
        HttpResponse::error(404, QStringLiteral("not found")));
}

void LocalServer::handleEnvd(const QHttpServerRequest &qtRequest, const HttpRequest &request,
    QTcpSocket *socket, int port, const QString &sandboxId)
{
    if (port != kEnvdPort) {
        respond(socket, request,
            HttpResponse::error(502,
                QStringLiteral("port %1 of sandbox \"%2\" is not open").arg(port).arg(sandboxId)));
        return;
    }
    if (sandboxId.isEmpty()) {
        respond(socket, request,
            HttpResponse::error(
                400, QStringLiteral("E2b-Sandbox-Id: required with E2b-Sandbox-Port")));
        return;
    }
    if (m_options.faultInjection) {
        if (auto rule = m_faults.take(QString::fromLatin1(request.method), request.path,
                kEnvdFrontActions, faultSubject(request, sandboxId))) {
            qCInfo(lcLocal).noquote() << "fault" << faultActionName(rule->action) << "on envd"
                                      << request.method << request.path;
            if (rule->action == FaultAction::Drop)
                dropConnection(socket, request, "drop");
            else
                respond(socket, request, injectedStatus(*rule));
            return;
        }
    }
    if (!m_envdHandler) {
        respond(socket, request,
            connectError(501, QStringLiteral("unimplemented"),
                QStringLiteral("envd is not available in this sandbox-desk-local")));
        return;
    }
    qCDebug(lcLocal).noquote() << "envd" << sandboxId << request.method << request.path;
    m_envdHandler->handleEnvdRequest(qtRequest, socket, sandboxId);
}

FaultSubject LocalServer::faultSubject(
    const HttpRequest &request, const QString &envdSandboxId) const
{
    if (m_faults.isEmpty())
        return {};
    static const QRegularExpression sandboxPath(QStringLiteral("^(?:/v2)?/sandboxes/([^/]+)"));
    QString sandboxId = envdSandboxId;
    if (sandboxId.isEmpty()) {
        if (const QRegularExpressionMatch match = sandboxPath.match(request.path); match.hasMatch())
            sandboxId = match.captured(1);
    }
    if (!sandboxId.isEmpty()) {
        const SandboxRecord *record = m_registry.find(sandboxId);
        return record ? record->metadata : FaultSubject();
    }
    if (request.method != "POST")
        return {};
    // A create: the sandbox it asks for.
    FaultSubject subject;
    const QJsonObject metadata = QJsonDocument::fromJson(request.body)
                                     .object()
                                     .value(QStringLiteral("metadata"))
                                     .toObject();
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        subject.insert(it.key(), it.value().toString());
    return subject;
}

void LocalServer::dispatch(const HttpRequest &request, const QPointer<QTcpSocket> &socket,
    const std::optional<FaultRule> &afterFault)
{
    const Router::Match match = m_router.match(request.method, request.path);
    HttpResponse response;
    if (match.handler) {
        response = (*match.handler)(request, match.params);
    } else if (match.pathKnown) {
        response = HttpResponse::error(405,
            QStringLiteral("method %1 not allowed on %2")
                .arg(QString::fromLatin1(request.method), request.path));
    } else {
        response = HttpResponse::error(404,
            QStringLiteral("no such endpoint: %1 %2")
                .arg(QString::fromLatin1(request.method), request.path));
    }
    if (!socket)
        return;
    if (afterFault) {
        switch (afterFault->action) {
        case FaultAction::StatusAfter:
            response = injectedStatus(*afterFault);
            break;
        case FaultAction::DropAfter:
            dropConnection(socket, request, "drop-after");
            return;
        case FaultAction::DelayAfter:
            // Done, but the client does not know yet: the window in which a client
            // that dies loses the answer.
            QTimer::singleShot(afterFault->delayMs, this, [this, request, response, socket] {
                if (socket && socket->state() == QAbstractSocket::ConnectedState)
                    respond(socket, request, response);
            });
            return;
        case FaultAction::EmptyAfter:
            response.body.clear();
            break;
        case FaultAction::GarbageAfter:
            response.body = QByteArrayLiteral("<html>injected fault: this is not JSON");
            break;
        default:
            break;
        }
    }
    respond(socket, request, response);
}

void LocalServer::respond(
    QTcpSocket *socket, const HttpRequest &request, const HttpResponse &response)
{
    qCInfo(lcLocal).noquote() << request.method << request.path << response.status;
    writeResponse(socket, response, !request.wantsClose());
}

void LocalServer::dropConnection(QTcpSocket *socket, const HttpRequest &request, const char *why)
{
    qCInfo(lcLocal).noquote() << request.method << request.path
                              << "connection closed without an answer (" << why << ")";
    if (socket)
        socket->disconnectFromHost();
}

bool LocalServer::apiKeyMatches(const HttpRequest &request) const
{
    return constantTimeEquals(request.header("x-api-key"), m_options.apiKey.toUtf8());
}

void LocalServer::registerFaultRoutes()
{
    const QString path = QStringLiteral("/_local/faults");
    m_router.add("GET", path, [this](const HttpRequest &, const RouteParams &) {
        return HttpResponse::json(
            200, QJsonObject { { QStringLiteral("rules"), m_faults.toJson() } });
    });
    m_router.add("DELETE", path, [this](const HttpRequest &, const RouteParams &) {
        m_faults.clear();
        return HttpResponse::noContent();
    });
    m_router.add("POST", path, [this](const HttpRequest &request, const RouteParams &) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject())
            return HttpResponse::error(
                400, QStringLiteral("request body: not a valid JSON object"));
        const QJsonValue rules = doc.object().value(QStringLiteral("rules"));
        if (!rules.isArray())
            return HttpResponse::error(
                400, QStringLiteral("rules: required, an array of rule objects"));
        QString error;
        if (!m_faults.addRules(rules.toArray(), &error))
            return HttpResponse::error(400, error);
        return HttpResponse::json(
            200, QJsonObject { { QStringLiteral("rules"), m_faults.toJson() } });
    });
}

} // namespace sd::local
