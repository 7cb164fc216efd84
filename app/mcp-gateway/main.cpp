// mcp-gateway: the local stand-in for E2B's MCP gateway.
//
//   mcp-gateway --config JSON   check the config, store it and the access token,
//                               leave `mcp-gateway serve` running, print one line
//   mcp-gateway serve           the long-running part; idles until SIGTERM/SIGKILL
//
// Exit codes: 0 started; 1 the config names a known server wrongly (or the gateway
// could not store its files or start); 2 bad usage or the config is not a JSON object.
// Option values and the token are never printed.

#include "mcp/mcpcommand.h"
#include "mcp/mcpconfigcheck.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QUuid>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr int ExitOk = 0;
constexpr int ExitFailed = 1;
constexpr int ExitUsage = 2;

void printErr(const QString &line)
{
    std::fprintf(stderr, "mcp-gateway: %s\n", line.toUtf8().constData());
}

void printHelp()
{
    std::printf("Usage: mcp-gateway --config JSON\n"
                "       mcp-gateway serve\n"
                "\n"
                "Checks an MCP configuration (a JSON object of server names and their\n"
                "options) against the catalog, stores it with the access token from\n"
                "GATEWAY_ACCESS_TOKEN in $MCP_GATEWAY_DIR (default /etc/mcp-gateway),\n"
                "and leaves the gateway running as `mcp-gateway serve`.\n"
                "\n"
                "Exit status: 0 started, 1 invalid server options or start failure,\n"
                "2 bad usage or JSON that is not an object.\n");
}

// Writes \a data to \a path with mode 0600, also when the file already existed.
bool writePrivateFile(const QString &path, const QByteArray &data, QString *error)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    bool ok = ::fchmod(fd, 0600) == 0;
    for (qsizetype done = 0; ok && done < data.size();) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        done += n > 0 ? n : 0;
    }
    if (!ok)
        *error = QString::fromLocal8Bit(std::strerror(errno));
    ::close(fd);
    return ok;
}

// The long-running part: idles until SIGTERM/SIGKILL. Closes readyFd, if any, once it
// can be stopped.
[[noreturn]] void serve(int readyFd = -1)
{
    // An ignored SIGTERM is inherited; the sandbox must be able to stop us.
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
    if (readyFd >= 0)
        ::close(readyFd);
    for (;;)
        ::pause();
}

// Forks the long-running part and returns its pid, or -1. The child serves straight
// away instead of executing this program again: loading it anew (Qt Core and ICU) cost
// a creation more CPU than everything else the gateway does. It shows itself as
// `mcp-gateway serve` by rewriting its copy of the arguments in place. No setsid(): the
// child stays in the caller's session and process group, so killing the sandbox
// reaches it. Its stdio goes to /dev/null so the caller's output stream ends when this
// process exits. It returns only once the child shows itself as `serve`, so whoever
// sees "started" finds it there.
pid_t startServe(int argc, char **argv, QString *error)
{
    int ready[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return -1;
    }
    std::fflush(nullptr); // nothing buffered may be written twice
    const pid_t pid = ::fork();
    if (pid != 0) {
        const int forkErrno = errno;
        ::close(ready[1]);
        if (pid > 0) {
            // End of file once the child has closed its end: its name is in place.
            char byte;
            while (::read(ready[0], &byte, 1) < 0 && errno == EINTR) { }
        }
        ::close(ready[0]);
        if (pid < 0)
            *error = QString::fromLocal8Bit(std::strerror(forkErrno));
        return pid;
    }
    ::close(ready[0]);

    // Its memory holds the configuration, API keys included: no core dump of it, and
    // no /proc/PID/mem for anyone but root.
    ::prctl(PR_SET_DUMPABLE, 0);
    const int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        ::dup2(devnull, STDIN_FILENO);
        ::dup2(devnull, STDOUT_FILENO);
        ::dup2(devnull, STDERR_FILENO);
        if (devnull > STDERR_FILENO)
            ::close(devnull);
    }
    // The first argument ("--config" or "--config=...") is at least as long as "serve".
    for (int i = 1; i < argc; ++i)
        std::memset(argv[i], 0, std::strlen(argv[i]));
    std::memcpy(argv[1], "serve", 5);
    serve(ready[1]);
}

