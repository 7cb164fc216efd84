#include "commandline.h"

#include "api/sandboxjobs.h"
#include "common/isotime.h"
#include "common/jsonstring.h"
#include "common/logging.h"
#include "common/shutdownsignals.h"
#include "creation/creationjob.h"
#include "journal/creationjournal.h"
#include "mcp/mcpcommand.h"
#include "mcp/mcpconfigcheck.h"
#include "network/networkaccessmanager.h"
#include "orphans/orphandetector.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/resolveprofilejob.h"
#include "session/localbackendstarter.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSettings>
#include <QTextStream>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace sd {

namespace {

// Any of these selects the command-line mode; help and version belong to it too, so
// they work on a machine without a display.
const char *const commandLineOptions[] = { "--list", "--orphans", "--kill-orphans", "--create",
    "--kill", "--history", "--help", "-h", "--help-all", "--version", "-v" };
// Options only the command-line mode understands. Given without an action they select
// it too, so that it refuses them with a sentence instead of a window ignoring them.
const char *const commandLineOnlyOptions[] = { "--json", "--profile", "--api-url", "--sandbox-url",
    "--gateway-grace", "--gateway-budget", "--template", "--mcp", "--metadata", "--env",
    "--timeout", "--force", "--include-suspected" };
constexpr QLatin1String actionList("--list, --orphans, --kill-orphans, --create, --kill, --history");
// What the window's QApplication takes from the command line, with one dash or two
// (https://doc.qt.io/qt-6/qguiapplication.html#supported-command-line-options): given
// without an action they still open the window. The first ones take a value.
const char *const windowValueOptions[] = { "platform", "platformpluginpath", "platformtheme",
    "plugin", "qwindowgeometry", "qwindowicon", "qwindowtitle", "session", "display", "geometry",
    "style", "stylesheet", "name", "title", "visual", "qmljsdebugger" };
const char *const windowFlagOptions[]
    = { "reverse", "widgetcount", "nograb", "dograb", "sync", "testability" };

/// Whether `arg` (such as "-platform" or "--style=fusion") is one of Qt's own options;
/// `takesValue` when the value is the next argument.
bool isQtWindowOption(const QByteArray &arg, bool *takesValue)
{
    QByteArray name = arg.mid(arg.startsWith("--") ? 2 : 1);
    const qsizetype equals = name.indexOf('=');
    const bool valueGiven = equals >= 0;
    if (valueGiven)
        name.truncate(equals);
    for (const char *option : windowValueOptions) {
        if (name == option) {
            *takesValue = !valueGiven;
            return true;
        }
    }
    for (const char *option : windowFlagOptions) {
        if (name == option && !valueGiven) {
            *takesValue = false;
            return true;
        }
    }
    return false;
}

std::optional<quint16> parsePort(const QString &text)
{
    bool ok = false;
    const uint port = text.toUInt(&ok);
    if (!ok || port == 0 || port > 65535)
        return std::nullopt;
    return quint16(port);
}

// The largest number of seconds --gateway-grace and --gateway-budget take, about 31
// years: larger ones mean nothing and would not fit the clocks they become.
constexpr double maxOptionSeconds = 1e9;

/// `text` as a duration, when it is a number of seconds from 0 to maxOptionSeconds.
std::optional<std::chrono::milliseconds> parseSeconds(const QString &text)
{
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (!ok || !(seconds >= 0 && seconds <= maxOptionSeconds)) // NaN fails both
        return std::nullopt;
    return std::chrono::milliseconds(std::llround(seconds * 1000));
}

QJsonValue orNull(const QString &text) { return text.isEmpty() ? QJsonValue() : QJsonValue(text); }

/// The command line shows times to the second.
QString isoTime(const QDateTime &time) { return sd::isoTime(time, IsoPrecision::Seconds); }

QJsonValue rollbackJson(const std::optional<RollbackReport> &report)
{
    if (!report)
        return QJsonValue();
    QJsonObject json { { QStringLiteral("attempts"), report->attempts },
        { QStringLiteral("outcome"), toString(report->outcome) },
        { QStringLiteral("error"), orNull(report->error) } };
    if (report->found)
        json.insert(QStringLiteral("found"), *report->found);
    if (!report->summary.isEmpty())
        json.insert(QStringLiteral("summary"), report->summary);
    return json;
}

/// `--list --json`: the bytes QJsonDocument::Indented writes for {"sandboxes": [...]},
/// written straight out. At 10,000 sandboxes building the QJsonObjects and writing
/// them was half of the command's CPU. Keys in QJsonObject's (sorted) order.
class ListJsonWriter
{
public:
    void add(const Sandbox &sandbox, const std::optional<Orphan> &orphan)
    {
        if (m_out.isEmpty())
            put("{\n    \"sandboxes\": [\n");
        else
            put(",\n");
        put("        {\n            \"endAt\": ");
        appendTimeOrNull(sandbox.endAt);
        put(",\n            \"metadata\": {");
        for (auto it = sandbox.metadata.begin(); it != sandbox.metadata.end(); ++it) {
            if (it == sandbox.metadata.begin())
                put("\n                ");
            else
                put(",\n                ");
            appendJsonString(&m_out, it.key());
            put(": ");
            appendJsonString(&m_out, it.value());
        }
        put("\n            },\n            \"orphan\": ");
        if (orphan) {
            put("{\n                \"certainty\": ");
            appendJsonString(&m_out, toString(orphan->certainty));
            put(",\n                \"detail\": ");
            appendJsonString(&m_out, orphan->evidence);
            put(",\n                \"reason\": ");
            appendJsonString(&m_out, toString(orphan->reason));
            put("\n            }");
        } else {
            put("null");
        }
        put(",\n            \"sandboxId\": ");
        appendJsonString(&m_out, sandbox.sandboxId);
        put(",\n            \"startedAt\": ");
        appendTimeOrNull(sandbox.startedAt);
        put(",\n            \"state\": ");
        appendJsonString(&m_out, toString(sandbox.state));
        put(",\n            \"templateId\": ");
        appendJsonString(&m_out, sandbox.templateId);
        put("\n        }");
    }

