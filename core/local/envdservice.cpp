#include "envdservice.h"

#include "common/logging.h"
#include "envd/envelope.h"
#include "local/connectionguard.h"
#include "local/filesignature.h"
#include "local/httpstreamwriter.h"
#include "local/localserver.h"
#include "local/router.h"
#include "local/sandboxfiles.h"

#include <QFileInfo>
#include <QHash>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTimer>

#include <cmath>
#include <csignal>
#include <memory>
#include <utility>

namespace sd::local {

namespace {

const QString ServicePrefix = QStringLiteral("/process.Process/");
const QString FilesystemPrefix = QStringLiteral("/filesystem.Filesystem/");

/// envd's EntryInfo in protobuf's JSON form.
QJsonObject entryJson(const SandboxFiles::Entry &entry)
{
    static const char *const types[]
        = { "FILE_TYPE_FILE", "FILE_TYPE_DIRECTORY", "FILE_TYPE_SYMLINK", "FILE_TYPE_UNSPECIFIED" };
    QJsonObject json { { QStringLiteral("name"), entry.name },
        { QStringLiteral("type"), QLatin1String(types[int(entry.type)]) },
        { QStringLiteral("path"), entry.path },
        { QStringLiteral("size"), QString::number(entry.size) },
        { QStringLiteral("mode"), qint64(entry.mode) },
        { QStringLiteral("permissions"), entry.permissions },
        { QStringLiteral("owner"), entry.owner }, { QStringLiteral("group"), entry.group },
        { QStringLiteral("modifiedTime"), entry.modified.toString(Qt::ISODateWithMs) } };
    if (entry.type == SandboxFiles::Entry::Type::Symlink)
        json.insert(QStringLiteral("symlinkTarget"), entry.symlinkTarget);
    return json;
}

/// The Connect code for a failure of SandboxFiles.
QString connectCode(SandboxFiles::Failure failure)
{
    switch (failure) {
    case SandboxFiles::Failure::NotFound:
        return QStringLiteral("not_found");
    case SandboxFiles::Failure::NotAFile:
    case SandboxFiles::Failure::NotAFolder:
        return QStringLiteral("invalid_argument");
    case SandboxFiles::Failure::PermissionDenied:
        return QStringLiteral("permission_denied");
    case SandboxFiles::Failure::AlreadyExists:
        return QStringLiteral("already_exists");
    case SandboxFiles::Failure::TooLarge:
        return QStringLiteral("resource_exhausted");
    case SandboxFiles::Failure::Unsupported:
        return QStringLiteral("unimplemented");
    case SandboxFiles::Failure::None:
    case SandboxFiles::Failure::Other:
        break;
    }
    return QStringLiteral("internal");
}
const QByteArray StreamContentType = "application/connect+json";
const QByteArray UnaryContentType = "application/json";
// Start without Connect-Timeout-Ms has no deadline; the SDK always sends one.
constexpr int MaxKeepAliveSeconds = 3600;
// Back-pressure on a stream: past this much output queued for a client, the process's
// output is no longer read until the queue is down to the low mark.
constexpr qint64 StreamHighWaterBytes = 4 * 1024 * 1024;
constexpr qint64 StreamLowWaterBytes = 1024 * 1024;
// Input sent to a process that does not read it, held before further input is refused;
// a client that waits for each SendInput's answer never has more than one call's.
constexpr qint64 MaxStdinBacklog = 16 * 1024 * 1024;

QString killMessage(KillReason reason)
{
    switch (reason) {
    case KillReason::Expired:
        return QStringLiteral("the sandbox was killed: its timeout expired");
    case KillReason::Shutdown:
        return QStringLiteral("the sandbox was killed: the local backend is shutting down");
    case KillReason::Requested:
        break;
    }
    return QStringLiteral("the sandbox was killed");
}

// `{"pid": N}` or `{"tag": "..."}`; protobuf JSON may send a uint32 as a string.
bool parseSelector(const QJsonObject &body, quint32 *pid, QString *tag, QString *error)
{
    const QJsonValue selectorValue = body.value(QStringLiteral("process"));
    if (!selectorValue.isObject()) {
        *error = QStringLiteral("process: required (a selector with pid or tag)");
        return false;
    }
    const QJsonObject selector = selectorValue.toObject();
    if (selector.contains(QStringLiteral("tag"))) {
        *tag = selector.value(QStringLiteral("tag")).toString();
        if (tag->isEmpty()) {
            *error = QStringLiteral("process.tag: must be a non-empty string");
            return false;
        }
        return true;
    }
    const QJsonValue pidValue = selector.value(QStringLiteral("pid"));
    bool ok = false;
    qint64 value = 0;
    if (pidValue.isDouble()) {
        // Range first: converting a double beyond qint64 is undefined.
        const double number = pidValue.toDouble();
        ok = number >= 1 && number <= double(0xffffffffLL) && std::floor(number) == number;
        value = ok ? qint64(number) : 0;
    } else if (pidValue.isString()) {
        value = pidValue.toString().toLongLong(&ok);
    }
    if (!ok || value <= 0 || value > 0xffffffffLL) {
        *error = QStringLiteral("process.pid: must be a positive integer");
        return false;
    }
    *pid = quint32(value);
    return true;
}

/// Whether a jailed process finds something at `path` (a sandbox path), as far as the
/// backend can tell without entering the jail: the sandbox's own folders are looked into
/// (resolved inside the sandbox's folder, a link not followed), the host's /usr (and
/// /bin, /lib... which link into it) is the jail's, read-only, and so is what the jail
/// shows of the host's /etc; the jail's /proc, /dev and /opt are left for the start to
/// find out.
bool jailHas(const SandboxFiles &files, const QString &path)
{
    for (const QString &folder : SandboxFiles::ownFolders()) {
        if (path == folder || path.startsWith(folder + QLatin1Char('/'))) {
            SandboxFiles::Entry entry;
            return files.stat(path, &entry).failure != SandboxFiles::Failure::NotFound;
        }
    }
    const QString top = path.section(QLatin1Char('/'), 1, 1);
    static const QStringList fromHostUsr { QStringLiteral("usr"), QStringLiteral("bin"),
        QStringLiteral("sbin"), QStringLiteral("lib"), QStringLiteral("lib64"),
        QStringLiteral("lib32"), QStringLiteral("libx32") };
    if (top.isEmpty())
        return true;
    if (fromHostUsr.contains(top))
        return QFileInfo::exists(path);
    if (top == QLatin1String("home"))
        return path == QLatin1String("/home");
    if (top == QLatin1String("etc"))
        return ProcessRunner::jailHasEtcFolder(path);
    static const QStringList jailOwn { QStringLiteral("proc"), QStringLiteral("dev"),
        QStringLiteral("opt") };
    return jailOwn.contains(top);
}

QJsonObject configJson(const sd::ProcessConfig &config)
{
    QJsonObject json = config.toJson();
    if (!json.contains(QStringLiteral("envs")))
        json.insert(QStringLiteral("envs"), QJsonObject());
    return json;
}

} // namespace

/// One Start or Connect stream: writes the process's events as envelopes.
class ProcessStream : public QObject
{
public:
    ProcessStream(QTcpSocket *socket, bool keepAlive, QObject *parent)
        : QObject(parent)
        , m_writer(new HttpStreamWriter(socket, this))
    {
        m_writer->begin(200, { { "Content-Type", StreamContentType } }, keepAlive);
        connect(m_writer, &HttpStreamWriter::peerDisconnected, this, [this] {
            // The client went away; the process keeps running, as with envd.
            close();
        });
        connect(m_writer, &HttpStreamWriter::bytesWritten, this, [this] {
            if (m_process && m_writer->bytesToWrite() <= StreamLowWaterBytes)
                m_process->releaseOutput(this);
        });
        m_keepAliveTimer.setSingleShot(false);
        connect(&m_keepAliveTimer, &QTimer::timeout, this,
            [this] { send(envd::processKeepAliveEvent(), false); });
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, [this] {
            // Start owns its process, as envd's does: past the deadline it is killed.
            // Connect only watches, so only its stream ends.
            if (m_process && m_ownsProcess)
                m_process->sendSignal(SIGKILL);
            endWithError(QStringLiteral("deadline_exceeded"),
                m_ownsProcess
                    ? QStringLiteral("the call ran longer than its Connect-Timeout-Ms of %1 ms; "
                                     "the process was killed")
                          .arg(m_deadline.interval())
                    : QStringLiteral("the call ran longer than its Connect-Timeout-Ms of %1 ms")
                          .arg(m_deadline.interval()));
        });
    }

