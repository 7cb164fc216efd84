#pragma once

#include "local/connectionguard.h"
#include "local/controlplane.h"
#include "local/faultinjector.h"
#include "local/httpmessage.h"
#include "local/router.h"
#include "local/sandboxregistry.h"

#include <QAbstractHttpServer>
#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>

namespace sd::local {

class EnvdHandler;

/// The HTTP front of sandbox-desk-local: one QAbstractHttpServer serving E2B's REST
/// API and, through EnvdHandler, every sandbox's envd.
///
/// Request flow (each request is copied into an HttpRequest first):
/// \code
///   header block ─▶ screenHead(), before any body is read:
///      │            Host/Origin ─▶ 403, body past the route's size ─▶ 413,
///      │            body over 64 KiB without its credential ─▶ 401
///      ▼
///   request ─▶ Host and Origin this server's own? ──no──▶ 403
///      ▼
///   sandbox port? ──yes──▶ front faults (status, drop) ─▶ EnvdHandler
///      │                                                            (501 when none)
///      no
///      ▼
///   GET /health ─▶ answered without a key
///      ▼
///   X-API-Key check ─▶ 401
///      ▼
///   /_local/faults ─▶ fault rules (only with --fault-injection)
///      ▼
///   fault rule? status/drop ─▶ answered here, nothing performed
///               delay ─▶ the rest runs after a timer
///      ▼
///   Router ─▶ ControlPlane handler ─▶ "after" fault (status-after, drop-after,
///                                      delay-after, empty-after, garbage-after) ─▶ socket
/// \endcode
/// Keep-alive connections carry any number of requests; `Connection: close` is honoured.
/// Logs method, path and status to lcLocal; never headers or bodies.
class LocalServer : public QAbstractHttpServer
{
    Q_OBJECT

public:
    /// The envd port of a sandbox, as the SDK addresses it.
    static constexpr int kEnvdPort = 49983;

    struct Options
    {
        QString apiKey; ///< required on every endpoint but /health
        bool faultInjection = false; ///< enables /_local/faults and the rules
        QString isolation; ///< resolved: "bwrap" or "none" (reported by /health)
        QString stateDir; ///< where the data plane keeps sandbox files
        QString version; ///< reported by /health
        ConnectionLimits limits; ///< enforced before a request is parsed or buffered
        SandboxLimits sandboxLimits; ///< how many sandboxes, and processes in each
        /// DNS names clients may call this server by, besides localhost (see isOwnHost()).
        QStringList allowedHosts;
    };

    explicit LocalServer(Options options, QObject *parent = nullptr);
    ~LocalServer() override;

    /// Starts listening; 0 picks a free port. False with a reason in `error`.
    bool listenOn(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;

    const Options &options() const { return m_options; }
    SandboxRegistry *registry() { return &m_registry; }
    /// The fault rules. Consulted only when Options::faultInjection is set; the envd
    /// part takes its own (stream) actions from here.
    FaultInjector *faults() { return &m_faults; }
    bool faultInjectionEnabled() const { return m_options.faultInjection; }
    /// For the data plane's own routes (metrics).
    Router *router() { return &m_router; }

    /// Not owned; may be null (envd requests then get 501). Set before serving.
    void setEnvdHandler(EnvdHandler *handler) { m_envdHandler = handler; }
    EnvdHandler *envdHandler() const { return m_envdHandler; }

    /// For a request addressed to a sandbox port (header `E2b-Sandbox-Port` with
    /// `E2b-Sandbox-Id`, or Host `<port>-<sandboxId>.<domain>`): true with the port and
    /// sandbox ID filled in.
    static bool sandboxTarget(const HttpRequest &request, int *port, QString *sandboxId);
    /// A signed `/files` link names no sandbox: the sandbox whose token signed it, in
    /// `sandboxId` (false when none did).
    bool signedFilesTarget(const HttpRequest &request, QString *sandboxId) const;

    /// Whether a client that names this server `host` (with `port`, -1 when none was
    /// given) reached it on purpose: localhost, a name of Options::allowedHosts, a
    /// loopback or the listening address, or a sandbox host `<port>-<id>.` under one
    /// of those names. A web page whose own DNS name was made to resolve to 127.0.0.1
    /// (DNS rebinding) names its own host instead.
    bool isOwnHost(const QString &host, int port) const;

    /// What ConnectionGuard lets a request send, from its head alone: refused when its
    /// Host or Origin is (403), when its body is larger than its route takes (413: only
    /// envd's POST /files takes an upload, up to ConnectionLimits::maxBodyBytes plus its
    /// form framing; every other call ConnectionLimits::maxCallBodyBytes), and when a
    /// body over ConnectionLimits::maxAnonymousBodyBytes (or chunked) comes without the
    /// credential that route needs (401: the API key; for envd the sandbox's
    /// X-Access-Token). `bodyBytes` is -1 for a chunked body.
    HeadVerdict screenHead(const HttpRequest &head, qint64 bodyBytes) const;

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    void handleEnvd(const QHttpServerRequest &qtRequest, const HttpRequest &request,
        QTcpSocket *socket, int port, const QString &sandboxId);
    void dispatch(const HttpRequest &request, const QPointer<QTcpSocket> &socket,
        const std::optional<FaultRule> &afterFault);
    void respond(QTcpSocket *socket, const HttpRequest &request, const HttpResponse &response);
    void dropConnection(QTcpSocket *socket, const HttpRequest &request, const char *why);
    bool apiKeyMatches(const HttpRequest &request) const;
    /// Empty when the Host and Origin headers name this server; else why not.
    QString addressRefusal(const HttpRequest &request) const;
    void registerFaultRoutes();
    /// The metadata of the sandbox `request` is about (`envdSandboxId` for envd), for
    /// fault rules that name one.
    FaultSubject faultSubject(const HttpRequest &request, const QString &envdSandboxId = {}) const;

    Options m_options;
    QHostAddress m_listenAddress;
    QPointer<ConnectionGuard> m_guard;
    SandboxRegistry m_registry;
    ControlPlane m_controlPlane;
    Router m_router;
    FaultInjector m_faults;
    EnvdHandler *m_envdHandler = nullptr;
};

} // namespace sd::local
