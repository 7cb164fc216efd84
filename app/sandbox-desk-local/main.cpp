// sandbox-desk-local: an E2B-compatible backend on loopback.

#include "common/logging.h"
#include "common/shutdownsignals.h"
#include "local/apikeyfile.h"
#include "local/envdservice.h"
#include "local/localserver.h"
#include "local/processrunner.h"
#include "local/sandboxcgroup.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sys/resource.h>

namespace {

void fail(const QString &message)
{
    std::fprintf(stderr, "sandbox-desk-local: %s\n", qPrintable(message));
}

/// A limit option's value: a whole number from 1 to the largest `T` holds. Writes what
/// was wrong and returns false otherwise.
template<typename T>
bool readLimit(const QCommandLineParser &parser, const QCommandLineOption &option, T *out)
{
    if (!parser.isSet(option))
        return true; // the default stays
    bool ok = false;
    const qlonglong value = parser.value(option).toLongLong(&ok);
    if (!ok || value < 1 || value > std::numeric_limits<T>::max()) {
        fail(QStringLiteral("--%1 must be a whole number from 1 to %2 (got \"%3\")")
                 .arg(option.names().constFirst())
                 .arg(std::numeric_limits<T>::max())
                 .arg(parser.value(option)));
        return false;
    }
    *out = T(value);
    return true;
}

// "auto" takes bwrap when it can really build a jail here (checked once, before serving).
QString resolveIsolation(const QString &requested, QString *error)
{
    if (requested == QLatin1String("none"))
        return requested;
    if (sd::local::ProcessRunner::probeBwrap(error))
        return QStringLiteral("bwrap");
    return requested == QLatin1String("auto") ? QStringLiteral("none") : QString();
}

// Each connection and each starting process's pipes take descriptors, and desktop
// sessions start programs with a soft limit of 1024 under a far higher hard one. Raised
// to the hard limit (the sandboxes could raise theirs that far anyway); returns the
// limit in force.
rlim_t raiseDescriptorLimit()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    const rlim_t wanted = std::min<rlim_t>(limit.rlim_max, 1 << 16);
    if (limit.rlim_cur < wanted) {
        rlimit raised = limit;
        raised.rlim_cur = wanted;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            return wanted;
    }
    return limit.rlim_cur;
}

QString urlHost(const QHostAddress &address)
{
    const QString text = address.toString();
    return address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + text + QLatin1Char(']')
        : text;
}

// The local mcp-gateway: next to this binary in a build tree; once installed, in the
// private folder SD_GATEWAY_RELDIR names relative to the binary's own folder.
QString gatewayBinDir()
{
    const QDir here(QCoreApplication::applicationDirPath());
    if (QFileInfo(here.filePath(QStringLiteral("mcp-gateway"))).isExecutable())
        return here.path();
    return QDir::cleanPath(here.filePath(QStringLiteral(SD_GATEWAY_RELDIR)));
}

const char *const ApiKeyVariable = "SANDBOX_DESK_LOCAL_API_KEY";

} // namespace