    void setKeepAliveSeconds(int seconds)
    {
        if (seconds > 0)
            m_keepAliveTimer.start(qMin(seconds, MaxKeepAliveSeconds) * 1000);
    }
    void setDeadlineMs(qint64 ms)
    {
        if (ms > 0)
            m_deadline.start(int(qMin<qint64>(ms, std::numeric_limits<int>::max())));
    }
    void setCutAfterChunks(int chunks) { m_cutAfter = qMax(0, chunks); }

    void attach(SandboxRuntime *runtime, SandboxProcess *process, bool alreadyRunning)
    {
        m_process = process;
        m_ownsProcess = !alreadyRunning;
        connect(runtime, &SandboxRuntime::stopping, this,
            [this](const QString &reason) { endWithError(QStringLiteral("unavailable"), reason); });
        connect(process, &SandboxProcess::started, this,
            [this](quint32 pid) { send(envd::processStartEvent(pid), true); });
        connect(process, &SandboxProcess::failedToStart, this, [this](const QString &reason) {
            endWithError(QStringLiteral("internal"),
                QStringLiteral("could not start the process: %1").arg(reason));
        });
        connect(
            process, &SandboxProcess::output, this, [this](bool isStderr, const QByteArray &data) {
                send(envd::processDataEvent(isStderr, data), true);
                if (m_process && m_writer->bytesToWrite() > StreamHighWaterBytes)
                    m_process->holdOutput(this);
                ++m_dataSent;
                if (m_cutAfter >= 0 && m_dataSent >= m_cutAfter) {
                    qCInfo(lcLocal) << "fault cut-after-output: dropping the stream";
                    m_writer->abort();
                    close();
                }
            });
        connect(process, &SandboxProcess::ended, this,
            [this](int exitCode, bool exited, const QString &status) {
                if (m_done)
                    return;
                // envd sends the error Go's exec gives for a process that did not exit
                // 0 ("exit status 3", "signal: killed"): its status line.
                const QString error = exited && exitCode == 0 ? QString() : status;
                send(envd::processEndEvent(exitCode, exited, status, error), false);
                finishOk();
            });
        if (alreadyRunning)
            send(envd::processStartEvent(process->pid()), true);
    }

