// The real sandbox-desk binary in command-line mode against the real
// sandbox-desk-local: output shapes, exit codes, and SIGKILL at the worst moments
// followed by --orphans and --kill-orphans.

#include "clitestutil.h"
#include "journal/creationjournal.h"
#include "otheruserbackend.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "session/session.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <csignal>
#include <sys/resource.h>
#include <tuple>

using namespace sd;
using sd::test::CliResult;
using sd::test::rule;

namespace {
const QString optionSecret = QStringLiteral("opt-secret-5e2c9a71b3");
const QString envSecret = QStringLiteral("env-secret-0a8f4d6c21");
} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;
    std::unique_ptr<sd::test::DeskCli> m_cli;
    QString m_mcpFile;
    QString m_mcpBadFile;

    // environment() with no display to open a window on.
    QProcessEnvironment environmentWithoutDisplay() const
    {
        QProcessEnvironment env = environment();
        for (const char *name : { "QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY" })
            env.remove(QString::fromLatin1(name));
        return env;
    }

    QProcessEnvironment environment(const QString &apiKey = {}) const
    {
        return m_cli->environment(apiKey);
    }
    QStringList connection() const { return m_cli->connection(); }
    QString journalPath() const { return m_cli->journalPath(); }
    std::unique_ptr<QProcess> launch(const QStringList &args, const QString &apiKey = {})
    {
        return m_cli->launch(args, apiKey);
    }
    CliResult cli(const QStringList &args, const QString &apiKey = {})
    {
        return m_cli->run(args, apiKey);
    }
    /// The key file the local backend keeps, in the command line's private home.
    bool writeLocalKeyFile(const QString &key)
    {
        const QString keyFile = m_cli->path(QStringLiteral("data/sandbox-desk/local-api-key"));
        QFile file(keyFile);
        return QDir().mkpath(QFileInfo(keyFile).path()) && file.open(QIODevice::WriteOnly)
            && file.write(key.toUtf8()) == key.size();
    }

    /// Runs --create, SIGKILLs it as soon as the journal holds `marker`, and checks
    /// that --orphans flags what was left `interrupted` and --kill-orphans removes it.
    void killDuringCreate(
        const QStringList &createArgs, const QByteArray &marker, bool expectSurvivor)
    {
        auto process = launch(QStringList { QStringLiteral("--create"), QStringLiteral("--json") }
            + createArgs + connection());
        QVERIFY(process->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(sd::test::readFile(journalPath()).contains(marker), 60000);
        process->kill(); // SIGKILL: no rollback, no final record
        QVERIFY(process->waitForFinished());
        QCOMPARE(process->exitStatus(), QProcess::CrashExit);

        const QByteArray journal = sd::test::readFile(journalPath());
        QVERIFY(!journal.contains("\"type\":\"outcome\""));

        if (!expectSurvivor) {
            QVERIFY(m_backend.listIds().isEmpty());
            QCOMPARE(cli(QStringList { QStringLiteral("--orphans"), QStringLiteral("--json") }
                         + connection())
                         .exitCode,
                0);
            return;
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_backend.listIds().size(), 1, 30000);
        const QString survivor = m_backend.listIds().constFirst();

        const CliResult orphans = cli(
            QStringList { QStringLiteral("--orphans"), QStringLiteral("--json") } + connection());
        QCOMPARE(orphans.exitCode, 3);
        QCOMPARE(orphans.out, QJsonDocument::fromJson(orphans.out).toJson(QJsonDocument::Indented));
        const QJsonArray list = orphans.json().value(QLatin1String("sandboxes")).toArray();
        QCOMPARE(list.size(), 1);
        const QJsonObject entry = list.at(0).toObject();
        QCOMPARE(entry.value(QLatin1String("sandboxId")).toString(), survivor);
        const QJsonObject orphan = entry.value(QLatin1String("orphan")).toObject();
        QCOMPARE(orphan.value(QLatin1String("reason")).toString(), QStringLiteral("interrupted"));
        QVERIFY(!orphan.value(QLatin1String("detail")).toString().isEmpty());

        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        QCOMPARE(history.exitCode, 0);
        QCOMPARE(history.json()
                     .value(QLatin1String("creations"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("state"))
                     .toString(),
            QStringLiteral("unfinished"));

        const CliResult killed
            = cli(QStringList { QStringLiteral("--kill-orphans"), QStringLiteral("--json") }
                + connection());
        QCOMPARE(killed.exitCode, 0);
        QCOMPARE(killed.json().value(QLatin1String("killed")).toArray(), QJsonArray { survivor });
        QVERIFY(killed.json().value(QLatin1String("failed")).toArray().isEmpty());
        QVERIFY(m_backend.listIds().isEmpty());
        QCOMPARE(cli(QStringList { QStringLiteral("--orphans") } + connection()).exitCode, 0);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_backend.start()); }

    void init()
    {
        QVERIFY(m_backend.clearFaults());
        m_backend.killAll();
        m_cli = std::make_unique<sd::test::DeskCli>(m_backend);
        m_mcpFile = m_cli->path(QStringLiteral("mcp.json"));
        QFile good(m_mcpFile);
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(QJsonDocument(QJsonObject { { QStringLiteral("browserbase"),
                                     QJsonObject { { QStringLiteral("apiKey"), optionSecret },
                                         { QStringLiteral("projectId"), QStringLiteral("p") },
                                         { QStringLiteral("geminiApiKey"), optionSecret } } } })
                       .toJson());
        good.close();
        m_mcpBadFile = m_cli->path(QStringLiteral("bad.json"));
        QFile bad(m_mcpBadFile);
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"browserbase\":{\"apiKey\":\"x1234\"}}");
    }

    void createListHistoryKill()
    {
        const CliResult created
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                      QStringLiteral("--metadata"), QStringLiteral("owner=cli"),
                      QStringLiteral("--timeout"), QStringLiteral("600") }
                + connection());
        QCOMPARE(created.exitCode, 0);
        const QJsonObject doc = created.json();
        QCOMPARE(doc.value(QLatin1String("state")).toString(), QStringLiteral("ready"));
        QVERIFY(doc.value(QLatin1String("error")).isNull());
        QVERIFY(doc.value(QLatin1String("rollback")).isNull());
        const QString id = doc.value(QLatin1String("sandboxId")).toString();
        QCOMPARE(m_backend.listIds(), QStringList { id });

        const CliResult listed = cli(
            QStringList { QStringLiteral("--list"), QStringLiteral("--json") } + connection());
        QCOMPARE(listed.exitCode, 0);
        const QJsonArray sandboxes = listed.json().value(QLatin1String("sandboxes")).toArray();
        QCOMPARE(sandboxes.size(), 1);
        const QJsonObject s = sandboxes.at(0).toObject();
        QCOMPARE(s.value(QLatin1String("sandboxId")).toString(), id);
        QCOMPARE(s.value(QLatin1String("templateId")).toString(), QStringLiteral("base"));
        QCOMPARE(s.value(QLatin1String("state")).toString(), QStringLiteral("running"));
        QVERIFY(s.value(QLatin1String("orphan")).isNull());
        // The backend's times to the second, in UTC, written as Qt::ISODate writes them.
        const QList<sd::Sandbox> listedByCore = m_backend.list();
        QCOMPARE(listedByCore.size(), 1);
        QCOMPARE(s.value(QLatin1String("startedAt")).toString(),
            listedByCore.constFirst().startedAt.toUTC().toString(Qt::ISODate));
        QCOMPARE(s.value(QLatin1String("endAt")).toString(),
            listedByCore.constFirst().endAt.toUTC().toString(Qt::ISODate));
        QVERIFY(s.value(QLatin1String("endAt")).toString().endsWith(QLatin1Char('Z')));
        QCOMPARE(
            s.value(QLatin1String("metadata")).toObject().value(QLatin1String("owner")).toString(),
            QStringLiteral("cli"));
        QCOMPARE(cli(QStringList { QStringLiteral("--orphans") } + connection()).exitCode, 0);

        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        const QJsonObject last
            = history.json().value(QLatin1String("creations")).toArray().at(0).toObject();
        QCOMPARE(last.value(QLatin1String("creationId")), doc.value(QLatin1String("creationId")));
        QCOMPARE(last.value(QLatin1String("state")).toString(), QStringLiteral("ready"));

        QVERIFY(last.value(QLatin1String("killedAt")).isNull());

        const CliResult killed = cli(
            QStringList { QStringLiteral("--kill"), id, QStringLiteral("--json") } + connection());
        QCOMPARE(killed.exitCode, 0);
        QCOMPARE(killed.json().value(QLatin1String("killed")).toArray(), QJsonArray { id });
        QVERIFY(m_backend.listIds().isEmpty());

        // The kill joins the creation's timeline: killed at T, not an orphan's removal.
        const CliResult after = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        const QJsonObject record
            = after.json().value(QLatin1String("creations")).toArray().at(0).toObject();
        QCOMPARE(record.value(QLatin1String("state")).toString(), QStringLiteral("ready"));
        const QJsonObject step = record.value(QLatin1String("timeline")).toArray().last().toObject();
        QCOMPARE(step.value(QLatin1String("step")).toString(), QStringLiteral("killed"));
        QCOMPARE(step.value(QLatin1String("detail")).toString(), id);
        QVERIFY(!step.value(QLatin1String("failed")).toBool());
        QVERIFY(QDateTime::fromString(step.value(QLatin1String("time")).toString(), Qt::ISODate)
                    .isValid());
        QCOMPARE(record.value(QLatin1String("killedAt")), step.value(QLatin1String("time")));
        QVERIFY(record.value(QLatin1String("orphansKilled")).toArray().isEmpty());
    }

    // --force: the user says base has the gateway; it has not, and the start fails.
    void gatewayFailureIsRolledBackExit1()
    {
        const CliResult r = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                                    QStringLiteral("--template"), QStringLiteral("base"),
                                    QStringLiteral("--force"), QStringLiteral("--mcp"), m_mcpFile,
                                    QStringLiteral("--env"), QStringLiteral("TOKEN=") + envSecret }
            + connection());
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = r.json();
        QCOMPARE(doc.value(QLatin1String("state")).toString(), QStringLiteral("rolled_back"));
        QVERIFY(doc.value(QLatin1String("error"))
                    .toString()
                    .startsWith(QLatin1String("Failed to start MCP gateway: ")));
        QVERIFY(doc.value(QLatin1String("gatewayStderr"))
                    .toString()
                    .contains(QLatin1String("not found")));
        const QJsonObject rollback = doc.value(QLatin1String("rollback")).toObject();
        QCOMPARE(rollback.value(QLatin1String("outcome")).toString(), QStringLiteral("killed"));
        QCOMPARE(rollback.value(QLatin1String("attempts")).toInt(), 1);
        QVERIFY(m_backend.listIds().isEmpty());

        // The history tells the same story step by step, the gateway's step failed.
        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        QCOMPARE(history.exitCode, 0);
        const QJsonObject last
            = history.json().value(QLatin1String("creations")).toArray().at(0).toObject();
        QCOMPARE(last.value(QLatin1String("creationId")), doc.value(QLatin1String("creationId")));
        QCOMPARE(last.value(QLatin1String("cancelled")), QJsonValue(false)); // a failure
        QStringList states;
        QStringList failed;
        QDateTime previous;
        for (const QJsonValue &value : last.value(QLatin1String("timeline")).toArray()) {
            const QJsonObject step = value.toObject();
            const QDateTime time
                = QDateTime::fromString(step.value(QLatin1String("time")).toString(), Qt::ISODate);
            QVERIFY(time.isValid());
            QVERIFY(!previous.isValid() || previous <= time);
            previous = time;
            if (step.value(QLatin1String("step")).toString() != QLatin1String("state"))
                continue;
            states.append(step.value(QLatin1String("state")).toString());
            if (step.value(QLatin1String("failed")).toBool())
                failed.append(states.last());
        }
        QCOMPARE(states,
            QStringList({ QStringLiteral("allocating"), QStringLiteral("starting_gateway"),
                QStringLiteral("rolling_back"), QStringLiteral("rolled_back") }));
        QCOMPARE(failed, QStringList { QStringLiteral("starting_gateway") });

        // No secret in the output or the journal.
        for (const QByteArray &text : { r.out, r.err, history.out, sd::test::readFile(journalPath()) }) {
            QVERIFY(!text.contains(optionSecret.toUtf8()));
            QVERIFY(!text.contains(envSecret.toUtf8()));
            QVERIFY(!text.contains(m_backend.apiKey().toUtf8()));
        }
    }

    // The window asks before it uses a template not known to have the MCP gateway; the
    // command line refuses one before anything is allocated, naming it and the ways on.
    void mcpOnTemplateWithoutGatewayRefusedBeforeAllocation()
    {
        const QByteArray message = "--mcp needs the MCP gateway, and only the \"mcp-gateway\" "
                                   "template is known to have it: on \"base\" it would likely "
                                   "fail to start once the sandbox exists. Leave out --template "
                                   "(or give --template mcp-gateway), or add --force if \"base\" "
                                   "has the gateway.";
        const QStringList create { QStringLiteral("--create"), QStringLiteral("--template"),
            QStringLiteral("base"), QStringLiteral("--mcp"), m_mcpFile };
        const CliResult text = cli(create + connection());
        QCOMPARE(text.exitCode, 2);
        QCOMPARE(text.err, "error: " + message + '\n');
        QCOMPARE(text.out, QByteArray());
        const CliResult json
            = cli(create + connection() + QStringList { QStringLiteral("--json") });
        QCOMPARE(json.exitCode, 2);
        QCOMPARE(
            json.json(), QJsonObject({ { QStringLiteral("error"), QString::fromUtf8(message) } }));
        QVERIFY(m_backend.listIds().isEmpty());
        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        QVERIFY(history.json().value(QLatin1String("creations")).toArray().isEmpty());

        // The gateway's own template is taken however it is given.
        const CliResult gateway
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--template"),
                      QStringLiteral("mcp-gateway"), QStringLiteral("--mcp"), m_mcpFile,
                      QStringLiteral("--json") }
                + connection());
        QCOMPARE(gateway.exitCode, 0);
        QCOMPARE(gateway.json().value(QLatin1String("templateId")).toString(),
            QStringLiteral("mcp-gateway"));
    }

    // The local gateway runs the catalog check too and prints what it finds: a server
    // the catalog does not know is warned about once, not by both.
    void unknownServerWarnedOnce()
    {
        const QString config = m_cli->path(QStringLiteral("unknown.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"nosuchserver\": {}}");
        file.close();
        const QByteArray warning = "\"nosuchserver\" is not an MCP server in the catalog";

        const CliResult created
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--mcp"), config }
                + connection());
        QCOMPARE(created.exitCode, 0);
        QCOMPARE(created.out.count(warning) + created.err.count(warning), 1);
        QVERIFY2(created.out.contains("mcp-gateway: warning: " + warning), created.out.constData());

        // No gateway ran to print it: the command line says it, once.
        const CliResult failed = cli(
            QStringList { QStringLiteral("--create"), QStringLiteral("--template"),
                QStringLiteral("base"), QStringLiteral("--force"), QStringLiteral("--mcp"), config }
            + connection());
        QCOMPARE(failed.exitCode, 1);
        QCOMPARE(failed.out.count(warning) + failed.err.count(warning), 1);
        QVERIFY2(failed.out.contains("\nwarning: " + warning), failed.out.constData());

        // The JSON keeps both: the check's warnings, and what the gateway printed.
        const CliResult json = cli(QStringList { QStringLiteral("--create"),
                                       QStringLiteral("--mcp"), config, QStringLiteral("--json") }
            + connection());
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.json().value(QLatin1String("warnings")).toArray().size(), 1);
        QVERIFY(json.json()
                    .value(QLatin1String("gatewayStderr"))
                    .toString()
                    .contains(QString::fromUtf8(warning)));
    }

    // --verbose turns on the sd.* debug messages (over QT_LOGGING_RULES), each with
    // time, category and level, and none of them holds a secret of the creation.
    void listJsonIsWhatQtWrites()
    {
        // `--list --json` is written straight out, not through QJsonDocument; its bytes
        // must still be the ones QJsonDocument::Indented writes, escapes and key order too.
        const QStringList list { QStringLiteral("--list"), QStringLiteral("--json") };
        const CliResult empty = cli(list + connection());
        QCOMPARE(empty.exitCode, 0);
        QCOMPARE(empty.out,
            QJsonDocument(QJsonObject { { QStringLiteral("sandboxes"), QJsonArray() } })
                .toJson(QJsonDocument::Indented));

        // One key above U+FFFF only: QJsonObject orders such keys by UTF-16 when built and
        // by code point when parsed, so beside U+E000..U+FFFF keys the check would be moot.
        const sd::Metadata odd { { QStringLiteral("quote"), QStringLiteral("a\"b") },
            { QStringLiteral("back"), QStringLiteral("c\\d") },
            { QStringLiteral("controls"), QStringLiteral("x\u0001y\u001fz\u007f") },
            { QStringLiteral("lines"), QStringLiteral("l1\nl2\t\r\b\f") },
            { QStringLiteral("\u00e9"), QStringLiteral("\u00fc") },
            { QStringLiteral("\U0001F600"), QStringLiteral("emoji") },
            { QString(), QStringLiteral("empty key") },
            { QStringLiteral("separators"), QStringLiteral("\u2028\u2029") } };
        const QString oddId = m_backend.createRaw(QStringLiteral("base"), odd).sandboxId;
        const QString plainId = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!oddId.isEmpty() && !plainId.isEmpty());

        const CliResult listed = cli(list + connection());
        QCOMPARE(listed.exitCode, 0);
        QCOMPARE(listed.out, QJsonDocument::fromJson(listed.out).toJson(QJsonDocument::Indented));
        QJsonObject written;
        for (const QJsonValue &entry : listed.json().value(QLatin1String("sandboxes")).toArray()) {
            const QJsonObject sandbox = entry.toObject();
            if (sandbox.value(QLatin1String("sandboxId")).toString() == oddId)
                written = sandbox.value(QLatin1String("metadata")).toObject();
        }
        QCOMPARE(written.size(), odd.size());
        for (auto it = odd.begin(); it != odd.end(); ++it)
            QCOMPARE(written.value(it.key()).toString(), it.value());
    }

    void verboseCreationLogsNoSecret()
    {
        const QStringList create { QStringLiteral("--create"), QStringLiteral("--json"), QStringLiteral("--mcp"),
            m_mcpFile, QStringLiteral("--env"), QStringLiteral("TOKEN=") + envSecret };
        const CliResult r = cli(create + connection() + QStringList { QStringLiteral("--verbose") });
        QCOMPARE(r.exitCode, 0);
        const QString id = r.json().value(QLatin1String("sandboxId")).toString();
        QVERIFY(!id.isEmpty());
        GetSandboxJob detail(m_backend.network(), m_backend.settings(), id);
        detail.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&detail) && !detail.hasError());
        const QString envdToken = detail.sandbox().envdAccessToken;
        QVERIFY(!envdToken.isEmpty());

        static const QRegularExpression line(
            QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\S+ (debug|info|warning): "));
        const QStringList lines = QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QStringList categories;
        for (const QString &text : lines) {
            QVERIFY2(line.match(text).hasMatch(), qPrintable(text));
            categories.append(text.section(QLatin1Char(' '), 2, 2));
        }
        for (const char *category : { "sd.api", "sd.envd", "sd.creation" })
            QVERIFY2(categories.contains(QLatin1String(category)), category);
        QVERIFY(r.err.contains(id.toUtf8()));
        for (const QString &secret : { m_backend.apiKey(), envdToken, optionSecret, envSecret })
            QVERIFY2(!r.err.contains(secret.toUtf8()) && !r.out.contains(secret.toUtf8()),
                "a secret reached the log");
        m_backend.killAll();
    }

    // The window takes --verbose too; it is no command-line option there.
    void verboseIsListedInHelp()
    {
        const CliResult help = cli({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--verbose"));
        QVERIFY(help.out.contains("--local-port and --verbose apply there"));
        const CliResult local = [] {
            QProcess process;
            process.start(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk-local")),
                { QStringLiteral("--help") });
            process.waitForFinished(30000);
            return CliResult { process.exitCode(), process.readAllStandardOutput(), {} };
        }();
        QVERIFY(local.out.contains("--verbose"));
    }

    void badInputExits2()
    {
        QCOMPARE(
            cli(QStringList { QStringLiteral("--list"), QStringLiteral("--create") } + connection())
                .exitCode,
            2);
        // An --env value may be a secret: of a wrong one, nothing that could be is echoed.
        for (const auto &[args, message] :
            { std::pair { QStringList { QStringLiteral("--metadata"), QStringLiteral("novalue") },
                  QByteArray("--metadata needs KEY=VALUE, such as team=data (got "
                             "\"novalue\").") },
                std::pair { QStringList { QStringLiteral("--env"), envSecret },
                    QByteArray("--env needs NAME=VALUE, such as DEBUG=1; one --env has no "
                               "\"=\" (it is not shown, as it may hold a secret).") },
                std::pair { QStringList { QStringLiteral("--env"), QStringLiteral("A=1"),
                                QStringLiteral("--env"), QLatin1Char('=') + envSecret },
                    QByteArray("--env needs a name before the \"=\", such as DEBUG=1 (got "
                               "\"=…\").") } }) {
            const CliResult bad
                = cli(QStringList { QStringLiteral("--create") } + args + connection());
            QCOMPARE(bad.exitCode, 2);
            QCOMPARE(bad.err, "error: " + message + '\n');
        }
        // Refused before connecting: on the Local profile, with nothing on its port, no
        // backend is started for input that could never be used.
        const quint16 port = sd::test::freeLoopbackPort();
        for (const QStringList &args :
            { QStringList { QStringLiteral("--env"), envSecret },
                QStringList { QStringLiteral("--metadata"), QStringLiteral("novalue") },
                QStringList { QStringLiteral("--mcp"), m_cli->path(QStringLiteral("absent.json")) },
                QStringList { QStringLiteral("--template"), QStringLiteral("base"),
                    QStringLiteral("--mcp"), m_mcpFile } }) {
            const CliResult bad = cli(QStringList { QStringLiteral("--profile"),
                                          QStringLiteral("Local"), QStringLiteral("--local-port"),
                                          QString::number(port), QStringLiteral("--create") }
                + args);
            static const QRegularExpression started(QStringLiteral("\\(pid (\\d+)\\)"));
            const QRegularExpressionMatch match = started.match(QString::fromUtf8(bad.err));
            if (match.hasMatch())
                sd::test::terminateAndWait(pid_t(match.captured(1).toInt()));
            QCOMPARE(bad.exitCode, 2);
            QVERIFY2(
                bad.err.startsWith("error: ") && bad.err.count('\n') == 1, bad.err.constData());
            QVERIFY2(!match.hasMatch(), "a backend was started");
        }
        // An --mcp file that is not JSON: the message names the file, and says once
        // what is wrong with it.
        const QString notJson = m_cli->path(QStringLiteral("not-json.json"));
        QFile notJsonFile(notJson);
        QVERIFY(notJsonFile.open(QIODevice::WriteOnly));
        notJsonFile.write("{\"duckduckgo\": {},}");
        notJsonFile.close();
        const CliResult broken
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--mcp"), notJson }
                + connection());
        QCOMPARE(broken.exitCode, 2);
        QVERIFY2(broken.err.startsWith(
                     "error: " + notJson.toUtf8() + ": The MCP configuration is not valid JSON: "),
            broken.err.constData());
        QCOMPARE(broken.err.count("The MCP configuration"), 1);
        const CliResult reserved
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                      QStringLiteral("--metadata"), QStringLiteral("sandbox-desk.x=1") }
                + connection());
        QCOMPARE(reserved.exitCode, 2);
        QCOMPARE(
            reserved.json().value(QLatin1String("state")).toString(), QStringLiteral("rejected"));
        const CliResult missing
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                      QStringLiteral("--mcp"), m_mcpBadFile }
                + connection());
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.json()
                    .value(QLatin1String("error"))
                    .toString()
                    .contains(QLatin1String("projectId")));
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // A script that asks for --json gets every refusal of its input as JSON on stdout,
    // {"error": "..."} with the sentence stderr has, and exit 2; nothing is allocated.
    void badInputWithJsonPrintsJsonError()
    {
        const QString json = QStringLiteral("--json");
        for (const auto &[args, message] :
            { std::pair { QStringList { QStringLiteral("--create"), QStringLiteral("--timeout"),
                              QStringLiteral("abc") }
                      + connection(),
                  QStringLiteral("--timeout needs a whole number of seconds, such as 300 (got "
                                 "\"abc\").") },
                std::pair { QStringList { QStringLiteral("--orphans"),
                                QStringLiteral("--gateway-grace"), QStringLiteral("inf") }
                        + connection(),
                    QStringLiteral("--gateway-grace needs a number of seconds from 0 to "
                                   "1000000000, such as 120 (got \"inf\").") },
                std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--frobnicate") }
                        + connection(),
                    QStringLiteral("Unknown option 'frobnicate'.") },
                std::pair { QStringList { QStringLiteral("--create"), QStringLiteral("--timeout") },
                    QStringLiteral("Missing value after '--timeout'.") },
                std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--create") }
                        + connection(),
                    QStringLiteral("Give exactly one of --list, --orphans, --kill-orphans, "
                                   "--create, --kill, --history.") },
                std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--metadata"),
                                QStringLiteral("team=none") }
                        + connection(),
                    QStringLiteral("--metadata applies only to --create; it filters nothing "
                                   "else. Remove it.") },
                std::pair { QStringList { QStringLiteral("--kill") } + connection(),
                    QStringLiteral("--kill needs at least one sandbox id.") },
                std::pair {
                    QStringList { QStringLiteral("--kill"), QStringLiteral("a b") } + connection(),
                    QStringLiteral("\"a b\" is not a sandbox ID: an ID is letters, digits, \"-\" "
                                   "and \"_\", such as iu0y3uqktuqmlj04mg3r.") },
                std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--api-url"),
                                QStringLiteral("localhost:3000") },
                    QStringLiteral("--api-url \"localhost:3000\" is not an http or https URL: "
                                   "write it whole, such as https://api.e2b.app or "
                                   "http://127.0.0.1:49983.") },
                std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--local-port"),
                                QStringLiteral("99999") },
                    QStringLiteral("--local-port needs a port number between 1 and 65535.") },
                std::pair { QStringList {},
                    QStringLiteral("--json belongs to the command-line mode: add an action "
                                   "(--list, --orphans, --kill-orphans, --create, --kill, "
                                   "--history). Without an action sandbox-desk opens the "
                                   "window, which takes only --local-port and --verbose.") } }) {
            const CliResult bad = cli(QStringList { json } + args);
            QCOMPARE(bad.exitCode, 2);
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(bad.out, &parseError);
            QVERIFY2(parseError.error == QJsonParseError::NoError && doc.isObject(),
                qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ")
                    + QString::fromUtf8(bad.out)));
            QCOMPARE(doc.object(),
                QJsonObject(
                    { { QStringLiteral("error"), message + QStringLiteral(" Try --help.") } }));
            QCOMPARE(bad.err, (message + QStringLiteral("\nTry --help.\n")).toUtf8());
        }
        // An option missing its value takes --json as its value: JSON all the same.
        const CliResult taken
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--timeout"), json }
                + connection());
        QCOMPARE(taken.exitCode, 2);
        QCOMPARE(taken.json().value(QLatin1String("error")).toString(),
            QStringLiteral("--timeout needs a whole number of seconds, such as 300 (got "
                           "\"--json\"). Try --help."));
        // Refused after the options were read, with "error: " on stderr, and in the same
        // JSON shape on stdout; --history's too.
        for (const auto &[args, message] :
            { std::pair { QStringList { QStringLiteral("--create"), QStringLiteral("--metadata"),
                              QStringLiteral("novalue") }
                      + connection(),
                  QStringLiteral("--metadata needs KEY=VALUE, such as team=data (got "
                                 "\"novalue\").") },
                std::pair { QStringList { QStringLiteral("--history"), QStringLiteral("--profile"),
                                QStringLiteral("Nope") },
                    QStringLiteral("No profile named \"Nope\".") } }) {
            const CliResult bad = cli(QStringList { json } + args);
            QCOMPARE(bad.exitCode, 2);
            const QString error = bad.json().value(QLatin1String("error")).toString();
            QVERIFY2(error.startsWith(message), bad.out.constData());
            QVERIFY2(bad.err.startsWith("error: " + message.toUtf8()), bad.err.constData());
        }
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // An option of another action is refused before any request, not ignored: one
    // taken for a filter would list, or kill, more than the user meant.
    void optionOfAnotherActionExits2()
    {
        const Sandbox kept = m_backend.createRaw(QStringLiteral("base"));
        QVERIFY(!kept.sandboxId.isEmpty());
        for (const auto &[args, message] :
            { std::pair { QStringList { QStringLiteral("--list"), QStringLiteral("--metadata"),
                              QStringLiteral("team=none") },
                  QByteArray("--metadata applies only to --create") },
                std::pair { QStringList { QStringLiteral("--kill-orphans"),
                                QStringLiteral("--template"), QStringLiteral("base") },
                    QByteArray("--template applies only to --create") },
                std::pair { QStringList { QStringLiteral("--orphans"), QStringLiteral("--env"),
                                QStringLiteral("A=1") },
                    QByteArray("--env applies only to --create") },
                std::pair { QStringList { QStringLiteral("--kill"), kept.sandboxId,
                                QStringLiteral("--timeout"), QStringLiteral("60") },
                    QByteArray("--timeout applies only to --create") },
                std::pair {
                    QStringList { QStringLiteral("--list"), QStringLiteral("--include-suspected") },
                    QByteArray("--include-suspected applies only to --kill-orphans") },
                std::pair { QStringList {
                                QStringLiteral("--create"), QStringLiteral("--include-suspected") },
                    QByteArray("--include-suspected applies only to --kill-orphans") } }) {
            const CliResult bad = cli(args + connection());
            QCOMPARE(bad.exitCode, 2);
            QCOMPARE(bad.out, QByteArray());
            QCOMPARE(bad.err, message + "; it filters nothing else. Remove it.\nTry --help.\n");
        }
        QCOMPARE(m_backend.listIds(), QStringList { kept.sandboxId });
    }

    // A number of seconds that is not one is refused with what was given; a timeout or
    // a gateway budget out of range is refused by the creation before it allocates.
    void secondsOutOfRangeExit2()
    {
        for (const auto &[option, value] :
            { std::pair { "--gateway-grace", "inf" }, std::pair { "--gateway-grace", "1e300" },
                std::pair { "--gateway-budget", "nan" }, std::pair { "--gateway-budget", "-1" } }) {
            const CliResult bad = cli(QStringList { QStringLiteral("--orphans"),
                                          QString::fromLatin1(option), QString::fromLatin1(value) }
                + connection());
            QCOMPARE(bad.exitCode, 2);
            QCOMPARE(bad.err,
                QByteArray(option)
                    + " needs a number of seconds from 0 to 1000000000, such as 120 (got \"" + value
                    + "\").\nTry --help.\n");
        }
        for (const char *value : { "1.5", "inf", "ten" }) {
            const CliResult bad = cli(QStringList { QStringLiteral("--create"),
                                          QStringLiteral("--timeout"), QString::fromLatin1(value) }
                + connection());
            QCOMPARE(bad.exitCode, 2);
            QCOMPARE(bad.err,
                QByteArray("--timeout needs a whole number of seconds, such as 300 (got \"") + value
                    + "\").\nTry --help.\n");
        }
        const QString timeoutError
            = QStringLiteral("The timeout must be between 1 second and 24 hours (%1 s given)");
        const QString budgetError
            = QStringLiteral("The gateway's start budget must be more than 0 s and at most "
                             "86340 s, since the sandbox starts with a timeout of the budget "
                             "plus 60 s and a timeout may not exceed 24 hours (%1 s given)");
        for (const auto &[option, value, error] :
            { std::tuple { "--timeout", "99999999999", timeoutError.arg(99999999999) },
                std::tuple { "--timeout", "86401", timeoutError.arg(86401) },
                std::tuple { "--timeout", "0", timeoutError.arg(0) },
                std::tuple { "--timeout", "-5", timeoutError.arg(-5) },
                std::tuple { "--gateway-budget", "0", budgetError.arg(0) },
                std::tuple { "--gateway-budget", "0.0004", budgetError.arg(0) }, // under 1 ms
                std::tuple {
                    "--gateway-budget", "86340.5", budgetError.arg(QLatin1String("86340.5")) },
                std::tuple { "--gateway-budget", "3000000", budgetError.arg(3000000) } }) {
            const CliResult rejected
                = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                          QStringLiteral("--mcp"), m_mcpFile, QString::fromLatin1(option),
                          QString::fromLatin1(value) }
                    + connection());
            QCOMPARE(rejected.exitCode, 2);
            QCOMPARE(rejected.json().value(QLatin1String("state")).toString(),
                QStringLiteral("rejected"));
            QCOMPARE(rejected.json().value(QLatin1String("error")).toString(), error);
        }
        QVERIFY(m_backend.listIds().isEmpty());
        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        QCOMPARE(history.exitCode, 0);
        QVERIFY(history.json().value(QLatin1String("creations")).toArray().isEmpty());

        // The largest budget is one the API takes: the sandbox starts with 24 hours.
        const CliResult longest
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json"),
                      QStringLiteral("--gateway-budget"), QStringLiteral("86340") }
                + connection());
        QCOMPARE(longest.exitCode, 0);
        QCOMPARE(m_backend.listIds(),
            QStringList { longest.json().value(QLatin1String("sandboxId")).toString() });

        // A grace of the largest number taken spares a gateway-down sandbox that a grace
        // of 0 flags.
        const Sandbox leftover = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        const auto orphansWithGrace = [this](const char *grace) {
            return cli(QStringList { QStringLiteral("--orphans"), QStringLiteral("--gateway-grace"),
                           QString::fromLatin1(grace) }
                + connection());
        };
        const CliResult flagged = orphansWithGrace("0");
        QCOMPARE(flagged.exitCode, 3);
        QVERIFY2(flagged.out.contains(leftover.sandboxId.toUtf8()), flagged.out.constData());
        QCOMPARE(orphansWithGrace("1000000000").exitCode, 0);
    }

    // --profile: the profile comes from the settings the app writes, its key from the
    // keychain (the real Secret Service of the test session), never from the
    // environment here.
    void profileKeyComesFromTheKeychain()
    {
        const QString id = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!id.isEmpty());
        QSettings settings(
            m_cli->path(QStringLiteral("config/sandbox-desk/sandbox-desk.conf")),
            QSettings::IniFormat);
        ProfileStore store(&settings);
        QString problem;
        const QString profileId = store.save(Profile::custom(QStringLiteral("Backend under test"),
                                                 QUrl(m_backend.url()), QUrl(m_backend.url())),
            &problem);
        QVERIFY2(!profileId.isEmpty(), qPrintable(problem));
        settings.sync();
        KeyStore keys;
        const auto storeKey = [&](const QString &key) {
            WriteKeyJob write(&keys, profileId, key);
            write.setAutoDelete(false);
            QSignalSpy done(&write, &Job::finished);
            write.start();
            return done.wait(30000) && !write.hasError() && !write.usedSessionOnly();
        };
        const auto listWithProfile = [&] {
            QProcess process;
            process.setProgram(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
            process.setArguments({ QStringLiteral("--list"), QStringLiteral("--json"),
                QStringLiteral("--profile"), QStringLiteral("backend under test") });
            QProcessEnvironment env = environment();
            env.remove(QStringLiteral("E2B_API_KEY"));
            process.setProcessEnvironment(env);
            process.start();
            CliResult result;
            if (!process.waitForFinished(120000))
                return result;
            result.exitCode = process.exitCode();
            result.out = process.readAllStandardOutput();
            result.err = process.readAllStandardError();
            return result;
        };

        QVERIFY(storeKey(m_backend.apiKey()));
        const CliResult listed = listWithProfile();
        QCOMPARE(listed.exitCode, 0);
        const QJsonArray sandboxes = listed.json().value(QLatin1String("sandboxes")).toArray();
        QCOMPARE(sandboxes.size(), 1);
        QCOMPARE(sandboxes.at(0).toObject().value(QLatin1String("sandboxId")).toString(), id);
        QVERIFY(!settings.allKeys().isEmpty());
        QVERIFY(!sd::test::readFile(settings.fileName()).contains(m_backend.apiKey().toUtf8()));

        // A wrong key in the keychain: refused, exit 4, and the key is not printed.
        const QString wrongKey = QStringLiteral("e2b_0123456789abcdef0123456789abcdef01234567");
        QVERIFY(storeKey(wrongKey));
        const CliResult refused = listWithProfile();
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(!refused.err.isEmpty(), "no message for a refused key");
        for (const QByteArray &text : { listed.out, listed.err, refused.out, refused.err }) {
            QVERIFY(!text.contains(m_backend.apiKey().toUtf8()));
            QVERIFY(!text.contains(wrongKey.toUtf8()));
        }

        DeleteKeyJob cleanup(&keys, profileId);
        cleanup.setAutoDelete(false);
        QSignalSpy cleaned(&cleanup, &Job::finished);
        cleanup.start();
        QVERIFY(cleaned.wait(30000));
        m_backend.killAll();
    }

    // "--profile Local" as the README shows it: the Local profile by its short name,
    // on the port given with --local-port or stored in the profile, with the key the
    // local backend keeps in its key file (here the test's backend's key).
    void localProfileByNameAndPort()
    {
        const QString id = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!id.isEmpty());
        QVERIFY(writeLocalKeyFile(m_backend.apiKey()));
        const QString port = QString::number(m_backend.port());
        const auto listedIds = [](const CliResult &result) {
            QStringList ids;
            for (const QJsonValue &entry : result.json().value(QLatin1String("sandboxes")).toArray())
                ids.append(entry.toObject().value(QLatin1String("sandboxId")).toString());
            return ids;
        };

        for (const char *name : { "Local", "local", "LOCAL" }) {
            const CliResult listed = cli({ QStringLiteral("--profile"), QString::fromLatin1(name),
                QStringLiteral("--local-port"), port, QStringLiteral("--list"), QStringLiteral("--json") });
            QVERIFY2(listed.exitCode == 0, listed.err.constData());
            QCOMPARE(listedIds(listed), QStringList { id });
        }

        // Without --local-port, the port stored in the Local profile (as the window saves it).
        {
            QSettings settings(
                m_cli->path(QStringLiteral("config/sandbox-desk/sandbox-desk.conf")),
                QSettings::IniFormat);
            ProfileStore store(&settings);
            QCOMPARE(store.save(Profile::local(m_backend.port())), Profile::localId());
        }
        const CliResult stored = cli({ QStringLiteral("--profile"), QStringLiteral("Local"),
            QStringLiteral("--orphans") });
        QVERIFY2(stored.exitCode == 0, stored.err.constData());
        QCOMPARE(stored.out, QByteArray("No orphans.\n"));
        for (const QByteArray &text : { stored.out, stored.err })
            QVERIFY(!text.contains(m_backend.apiKey().toUtf8()));
        QVERIFY2(!stored.err.contains("not used"), stored.err.constData()); // Local was named

        // Without --profile the one last used is taken, Local here. The E2B_* variables,
        // which the official SDK and CLI would use, are not, and the command line says so.
        auto withCloudEnvironment = environment();
        withCloudEnvironment.insert(QStringLiteral("E2B_DOMAIN"), QStringLiteral("e2b.example"));
        QProcess implicit;
        implicit.setProcessEnvironment(withCloudEnvironment);
        implicit.start(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")),
            { QStringLiteral("--orphans") });
        QVERIFY(implicit.waitForFinished(60000));
        const QByteArray implicitErr = implicit.readAllStandardError();
        QCOMPARE(implicit.exitCode(), 0);
        QCOMPARE(implicit.readAllStandardOutput(), QByteArray("No orphans.\n"));
        QVERIFY2(implicitErr.contains("note: E2B_API_KEY, E2B_DOMAIN not used: the profile last "
                                      "used is Local, this computer's backend. Give --profile "
                                      "with an E2B or Custom profile, or --api-url, to use the "
                                      "environment.\n"),
            implicitErr.constData());
        m_backend.killAll();
    }

    // Another user's program on the Local profile's port answers /health like a
    // backend, but the command line, like the window, never sends it the local key.
    void localKeyNeverGoesToAnotherUsersListener()
    {
        // Only root can start a listener as another user; CI runs as root.
        if (!sd::test::OtherUserBackend::canStart())
            QSKIP("starting a listener as another user needs root");
        sd::test::OtherUserBackend other;
        QVERIFY2(other.start(), qPrintable(other.errorString()));
        const QString ourKey = QStringLiteral("e2b_local_key_of_this_user_7d1f");
        QVERIFY(writeLocalKeyFile(ourKey));

        const CliResult listed = cli(
            { QStringLiteral("--profile"), QStringLiteral("Local"), QStringLiteral("--local-port"),
                QString::number(other.port()), QStringLiteral("--list") });
        QCOMPARE(listed.exitCode, 4);
        QVERIFY2(listed.err.contains(
                     QStringLiteral("error: Port %1 is held by another user's program "
                                    "(uid 65534); the local backend's key is not sent to "
                                    "it. Choose another port with --local-port")
                         .arg(other.port())
                         .toUtf8()),
            listed.err.constData());
        const QByteArray seen = other.output();
        QVERIFY2(seen.contains("GET /health"), seen.constData());
        QVERIFY2(
            !seen.contains(" /v2/sandboxes") && !seen.contains(" /sandboxes"), seen.constData());
        QVERIFY(!listed.out.contains(ourKey.toUtf8()) && !listed.err.contains(ourKey.toUtf8()));
    }

    // Nothing answers on the Local profile's port: the command line starts the local
    // backend as the window does, says so, and goes on with it; the next run finds it.
    void startsTheLocalBackendWhenNothingAnswers()
    {
        // Earlier versions kept the log in cache/sandbox-desk/sandbox-desk: it is moved
        // to the folder named once, and grows on there.
        const QString legacyLog
            = m_cli->path(QStringLiteral("cache/sandbox-desk/sandbox-desk/sandbox-desk-local.log"));
        QVERIFY(QDir().mkpath(QFileInfo(legacyLog).path()));
        QFile legacy(legacyLog);
        QVERIFY(legacy.open(QIODevice::WriteOnly));
        legacy.write("an earlier start\n");
        legacy.close();
        const quint16 port = sd::test::freeLoopbackPort();
        const QStringList local { QStringLiteral("--profile"), QStringLiteral("Local"),
            QStringLiteral("--local-port"), QString::number(port) };
        const CliResult listed
            = cli(local + QStringList { QStringLiteral("--list"), QStringLiteral("--json") });
        static const QRegularExpression started(QStringLiteral(
            "Nothing answered on port (\\d+): starting the local backend \\(pid (\\d+)\\), "
            "which keeps running; its output goes to (.+)\\.\n"));
        const QRegularExpressionMatch match = started.match(QString::fromUtf8(listed.err));
        const pid_t pid = match.hasMatch() ? pid_t(match.captured(2).toInt()) : 0;
        const auto stopBackend = qScopeGuard([pid] { sd::test::terminateAndWait(pid); });
        QVERIFY2(match.hasMatch(), listed.err.constData());
        QCOMPARE(match.captured(1), QString::number(port));
        const QString log
            = m_cli->path(QStringLiteral("cache/sandbox-desk/sandbox-desk-local.log"));
        QCOMPARE(match.captured(3), log);
        QVERIFY(!QFile::exists(legacyLog));
        QVERIFY(!QFileInfo::exists(QFileInfo(legacyLog).path()));
        QVERIFY(sd::test::readFile(log).startsWith("an earlier start\n"));
        QCOMPARE(listed.exitCode, 0);
        QCOMPARE(listed.json().value(QLatin1String("sandboxes")).toArray(), QJsonArray());

        const CliResult again = cli(local + QStringList { QStringLiteral("--orphans") });
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, QByteArray("No orphans.\n"));
        QVERIFY2(again.err.isEmpty(), again.err.constData());
    }

    // What a sandbox prints reaches the terminal without its control sequences: here
    // the gateway echoes a server name that would retitle the terminal (ESC ] 0 ; ...
    // BEL) and reverse the text after it (U+202E). Its lines also arrive whole, not
    // cut by the other stream.
    void sandboxTextCannotControlTheTerminal()
    {
        const QString hostile = QStringLiteral("\x1b]0;pwned\x07x\u202ey");
        const QString config = m_cli->path(QStringLiteral("hostile.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(QJsonObject { { hostile, QJsonObject() } }).toJson());
        file.close();

        const CliResult created
            = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--mcp"), config }
                + connection());
        QCOMPARE(created.exitCode, 0);
        for (const QByteArray &text : { created.out, created.err }) {
            QVERIFY2(!text.contains('\x1b') && !text.contains('\x07'), text.constData());
            QVERIFY2(!text.contains("\u202e"), text.constData());
        }
        const QByteArray shown
            = "\"\\x1b]0;pwned\\x07x\\u202ey\" is not an MCP server in the catalog";
        const QList<QByteArray> lines = created.out.split('\n');
        const auto gatewayLine = std::find_if(lines.begin(), lines.end(),
            [](const QByteArray &line) { return line.startsWith("mcp-gateway: warning: "); });
        QVERIFY2(gatewayLine != lines.end(), created.out.constData());
        QVERIFY2(gatewayLine->contains(shown), created.out.constData());
        QVERIFY2(gatewayLine->endsWith("Check the spelling of the server name."),
            created.out.constData());
        QVERIFY(lines.contains("MCP gateway started with 1 server"));
    }

    // A key about to cross the network in clear gets a warning on stderr, before it
    // goes; a loopback URL (every other test here) gets none.
    void warnsBeforeSendingTheKeyUnencrypted()
    {
        const CliResult loopback = cli(QStringList { QStringLiteral("--list") } + connection());
        QCOMPARE(loopback.exitCode, 0);
        QVERIFY2(!loopback.err.contains("unencrypted"), loopback.err.constData());

        // 0.0.0.0 reaches this computer on Linux but names no loopback address.
        QUrl elsewhere(m_backend.url());
        elsewhere.setHost(QStringLiteral("0.0.0.0"));
        const CliResult sent = cli({ QStringLiteral("--list"), QStringLiteral("--api-url"),
            elsewhere.toString(), QStringLiteral("--sandbox-url"), elsewhere.toString() });
        QVERIFY2(sent.err.startsWith(
                     "warning: The API key and the sandboxes' access tokens go to 0.0.0.0 "
                     "unencrypted (http://): anyone on the network in between can read and use "
                     "them. Use an https:// URL unless that network is yours alone.\n"),
            sent.err.constData());
        QVERIFY(!sent.err.contains(m_backend.apiKey().toUtf8()));

        // --history sends no key: nothing to warn about.
        const CliResult history = cli(
            { QStringLiteral("--history"), QStringLiteral("--api-url"), elsewhere.toString() });
        QCOMPARE(history.exitCode, 0);
        QVERIFY2(!history.err.contains("unencrypted"), history.err.constData());
    }

    // --kill of an ID the server does not know says so instead of "killed".
    void killOfAnUnknownIdSaysNotFound()
    {
        const CliResult text
            = cli(QStringList { QStringLiteral("--kill"), QStringLiteral("nosuchsandbox1") }
                + connection());
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out,
            QByteArray(
                "nosuchsandbox1 was not found: no sandbox by that ID is running or paused\n"));

        const QString id = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        QVERIFY(!id.isEmpty());
        const CliResult json
            = cli(QStringList { QStringLiteral("--kill"), QStringLiteral("nosuchsandbox2"), id,
                      QStringLiteral("--json") }
                + connection());
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.json().value(QLatin1String("killed")).toArray(), QJsonArray { id });
        QCOMPARE(json.json().value(QLatin1String("notFound")).toArray(),
            QJsonArray { QStringLiteral("nosuchsandbox2") });
        QVERIFY(m_backend.listIds().isEmpty());

        // What cannot be an ID is refused before any request, the others with it.
        const QString survivor = m_backend.createRaw(QStringLiteral("base")).sandboxId;
        for (const QString &bad : { QString(), QStringLiteral(".."), QStringLiteral("a/b"),
                 QStringLiteral("x?y=1"), QStringLiteral(" ") }) {
            const CliResult refused
                = cli(QStringList { QStringLiteral("--kill"), survivor, bad } + connection());
            QCOMPARE(refused.exitCode, 2);
            QCOMPARE(refused.err,
                "\"" + bad.toUtf8()
                    + "\" is not a sandbox ID: an ID is letters, digits, \"-\" and \"_\", such "
                      "as iu0y3uqktuqmlj04mg3r.\nTry --help.\n");
        }
        QCOMPARE(m_backend.listIds(), QStringList { survivor });
    }

    // --api-url and a profile that points at the same API read and write one journal,
    // so one route sees the creations (and orphans) the other made.
    void apiUrlAndProfileShareOneJournal()
    {
        const CliResult created = cli(QStringList { QStringLiteral("--create"), QStringLiteral("--json") }
            + connection());
        QVERIFY2(created.exitCode == 0, created.err.constData());
        const QString creationId = created.json().value(QLatin1String("creationId")).toString();
        QVERIFY(!creationId.isEmpty());
        {
            QSettings settings(
                m_cli->path(QStringLiteral("config/sandbox-desk/sandbox-desk.conf")),
                QSettings::IniFormat);
            ProfileStore store(&settings);
            QVERIFY(!store.save(Profile::custom(QStringLiteral("Same API"), QUrl(m_backend.url() + QLatin1Char('/')),
                                    QUrl(m_backend.url())))
                         .isEmpty());
        }
        const CliResult history = cli({ QStringLiteral("--profile"), QStringLiteral("same api"),
            QStringLiteral("--history"), QStringLiteral("--json") });
        QVERIFY2(history.exitCode == 0, history.err.constData());
        const QJsonArray creations = history.json().value(QLatin1String("creations")).toArray();
        QCOMPARE(creations.size(), 1);
        QCOMPARE(creations.at(0).toObject().value(QLatin1String("creationId")).toString(), creationId);
        m_backend.killAll();
    }

    // A journal that cannot be written (a full disk, here a file size limit) stops the
    // creation before it allocates: exit 5, the reason said, nothing left running.
    void journalThatCannotBeWrittenExits5()
    {
        auto process = std::make_unique<QProcess>();
        process->setProgram(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
        process->setArguments(QStringList { QStringLiteral("--create") } + connection());
        process->setProcessEnvironment(environment());
        process->setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit { 1, 1 };
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        process->start();
        QVERIFY(process->waitForFinished(120000));
        const QByteArray err = process->readAllStandardError() + process->readAllStandardOutput();
        QCOMPARE(process->exitCode(), 5);
        QVERIFY2(err.contains("File too large"), err.constData());
        QVERIFY(m_backend.listIds().isEmpty());
    }

    // What cannot be used is refused before anything is sent, exit 2, with a sentence
    // that says what to do instead.
    void unknownProfileAndWindowlessOptionsExit2()
    {
        const CliResult unknown
            = cli({ QStringLiteral("--profile"), QStringLiteral("Nope"), QStringLiteral("--list") });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("No profile named \"Nope\""), unknown.err.constData());
        QVERIFY2(unknown.err.contains("\"Local (this computer)\" (local)"), unknown.err.constData());

        // Without an action these would silently open a window that ignores them.
        const CliResult noAction = cli({ QStringLiteral("--api-url"), m_backend.url() });
        QCOMPARE(noAction.exitCode, 2);
        QVERIFY2(noAction.err.contains("--api-url belongs to the command-line mode: add an action"),
            noAction.err.constData());
        const CliResult noActionProfile = cli({ QStringLiteral("--profile=Local") });
        QCOMPARE(noActionProfile.exitCode, 2);
        QVERIFY(noActionProfile.err.contains("--profile belongs to the command-line mode"));

        const CliResult badPort = cli({ QStringLiteral("--local-port"), QStringLiteral("99999") });
        QCOMPARE(badPort.exitCode, 2);
        QVERIFY2(badPort.err.contains("--local-port needs a port number"), badPort.err.constData());
        const CliResult portForCloud = cli({ QStringLiteral("--list"), QStringLiteral("--local-port"),
            QStringLiteral("50000"), QStringLiteral("--api-url"), m_backend.url() });
        QCOMPARE(portForCloud.exitCode, 2);
        QVERIFY(portForCloud.err.contains("--local-port applies to the Local profile"));

        // "localhost:3000" parses as a URL of scheme "localhost": refused here, not at
        // the first request, and nothing is created.
        const QStringList before = m_backend.listIds();
        for (const auto &[option, url] : { std::pair { "--api-url", "localhost:3000" },
                 std::pair { "--api-url", "127.0.0.1:3000" }, std::pair { "--api-url", "ftp://h/" },
                 std::pair { "--sandbox-url", "http://" } }) {
            const CliResult bad = cli({ QStringLiteral("--create"), QStringLiteral("--api-url"),
                m_backend.url(), QString::fromLatin1(option), QString::fromLatin1(url) });
            QCOMPARE(bad.exitCode, 2);
            QCOMPARE(bad.err,
                QByteArray(option) + " \"" + url
                    + "\" is not an http or https URL: write it whole, such as "
                      "https://api.e2b.app or http://127.0.0.1:49983.\nTry --help.\n");
        }
        QCOMPARE(m_backend.listIds(), before);
    }

    // An option neither mode knows is named and refused, with or without an action, and
    // needs no display: without an action it used to start the window, which ignored it
    // (or could not start at all).
    void unknownOptionExits2WithoutAnAction()
    {
        for (const QStringList &args : { QStringList { QStringLiteral("--frobnicate") },
                 QStringList { QStringLiteral("--list"), QStringLiteral("--frobnicate") },
                 QStringList { QStringLiteral("--verbose"), QStringLiteral("--frobnicate=1") } }) {
            QProcess process;
            process.setProgram(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
            process.setArguments(args);
            process.setProcessEnvironment(environmentWithoutDisplay());
            process.start();
            QVERIFY(process.waitForFinished(60000));
            QCOMPARE(process.exitStatus(), QProcess::NormalExit);
            const QByteArray err = process.readAllStandardError();
            QVERIFY2(err.contains("Unknown option 'frobnicate'."), err.constData());
            QCOMPARE(process.exitCode(), 2);
        }
    }

    // Help and version are command-line mode: they must work where no display exists.
    void helpAndVersionNeedNoDisplay()
    {
        for (const char *option : { "--help", "--version" }) {
            QProcess process;
            process.setProgram(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
            process.setArguments({ QString::fromLatin1(option) });
            process.setProcessEnvironment(environmentWithoutDisplay());
            process.start();
            QVERIFY(process.waitForFinished(60000));
            QCOMPARE(process.exitStatus(), QProcess::NormalExit);
            QCOMPARE(process.exitCode(), 0);
            const QString out = QString::fromUtf8(process.readAllStandardOutput());
            if (qstrcmp(option, "--help") == 0) {
                QVERIFY2(out.contains(QLatin1String("--kill-orphans")), qPrintable(out));
                // Both modes: the window's own option and what selects each mode.
                QVERIFY2(out.contains(QLatin1String("--local-port <PORT>")), qPrintable(out));
                QVERIFY2(out.contains(QLatin1String("Without an action it opens the window")),
                    qPrintable(out));
            } else {
                QVERIFY2(out.startsWith(QLatin1String("sandbox-desk ")), qPrintable(out));
                QVERIFY2(out.contains(QRegularExpression(QStringLiteral("\\d+\\.\\d+\\.\\d+"))),
                         qPrintable(out));
            }
        }
    }

    // The display libraries are the window's: a script's call loads none of them.
    void commandLineLoadsNoDisplayLibrary()
    {
        QProcess process;
        process.setProgram(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
        process.setArguments({ QStringLiteral("--version") });
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        process.setProcessEnvironment(env);
        process.start();
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QString loaded = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(loaded.contains(QLatin1String("libQt6Core.so")), qPrintable(loaded.left(2000)));
        static const QRegularExpression display(
            QStringLiteral("libQt6(Gui|Widgets|OpenGL|Charts|Svg)\\.so"));
        QVERIFY2(!loaded.contains(display), qPrintable(display.match(loaded).captured()));
    }

    // Without an action, sandbox-desk becomes the window program: the same process,
    // arguments and environment, so SIGTERM still quits the window the way Quit does.
    void withoutAnActionTheWindowProgramRuns()
    {
        QVERIFY(writeLocalKeyFile(m_backend.apiKey()));
        auto window = launch(
            { QStringLiteral("--local-port"), m_backend.url().section(QLatin1Char(':'), -1) });
        QVERIFY(window->waitForStarted());
        const qint64 pid = window->processId();
        const QString windowProgram
            = QFileInfo(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk-window")))
                  .canonicalFilePath();
        const auto catchesSigterm = [pid] {
            QFile status(QStringLiteral("/proc/%1/status").arg(pid));
            if (!status.open(QIODevice::ReadOnly))
                return false;
            for (const QByteArray &line : status.readAll().split('\n')) {
                if (line.startsWith("SigCgt:"))
                    return ((line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGTERM - 1)) & 1)
                        != 0;
            }
            return false;
        };
        // Up once it catches SIGTERM: the window installs that handler before it shows.
        QTRY_VERIFY_WITH_TIMEOUT(
            QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid)) == windowProgram
                && catchesSigterm(),
            60000);
        ::kill(pid_t(pid), SIGTERM);
        QVERIFY(window->waitForFinished(60000));
        QCOMPARE(window->exitStatus(), QProcess::NormalExit);
        QCOMPARE(window->exitCode(), 0);
    }

    // A sandbox-desk without its window program says so, and its command line works.
    void withoutTheWindowProgramTheCommandLineStillWorks()
    {
        QVERIFY(QDir().mkpath(m_cli->path(QStringLiteral("alone"))));
        const QString alone = m_cli->path(QStringLiteral("alone/sandbox-desk"));
        QVERIFY(QFile::copy(sd::test::LocalBackend::binary(QStringLiteral("sandbox-desk")), alone));
        const auto run = [&](const QStringList &args, QByteArray *err) {
            QProcess process;
            process.setProgram(alone);
            process.setArguments(args);
            process.setProcessEnvironment(environment());
            process.start();
            if (!process.waitForFinished(60000))
                return -1;
            *err = process.readAllStandardError();
            return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        };
        QByteArray err;
        QCOMPARE(run({}, &err), 1);
        const QString dir = QFileInfo(alone).canonicalPath();
        QCOMPARE(QString::fromUtf8(err),
            QStringLiteral(
                "sandbox-desk: the window could not be started (no sandbox-desk-window at "
                "%1/sandbox-desk-window, %1/../lib/sandbox-desk/sandbox-desk-window). Is "
                "Sandbox Desk fully installed? The command-line mode works without it: "
                "sandbox-desk --help\n")
                .arg(dir));
        QCOMPARE(run(QStringList { QStringLiteral("--list") } + connection(), &err), 0);
        QVERIFY2(err.isEmpty(), err.constData());
    }

    void unreachableOrRefusedExits4()
    {
        QCOMPARE(cli({ QStringLiteral("--list"), QStringLiteral("--api-url"),
                         QStringLiteral("http://127.0.0.1:1") })
                     .exitCode,
            4);
        QCOMPARE(cli(QStringList { QStringLiteral("--orphans") } + connection(),
                     QStringLiteral("e2b_wrong"))
                     .exitCode,
            4);
        QCOMPARE(cli(QStringList { QStringLiteral("--create") } + connection(),
                     QStringLiteral("e2b_wrong"))
                     .exitCode,
            4);
        QVERIFY(m_backend.listIds().isEmpty());
    }

    void sigkillAfterIntentWithoutSurvivor()
    {
        // The POST hangs; killing the client leaves the server nothing to finish.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
            QStringLiteral("delay"), 1, 0, 3000) }));
        killDuringCreate({}, "\"type\":\"intent\"", false);
    }

    void sigkillAfterIntentSurvivorFoundByTag()
    {
        // The server allocates but the answer is lost; the client dies while searching.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"),
                                          QStringLiteral("status-after"), 1, 503),
            rule(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes*"), QStringLiteral("delay"),
                1, 0, 10000) }));
        killDuringCreate({}, "\"state\":\"rolling_back\"", true);
    }

    void sigkillAfterAllocation()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"),
            QStringLiteral("/sandboxes/*/timeout"), QStringLiteral("delay"), 1, 0, 10000) }));
        killDuringCreate({}, "\"type\":\"sandbox\"", true);
    }

    void sigkillDuringGatewayStart()
    {
        // Should the gateway be quicker than the kill, the slow timeout call keeps
        // the creation unfinished all the same.
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"),
            QStringLiteral("/sandboxes/*/timeout"), QStringLiteral("delay"), 1, 0, 10000) }));
        killDuringCreate(
            { QStringLiteral("--mcp"), m_mcpFile }, "\"state\":\"starting_gateway\"", true);
    }

    void sigtermCancelsAndRollsBack()
    {
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"),
            QStringLiteral("/sandboxes/*/timeout"), QStringLiteral("delay"), 1, 0, 10000) }));
        auto process = launch(
            QStringList { QStringLiteral("--create"), QStringLiteral("--json") } + connection());
        QTRY_VERIFY_WITH_TIMEOUT(
            sd::test::readFile(journalPath()).contains("\"state\":\"extending\""), 60000);
        process->terminate(); // SIGTERM: cancel, roll back, then exit
        QVERIFY(process->waitForFinished(60000));
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(process->exitCode(), 1);
        const QJsonObject doc = QJsonDocument::fromJson(process->readAllStandardOutput()).object();
        QCOMPARE(doc.value(QLatin1String("state")).toString(), QStringLiteral("rolled_back"));
        QCOMPARE(doc.value(QLatin1String("error")).toString(), QStringLiteral("Cancelled"));
        QCOMPARE(doc.value(QLatin1String("rollback"))
                     .toObject()
                     .value(QLatin1String("outcome"))
                     .toString(),
            QStringLiteral("killed"));
        QVERIFY(m_backend.listIds().isEmpty());
        QVERIFY(sd::test::readFile(journalPath()).contains("\"type\":\"outcome\""));
        QVERIFY(doc.value(QLatin1String("cancelled")).toBool());

        // The history says the user cancelled it; `state` keeps its old value.
        const CliResult history = cli(
            QStringList { QStringLiteral("--history"), QStringLiteral("--json") } + connection());
        QCOMPARE(history.exitCode, 0);
        const QJsonObject record
            = history.json().value(QLatin1String("creations")).toArray().at(0).toObject();
        QCOMPARE(record.value(QLatin1String("state")).toString(), QStringLiteral("rolled_back"));
        QCOMPARE(record.value(QLatin1String("cancelled")), QJsonValue(true));
        const CliResult text = cli(QStringList { QStringLiteral("--history") } + connection());
        QVERIFY2(text.out.contains("  cancelled  "), text.out.constData());
    }

    void sdkLeftoverFlaggedGatewayDown()
    {
        const Sandbox leftover = m_backend.createRaw(QStringLiteral("mcp-gateway"));
        m_backend.createRaw(QStringLiteral("base"));
        // Ours, on the gateway's template but without MCP: the journal says no gateway
        // was asked for, so it is never gateway-down, however long it runs.
        const CliResult created = cli(QStringList { QStringLiteral("--create"),
                                          QStringLiteral("--template"),
                                          QStringLiteral("mcp-gateway"), QStringLiteral("--json") }
            + connection());
        QCOMPARE(created.exitCode, 0);
        const QString ours = created.json().value(QLatin1String("sandboxId")).toString();
        QVERIFY(!ours.isEmpty());

        const QStringList graceZero { QStringLiteral("--gateway-grace"), QStringLiteral("0") };
        const CliResult r = cli(
            QStringList { QStringLiteral("--orphans"), QStringLiteral("--json") } + graceZero
            + connection());
        QCOMPARE(r.exitCode, 3);
        const QJsonArray list = r.json().value(QLatin1String("sandboxes")).toArray();
        QCOMPARE(list.size(), 1);
        QCOMPARE(
            list.at(0).toObject().value(QLatin1String("sandboxId")).toString(), leftover.sandboxId);
        const QJsonObject orphan
            = list.at(0).toObject().value(QLatin1String("orphan")).toObject();
        QCOMPARE(orphan.value(QLatin1String("reason")).toString(), QStringLiteral("gateway-down"));
        QCOMPARE(orphan.value(QLatin1String("certainty")).toString(), QStringLiteral("suspected"));
        const CliResult text = cli(QStringList { QStringLiteral("--orphans") } + graceZero
            + connection());
        QCOMPARE(text.exitCode, 3);
        QVERIFY2(text.out.contains("SUSPECTED ORPHAN gateway-down"), text.out.constData());

        // A bulk kill leaves the suspected one (and ours) alone...
        const CliResult bulk = cli(
            QStringList { QStringLiteral("--kill-orphans"), QStringLiteral("--json") } + graceZero
            + connection());
        QCOMPARE(bulk.exitCode, 0);
        QVERIFY(bulk.json().value(QLatin1String("killed")).toArray().isEmpty());
        QCOMPARE(bulk.json().value(QLatin1String("suspectedLeft")).toArray(),
            QJsonArray { leftover.sandboxId });
        QCOMPARE(m_backend.listIds().size(), 3);
        // ...and removes it only when asked to; ours survives that too.
        const CliResult chosen
            = cli(QStringList { QStringLiteral("--kill-orphans"), QStringLiteral("--json"),
                      QStringLiteral("--include-suspected") }
                + graceZero + connection());
        QCOMPARE(chosen.exitCode, 0);
        QCOMPARE(chosen.json().value(QLatin1String("killed")).toArray(),
            QJsonArray { leftover.sandboxId });
        QVERIFY(m_backend.listIds().contains(ours));
        QCOMPARE(m_backend.listIds().size(), 2);
        // With the default grace a young sandbox is left alone.
        QCOMPARE(cli(QStringList { QStringLiteral("--orphans") } + connection()).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