    QByteArray finish()
    {
        if (m_out.isEmpty())
            return QByteArrayLiteral("{\n    \"sandboxes\": [\n    ]\n}\n");
        return std::exchange(m_out, {}) + "\n    ]\n}\n";
    }

private:
    template<qsizetype N>
    void put(const char (&piece)[N])
    {
        appendJsonPiece(&m_out, piece);
    }

    void appendTimeOrNull(const QDateTime &time)
    {
        if (!time.isValid()) {
            put("null");
            return;
        }
        put("\"");
        appendIsoTime(&m_out, time, IsoPrecision::Seconds);
        put("\"");
    }

    QByteArray m_out;
};

QString toString(CreationStep::Kind kind)
{
    switch (kind) {
    case CreationStep::Kind::State:
        return QStringLiteral("state");
    case CreationStep::Kind::SandboxKnown:
        return QStringLiteral("sandbox_known");
    case CreationStep::Kind::Found:
        return QStringLiteral("found");
    case CreationStep::Kind::GatewayOutput:
        return QStringLiteral("gateway_output");
    case CreationStep::Kind::OrphanKilled:
        return QStringLiteral("orphan_killed");
    case CreationStep::Kind::Killed:
        return QStringLiteral("killed");
    case CreationStep::Kind::KillFailed:
        return QStringLiteral("kill_failed");
    }
    return {};
}

QJsonArray timelineJson(const QList<CreationStep> &timeline)
{
    QJsonArray steps;
    for (const CreationStep &step : timeline) {
        steps.append(QJsonObject { { QStringLiteral("step"), toString(step.kind) },
            { QStringLiteral("state"), toString(step.state) },
            { QStringLiteral("time"), orNull(isoTime(step.time)) },
            { QStringLiteral("detail"), orNull(step.detail) },
            { QStringLiteral("failed"), step.failed },
            { QStringLiteral("interrupted"), step.interrupted } });
    }
    return steps;
}

QJsonObject recordJson(const CreationRecord &r)
{
    QJsonObject json { { QStringLiteral("creationId"), r.creationId },
        { QStringLiteral("templateId"), r.templateId },
        { QStringLiteral("mcpServers"), QJsonArray::fromStringList(r.mcpServers) },
        { QStringLiteral("startedAt"), orNull(isoTime(r.startedAt)) },
        { QStringLiteral("finishedAt"), orNull(isoTime(r.finishedAt)) },
        { QStringLiteral("sandboxId"), orNull(r.sandboxId) },
        { QStringLiteral("state"),
            r.isFinished() ? toString(r.state) : QStringLiteral("unfinished") },
        { QStringLiteral("lastState"), toString(r.state) },
        // Beside `state`, whose values stay: a cancel after allocation is rolled_back.
        { QStringLiteral("cancelled"), r.endedCancelled() },
        { QStringLiteral("error"), orNull(r.error) },
        { QStringLiteral("gatewayStderr"), r.gatewayStderr },
        { QStringLiteral("rollback"), rollbackJson(r.rollback) },
        { QStringLiteral("orphanReason"),
            r.orphanReason ? QJsonValue(toString(*r.orphanReason)) : QJsonValue() },
        { QStringLiteral("foundSandboxIds"), QJsonArray::fromStringList(r.foundSandboxIds) },
        { QStringLiteral("orphansKilled"), QJsonArray::fromStringList(r.orphansKilled) },
        { QStringLiteral("killedAt"), orNull(isoTime(r.killedAt)) },
        { QStringLiteral("timeline"), timelineJson(r.timeline) } };
    return json;
}

/// Reads NAME=VALUE arguments into `out`. Returns the first one with no name before an
/// "=", or with no "=" at all, and reads no further.
std::optional<QString> readPairs(const QStringList &values, QMap<QString, QString> *out)
{
    for (const QString &value : values) {
        const qsizetype eq = value.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return value;
        out->insert(value.left(eq), value.mid(eq + 1));
    }
    return std::nullopt;
}

} // namespace

bool isCommandLineMode(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        for (const char *option : commandLineOptions) {
            if (arg == option)
                return true;
        }
        for (const char *option : commandLineOnlyOptions) {
            if (arg == option || arg.startsWith(QByteArray(option) + '='))
                return true;
        }
        // A port the window cannot use is reported here, where no display is needed.
        if (arg == "--local-port" || arg.startsWith("--local-port=")) {
            const QByteArray value
                = arg.contains('=') ? arg.mid(arg.indexOf('=') + 1) : QByteArray(i + 1 < argc ? argv[++i] : "");
            if (!parsePort(QString::fromLocal8Bit(value)))
                return true;
            continue;
        }
        if (arg == "--")
            return false;
        if (arg == "--verbose" || !arg.startsWith('-') || arg == "-")
            continue;
        bool takesValue = false;
        if (isQtWindowOption(arg, &takesValue)) {
            i += takesValue ? 1 : 0;
            continue;
        }
        // An option neither mode knows: the command line names it, with no display
        // needed, instead of a window that ignores it (or cannot start without one).
        return true;
    }
    return false;
}