    void endWithError(const QString &code, const QString &message)
    {
        if (m_done)
            return;
        m_writer->writeChunk(envd::encodeEndStream(code, message));
        m_writer->finish();
        close();
    }

private:
    void send(const QJsonObject &event, bool restartKeepAlive)
    {
        if (m_done)
            return;
        m_writer->writeChunk(envd::encodeEnvelope(event));
        if (restartKeepAlive && m_keepAliveTimer.isActive())
            m_keepAliveTimer.start();
    }

    void finishOk()
    {
        m_writer->writeChunk(envd::encodeEndStream());
        m_writer->finish();
        close();
    }

    void close()
    {
        if (m_done)
            return;
        m_done = true;
        m_keepAliveTimer.stop();
        m_deadline.stop();
        if (m_process) {
            m_process->disconnect(this);
            m_process->releaseOutput(this);
        }
        deleteLater();
    }

    HttpStreamWriter *m_writer;
    QPointer<SandboxProcess> m_process;
    QTimer m_keepAliveTimer;
    QTimer m_deadline;
    int m_cutAfter = -1;
    int m_dataSent = 0;
    bool m_ownsProcess = false;
    bool m_done = false;
};

EnvdService::EnvdService(LocalServer *server, ProcessRunner *runner, QObject *parent)
    : QObject(parent)
    , m_server(server)
    , m_runner(runner)
{
    SandboxRegistry *registry = m_server->registry();
    connect(registry, &SandboxRegistry::sandboxCreated, this, &EnvdService::onSandboxCreated);
    connect(registry, &SandboxRegistry::sandboxKilled, this, &EnvdService::onSandboxKilled);
    connect(registry, &SandboxRegistry::sandboxPaused, this, [this](const QString &id) {
        if (SandboxRuntime *r = runtime(id))
            r->pause();
    });
    connect(registry, &SandboxRegistry::sandboxResumed, this, [this](const QString &id) {
        if (SandboxRuntime *r = runtime(id))
            r->resume();
    });
    m_server->setEnvdHandler(this);
    registerRoutes(m_server->router());
}

EnvdService::~EnvdService()
{
    if (m_server->envdHandler() == this)
        m_server->setEnvdHandler(nullptr);
}

SandboxRuntime *EnvdService::runtime(const QString &sandboxId) const
{
    return qobject_cast<SandboxRuntime *>(m_server->registry()->runtime(sandboxId));
}

void EnvdService::onSandboxCreated(const QString &sandboxId)
{
    SandboxRegistry *registry = m_server->registry();
    const SandboxRecord *record = registry->find(sandboxId);
    if (!record)
        return;
    SandboxRuntimeConfig config;
    config.sandboxId = sandboxId;
    config.templateId = record->templateId;
    config.envVars = record->envVars;
    config.allowInternetAccess = record->allowInternetAccess.value_or(true);
    config.cpuCount = record->cpuCount;
    config.memoryBytes = qint64(record->memoryMB) * 1024 * 1024;
    QString error;
    SandboxRuntime *rt = m_runner->create(config, &error);
    if (!rt) {
        qCWarning(lcLocal).noquote() << "sandbox" << sandboxId << "has no processes:" << error;
        registry->addEvent(
            sandboxId, QStringLiteral("runtime_failed"), error, {}, QStringLiteral("error"));
        return;
    }
    connect(rt, &SandboxRuntime::processStarted, this,
        [registry, sandboxId](quint32 pid, const QString &command) {
            registry->addEvent(sandboxId, QStringLiteral("process_started"),
                QStringLiteral("Process started: %1 (pid %2)").arg(command).arg(pid),
                { { QStringLiteral("pid"), QString::number(pid) },
                    { QStringLiteral("command"), command } });
        });
    connect(rt, &SandboxRuntime::processEnded, this,
        [registry, sandboxId](
            quint32 pid, const QString &command, int exitCode, const QString &status) {
            registry->addEvent(sandboxId, QStringLiteral("process_ended"),
                QStringLiteral("Process %1 (pid %2) ended: %3").arg(command).arg(pid).arg(status),
                { { QStringLiteral("pid"), QString::number(pid) },
                    { QStringLiteral("command"), command },
                    { QStringLiteral("exitCode"), QString::number(exitCode) } });
        });
    registry->setRuntime(sandboxId, rt);
}

void EnvdService::onSandboxKilled(const QString &sandboxId, KillReason reason)
{
    if (SandboxRuntime *r = runtime(sandboxId))
        r->stop(killMessage(reason));
}

