#include "localbackendstarter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>

namespace sd {

namespace {
constexpr int kProbeTimeoutMs = 2000;
constexpr int kRetryIntervalMs = 250;
constexpr int kStartTimeoutMs = 20000;
} // namespace

LocalBackendStarter::LocalBackendStarter(QNetworkAccessManager *network, quint16 port, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_port(port)
    , m_keyFile(defaultKeyFile())
    , m_binaryDir(QCoreApplication::applicationDirPath())
{
    m_retry.setSingleShot(true);
    m_retry.setInterval(kRetryIntervalMs);
    connect(&m_retry, &QTimer::timeout, this, &LocalBackendStarter::probe);
}

LocalBackendStarter::~LocalBackendStarter()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

QString LocalBackendStarter::defaultKeyFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/sandbox-desk/local-api-key");
}

void LocalBackendStarter::doStart()
{
    const QUrl url(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
    m_settings.apiUrl = url;
    m_settings.sandboxUrl = url;
    // No domain: local sandboxes are reached through the server itself.
    m_settings.domain.clear();
    probe();
}

void LocalBackendStarter::doCancel()
{
    m_retry.stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply.release()->deleteLater();
    }
    emitError(Error::cancelled());
}

void LocalBackendStarter::probe()
{
    QNetworkRequest request(QUrl(m_settings.apiUrl.toString() + QStringLiteral("/health")));
    request.setTransferTimeout(kProbeTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    m_reply.reset(m_network->get(request));
    connect(m_reply.get(), &QNetworkReply::finished, this, &LocalBackendStarter::onProbeFinished);
}

void LocalBackendStarter::onProbeFinished()
{
    std::unique_ptr<QNetworkReply> reply = std::move(m_reply);
    reply.release()->deleteLater();
    QNetworkReply *done = qobject_cast<QNetworkReply *>(sender());
    const bool answered = done && done->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid();
    if (answered) {
        finishConnected();
        return;
    }
    if (m_startedBackend) {
        if (m_sinceLaunch.elapsed() > kStartTimeoutMs) {
            emitError(Error::timeout(tr("the local backend did not answer within %1 s after it was started")
                                         .arg(kStartTimeoutMs / 1000)));
            return;
        }
        m_retry.start();
        return;
    }
    if (!m_startAllowed) {
        emitError(Error::transport(tr("nothing answers on port %1").arg(m_port))
                      .withContext(tr("The local backend is not running")));
        return;
    }
    launch();
}

void LocalBackendStarter::launch()
{
    const QString binary = QDir(m_binaryDir).filePath(QStringLiteral("sandbox-desk-local"));
    if (!QFileInfo(binary).isExecutable()) {
        emitError(Error::rejected(tr("The local backend is not running and %1 was not found.").arg(binary)));
        return;
    }
    // Detached, so sandboxes outlive the window; its output goes to a log file.
    const QString logDir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QDir().mkpath(logDir);
    QProcess process;
    process.setProgram(binary);
    process.setArguments({QStringLiteral("--port"), QString::number(m_port)});
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(logDir + QStringLiteral("/sandbox-desk-local.log"), QIODevice::Append);
    process.setStandardErrorFile(logDir + QStringLiteral("/sandbox-desk-local.log"), QIODevice::Append);
    if (!process.startDetached(&m_pid)) {
        emitError(Error::rejected(tr("Could not start the local backend: %1").arg(process.errorString())));
        return;
    }
    m_startedBackend = true;
    m_sinceLaunch.start();
    Q_EMIT startingBackend();
    m_retry.start();
}

void LocalBackendStarter::finishConnected()
{
    QFile file(m_keyFile);
    if (!file.open(QIODevice::ReadOnly)) {
        emitError(Error::rejected(tr("The local backend answers, but its API key could not be read from %1: %2")
                                      .arg(m_keyFile, file.errorString())));
        return;
    }
    m_settings.apiKey = QString::fromUtf8(file.readAll()).trimmed();
    emitResult();
}

} // namespace sd
