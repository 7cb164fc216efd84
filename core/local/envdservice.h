#pragma once

#include "local/envdhandler.h"
#include "local/faultinjector.h"
#include "local/httpmessage.h"
#include "local/processrunner.h"
#include "local/sandboxregistry.h"

#include <QObject>
#include <QPointer>

namespace sd::local {

class LocalServer;
class ProcessStream;
class Router;

/// envd of every local sandbox: the Connect RPC services `process.Process` and
/// `filesystem.Filesystem` (JSON only, no watching), `/files`, `/health`, and the glue
/// between the sandbox registry and the process runner.
///
/// - On SandboxRegistry::sandboxCreated it creates the sandbox's SandboxRuntime
///   (directory, jail) and hands it to the registry; killed/paused/resumed stop,
///   SIGSTOP and SIGCONT it. Every started and ended process becomes a lifecycle
///   event ("process_started", "process_ended").
/// - Start and Connect answer with a stream of envelopes (start, data, end, then
///   end-of-stream); List, SendSignal, SendInput and CloseStdin are unary.
/// - Serves `GET /sandboxes/{id}/metrics` and `GET /sandboxes/metrics`.
/// - Fault action `cut-after-output` (rule on `/process.Process/Start`, optional
///   `"chunks": N`, default 1): the stream sends the start event and N data events,
///   then drops the connection without end-of-stream.
class EnvdService : public QObject, public EnvdHandler
{
    Q_OBJECT

public:
    /// Neither is owned; both must outlive the service. Installs itself as the
    /// server's envd handler and registers the metrics routes.
    EnvdService(LocalServer *server, ProcessRunner *runner, QObject *parent = nullptr);
    ~EnvdService() override;

    void handleEnvdRequest(
        const QHttpServerRequest &request, QTcpSocket *socket, const QString &sandboxId) override;

    SandboxRuntime *runtime(const QString &sandboxId) const;

private:
    void onSandboxCreated(const QString &sandboxId);
    void onSandboxKilled(const QString &sandboxId, KillReason reason);
    void registerRoutes(Router *router);

    void replyError(QTcpSocket *socket, const HttpRequest &request, bool stream,
        const QString &code, const QString &message);
    void replyJson(QTcpSocket *socket, const HttpRequest &request, const QJsonObject &json);
    /// Answers a SendInput once `process` took its input, or with an error if it ends
    /// first.
    void replyOnceInputTaken(
        QTcpSocket *socket, const HttpRequest &request, SandboxProcess *process);
    /// The running sandbox `sandboxId` when the request carries its token and a known
    /// user; otherwise answers the request and returns null.
    SandboxRuntime *authorize(
        QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId, bool stream);
    /// The unary calls of envd's `filesystem.Filesystem`: Stat, MakeDir, ListDir,
    /// Remove and Move (SandboxFiles).
    void filesystemCall(QTcpSocket *socket, const HttpRequest &request, SandboxRuntime *runtime,
        const QString &method, const QJsonObject &body);
    /// envd's GET and POST /files: download and upload (SandboxFiles).
    void serveFiles(QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId);
    /// envd's GET /health for `sandboxId`.
    void replyHealth(QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId);
    void startStream(QTcpSocket *socket, const HttpRequest &request, SandboxRuntime *runtime,
        const QJsonObject &body, bool attach, const FaultSubject &sandboxMetadata);
    void unary(QTcpSocket *socket, const HttpRequest &request, SandboxRuntime *runtime,
        const QString &method, const QJsonObject &body);

    LocalServer *m_server;
    ProcessRunner *m_runner;
};

} // namespace sd::local