void EnvdService::registerRoutes(Router *router)
{
    // Before the control plane's GET /sandboxes/{id}, which would take "metrics" as an ID.
    router->prepend("GET", QStringLiteral("/sandboxes/metrics"),
        [this](const HttpRequest &request, const RouteParams &) {
            const QString ids
                = request.query.queryItemValue(QStringLiteral("sandbox_ids"), QUrl::FullyDecoded);
            if (ids.isEmpty())
                return HttpResponse::error(400, QStringLiteral("sandbox_ids: required"));
            const QStringList list = ids.split(QLatin1Char(','), Qt::SkipEmptyParts);
            if (list.size() > 100)
                return HttpResponse::error(400, QStringLiteral("sandbox_ids: at most 100"));
            QJsonObject sandboxes;
            for (const QString &id : list) {
                SandboxRuntime *r = runtime(id.trimmed());
                if (r && !r->metrics().isEmpty())
                    sandboxes.insert(id.trimmed(), r->metrics().last().toJson());
            }
            return HttpResponse::json(
                200, QJsonObject { { QStringLiteral("sandboxes"), sandboxes } });
        });
    router->add("GET", QStringLiteral("/sandboxes/{id}/metrics"),
        [this](const HttpRequest &request, const RouteParams &params) {
            const QString id = params.value(QStringLiteral("id"));
            SandboxRuntime *r = runtime(id);
            if (!m_server->registry()->find(id) || !r)
                return HttpResponse::error(404, QStringLiteral("sandbox \"%1\" not found").arg(id));
            bool okStart = false;
            bool okEnd = false;
            const qint64 start
                = request.query.queryItemValue(QStringLiteral("start")).toLongLong(&okStart);
            const qint64 end
                = request.query.queryItemValue(QStringLiteral("end")).toLongLong(&okEnd);
            QJsonArray samples;
            for (const SandboxMetric &sample : r->metrics()) {
                const qint64 t = sample.timestamp.toSecsSinceEpoch();
                if ((okStart && t < start) || (okEnd && t > end))
                    continue;
                samples.append(sample.toJson());
            }
            return HttpResponse::json(200, samples);
        });
}

void EnvdService::replyError(QTcpSocket *socket, const HttpRequest &request, bool stream,
    const QString &code, const QString &message)
{
    qCInfo(lcLocal).noquote() << "envd" << request.path << "error" << code;
    if (stream) {
        // Connect streams carry their error in the end-of-stream envelope, under HTTP 200.
        auto *writer = new HttpStreamWriter(socket, this);
        writer->begin(200, { { "Content-Type", StreamContentType } }, !request.wantsClose());
        writer->writeChunk(envd::encodeEndStream(code, message));
        writer->finish();
        writer->deleteLater();
        return;
    }
    HttpResponse response = HttpResponse::json(envd::httpStatusForConnectCode(code),
        QJsonObject { { QStringLiteral("code"), code }, { QStringLiteral("message"), message } });
    writeResponse(socket, response, !request.wantsClose());
}

void EnvdService::replyJson(QTcpSocket *socket, const HttpRequest &request, const QJsonObject &json)
{
    writeResponse(socket, HttpResponse::json(200, json), !request.wantsClose());
}

void EnvdService::replyHealth(
    QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId)
{
    // Unauthenticated, as envd's is. 204 while the sandbox can run processes; 502 when
    // it cannot, as E2B's proxy answers for a sandbox that is not running, which the
    // SDK's isRunning() reads as false.
    if (request.method != "GET") {
        writeResponse(socket, HttpResponse::error(405, QStringLiteral("/health takes GET")),
            !request.wantsClose());
        return;
    }
    const SandboxRecord *record = m_server->registry()->find(sandboxId);
    SandboxRuntime *rt = runtime(sandboxId);
    const bool running = record && record->state != SandboxState::Paused && rt && !rt->isStopped();
    writeResponse(socket,
        running ? HttpResponse::noContent()
                : HttpResponse::error(502, QStringLiteral("The sandbox is not running")),
        !request.wantsClose());
}

SandboxRuntime *EnvdService::authorize(
    QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId, bool stream)
{
    const SandboxRecord *record = m_server->registry()->find(sandboxId);
    SandboxRuntime *rt = runtime(sandboxId);
    // An unknown sandbox and a missing or wrong token get one answer, and the token is
    // compared either way: who lacks a sandbox's token learns nothing about which
    // sandboxes exist.
    const QByteArray expected = record ? record->envdAccessToken.toUtf8()
                                       : QByteArrayLiteral("(no sandbox: nothing matches)");
    // A signed /files link stands in for the token, as on envd.
    const FileSignature::Check signature = request.path == QLatin1String("/files")
        ? FileSignature::check(request, expected)
        : FileSignature::Check::Absent;
    const bool tokenMatches = constantTimeEquals(request.header("x-access-token"), expected)
        || signature == FileSignature::Check::Valid;
    if (record && signature == FileSignature::Check::Expired) {
        replyError(socket, request, stream, QStringLiteral("unauthenticated"),
            QStringLiteral("the link's signature has expired: ask the SDK for a new one"));
        return nullptr;
    }
    if (!record || !tokenMatches) {
        replyError(socket, request, stream, QStringLiteral("not_found"),
            QStringLiteral("sandbox \"%1\" not found, or X-Access-Token is not its token")
                .arg(sandboxId));
        return nullptr;
    }
    const QByteArray authorization = request.header("authorization");
    if (!authorization.isEmpty()) {
        const QByteArray decoded = authorization.startsWith("Basic ")
            ? QByteArray::fromBase64(authorization.mid(6).trimmed())
            : QByteArray();
        const QByteArray user = decoded.left(decoded.indexOf(':'));
        if (user != "root" && user != "user") {
            replyError(socket, request, stream, QStringLiteral("unauthenticated"),
                QStringLiteral("Authorization must name the user root or user (Basic)"));
            return nullptr;
        }
    }
    if (!rt || rt->isStopped()) {
        replyError(socket, request, stream, QStringLiteral("unavailable"),
            QStringLiteral("the sandbox has no running environment"));
        return nullptr;
    }
    // Created with autoResume, a paused sandbox wakes for the request, as on E2B. Only
    // a request that carries its token does: who cannot use the sandbox cannot make it
    // run (and bill) again either.
    if (record->state == SandboxState::Paused
        && m_server->registry()->resumeOnRequest(sandboxId) != SandboxRegistry::Result::Ok) {
        replyError(socket, request, stream, QStringLiteral("unavailable"),
            QStringLiteral("the sandbox is paused; resume it first (Sandbox.connect()), or "
                           "create it with autoResume"));
        return nullptr;
    }
    return rt;
}

