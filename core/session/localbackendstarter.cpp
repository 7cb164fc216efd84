#include "localbackendstarter.h"

#include "profiles/profilestore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace sd {

namespace {
constexpr int kProbeTimeoutMs = 2000;
constexpr int kRetryIntervalMs = 250;
constexpr int kStartTimeoutMs = 20000;

// sandbox-desk-local sits next to the running program in a build tree and next to the
// command line once installed; the installed window runs from the private folder, and
// finds it at SD_BIN_RELDIR from there.
QString backendBinaryDir()
{
    const QDir here(QCoreApplication::applicationDirPath());
    if (QFileInfo(here.filePath(QStringLiteral("sandbox-desk-local"))).isExecutable())
        return here.path();
    return QDir::cleanPath(here.filePath(QStringLiteral(SD_BIN_RELDIR)));
}
} // namespace

LocalBackendStarter::LocalBackendStarter(
    QNetworkAccessManager *network, quint16 port, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_port(port)
    , m_keyFile(ProfileStore::localKeyFilePath())
    , m_binaryDir(backendBinaryDir())
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
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    m_reply.reset(m_network->get(request));
    connect(m_reply.get(), &QNetworkReply::finished, this, &LocalBackendStarter::onProbeFinished);
}

void LocalBackendStarter::onProbeFinished()
{
    std::unique_ptr<QNetworkReply> reply = std::move(m_reply);
    reply.release()->deleteLater();
    QNetworkReply *done = qobject_cast<QNetworkReply *>(sender());
    const bool answered
        = done && done->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid();
    if (answered) {
        m_isolation = QJsonDocument::fromJson(done->readAll())
                          .object()
                          .value(QLatin1String("isolation"))
                          .toString();
        finishConnected();
        return;
    }
    if (m_startedBackend) {
        if (m_pid > 0 && ::kill(pid_t(m_pid), 0) != 0 && errno == ESRCH) {
            emitError(Error::rejected(
                tr("The local backend stopped at once; its log %1 says why (for example "
                   "that bubblewrap cannot isolate sandboxes here).")
                    .arg(logFile())));
            return;
        }
        if (m_sinceLaunch.elapsed() > kStartTimeoutMs) {
            emitError(Error::timeout(
                tr("the local backend did not answer within %1 s after it was started")
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
        emitError(Error::rejected(
            tr("The local backend is not running and %1 was not found.").arg(binary)));
        return;
    }
    // Detached, so sandboxes outlive the window; its output goes to a log file. It must
    // isolate sandboxes: without bubblewrap it refuses to start rather than run them
    // unjailed next to the user's files.
    QDir().mkpath(QFileInfo(logFile()).path());
    takeOverLegacyLog();
    QProcess process;
    process.setProgram(binary);
    process.setArguments({ QStringLiteral("--port"), QString::number(m_port),
        QStringLiteral("--isolation"), QStringLiteral("bwrap") });
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(logFile(), QIODevice::Append);
    process.setStandardErrorFile(logFile(), QIODevice::Append);
    if (!process.startDetached(&m_pid)) {
        emitError(Error::rejected(
            tr("Could not start the local backend: %1").arg(process.errorString())));
        return;
    }
    m_startedBackend = true;
    m_sinceLaunch.start();
    Q_EMIT startingBackend();
    m_retry.start();
}

QString LocalBackendStarter::logFile()
{
    // Named as the journal's folder is, not by the application: ~/.cache/sandbox-desk.
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
        + QStringLiteral("/sandbox-desk/sandbox-desk-local.log");
}

QString LocalBackendStarter::legacyLogFile()
{
    // The organisation and the application share a name, which doubled the folder.
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation)
        + QStringLiteral("/sandbox-desk-local.log");
}

void LocalBackendStarter::takeOverLegacyLog()
{
    const QString legacy = legacyLogFile();
    const QString current = logFile();
    if (legacy == current || QFile::exists(current) || !QFile::exists(legacy))
        return;
    // A backend still writing to the old name goes on writing to the moved file. A
    // move that fails leaves the old log where it was; the new one starts empty.
    if (QFile::rename(legacy, current))
        QDir().rmdir(QFileInfo(legacy).path()); // only if nothing else is in it
}

qint64 LocalBackendStarter::listenerUid(const QByteArray &procNetTcp, quint16 port)
{
    // "  0: 0100007F:C0B4 00000000:0000 0A ... uid ...": local address, remote, state
    // (0A: listening), then tx/rx queues, timer, retransmits, uid.
    const QByteArray portHex = QByteArray::number(port, 16).toUpper().rightJustified(4, '0');
    const QList<QByteArray> lines = procNetTcp.split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> fields = lines.at(i).simplified().split(' ');
        if (fields.size() < 8 || fields.at(3) != "0A")
            continue;
        const QList<QByteArray> local = fields.at(1).split(':');
        if (local.size() != 2 || local.at(1) != portHex)
            continue;
        const QByteArray &address = local.at(0);
        const bool loopback = address == "0100007F" || address == "00000000"
            || address == "0000000000000000FFFF00000100007F"
            || address == "00000000000000000000000000000000"
            || address == "00000000000000000000000001000000";
        if (!loopback)
            continue;
        bool ok = false;
        const qint64 uid = fields.at(7).toLongLong(&ok);
        if (ok)
            return uid;
    }
    return -1;
}

void LocalBackendStarter::finishConnected()
{
    // Only our own user's listener gets the key.
    qint64 owner = -1;
    for (const char *table : { "/proc/net/tcp", "/proc/net/tcp6" }) {
        QFile proc(QString::fromLatin1(table));
        if (owner < 0 && proc.open(QIODevice::ReadOnly))
            owner = listenerUid(proc.readAll(), m_port);
    }
    if (owner != qint64(::getuid())) {
        emitError(Error::rejected(owner < 0
                ? tr("Something answers on port %1, but no listener of this user holds it; the "
                     "local "
                     "backend's key is not sent to it. Choose another port with --local-port.")
                      .arg(m_port)
                : tr("Port %1 is held by another user's program (uid %2); the local backend's key "
                     "is not "
                     "sent to it. Choose another port with --local-port, or stop that program.")
                      .arg(m_port)
                      .arg(owner)));
        return;
    }
    QFile file(m_keyFile);
    if (!file.open(QIODevice::ReadOnly)) {
        emitError(Error::rejected(
            tr("The local backend answers, but its API key could not be read from %1: %2")
                .arg(m_keyFile, file.errorString())));
        return;
    }
    // A key is a short line; anything longer is not a key file.
    const QString key = QString::fromUtf8(file.read(4096)).trimmed();
    if (key.isEmpty() || key.contains(QLatin1Char('\n'))) {
        emitError(Error::rejected(
            tr("The local backend's key file %1 does not hold a key.").arg(m_keyFile)));
        return;
    }
    m_settings.apiKey = key;
    emitResult();
}

} // namespace sd
