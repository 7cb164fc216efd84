#pragma once

#include "api/connectionsettings.h"
#include "common/error.h"
#include "common/linebuffer.h"
#include "creation/creationjob.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QCoreApplication;
class QNetworkAccessManager;

namespace sd {

class KeyStore;
class KillOrphansJob;
class Session;
struct Sandbox;

/// True when the arguments ask for the command-line mode (no window).
bool isCommandLineMode(int argc, char **argv);

/// Runs `sandbox-desk --list|--orphans|--kill-orphans|--create|--kill|--history` and
/// returns the process exit code:
///   0 success, 1 the operation failed (e.g. the creation was rolled back),
///   2 bad usage or input rejected before anything was allocated,
///   3 --orphans found at least one, 4 the API could not be reached or refused the key,
///   5 the creation journal could not be written (a creation is then rolled back).
int runCommandLine(QCoreApplication &app);

/// The command-line mode as an object: parses, resolves the connection, runs one
/// action through the same core jobs the window uses, prints, and exits the loop.
class CommandLine : public QObject
{
    Q_OBJECT

public:
    enum ExitCode
    {
        Success = 0,
        Failed = 1,
        Usage = 2,
        OrphansFound = 3,
        Unreachable = 4,
        JournalFailed = 5
    };

    explicit CommandLine(QObject *parent = nullptr);
    ~CommandLine() override;

    /// Parses `arguments`; returns false (and sets exitCode()) when the mode must end
    /// at once (usage errors, --help).
    bool parse(const QStringList &arguments);
    /// Starts the action; quits the event loop with the exit code when done.
    void start();
    int exitCode() const { return m_exitCode; }

private:
    enum class Action
    {
        None,
        List,
        Orphans,
        KillOrphans,
        Create,
        Kill,
        History
    };

    void resolveConnection(std::function<void()> next);
    /// The Local profile, reached the way the window reaches it: the key goes only to a
    /// listener of this user, and a backend that is not running is started.
    void connectLocal(quint16 port, std::function<void()> next);
    /// Takes a resolved profile's settings (with --sandbox-url applied) and opens its
    /// session; next() runs when that worked.
    void connectWith(const ConnectionSettings &settings, const QString &profileId,
        const std::function<void()> &next);
    bool openSession(const QStringList &legacyJournalKeys);
    void listThen(std::function<void(const QList<Sandbox> &, const QDateTime &)> next);
    void runList();
    void runKillOrphans();
    /// --create's template, timeout, metadata, variables and MCP configuration (read
    /// from its file or stdin); false, with the error printed, if one is unusable.
    bool readCreationRequest();
    void runCreate();
    void runKill();
    void runHistory();
    void installSignalHandlers();
    /// In text mode, a line per sandbox as its kill ends.
    void printKillsAsTheyEnd(KillOrphansJob *kill);
    /// What a finished kill did: {"killed", "notFound", "failed"}.
    static QJsonObject killsJson(const KillOrphansJob *kill);

    void finish(int code);
    void fail(int code, const QString &message);
    void printJson(const QJsonDocument &doc);
    void printBytes(const QByteArray &data);
    /// Text on stdout, its control characters shown as escapes.
    void printText(const QString &text);
    static int exitCodeFor(const Error &error);

    QCommandLineParser m_parser;
    Action m_action = Action::None;
    bool m_json = false;
    int m_exitCode = Success;
    bool m_done = false;
    ConnectionSettings m_settings;
    QNetworkAccessManager *m_network = nullptr;
    std::unique_ptr<KeyStore> m_keys;
    Session *m_session = nullptr;
    CreationRequest m_request; ///< --create's, read by parse()
    QPointer<CreationJob> m_creation;
    LineBuffer m_gatewayStdout; ///< whole lines only: the two streams would mix mid-line
    LineBuffer m_gatewayStderr;
};

} // namespace sd