void EnvdService::filesystemCall(QTcpSocket *socket, const HttpRequest &request,
    SandboxRuntime *runtime, const QString &method, const QJsonObject &body)
{
    const SandboxFiles files(runtime->fs().root());
    const QString path = body.value(QStringLiteral("path")).toString();
    SandboxFiles::Result result;
    QJsonObject reply;
    if (method == QLatin1String("ListDir")) {
        const int depth = body.value(QStringLiteral("depth")).toInt(1);
        QList<SandboxFiles::Entry> entries;
        result = files.list(path, std::max(1, depth), &entries);
        QJsonArray array;
        for (const SandboxFiles::Entry &entry : std::as_const(entries))
            array.append(entryJson(entry));
        reply.insert(QStringLiteral("entries"), array);
    } else if (method == QLatin1String("Remove")) {
        result = files.remove(path);
        runtime->markFolderChanged();
    } else {
        SandboxFiles::Entry entry;
        if (method == QLatin1String("Stat")) {
            result = files.stat(path, &entry);
        } else if (method == QLatin1String("MakeDir")) {
            result = files.makeDir(path, &entry);
        } else { // Move
            result = files.move(body.value(QStringLiteral("source")).toString(),
                body.value(QStringLiteral("destination")).toString(), &entry);
            runtime->markFolderChanged();
        }
        reply.insert(QStringLiteral("entry"), entryJson(entry));
    }
    if (!result.ok()) {
        replyError(socket, request, false, connectCode(result.failure), result.message);
        return;
    }
    replyJson(socket, request, reply);
}

void EnvdService::serveFiles(
    QTcpSocket *socket, const HttpRequest &request, const QString &sandboxId)
{
    const bool keepAlive = !request.wantsClose();
    if (request.method != "GET" && request.method != "POST") {
        writeResponse(socket, HttpResponse::error(405, QStringLiteral("/files takes GET or POST")),
            keepAlive);
        return;
    }
    SandboxRuntime *rt = authorize(socket, request, sandboxId, false);
    if (!rt)
        return;
    // Form-decoded ('+' is a space), as envd reads its query.
    const QString user = FileSignature::queryValue(request, QStringLiteral("username"));
    if (!user.isEmpty() && user != QLatin1String("root") && user != QLatin1String("user")) {
        writeResponse(socket,
            HttpResponse::error(401, QStringLiteral("username must be root or user")), keepAlive);
        return;
    }
    const QString path = FileSignature::queryValue(request, QStringLiteral("path"));
    const SandboxFiles files(rt->fs().root());
    const auto replyFailure = [&](const SandboxFiles::Result &result) {
        static const QHash<SandboxFiles::Failure, int> statuses { { SandboxFiles::Failure::NotFound,
                                                                      404 },
            { SandboxFiles::Failure::NotAFile, 400 }, { SandboxFiles::Failure::NotAFolder, 400 },
            { SandboxFiles::Failure::PermissionDenied, 403 },
            { SandboxFiles::Failure::AlreadyExists, 409 }, { SandboxFiles::Failure::TooLarge, 413 },
            { SandboxFiles::Failure::Unsupported, 501 }, { SandboxFiles::Failure::Other, 500 } };
        writeResponse(socket,
            HttpResponse::error(statuses.value(result.failure, 500), result.message), keepAlive);
    };

    if (request.method == "GET") {
        if (path.isEmpty()) {
            writeResponse(socket,
                HttpResponse::error(400, QStringLiteral("path is required: ?path=/home/user/FILE")),
                keepAlive);
            return;
        }
        HttpResponse response;
        if (const SandboxFiles::Result read = files.read(path, &response.body); !read.ok()) {
            replyFailure(read);
            return;
        }
        response.setHeader("Content-Type", "application/octet-stream");
        writeResponse(socket, response, keepAlive);
        return;
    }

    // An upload: one file in the body (application/octet-stream) at `path`, or files as
    // multipart/form-data parts, each at its file name or, when there is one, at `path`.
    const QByteArray contentType = request.header("content-type");
    QList<FormPart> parts;
    if (contentType.trimmed().toLower().startsWith("multipart/form-data")) {
        if (!parseFormData(contentType, request.body, &parts) || parts.isEmpty()) {
            writeResponse(socket,
                HttpResponse::error(400,
                    QStringLiteral("the body is not multipart/form-data with the Content-Type's "
                                   "boundary, or holds no file")),
                keepAlive);
            return;
        }
        if (parts.size() == 1 && !path.isEmpty())
            parts.first().fileName = path;
    } else {
        parts.append({ path, request.body });
    }
    QJsonArray written;
    for (const FormPart &part : std::as_const(parts)) {
        if (part.fileName.isEmpty()) {
            writeResponse(socket,
                HttpResponse::error(
                    400, QStringLiteral("no path for the file: give ?path= or a part's filename")),
                keepAlive);
            return;
        }
        const SandboxFiles::Result result = files.write(part.fileName, part.data);
        rt->markFolderChanged();
        if (!result.ok()) {
            replyFailure(result);
            return;
        }
        const QString at = SandboxFiles::sandboxPath(part.fileName);
        written.append(QJsonObject { { QStringLiteral("name"), at.section(QLatin1Char('/'), -1) },
            { QStringLiteral("type"), QStringLiteral("file") }, { QStringLiteral("path"), at } });
    }
    writeResponse(socket, HttpResponse::json(200, written), keepAlive);
}