int main(int argc, char **argv)
{
    // Nothing this process inherited (a descriptor its starter left open) reaches what
    // it starts: sandboxes' processes would otherwise hold it.
    sd::local::closeDescriptorsOnExec();
    // Every request is logged, refused ones too: a client must not write to the terminal.
    sd::installTerminalSafeLogging();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk-local"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("An E2B-compatible sandbox backend on this machine."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption portOption(QStringLiteral("port"),
        QStringLiteral("Port to listen on (0 picks a free one)."), QStringLiteral("N"),
        QStringLiteral("49900"));
    const QCommandLineOption listenOption(QStringLiteral("listen"),
        QStringLiteral("Address to listen on; anything but loopback needs --api-key."),
        QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption apiKeyOption(QStringLiteral("api-key"),
        QStringLiteral("API key clients must send (default: generated and kept in a 0600 file). "
                       "Every local user can read it in `ps`: prefer --api-key-file or "
                       "SANDBOX_DESK_LOCAL_API_KEY."),
        QStringLiteral("KEY"));
    const QCommandLineOption apiKeyFileOption(QStringLiteral("api-key-file"),
        QStringLiteral("Read the API key from this file (its first line)."),
        QStringLiteral("PATH"));
    const QCommandLineOption stateDirOption(QStringLiteral("state-dir"),
        QStringLiteral("Folder for sandbox state."), QStringLiteral("DIR"));
    const QCommandLineOption faultOption(
        QStringLiteral("fault-injection"), QStringLiteral("Enable /_local/faults (for tests)."));
    const QCommandLineOption isolationOption(QStringLiteral("isolation"),
        QStringLiteral("Process isolation: auto, bwrap or none."), QStringLiteral("MODE"),
        QStringLiteral("auto"));
    const sd::local::ConnectionLimits defaults;
    const QCommandLineOption maxBodyOption(QStringLiteral("max-body-bytes"),
        QStringLiteral("Largest file upload (envd POST /files) accepted, its form framing aside; "
                       "413 above. Other calls take at most 4 MiB."),
        QStringLiteral("N"), QString::number(defaults.maxBodyBytes));
    const QCommandLineOption maxConnectionsOption(QStringLiteral("max-connections"),
        QStringLiteral("Open connections at most (default %1, or half the descriptors this "
                       "process may open if that is less); the longest idle one makes room.")
            .arg(defaults.maxConnections),
        QStringLiteral("N"));
    const QCommandLineOption idleTimeoutOption(QStringLiteral("idle-timeout-ms"),
        QStringLiteral("Close a connection with no request or response activity after this."),
        QStringLiteral("MS"), QString::number(defaults.idleTimeoutMs));
    const sd::local::SandboxLimits sandboxDefaults;
    const QCommandLineOption maxSandboxesOption(QStringLiteral("max-sandboxes"),
        QStringLiteral("Sandboxes at once, running or paused (429 above)."), QStringLiteral("N"),
        QString::number(sandboxDefaults.maxSandboxes));
    const QCommandLineOption maxProcessesOption(QStringLiteral("max-processes-per-sandbox"),
        QStringLiteral("Processes envd runs at once in a sandbox (429 above); with cgroups, "
                       "tasks a sandbox's own processes may hold at all."),
        QStringLiteral("N"), QString::number(sandboxDefaults.maxProcessesPerSandbox));
    const QCommandLineOption allowHostOption(QStringLiteral("allow-host"),
        QStringLiteral("A DNS name clients call this server by, besides localhost (repeatable); "
                       "requests naming any other host are refused."),
        QStringLiteral("NAME"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"),
        QStringLiteral("Print debug messages of the sd.* categories on stderr, with time, "
                       "category and level. Keys, tokens, variable values and arguments are "
                       "never logged."));
    parser.addOptions({ portOption, listenOption, apiKeyOption, apiKeyFileOption, stateDirOption,
        faultOption, isolationOption, maxBodyOption, maxConnectionsOption, idleTimeoutOption,
        allowHostOption, maxSandboxesOption, maxProcessesOption, verboseOption });
    parser.process(app);
    if (parser.isSet(verboseOption))
        sd::enableVerboseLogging();

    bool portOk = false;
    const uint port = parser.value(portOption).toUInt(&portOk);
    if (!portOk || port > 65535) {
        fail(QStringLiteral("--port must be a number between 0 and 65535"));
        return 2;
    }

    const QString listenText = parser.value(listenOption);
    QHostAddress address = listenText == QLatin1String("localhost")
        ? QHostAddress(QHostAddress::LocalHost)
        : QHostAddress(listenText);
    if (address.isNull()) {
        fail(QStringLiteral("--listen: \"%1\" is not an IP address").arg(listenText));
        return 2;
    }
    // An explicit key: on the command line (visible in `ps`), in a file, or in the
    // environment (readable only by this user); taken in that order.
    QString explicitKey;
    QString keySource = QStringLiteral("--api-key");
    bool keyGiven = true;
    if (parser.isSet(apiKeyOption)) {
        explicitKey = parser.value(apiKeyOption);
    } else if (parser.isSet(apiKeyFileOption)) {
        QFile file(parser.value(apiKeyFileOption));
        if (!file.open(QIODevice::ReadOnly)) {
            fail(QStringLiteral("--api-key-file: cannot read %1: %2")
                     .arg(file.fileName(), file.errorString()));
            return 2;
        }
        explicitKey = QString::fromUtf8(file.readLine(64 * 1024)).trimmed();
        keySource = QStringLiteral("--api-key-file");
    } else if (qEnvironmentVariableIsSet(ApiKeyVariable)) {
        explicitKey = qEnvironmentVariable(ApiKeyVariable).trimmed();
        keySource = QString::fromLatin1(ApiKeyVariable);
    } else {
        keyGiven = false;
    }
    // Nothing started later inherits it.
    qunsetenv(ApiKeyVariable);
    if (!address.isLoopback() && !keyGiven) {
        fail(QStringLiteral(
            "refusing to listen on %1: only loopback is allowed without an explicit API key "
            "(--api-key-file, SANDBOX_DESK_LOCAL_API_KEY or --api-key)")
                 .arg(listenText));
        return 2;
    }

    const QString isolation = parser.value(isolationOption);
    if (isolation != QLatin1String("auto") && isolation != QLatin1String("bwrap")
        && isolation != QLatin1String("none")) {
        fail(QStringLiteral("--isolation must be auto, bwrap or none"));
        return 2;
    }

    // Checked before anything is created: the key file, the state folder.
    sd::local::LocalServer::Options options;
    if (!readLimit(parser, maxBodyOption, &options.limits.maxBodyBytes)
        || !readLimit(parser, maxConnectionsOption, &options.limits.maxConnections)
        || !readLimit(parser, idleTimeoutOption, &options.limits.idleTimeoutMs)
        || !readLimit(parser, maxSandboxesOption, &options.sandboxLimits.maxSandboxes)
        || !readLimit(parser, maxProcessesOption, &options.sandboxLimits.maxProcessesPerSandbox))
        return 2;
    for (const QString &host : parser.values(allowHostOption)) {
        if (host.trimmed().isEmpty()) {
            fail(QStringLiteral("--allow-host needs a DNS name, such as desk.example.org"));
            return 2;
        }
    }

    if (keyGiven) {
        options.apiKey = explicitKey;
        if (options.apiKey.isEmpty()) {
            fail(QStringLiteral("%1: the API key must not be empty").arg(keySource));
            return 2;
        }
    } else {
        const QString keyPath = sd::local::ApiKeyFile::defaultPath();
        QString error;
        options.apiKey = sd::local::ApiKeyFile::loadOrCreate(keyPath, &error);
        if (options.apiKey.isEmpty()) {
            fail(error);
            return 1;
        }
        std::fprintf(stderr, "sandbox-desk-local: API key in %s\n",
            qPrintable(QDir::toNativeSeparators(keyPath)));
    }

    options.stateDir = parser.isSet(stateDirOption)
        ? parser.value(stateDirOption)
        : QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
            + QStringLiteral("/sandbox-desk/local-state");
    if (!QDir().mkpath(options.stateDir)) {
        fail(QStringLiteral("cannot create the state folder %1").arg(options.stateDir));
        return 1;
    }
    options.faultInjection = parser.isSet(faultOption);
    options.allowedHosts = parser.values(allowHostOption);
    // Without --max-connections: the default, or half the descriptors this process
    // may open if that is less.
    const rlim_t descriptors = raiseDescriptorLimit();
    if (!parser.isSet(maxConnectionsOption))
        options.limits.maxConnections
            = int(std::min<rlim_t>(rlim_t(options.limits.maxConnections), descriptors / 2));
    options.sandboxLimits.cgroup = sd::local::SandboxCgroup::version();
    options.sandboxLimits.cgroupUnavailable = sd::local::SandboxCgroup::unavailableReason();
    if (options.sandboxLimits.cgroup.isEmpty())
        qCWarning(lcLocal).noquote() << "sandboxes get no cgroup, so no limit on their tasks,"
                                     << "memory or CPU:" << options.sandboxLimits.cgroupUnavailable;
    QString isolationError;
    options.isolation = resolveIsolation(isolation, &isolationError);
    if (options.isolation.isEmpty()) {
        fail(QStringLiteral("--isolation bwrap: %1").arg(isolationError));
        return 1;
    }
    options.version = QCoreApplication::applicationVersion();

    sd::local::LocalServer server(options);
    // The data plane: sandbox processes (jailed or not) and envd.
    sd::local::ProcessRunner runner({ options.stateDir,
        options.isolation == QLatin1String("bwrap") ? sd::local::Isolation::Bwrap
                                                    : sd::local::Isolation::None,
        gatewayBinDir(),
        options.sandboxLimits.cgroup.isEmpty() ? 0
                                               : options.sandboxLimits.maxProcessesPerSandbox });
    sd::local::EnvdService envd(&server, &runner);
    QString error;
    if (!server.listenOn(address, quint16(port), &error)) {
        fail(QStringLiteral("cannot listen on %1:%2: %3").arg(listenText).arg(port).arg(error));
        return 1;
    }

    sd::ShutdownSignals signals;
    QObject::connect(
        &signals, &sd::ShutdownSignals::received, &app, [&server, &app](int signalNumber) {
            qCInfo(lcLocal) << "signal" << signalNumber << "received: shutting down";
            server.registry()->killAll();
            // Quit once the killed processes are reaped and their objects deleted,
            // which takes the event loop; give up waiting after a few seconds.
            auto *drain = new QTimer(&app);
            QElapsedTimer waited;
            waited.start();
            QObject::connect(drain, &QTimer::timeout, &app, [waited] {
                if (!sd::local::ProcessRunner::hasLiveProcesses() || waited.hasExpired(5000))
                    QCoreApplication::quit();
            });
            drain->start(20);
        });

    qCInfo(lcLocal).noquote() << "isolation" << options.isolation
                              << (options.faultInjection ? "fault injection on" : "");
    std::fprintf(
        stdout, "listening http://%s:%u\n", qPrintable(urlHost(address)), unsigned(server.port()));
    std::fflush(stdout);

    const int code = app.exec();
    server.registry()->killAll();
    // Deletions the registry queued as the loop ended.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return code;
}