int start(const QByteArray &configText, int argc, char **argv)
{
    const sd::McpConfigParse parsed = sd::McpConfigCheck::parse(configText);
    if (!parsed.ok) {
        printErr(parsed.message);
        return ExitUsage;
    }

    const QList<sd::McpFinding> findings = sd::McpConfigCheck().check(parsed.config);
    for (const sd::McpFinding &f : findings)
        printErr(
            (f.isError() ? QStringLiteral("error: ") : QStringLiteral("warning: ")) + f.message);
    if (sd::McpConfigCheck::hasErrors(findings))
        return ExitFailed;

    const QByteArray dirEnv = qgetenv("MCP_GATEWAY_DIR");
    const QString dirPath
        = dirEnv.isEmpty() ? QStringLiteral("/etc/mcp-gateway") : QFile::decodeName(dirEnv);
    if (!QDir().mkpath(dirPath)) {
        printErr(QStringLiteral("error: cannot create the directory %1.").arg(dirPath));
        return ExitFailed;
    }

    QByteArray token = qgetenv("GATEWAY_ACCESS_TOKEN");
    if (token.isEmpty())
        token = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);

    const QDir dir(dirPath);
    QString error;
    const QString tokenPath = dir.filePath(QStringLiteral(".token"));
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    if (!writePrivateFile(tokenPath, token, &error)
        || !writePrivateFile(configPath, sd::mcpConfigJson(parsed.config), &error)) {
        printErr(QStringLiteral("error: cannot write to %1: %2.").arg(dirPath, error));
        return ExitFailed;
    }

    const pid_t pid = startServe(argc, argv, &error);
    if (pid < 0) {
        printErr(QStringLiteral("error: %1.").arg(error));
        return ExitFailed;
    }
    // Written by the parent, so it exists by the time "started" is printed.
    const QString pidPath = dir.filePath(QStringLiteral("gateway.pid"));
    if (!writePrivateFile(pidPath, QByteArray::number(qint64(pid)) + '\n', &error))
        printErr(QStringLiteral("warning: cannot write %1: %2.").arg(pidPath, error));

    const int servers = int(parsed.config.size());
    std::printf("MCP gateway started with %d %s\n", servers, servers == 1 ? "server" : "servers");
    // Out without destructors: the serve child shares this process's pages, and freeing
    // the parsed catalog on the way out would only make the kernel copy them first.
    std::fflush(nullptr);
    std::_Exit(ExitOk);
}

// TEST ONLY. With SD_TEST_GATEWAY_ECHO=1 in the environment the gateway misbehaves on
// purpose, as a careless one would: it prints its whole configuration to stderr (as
// given, and each number as printf's %g), in pieces of 1, 2, 3… bytes, each its own
// write, so every secret reaches the reader split somewhere; then it fails. With
// SD_TEST_GATEWAY_FLOOD=N it first prints N bytes of filler; with SD_TEST_GATEWAY_HANG=1
// it never ends instead of failing (a gateway that never starts). The creation tests use
// it to check that no form of a secret gets through and that the end is kept.
int echoConfigForTests(const QByteArray &configText)
{
    QByteArray text = qgetenv("SD_TEST_GATEWAY_FLOOD").toLongLong() > 0
        ? QByteArray(qgetenv("SD_TEST_GATEWAY_FLOOD").toLongLong(), '.') + '\n'
        : QByteArray();
    text += "config: " + configText + '\n';
    const sd::McpConfigParse parsed = sd::McpConfigCheck::parse(configText);
    for (auto server = parsed.config.begin(); server != parsed.config.end(); ++server) {
        for (const QJsonValue &value : server->toObject()) {
            if (value.isDouble()) {
                char number[64];
                std::snprintf(number, sizeof number, "%g", value.toDouble());
                text += "number option: " + QByteArray(number) + '\n';
            }
        }
    }
    text += "the real error is at the end\n";
    qsizetype at = 0;
    for (qsizetype size = 1; at < text.size(); size = size % 97 + 1) {
        const QByteArray piece = text.mid(at, size);
        if (::write(STDERR_FILENO, piece.constData(), size_t(piece.size())) < 0)
            return ExitFailed;
        at += piece.size();
        if (text.size() < 65536)
            ::usleep(2000); // so that the reader sees the pieces one by one
    }
    while (qgetenv("SD_TEST_GATEWAY_HANG") == "1")
        ::pause();
    return ExitFailed;
}

// The configuration holds API keys, and a process's arguments are readable by every
// user of the host (/proc/PID/cmdline, ps). The kernel reads them from this process's
// own memory, so overwriting them there hides them from then on.
void scrubArgument(char *argument) { std::memset(argument, 0, std::strlen(argument)); }

} // namespace

int main(int argc, char *argv[])
{
    // Raw argv bytes, not QCoreApplication::arguments(): the config must reach the JSON
    // parser exactly as the shell passed it, whatever the locale.
    const QByteArray first = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (argc == 2 && first == "serve")
        serve();
    if (argc == 2 && (first == "--help" || first == "-h")) {
        printHelp();
        return ExitOk;
    }
    if (argc == 3 && first == "--config" && qgetenv("SD_TEST_GATEWAY_ECHO") == "1")
        return echoConfigForTests(QByteArray(argv[2]));
    if (argc == 3 && first == "--config") {
        const QByteArray config(argv[2]);
        scrubArgument(argv[2]);
        return start(config, argc, argv);
    }
    if (argc == 2 && first.startsWith("--config=")) {
        const QByteArray config = first.mid(int(qstrlen("--config=")));
        scrubArgument(argv[1] + qstrlen("--config="));
        return start(config, argc, argv);
    }

    printErr(QStringLiteral("expected --config JSON (see mcp-gateway --help)."));
    return ExitUsage;
}