void EnvdService::handleEnvdRequest(
    const QHttpServerRequest &qtRequest, QTcpSocket *socket, const QString &sandboxId)
{
    const HttpRequest request = HttpRequest::fromQt(qtRequest);
    if (request.path == QLatin1String("/health")) {
        replyHealth(socket, request, sandboxId);
        return;
    }
    if (request.path == QLatin1String("/files")) {
        serveFiles(socket, request, sandboxId);
        return;
    }
    const bool filesystem = request.path.startsWith(FilesystemPrefix);
    if (!request.path.startsWith(ServicePrefix) && !filesystem) {
        // 501, not 404: the SDK reads a 404 as "file not found".
        writeResponse(socket,
            HttpResponse::json(501,
                QJsonObject { { QStringLiteral("code"), QStringLiteral("unimplemented") },
                    { QStringLiteral("message"),
                        QStringLiteral("%1 is not served by this envd: the local backend "
                                       "serves the process and filesystem services and /files only")
                            .arg(request.path) } }),
            !request.wantsClose());
        return;
    }
    const QString method = request.path.mid((filesystem ? FilesystemPrefix : ServicePrefix).size());
    const bool stream
        = !filesystem && (method == QLatin1String("Start") || method == QLatin1String("Connect"));
    static const QStringList unaryMethods { QStringLiteral("List"), QStringLiteral("SendSignal"),
        QStringLiteral("SendInput"), QStringLiteral("CloseStdin") };
    static const QStringList filesystemMethods { QStringLiteral("Stat"), QStringLiteral("MakeDir"),
        QStringLiteral("ListDir"), QStringLiteral("Remove"), QStringLiteral("Move") };
    if (!stream && !(filesystem ? filesystemMethods : unaryMethods).contains(method)) {
        // A streaming call (WatchDir) reads its error from the end of a stream.
        const bool asStream = request.header("content-type").startsWith(StreamContentType);
        replyError(socket, request, asStream, QStringLiteral("unimplemented"),
            QStringLiteral("%1 is not implemented by the local envd").arg(request.path.mid(1)));
        return;
    }
    if (request.method != "POST") {
        writeResponse(socket, HttpResponse::error(405, QStringLiteral("envd methods take POST")),
            !request.wantsClose());
        return;
    }
    const QByteArray contentType
        = request.header("content-type").split(';').first().trimmed().toLower();
    if (contentType.endsWith("proto")) {
        writeResponse(socket,
            HttpResponse::json(415,
                QJsonObject { { QStringLiteral("code"), QStringLiteral("unimplemented") },
                    { QStringLiteral("message"),
                        QStringLiteral("this envd serves only JSON (application/json, "
                                       "application/connect+json), not %1")
                            .arg(QString::fromLatin1(contentType)) } }),
            !request.wantsClose());
        return;
    }
    if (contentType != (stream ? StreamContentType : UnaryContentType)) {
        writeResponse(socket,
            HttpResponse::json(415,
                QJsonObject { { QStringLiteral("code"), QStringLiteral("invalid_argument") },
                    { QStringLiteral("message"),
                        QStringLiteral("Content-Type must be %1")
                            .arg(QString::fromLatin1(
                                stream ? StreamContentType : UnaryContentType)) } }),
            !request.wantsClose());
        return;
    }

    SandboxRuntime *rt = authorize(socket, request, sandboxId, stream);
    if (!rt)
        return;

    QJsonObject body;
    if (stream) {
        envd::EnvelopeDecoder decoder;
        decoder.feed(request.body);
        decoder.finish(false);
        const QList<envd::Envelope> envelopes = decoder.takeAll();
        if (decoder.hasError() || envelopes.size() != 1 || envelopes.first().isEndStream()) {
            replyError(socket, request, true, QStringLiteral("invalid_argument"),
                // Not the decoder's words, which speak of what a sandbox sent.
                decoder.hasError()
                    ? QStringLiteral("the request body must be one Connect envelope: a flags "
                                     "byte (0, uncompressed), the message's length as 4 bytes "
                                     "big-endian, then the message, a JSON object")
                    : QStringLiteral("the request must be exactly one envelope"));
            return;
        }
        body = envelopes.first().json;
    } else {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(
            request.body.isEmpty() ? QByteArray("{}") : request.body, &parseError);
        if (!doc.isObject()) {
            replyError(socket, request, false, QStringLiteral("invalid_argument"),
                parseError.error != QJsonParseError::NoError
                    ? QStringLiteral("the request body is not valid JSON: %1 at offset %2")
                          .arg(parseError.errorString())
                          .arg(parseError.offset)
                    : QStringLiteral("the request body must be a JSON object"));
            return;
        }
        body = doc.object();
    }
    if (filesystem)
        filesystemCall(socket, request, rt, method, body);
    else if (stream)
        startStream(socket, request, rt, body, method == QLatin1String("Connect"),
            m_server->registry()->find(sandboxId)->metadata);
    else
        unary(socket, request, rt, method, body);
}