int runCommandLine(QCoreApplication &app)
{
    CommandLine commandLine;
    if (!commandLine.parse(app.arguments()))
        return commandLine.exitCode();
    commandLine.start();
    return app.exec();
}

CommandLine::CommandLine(QObject *parent)
    : QObject(parent)
    , m_network(new NetworkAccessManager(this))
{
    m_parser.setApplicationDescription(
        tr("Sandbox Desk: create, list and clean up E2B sandboxes, orphans flagged.\n\n"
           "Without an action it opens the window on the last profile used; only\n"
           "--local-port and --verbose apply there (Help > Session log shows the\n"
           "window's messages). With one action (--list, --orphans,\n"
           "--kill-orphans, --create, --kill, --history) it runs without a window,\n"
           "prints the result and exits with:\n"
           "  0 success, 1 the operation failed, 2 bad usage or input rejected before\n"
           "  anything was allocated, 3 --orphans found some, 4 the API could not be\n"
           "  reached or refused the key, 5 the creation journal could not be written\n"
           "  (what was created was rolled back)."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({
        { QStringLiteral("list"), tr("List every sandbox (running and paused), orphans flagged.") },
        { QStringLiteral("orphans"),
            tr("List only the orphans; exit code 3 when there is at least one.") },
        { QStringLiteral("kill-orphans"),
            tr("Kill every certain orphan (ours, per the journal) and report each.") },
        { QStringLiteral("include-suspected"),
            tr("With --kill-orphans, kill the suspected orphans too (other clients' sandboxes "
               "on an MCP template with no gateway running).") },
        { QStringLiteral("create"),
            tr("Create a sandbox (with --template, --mcp, --metadata, --env, --timeout).") },
        { QStringLiteral("kill"), tr("Kill the sandboxes given as arguments.") },
        { QStringLiteral("history"), tr("Show the journal's creations, newest first.") },
        { QStringLiteral("json"), tr("Print one JSON document on stdout.") },
        { QStringLiteral("profile"),
            tr("Use this profile: its name or id, any case; \"Local\" is this computer's "
               "backend (default: the last profile used)."),
            tr("NAME") },
        { QStringLiteral("local-port"),
            tr("The port of the Local profile's backend, in the window and the command line "
               "(default: the port stored in the Local profile, 49900)."),
            tr("PORT") },
        { QStringLiteral("api-url"), tr("Use this API URL (key from E2B_API_KEY)."), tr("URL") },
        { QStringLiteral("sandbox-url"), tr("Reach every sandbox's envd through this URL."),
            tr("URL") },
        { QStringLiteral("gateway-grace"),
            tr("How long a sandbox may be up before gateway-down can apply (default: the gateway "
               "budget)."),
            tr("SECONDS") },
        { QStringLiteral("gateway-budget"),
            tr("How long the MCP gateway may take to start (default 120)."), tr("SECONDS") },
        { QStringLiteral("template"),
            tr("The template (default mcp-gateway with --mcp, base without)."), tr("T") },
        { QStringLiteral("mcp"),
            tr("The MCP configuration, a JSON object, from FILE or - for stdin."), tr("FILE") },
        { QStringLiteral("metadata"), tr("A metadata entry (repeatable)."), tr("K=V") },
        { QStringLiteral("env"), tr("An environment variable for the sandbox (repeatable)."),
            tr("K=V") },
        { QStringLiteral("timeout"), tr("The sandbox's lifetime in seconds (default 300)."),
            tr("SECONDS") },
        { QStringLiteral("force"),
            tr("Create even if the MCP configuration check finds errors, or with --mcp on a "
               "template other than mcp-gateway (one that has the gateway too).") },
        { QStringLiteral("verbose"),
            tr("Print debug messages of the sd.* categories on stderr, with time, category and "
               "level; in the window, show them in Help > Session log too. Secrets are never "
               "logged.") },
    });
    m_parser.addPositionalArgument(
        QStringLiteral("ids"), tr("Sandbox ids for --kill."), tr("[ID...]"));
}

CommandLine::~CommandLine()
{
    // The creation goes before the session whose journal it writes to.
    delete m_creation;
    delete m_session;
}

bool CommandLine::parse(const QStringList &arguments)
{
    QTextStream err(stderr);
    // A script that asked for --json gets the error as JSON too, on stdout, in the
    // shape fail() gives it: {"error": "..."}, the words printed on stderr.
    const auto usage = [&](const QString &message) {
        err << message << "\n" << tr("Try --help.") << "\n";
        err.flush();
        if (m_json)
            printJson(QJsonDocument(QJsonObject {
                { QStringLiteral("error"), message + QLatin1Char(' ') + tr("Try --help.") } }));
        m_exitCode = Usage;
        return false;
    };
    const bool parsed = m_parser.parse(arguments);
    // Known even when parsing failed: the parser still records the options it knew. An
    // option left without its value takes the next word, so `--timeout --json` counts.
    m_json = m_parser.isSet(QStringLiteral("json")) || arguments.contains(QLatin1String("--json"));
    if (!parsed)
        return usage(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help")) || m_parser.isSet(QStringLiteral("help-all"))) {
        QTextStream(stdout) << m_parser.helpText();
        m_exitCode = Success;
        return false;
    }
    if (m_parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << QCoreApplication::applicationName() << ' '
                            << QCoreApplication::applicationVersion() << '\n';
        m_exitCode = Success;
        return false;
    }
    if (m_parser.isSet(QStringLiteral("verbose")))
        enableVerboseLogging();
    if (m_parser.isSet(QStringLiteral("local-port"))
        && !parsePort(m_parser.value(QStringLiteral("local-port"))))
        return usage(tr("--local-port needs a port number between 1 and 65535."));
    const QList<std::pair<QString, Action>> actions { { QStringLiteral("list"), Action::List },
        { QStringLiteral("orphans"), Action::Orphans },
        { QStringLiteral("kill-orphans"), Action::KillOrphans },
        { QStringLiteral("create"), Action::Create }, { QStringLiteral("kill"), Action::Kill },
        { QStringLiteral("history"), Action::History } };
    int count = 0;
    for (const auto &[name, action] : actions) {
        if (m_parser.isSet(name)) {
            m_action = action;
            ++count;
        }
    }
    if (count == 0) {
        for (const char *option : commandLineOnlyOptions) {
            const QString name = QString::fromLatin1(option + 2);
            if (m_parser.isSet(name))
                return usage(tr("--%1 belongs to the command-line mode: add an action (%2). "
                                "Without an action sandbox-desk opens the window, which takes "
                                "only --local-port and --verbose.")
                                 .arg(name, actionList));
        }
    }
    if (count != 1)
        return usage(tr("Give exactly one of %1.").arg(actionList));
    // An option another action would take is refused, not ignored: --list --metadata
    // K=V would otherwise list every sandbox, and --kill-orphans --template T kill
    // orphans of every template, to a user who meant them as filters.
    const QList<std::pair<const char *, Action>> actionOptions { { "template", Action::Create },
        { "mcp", Action::Create }, { "metadata", Action::Create }, { "env", Action::Create },
        { "timeout", Action::Create }, { "force", Action::Create },
        { "include-suspected", Action::KillOrphans } };
    for (const auto &[option, action] : actionOptions) {
        const QString name = QString::fromLatin1(option);
        if (m_action != action && m_parser.isSet(name)) {
            return usage(tr("--%1 applies only to --%2; it filters nothing else. Remove it.")
                             .arg(name,
                                 action == Action::Create ? QStringLiteral("create")
                                                          : QStringLiteral("kill-orphans")));
        }
    }
    if (m_action == Action::Kill && m_parser.positionalArguments().isEmpty())
        return usage(tr("--kill needs at least one sandbox id."));
    if (m_action != Action::Kill && !m_parser.positionalArguments().isEmpty())
        return usage(
            tr("Unexpected argument: %1").arg(m_parser.positionalArguments().constFirst()));
    // Sandbox IDs (the only arguments, those of --kill) are letters, digits, "-" and
    // "_"; anything else is a slip (a stray quote, a pasted line), named here before a
    // request goes out.
    static const QRegularExpression sandboxId(QStringLiteral("^[A-Za-z0-9_-]{1,128}$"));
    for (const QString &id : m_parser.positionalArguments()) {
        if (!sandboxId.match(id).hasMatch())
            return usage(tr("\"%1\" is not a sandbox ID: an ID is letters, digits, \"-\" and "
                            "\"_\", such as %2.")
                             .arg(id, QStringLiteral("iu0y3uqktuqmlj04mg3r")));
    }
    for (const char *option : { "gateway-grace", "gateway-budget" }) {
        const QString name = QString::fromLatin1(option);
        if (m_parser.isSet(name) && !parseSeconds(m_parser.value(name)))
            return usage(tr("--%1 needs a number of seconds from 0 to %2, such as 120 (got "
                            "\"%3\").")
                             .arg(name)
                             .arg(maxOptionSeconds, 0, 'f', 0)
                             .arg(m_parser.value(name)));
    }
    // Whole seconds, as the API takes them; the creation checks the range.
    if (m_parser.isSet(QStringLiteral("timeout"))) {
        bool ok = false;
        m_parser.value(QStringLiteral("timeout")).toLongLong(&ok);
        if (!ok)
            return usage(tr("--timeout needs a whole number of seconds, such as 300 (got "
                            "\"%1\").")
                             .arg(m_parser.value(QStringLiteral("timeout"))));
    }
    for (const char *option : { "api-url", "sandbox-url" }) {
        const QString name = QString::fromLatin1(option);
        if (!m_parser.isSet(name))
            continue;
        // Rejected before anything is sent: "localhost:3000" reads as a URL of scheme
        // "localhost" and would only fail at the first request.
        if (!ConnectionSettings::isServerUrl(QUrl(m_parser.value(name), QUrl::StrictMode)))
            return usage(tr("--%1 \"%2\" is not an http or https URL: write it whole, such as "
                            "https://api.e2b.app or http://127.0.0.1:49983.")
                             .arg(name, m_parser.value(name)));
    }
    if (m_parser.isSet(QStringLiteral("local-port"))) {
        if (m_parser.isSet(QStringLiteral("api-url")))
            return usage(tr("--local-port applies to the Local profile; drop it or --api-url."));
    }
    // Read before connecting: input refused here starts no backend and reaches no server.
    if (m_action == Action::Create && !readCreationRequest())
        return false;
    return true;
}

void CommandLine::start()
{
    if (m_action == Action::History) {
        // No network: the journal is enough. The profile names the file.
        resolveConnection([this] { runHistory(); });
        return;
    }
    resolveConnection([this] {
        switch (m_action) {
        case Action::List:
        case Action::Orphans:
            runList();
            break;
        case Action::KillOrphans:
            runKillOrphans();
            break;
        case Action::Create:
            runCreate();
            break;
        case Action::Kill:
            runKill();
            break;
        default:
            finish(Usage);
        }
    });
}

void CommandLine::resolveConnection(std::function<void()> next)
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString profileName = m_parser.value(QStringLiteral("profile"));
    const bool needKey = m_action != Action::History;

    if (m_parser.isSet(QStringLiteral("api-url"))) {
        m_settings = ConnectionSettings::withEnvironment(
            ConnectionSettings::forDomain(QStringLiteral("e2b.app")), env);
        m_settings.apiUrl = QUrl(m_parser.value(QStringLiteral("api-url")));
        if (m_parser.isSet(QStringLiteral("sandbox-url")))
            m_settings.sandboxUrl = QUrl(m_parser.value(QStringLiteral("sandbox-url")));
        m_settings.apiKey = env.value(QStringLiteral("E2B_API_KEY")).trimmed();
        if (needKey && m_settings.apiKey.isEmpty()) {
            fail(Unreachable, tr("No API key: set E2B_API_KEY."));
            return;
        }
        // Journals were once named after the route: take over such a file.
        const QStringList legacy { profileName,
            QStringLiteral("api-%1-%2").arg(m_settings.apiUrl.host()).arg(m_settings.apiUrl.port(0)) };
        if (openSession(legacy))
            next();
        return;
    }

    QSettings settings;
    ProfileStore store(&settings);
    std::optional<Profile> profile
        = profileName.isEmpty() ? store.lastUsed() : store.find(profileName);
    if (!profile) {
        QStringList known;
        for (const Profile &p : store.profiles())
            known.append(QStringLiteral("\"%1\" (%2)").arg(p.name, p.id));
        fail(Usage,
            tr("No profile named \"%1\". The profiles are: %2. Give --profile one of these "
               "names or ids, or --api-url.")
                .arg(profileName, known.join(QStringLiteral(", "))));
        return;
    }
    if (m_parser.isSet(QStringLiteral("local-port"))) {
        if (!profile->isLocal()) {
            fail(Usage,
                tr("--local-port applies to the Local profile, not to \"%1\".").arg(profile->name));
            return;
        }
        profile = Profile::local(*parsePort(m_parser.value(QStringLiteral("local-port"))));
    }
    // The official SDK and CLI would use these; a profile only remembered from last time
    // can hide that they are not used here.
    if (profile->isLocal() && profileName.isEmpty()) {
        if (const QStringList unused = environmentVariablesSet(env); !unused.isEmpty())
            QTextStream(stderr) << tr("note: %1 not used: the profile last used is Local, this "
                                      "computer's backend. Give --profile with an E2B or Custom "
                                      "profile, or --api-url, to use the environment.")
                                       .arg(unused.join(QStringLiteral(", ")))
                                << "\n";
    }
    if (needKey && profile->isLocal()) {
        connectLocal(profile->localPort(), std::move(next));
        return;
    }
    if (!needKey) {
        // The journal is named after the API the profile points at; no key needed.
        m_settings = resolveConnectionSettings(*profile, QString(), env);
        if (openSession({ profile->id }))
            next();
        return;
    }
    m_keys = std::make_unique<KeyStore>();
    auto *job = new ResolveProfileJob(m_keys.get(), *profile, this);
    connect(job, &Job::finished, this, [this, job, next, profileId = profile->id] {
        if (job->hasError()) {
            fail(Unreachable, job->error().message());
            return;
        }
        connectWith(job->settings(), profileId, next);
    });
    job->start();
}

void CommandLine::connectWith(
    const ConnectionSettings &settings, const QString &profileId, const std::function<void()> &next)
{
    m_settings = settings;
    if (m_parser.isSet(QStringLiteral("sandbox-url")))
        m_settings.sandboxUrl = QUrl(m_parser.value(QStringLiteral("sandbox-url")));
    if (openSession({ profileId }))
        next();
}

void CommandLine::connectLocal(quint16 port, std::function<void()> next)
{
    auto *job = new LocalBackendStarter(m_network, port, this);
    connect(job, &LocalBackendStarter::startingBackend, this, [job, port] {
        QTextStream(stderr) << tr("Nothing answered on port %1: starting the local backend (pid "
                                  "%2), which keeps running; its output goes to %3.")
                                   .arg(port)
                                   .arg(job->startedPid())
                                   .arg(LocalBackendStarter::logFile())
                            << "\n";
    });
    connect(job, &Job::finished, this, [this, job, next = std::move(next)] {
        if (job->hasError()) {
            fail(Unreachable, job->error().message());
            return;
        }
        if (job->isolation() == QLatin1String("none")) {
            QTextStream(stderr) << tr("warning: sandboxes on this computer run without isolation: "
                                      "code in them runs as you and can read and change your "
                                      "files.")
                                << "\n";
        }
        connectWith(job->settings(), Profile::localId(), next);
    });
    job->start();
}

bool CommandLine::openSession(const QStringList &legacyJournalKeys)
{
    m_session = new Session(m_network, m_settings, this);
    if (!m_session->open({}, legacyJournalKeys)) {
        fail(JournalFailed, m_session->errorString());
        return false;
    }
    QTextStream err(stderr);
    QStringList warnings = m_session->warnings();
    const bool sendsKey = m_action != Action::History; // the history reads the journal only
    if (sendsKey && !m_settings.cleartextWarning().isEmpty())
        warnings.prepend(m_settings.cleartextWarning());
    for (const QString &warning : std::as_const(warnings))
        err << terminalSafe(tr("warning: %1").arg(warning)) << "\n";
    return true;
}

int CommandLine::exitCodeFor(const Error &error)
{
    switch (error.kind()) {
    case Error::Kind::Transport:
    case Error::Kind::Timeout:
        return Unreachable;
    case Error::Kind::Http:
        return error.httpStatus() == 401 || error.httpStatus() == 403 ? Unreachable : Failed;
    case Error::Kind::Journal:
        return JournalFailed;
    default:
        return Failed;
    }
}

void CommandLine::listThen(std::function<void(const QList<Sandbox> &, const QDateTime &)> next)
{
    // Both checked by parse(); without either, the default budget.
    const QString given = m_parser.isSet(QStringLiteral("gateway-grace"))
        ? m_parser.value(QStringLiteral("gateway-grace"))
        : m_parser.value(QStringLiteral("gateway-budget"));
    std::chrono::milliseconds grace = std::chrono::seconds(120);
    if (!given.isEmpty())
        grace = *parseSeconds(given);
    m_session->detector()->setGatewayGrace(std::chrono::duration_cast<std::chrono::seconds>(grace));

    auto *list = new ListSandboxesJob(m_network, m_settings, {}, this);
    connect(list, &Job::finished, this, [this, list, next] {
        if (list->hasError()) {
            fail(exitCodeFor(list->error()),
                tr("Could not list the sandboxes: %1").arg(list->error().message()));
            return;
        }
        next(list->sandboxes(), list->serverDate());
    });
    list->start();
}

void CommandLine::runList()
{
    listThen([this](const QList<Sandbox> &sandboxes, const QDateTime &serverDate) {
        auto *scan = m_session->detector()->scan(sandboxes, serverDate, this);
        connect(scan, &Job::finished, this, [this, scan, sandboxes] {
            const bool onlyOrphans = m_action == Action::Orphans;
            ListJsonWriter json;
            QString text;
            int orphans = 0;
            // Translated once, not per line: a list may have 10,000.
            const QString running = tr("running");
            const QString paused = tr("paused");
            const QString line = tr("%1  %2  %3  ends %4%5\n");
            const QString orphanLabel = tr("ORPHAN");
            const QString suspectedLabel = tr("SUSPECTED ORPHAN");
            for (const Sandbox &sandbox : sandboxes) {
                const std::optional<Orphan> orphan = scan->orphanFor(sandbox.sandboxId);
                if (orphan)
                    ++orphans;
                if (onlyOrphans && !orphan)
                    continue;
                // Only the form that is printed: each costs as much as the list's parse.
                if (m_json) {
                    json.add(sandbox, orphan);
                    continue;
                }
                text += line.arg(sandbox.sandboxId, sandbox.templateId,
                    sandbox.state == SandboxState::Paused ? paused : running,
                    isoTime(sandbox.endAt),
                    orphan ? QStringLiteral("  %1 %2: %3")
                                 .arg(orphan->isSuspected() ? suspectedLabel : orphanLabel,
                                     toString(orphan->reason), orphan->evidence)
                           : QString());
            }
            if (m_json) {
                printBytes(json.finish());
            } else {
                if (text.isEmpty())
                    text = onlyOrphans ? tr("No orphans.\n") : tr("No sandboxes.\n");
                printText(text);
            }
            finish(onlyOrphans && orphans > 0 ? OrphansFound : Success);
        });
        scan->start();
    });
}

void CommandLine::runKillOrphans()
{
    listThen([this](const QList<Sandbox> &sandboxes, const QDateTime &serverDate) {
        auto *scan = m_session->detector()->scan(sandboxes, serverDate, this);
        connect(scan, &Job::finished, this, [this, scan] {
            const bool includeSuspected = m_parser.isSet(QStringLiteral("include-suspected"));
            const QList<Orphan> chosen = orphansToKill(scan->orphans(), includeSuspected);
            auto *kill
                = new KillOrphansJob(m_network, m_settings, m_session->journal(), chosen, {}, this);
            printKillsAsTheyEnd(kill);
            QStringList left;
            for (const Orphan &orphan : scan->orphans()) {
                if (orphan.isSuspected() && !includeSuspected)
                    left << orphan.sandboxId;
            }
            connect(kill, &Job::finished, this, [this, kill, left] {
                if (m_json) {
                    QJsonObject result = killsJson(kill);
                    result.insert(
                        QStringLiteral("suspectedLeft"), QJsonArray::fromStringList(left));
                    printJson(QJsonDocument(result));
                } else {
                    if (kill->killed().isEmpty() && kill->failed().isEmpty())
                        printText(tr("No certain orphans.\n"));
                    if (!left.isEmpty())
                        printText(tr("Left %n suspected orphan(s): %1 (--include-suspected kills "
                                     "them too).\n",
                            nullptr, int(left.size()))
                                      .arg(left.join(QStringLiteral(", "))));
                }
                finish(kill->failed().isEmpty() ? Success : Failed);
            });
            kill->start();
        });
        scan->start();
    });
}

void CommandLine::runKill()
{
    QList<Orphan> targets;
    for (const QString &id : m_parser.positionalArguments()) {
        Orphan target;
        target.sandboxId = id;
        targets.append(target);
    }
    // A sandbox of one of our creations: the kill joins that creation's timeline.
    auto *kill
        = new KillOrphansJob(m_network, m_settings, m_session->journal(), targets, {}, this);
    printKillsAsTheyEnd(kill);
    connect(kill, &Job::finished, this, [this, kill] {
        if (m_json)
            printJson(QJsonDocument(killsJson(kill)));
        finish(kill->failed().isEmpty() ? Success : Failed);
    });
    kill->start();
}

void CommandLine::printKillsAsTheyEnd(KillOrphansJob *kill)
{
    if (m_json)
        return;
    connect(kill, &KillOrphansJob::orphanDone, this,
        [this, kill](const QString &id, const QString &error) {
            if (!error.isEmpty())
                printText(tr("FAILED %1: %2\n").arg(id, error));
            else if (kill->notFound().contains(id))
                printText(
                    tr("%1 was not found: no sandbox by that ID is running or paused\n").arg(id));
            else
                printText(tr("killed %1\n").arg(id));
        });
}

QJsonObject CommandLine::killsJson(const KillOrphansJob *kill)
{
    // A sandbox the server did not know was not killed by us: say so apart.
    QStringList killed = kill->killed();
    for (const QString &id : kill->notFound())
        killed.removeOne(id);
    QJsonArray failed;
    for (const KillOrphansJob::Failure &failure : kill->failed())
        failed.append(QJsonObject { { QStringLiteral("sandboxId"), failure.sandboxId },
            { QStringLiteral("error"), failure.error } });
    return QJsonObject { { QStringLiteral("killed"), QJsonArray::fromStringList(killed) },
        { QStringLiteral("notFound"), QJsonArray::fromStringList(kill->notFound()) },
        { QStringLiteral("failed"), failed } };
}

void CommandLine::runHistory()
{
    QJsonArray array;
    QString text;
    for (const CreationRecord &r : m_session->journal()->history()) {
        array.append(recordJson(r));
        text += QStringLiteral("%1  %2  %3  %4  %5%6\n")
                    .arg(isoTime(r.startedAt), r.creationId, r.templateId,
                        r.isFinished() ? toString(r.shownState())
                                       : tr("unfinished (%1)").arg(toString(r.state)),
                        r.sandboxId.isEmpty() ? QStringLiteral("-") : r.sandboxId,
                        r.error.isEmpty() ? QString() : QStringLiteral("  ") + r.error);
    }
    if (m_json)
        printJson(QJsonDocument(QJsonObject { { QStringLiteral("creations"), array } }));
    else
        printText(text.isEmpty() ? tr("No creations yet.\n") : text);
    finish(Success);
}

bool CommandLine::readCreationRequest()
{
    m_request.templateId = m_parser.value(QStringLiteral("template"));
    m_request.force = m_parser.isSet(QStringLiteral("force"));
    if (m_parser.isSet(QStringLiteral("timeout")))
        m_request.timeoutSeconds = m_parser.value(QStringLiteral("timeout")).toLongLong();
    if (const auto bad
        = readPairs(m_parser.values(QStringLiteral("metadata")), &m_request.metadata)) {
        fail(Usage, tr("--metadata needs KEY=VALUE, such as team=data (got \"%1\").").arg(*bad));
        return false;
    }
    // A variable's value may be a secret: of a wrong --env, nothing after an "=" is
    // shown, and nothing at all of one without "=".
    if (const auto bad = readPairs(m_parser.values(QStringLiteral("env")), &m_request.envVars)) {
        fail(Usage,
            bad->contains(QLatin1Char('='))
                ? tr("--env needs a name before the \"=\", such as DEBUG=1 (got \"=…\").")
                : tr("--env needs NAME=VALUE, such as DEBUG=1; one --env has no \"=\" (it is "
                     "not shown, as it may hold a secret)."));
        return false;
    }
    if (m_parser.isSet(QStringLiteral("mcp"))) {
        const QString path = m_parser.value(QStringLiteral("mcp"));
        QFile file;
        const bool opened = path == QLatin1String("-")
            ? file.open(stdin, QIODevice::ReadOnly)
            : (file.setFileName(path), file.open(QIODevice::ReadOnly));
        if (!opened) {
            fail(Usage,
                tr("Could not read the MCP configuration %1: %2").arg(path, file.errorString()));
            return false;
        }
        const McpConfigParse parsed = McpConfigCheck::parse(file.readAll());
        if (!parsed.ok) {
            // The message says what is wrong with "the MCP configuration"; this says which.
            fail(Usage,
                tr("%1: %2").arg(
                    path == QLatin1String("-") ? tr("standard input") : path, parsed.message));
            return false;
        }
        m_request.mcp = parsed.config;
        // As the window asks before it: on a template without the gateway its start
        // fails only after the sandbox was allocated, and the creation is rolled back.
        if (!m_request.templateId.isEmpty() && !isKnownGatewayTemplate(m_request.templateId)
            && !m_request.force) {
            fail(Usage,
                tr("--mcp needs the MCP gateway, and only the \"%1\" template is known to have "
                   "it: on \"%2\" it would likely fail to start once the sandbox exists. Leave "
                   "out --template (or give --template %1), or add --force if \"%2\" has the "
                   "gateway.")
                    .arg(McpGatewayTemplate, m_request.templateId));
            return false;
        }
    }
    return true;
}

void CommandLine::runCreate()
{
    CreationContext context = m_session->creationContext();
    if (m_parser.isSet(QStringLiteral("gateway-budget")))
        context.gatewayBudget = *parseSeconds(m_parser.value(QStringLiteral("gateway-budget")));

    auto *job = new CreationJob(context, m_request, this);
    job->setAutoDelete(false);
    m_creation = job;
    m_session->track(job);
    if (!m_json) {
        printText(tr("creation %1\n").arg(job->creationId()));
        connect(job, &CreationJob::stateChanged, this, [this](CreationState state) {
            printText(QStringLiteral("[%1] %2\n").arg(toString(state), displayName(state)));
        });
        connect(job, &CreationJob::sandboxAllocated, this,
            [this](const QString &id) { printText(tr("sandbox %1\n").arg(id)); });
        connect(job, &CreationJob::gatewayStderrReceived, this, [this](const QByteArray &data) {
            printText(QString::fromUtf8(m_gatewayStderr.take(data)));
        });
        connect(job, &CreationJob::gatewayStdoutReceived, this, [this](const QByteArray &data) {
            printText(QString::fromUtf8(m_gatewayStdout.take(data)));
        });
    }
    connect(job, &Job::finished, this, [this, job] {
        const CreationState state = job->state();
        QJsonArray warnings;
        for (const McpFinding &finding : job->mcpFindings())
            warnings.append(finding.message);
        if (m_json) {
            QJsonObject doc { { QStringLiteral("creationId"), job->creationId() },
                { QStringLiteral("sandboxId"), orNull(job->sandboxId()) },
                { QStringLiteral("templateId"), job->templateId() },
                { QStringLiteral("state"), toString(state) },
                { QStringLiteral("cancelled"), job->endedCancelled() },
                { QStringLiteral("error"), orNull(job->errorMessage()) },
                { QStringLiteral("gatewayStderr"), QString::fromUtf8(job->gatewayStderr()) },
                { QStringLiteral("rollback"), rollbackJson(job->rollback()) },
                { QStringLiteral("orphanReason"),
                    job->orphanReason() ? QJsonValue(toString(*job->orphanReason()))
                                        : QJsonValue() },
                { QStringLiteral("warnings"), warnings } };
            printJson(QJsonDocument(doc));
        } else {
            for (LineBuffer *lines : { &m_gatewayStdout, &m_gatewayStderr }) {
                if (const QByteArray rest = lines->takeRest(); !rest.isEmpty())
                    printText(QString::fromUtf8(rest + '\n'));
            }
            QString text;
            // The local gateway runs the same check and prints its findings (in English),
            // shown above with its output: a server it warned about is not warned about a
            // second time, in whatever language this runs.
            const QList<QByteArray> gatewayLines = job->gatewayStderr().split('\n');
            const auto gatewayWarned = [&gatewayLines](const McpFinding &finding) {
                const QByteArray prefix
                    = finding.isError() ? "mcp-gateway: error: " : "mcp-gateway: warning: ";
                const QByteArray server = '"' + finding.server.toUtf8() + '"';
                return std::any_of(
                    gatewayLines.begin(), gatewayLines.end(), [&](const QByteArray &line) {
                        return line.startsWith(prefix) && line.contains(server);
                    });
            };
            for (const McpFinding &finding : job->mcpFindings()) {
                if (!gatewayWarned(finding))
                    text += tr("warning: %1\n").arg(finding.message);
            }
            if (!job->errorMessage().isEmpty())
                text += tr("error: %1\n").arg(job->errorMessage());
            // Worded as the window and its history word it.
            if (const auto rollback = job->rollback())
                text += tr("rollback: %1").arg(rollbackText(*rollback)) + QLatin1Char('\n');
            if (state == CreationState::Ready)
                text += tr("ready: %1\n").arg(job->sandboxId());
            printText(text);
        }
        int code = Failed;
        if (state == CreationState::Ready) {
            code = Success;
        } else if (job->error().kind() == Error::Kind::Journal) {
            code = JournalFailed;
        } else if (state == CreationState::Rejected) {
            code = exitCodeFor(job->error()) == Unreachable ? Unreachable : Usage;
        } else if (state == CreationState::RolledBack && !job->rollback()
            && job->sandboxId().isEmpty()) {
            // Nothing was allocated: the API could not be reached or refused the key.
            code = exitCodeFor(job->error());
        }
        finish(code);
    });
    installSignalHandlers();
    job->start();
}

void CommandLine::installSignalHandlers()
{
    auto *shutdown = new ShutdownSignals(this);
    connect(shutdown, &ShutdownSignals::received, this, [this] {
        // First Ctrl+C: cancel and let the rollback finish; it is not interrupted.
        if (m_creation) {
            QTextStream(stderr) << tr("Cancelling; rolling back what was created…") << "\n";
            m_creation->cancel();
        }
    });
}

void CommandLine::printJson(const QJsonDocument &doc)
{
    printBytes(doc.toJson(QJsonDocument::Indented));
}

void CommandLine::printBytes(const QByteArray &data)
{
    std::fwrite(data.constData(), 1, size_t(data.size()), stdout);
    std::fflush(stdout);
}

void CommandLine::printText(const QString &text)
{
    const QByteArray data = terminalSafe(text).toUtf8();
    std::fwrite(data.constData(), 1, size_t(data.size()), stdout);
    std::fflush(stdout);
}

void CommandLine::fail(int code, const QString &message)
{
    QTextStream(stderr) << terminalSafe(tr("error: %1").arg(message)) << "\n";
    if (m_json)
        printJson(QJsonDocument(QJsonObject { { QStringLiteral("error"), message } }));
    finish(code);
}

void CommandLine::finish(int code)
{
    if (m_done)
        return;
    m_done = true;
    m_exitCode = code;
    // Leave the loop after the current event (jobs still delete themselves cleanly).
    QMetaObject::invokeMethod(
        this, [code] { QCoreApplication::exit(code); }, Qt::QueuedConnection);
}

} // namespace sd
