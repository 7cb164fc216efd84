#pragma once

#include <QString>

QT_BEGIN_NAMESPACE
class QHttpServerRequest;
class QTcpSocket;
QT_END_NAMESPACE

namespace sd::local {

/// Extension point for a sandbox's envd (the data plane) served by the same
/// LocalServer. The server hands over every request addressed to envd:
///  - header `E2b-Sandbox-Port: 49983` with `E2b-Sandbox-Id: <id>`, or
///  - a `Host` of the form `49983-<sandboxId>.<anything>`.
///
/// The server does no API-key check for these (envd authenticates with
/// `X-Access-Token`, compare it to SandboxRecord::envdAccessToken), and applies only
/// the front faults (status, drop, delay); other fault actions on envd paths are left
/// for the handler to take from LocalServer::faults().
///
/// The handler must answer on the socket itself: writeResponse() for unary calls,
/// an HttpStreamWriter for streams (hold the socket in a QPointer). `request` is only
/// valid during the call; copy what you need (HttpRequest::fromQt()). The sandbox ID
/// is not checked against the registry: an unknown ID is the handler's to answer.
class EnvdHandler
{
public:
    virtual ~EnvdHandler() = default;

    virtual void handleEnvdRequest(const QHttpServerRequest &request, QTcpSocket *socket,
                                   const QString &sandboxId) = 0;
};

} // namespace sd::local