void EnvdService::startStream(QTcpSocket *socket, const HttpRequest &request,
    SandboxRuntime *runtime, const QJsonObject &body, bool attach,
    const FaultSubject &sandboxMetadata)
{
    SandboxProcess *process = nullptr;
    if (attach) {
        quint32 pid = 0;
        QString tag;
        QString error;
        if (!parseSelector(body, &pid, &tag, &error)) {
            replyError(socket, request, true, QStringLiteral("invalid_argument"), error);
            return;
        }
        process = tag.isEmpty() ? runtime->findByPid(pid) : runtime->findByTag(tag);
        if (!process) {
            replyError(socket, request, true, QStringLiteral("not_found"),
                tag.isEmpty() ? QStringLiteral("process with pid %1 not found").arg(pid)
                              : QStringLiteral("process with tag \"%1\" not found").arg(tag));
            return;
        }
    } else {
        const QJsonValue processValue = body.value(QStringLiteral("process"));
        const QJsonObject p = processValue.toObject();
        if (!processValue.isObject() || !p.value(QStringLiteral("cmd")).isString()
            || p.value(QStringLiteral("cmd")).toString().isEmpty()) {
            replyError(socket, request, true, QStringLiteral("invalid_argument"),
                QStringLiteral("process.cmd: required"));
            return;
        }
        const QJsonValue args = p.value(QStringLiteral("args"));
        const QJsonValue envs = p.value(QStringLiteral("envs"));
        if ((!args.isUndefined() && !args.isArray()) || (!envs.isUndefined() && !envs.isObject())) {
            replyError(socket, request, true, QStringLiteral("invalid_argument"),
                QStringLiteral("process.args must be a list and process.envs a map"));
            return;
        }
        if (body.contains(QStringLiteral("pty")) && !body.value(QStringLiteral("pty")).isNull()) {
            replyError(socket, request, true, QStringLiteral("unimplemented"),
                QStringLiteral("the local envd has no PTY support"));
            return;
        }
        sd::ProcessConfig config = sd::ProcessConfig::fromJson(p);
        if (const QString error = environmentNamesError(config.envs); !error.isEmpty()) {
            replyError(socket, request, true, QStringLiteral("invalid_argument"), error);
            return;
        }
        // envd refuses a working folder that is not there before it starts anything.
        // In a jail the path is the sandbox's; unjailed it is the host's, left as it is.
        if (runtime->isolation() == Isolation::Bwrap && !config.cwd.isEmpty()) {
            const QString cwd = SandboxFiles::sandboxPath(config.cwd);
            if (!jailHas(SandboxFiles(runtime->fs().root()), cwd)) {
                replyError(socket, request, true, QStringLiteral("invalid_argument"),
                    QStringLiteral("cwd '%1' does not exist").arg(cwd));
                return;
            }
            config.cwd = cwd; // "~" and "a/../b" as envd resolves them
        }
        const int maxProcesses = m_server->options().sandboxLimits.maxProcessesPerSandbox;
        if (runtime->processes().size() >= maxProcesses) {
            replyError(socket, request, true, QStringLiteral("resource_exhausted"),
                QStringLiteral("too many processes: envd runs at most %1 at once in a sandbox "
                               "(--max-processes-per-sandbox)")
                    .arg(maxProcesses));
            return;
        }
        // Absent stdin means true, for older SDKs (process.proto).
        const bool stdinOpen = body.value(QStringLiteral("stdin")).toBool(true);
        process = runtime->start(config, body.value(QStringLiteral("tag")).toString(), stdinOpen);
    }

    auto *stream = new ProcessStream(socket, !request.wantsClose(), this);
    bool ok = false;
    const int keepAlive = request.header("keepalive-ping-interval").toInt(&ok);
    if (ok)
        stream->setKeepAliveSeconds(keepAlive);
    const qint64 deadline = request.header("connect-timeout-ms").toLongLong(&ok);
    if (ok)
        stream->setDeadlineMs(deadline);
    if (!attach && m_server->faultInjectionEnabled()) {
        if (auto rule = m_server->faults()->take(QStringLiteral("POST"), request.path,
                { FaultAction::CutAfterOutput }, sandboxMetadata)) {
            qCInfo(lcLocal) << "fault cut-after-output armed on" << request.path;
            stream->setCutAfterChunks(rule->params.value(QStringLiteral("chunks")).toInt(1));
        }
    }
    stream->attach(runtime, process, attach);
}

