#include "processjobs.h"

#include "common/logging.h"

#include <QJsonArray>
#include <QNetworkAccessManager>

namespace sd {

// --- ProcessStreamJob ---

void ProcessStreamJob::keep(QByteArray *kept, const QByteArray &data)
{
    if (!m_keepOutput)
        return;
    const qsizetype room = qMax<qsizetype>(0, m_maxKeptOutput - kept->size());
    if (data.size() > room)
        m_outputTruncated = true;
    kept->append(data.constData(), qMin(room, data.size()));
}

bool ProcessStreamJob::streamMessage(const QJsonObject &json)
{
    envd::ProcessEvent event;
    QString error;
    if (!envd::parseProcessEvent(json, &event, &error)) {
        failStream(Error::badResponse(error));
        return false;
    }
    switch (event.type) {
    case envd::ProcessEvent::Type::Start:
        m_pid = event.pid;
        Q_EMIT started(event.pid);
        break;
    case envd::ProcessEvent::Type::Stdout:
    case envd::ProcessEvent::Type::Pty:
        keep(&m_stdout, event.data);
        Q_EMIT stdoutReceived(event.data);
        break;
    case envd::ProcessEvent::Type::Stderr:
        keep(&m_stderr, event.data);
        Q_EMIT stderrReceived(event.data);
        break;
    case envd::ProcessEvent::Type::End:
        m_ended = true;
        m_exitCode = event.exitCode;
        m_exited = event.exited;
        m_status = event.status;
        m_processError = event.error;
        break;
    case envd::ProcessEvent::Type::KeepAlive:
    case envd::ProcessEvent::Type::Unknown:
        break;
    }
    // A receiver may have cancelled or deleted us from a signal.
    return !isFinished();
}

void ProcessStreamJob::streamEnded()
{
    if (!m_ended) {
        emitError(Error::badResponse(tr("the stream ended without telling how the process ended"))
                      .withContext(errorContext()));
        return;
    }
    emitResult();
}

// --- StartProcessJob ---

StartProcessJob::StartProcessJob(
    QNetworkAccessManager *network, EnvdTarget target, ProcessConfig config, QObject *parent)
    : ProcessStreamJob(network, std::move(target), parent)
    , m_network(network)
    , m_config(std::move(config))
{ }

ProcessConfig StartProcessJob::shellCommand(
    const QString &command, const QMap<QString, QString> &envs, const QString &cwd)
{
    ProcessConfig config;
    config.cmd = QStringLiteral("/bin/bash");
    config.args = QStringList { QStringLiteral("-l"), QStringLiteral("-c"), command };
    config.envs = envs;
    config.cwd = cwd;
    return config;
}

void StartProcessJob::doStart()
{
    QJsonObject body { { QStringLiteral("process"), m_config.toJson() },
        { QStringLiteral("stdin"), m_stdin } };
    if (!m_tag.isEmpty())
        body.insert(QStringLiteral("tag"), m_tag);
    // Only the command name: arguments and envs may hold secrets.
    qCDebug(lcEnvd) << "start" << m_config.cmd << "in sandbox" << target().sandboxId;
    sendStream(
        QStringLiteral("process.Process/Start"), body, m_connectTimeoutMs, m_keepAliveSeconds);
}

void StartProcessJob::doCancel()
{
    if (m_killOnCancel && m_pid != 0 && !hasEnded()) {
        // Parented to the network manager: it outlives us and dies with it.
        auto *kill = new SendSignalJob(m_network, target(), ProcessSelector::byPid(m_pid),
            SendSignalJob::Signal::Kill, m_network);
        kill->start();
    }
    ProcessStreamJob::doCancel();
}

QString StartProcessJob::errorContext() const { return tr("Could not run the process"); }

// --- ConnectProcessJob ---

ConnectProcessJob::ConnectProcessJob(
    QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector, QObject *parent)
    : ProcessStreamJob(network, std::move(target), parent)
    , m_selector(std::move(selector))
{
    m_pid = m_selector.pid;
}

void ConnectProcessJob::doStart()
{
    sendStream(QStringLiteral("process.Process/Connect"),
        QJsonObject { { QStringLiteral("process"), m_selector.toJson() } }, m_connectTimeoutMs,
        m_keepAliveSeconds);
}

QString ConnectProcessJob::errorContext() const { return tr("Could not follow the process"); }

// --- ListProcessesJob ---

void ListProcessesJob::doStart()
{
    sendUnary(QStringLiteral("process.Process/List"), QJsonObject());
}

void ListProcessesJob::unaryReplied(const QJsonObject &json)
{
    const QJsonArray processes = json.value(QStringLiteral("processes")).toArray();
    for (const QJsonValue &value : processes) {
        const QJsonObject p = value.toObject();
        ProcessInfo info;
        info.config = ProcessConfig::fromJson(p.value(QStringLiteral("config")).toObject());
        info.pid = quint32(p.value(QStringLiteral("pid")).toVariant().toULongLong());
        info.tag = p.value(QStringLiteral("tag")).toString();
        m_processes.append(info);
    }
    emitResult();
}

QString ListProcessesJob::errorContext() const
{
    return tr("Could not list the sandbox's processes");
}

// --- SendSignalJob ---

SendSignalJob::SendSignalJob(QNetworkAccessManager *network, EnvdTarget target,
    ProcessSelector selector, Signal signal, QObject *parent)
    : EnvdJob(network, std::move(target), parent)
    , m_selector(std::move(selector))
    , m_signal(signal)
{ }

void SendSignalJob::doStart()
{
    // Protobuf JSON names enum values, as the SDK sends them.
    const QString signal = m_signal == Signal::Kill ? QStringLiteral("SIGNAL_SIGKILL")
                                                    : QStringLiteral("SIGNAL_SIGTERM");
    sendUnary(QStringLiteral("process.Process/SendSignal"),
        QJsonObject { { QStringLiteral("process"), m_selector.toJson() },
            { QStringLiteral("signal"), signal } });
}

QString SendSignalJob::errorContext() const { return tr("Could not signal the process"); }

// --- SendInputJob ---

SendInputJob::SendInputJob(QNetworkAccessManager *network, EnvdTarget target,
    ProcessSelector selector, QByteArray data, QObject *parent)
    : EnvdJob(network, std::move(target), parent)
    , m_selector(std::move(selector))
    , m_data(std::move(data))
{ }

void SendInputJob::doStart()
{
    sendUnary(QStringLiteral("process.Process/SendInput"),
        QJsonObject { { QStringLiteral("process"), m_selector.toJson() },
            { QStringLiteral("input"),
                QJsonObject {
                    { QStringLiteral("stdin"), QString::fromLatin1(m_data.toBase64()) } } } });
}

QString SendInputJob::errorContext() const { return tr("Could not send input to the process"); }

// --- CloseStdinJob ---

CloseStdinJob::CloseStdinJob(
    QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector, QObject *parent)
    : EnvdJob(network, std::move(target), parent)
    , m_selector(std::move(selector))
{ }

void CloseStdinJob::doStart()
{
    sendUnary(QStringLiteral("process.Process/CloseStdin"),
        QJsonObject { { QStringLiteral("process"), m_selector.toJson() } });
}

QString CloseStdinJob::errorContext() const { return tr("Could not close the process's input"); }

} // namespace sd