void EnvdService::replyOnceInputTaken(
    QTcpSocket *socket, const HttpRequest &request, SandboxProcess *process)
{
    if (process->stdinBacklog() == 0) {
        replyJson(socket, request, QJsonObject());
        return;
    }
    // A child of the socket: a client that hangs up takes the pending answer with it.
    // Until it is answered the connection is busy, not idle, however long that takes.
    auto *waiter = new QObject(socket);
    ConnectionGuard::markStreaming(socket, true);
    auto answered = std::make_shared<bool>(false);
    const auto answer = [this, socket, request, waiter, answered](bool taken) {
        if (std::exchange(*answered, true))
            return;
        ConnectionGuard::markStreaming(socket, false);
        if (taken)
            replyJson(socket, request, QJsonObject());
        else
            replyError(socket, request, false, QStringLiteral("failed_precondition"),
                QStringLiteral("the process ended before it read all of its input"));
        waiter->deleteLater();
    };
    connect(process, &SandboxProcess::stdinTaken, waiter, [answer] { answer(true); });
    connect(process, &SandboxProcess::ended, waiter, [answer] { answer(false); });
}

void EnvdService::unary(QTcpSocket *socket, const HttpRequest &request, SandboxRuntime *runtime,
    const QString &method, const QJsonObject &body)
{
    if (method == QLatin1String("List")) {
        QJsonArray processes;
        for (const sd::ProcessInfo &info : runtime->listProcesses()) {
            QJsonObject entry { { QStringLiteral("config"), configJson(info.config) },
                { QStringLiteral("pid"), qint64(info.pid) } };
            if (!info.tag.isEmpty())
                entry.insert(QStringLiteral("tag"), info.tag);
            processes.append(entry);
        }
        replyJson(socket, request, QJsonObject { { QStringLiteral("processes"), processes } });
        return;
    }

    quint32 pid = 0;
    QString tag;
    QString error;
    if (!parseSelector(body, &pid, &tag, &error)) {
        replyError(socket, request, false, QStringLiteral("invalid_argument"), error);
        return;
    }
    SandboxProcess *process = tag.isEmpty() ? runtime->findByPid(pid) : runtime->findByTag(tag);
    const QString notFound = tag.isEmpty()
        ? QStringLiteral("process with pid %1 not found").arg(pid)
        : QStringLiteral("process with tag \"%1\" not found").arg(tag);

    if (method == QLatin1String("SendSignal")) {
        const QJsonValue signalValue = body.value(QStringLiteral("signal"));
        int signal = 0;
        // Protobuf JSON sends enum names; numbers are accepted too.
        if (signalValue == QStringLiteral("SIGNAL_SIGKILL") || signalValue.toInt() == 9)
            signal = SIGKILL;
        else if (signalValue == QStringLiteral("SIGNAL_SIGTERM") || signalValue.toInt() == 15)
            signal = SIGTERM;
        if (signal == 0) {
            replyError(socket, request, false, QStringLiteral("invalid_argument"),
                QStringLiteral("signal: must be SIGNAL_SIGTERM or SIGNAL_SIGKILL"));
            return;
        }
        const bool sent = process ? (process->sendSignal(signal), true)
                                  : (tag.isEmpty() && runtime->signalPid(pid, signal));
        if (!sent) {
            replyError(socket, request, false, QStringLiteral("not_found"), notFound);
            return;
        }
        replyJson(socket, request, QJsonObject());
        return;
    }

    if (!process) {
        replyError(socket, request, false, QStringLiteral("not_found"), notFound);
        return;
    }
    if (method == QLatin1String("SendInput")) {
        const QJsonObject input = body.value(QStringLiteral("input")).toObject();
        if (input.contains(QStringLiteral("pty"))) {
            replyError(socket, request, false, QStringLiteral("unimplemented"),
                QStringLiteral("the local envd has no PTY support"));
            return;
        }
        QByteArray data;
        if (!envd::decodeBase64(input.value(QStringLiteral("stdin")).toString(), &data)) {
            replyError(socket, request, false, QStringLiteral("invalid_argument"),
                QStringLiteral("input.stdin: not valid base64"));
            return;
        }
        // Each call is answered once the process took its input, as envd does, so a
        // client that waits for the answer goes at the pace the process reads. One that
        // does not wait is refused past a backlog the backend would otherwise hold.
        if (process->stdinBacklog() + data.size() > MaxStdinBacklog) {
            replyError(socket, request, false, QStringLiteral("resource_exhausted"),
                QStringLiteral("the process has not read %1 MiB of its input yet: wait for "
                               "each SendInput to be answered before sending more")
                    .arg(process->stdinBacklog() / (1024 * 1024)));
            return;
        }
        if (!process->writeStdin(data)) {
            replyError(socket, request, false, QStringLiteral("failed_precondition"),
                QStringLiteral("the process's stdin is not open (start it with stdin: true)"));
            return;
        }
        replyOnceInputTaken(socket, request, process);
        return;
    }
    // CloseStdin: a stdin already closed, or never opened (started without stdin),
    // is no error, as with envd.
    process->closeStdin();
    replyJson(socket, request, QJsonObject());
}

} // namespace sd::local
