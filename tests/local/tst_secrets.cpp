// Secrets stay off command lines, which every local user reads in /proc/PID/cmdline
// (`ps`): the MCP gateway's configuration, a jailed command's arguments and the
// backend's own API key; and no sandbox folder of an earlier run keeps them on disk.

#include "envd/processjobs.h"
#include "localbackend.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sd;
using namespace sd::test;

namespace {

QByteArray readProc(const QString &entry, const char *file)
{
    QFile f(QStringLiteral("/proc/%1/%2").arg(entry, QLatin1String(file)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList pids()
{
    QStringList out;
    for (const QString &entry :
        QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        entry.toLongLong(&ok);
        if (ok)
            out.append(entry);
    }
    return out;
}

// Host processes blocked opening a FIFO for writing with no reader yet.
QStringList blockedOnFifo()
{
    QStringList out;
    for (const QString &pid : pids()) {
        if (readProc(pid, "wchan") == "wait_for_partner")
            out.append(pid);
    }
    return out;
}

// Host processes whose command line holds `secret`.
QStringList commandLinesWith(const QByteArray &secret)
{
    QStringList out;
    for (const QString &pid : pids()) {
        if (readProc(pid, "cmdline").contains(secret))
            out.append(pid + QLatin1Char(' ') + QString::fromUtf8(readProc(pid, "comm")).trimmed());
    }
    return out;
}

// Makes `dir`/.token a FIFO: the gateway blocks writing its token there, after it
// read its arguments, until the test reads it.
bool plantFifo(const QString &dir)
{
    QDir().mkpath(dir);
    return ::mkfifo(QFile::encodeName(dir + QStringLiteral("/.token")).constData(), 0600) == 0;
}

// Reads the token from the FIFO to its end, so the gateway goes on (a writer waits
// there already, so neither call blocks for long).
void releaseFifo(const QString &dir)
{
    const int fd
        = ::open(QFile::encodeName(dir + QStringLiteral("/.token")).constData(), O_RDONLY);
    char buffer[256];
    while (fd >= 0 && ::read(fd, buffer, sizeof(buffer)) > 0) { }
    if (fd >= 0)
        ::close(fd);
}

QByteArray configWith(const QByteArray &secret)
{
    return R"({"airtable":{"airtableApiKey":")" + secret + R"(","nodeenv":"production"}})";
}

int healthWithKey(QNetworkAccessManager *nam, const QUrl &url, const QString &key)
{
    QNetworkRequest request(url.resolved(QUrl(QStringLiteral("/sandboxes"))));
    request.setRawHeader("X-API-Key", key.toUtf8());
    QNetworkReply *reply = nam->get(request);
    QSignalSpy spy(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        spy.wait(30000);
    reply->deleteLater();
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

} // namespace

class TestSecrets : public QObject
{
    Q_OBJECT

private:
    /// A request to `backend` with its key; the status and the body.
    std::pair<int, QByteArray> call(const LocalBackend &backend, const QByteArray &verb,
        const QString &path, const QByteArray &body)
    {
        QNetworkRequest request(backend.url().resolved(QUrl(path)));
        request.setRawHeader("X-API-Key", backend.apiKey().toUtf8());
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_nam.sendCustomRequest(request, verb, body);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(30000);
        reply->deleteLater();
        return { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
            reply->readAll() };
    }

    QNetworkAccessManager m_nam;

private Q_SLOTS:
    void gatewayHidesItsConfiguration()
    {
        QTemporaryDir dir;
        const QString gatewayDir = dir.filePath(QStringLiteral("gw"));
        QVERIFY(plantFifo(gatewayDir));
        const QByteArray secret = "sk-" + QUuid::createUuid().toByteArray(QUuid::Id128);
        QProcess gateway;
        QProcessEnvironment env;
        env.insert(QStringLiteral("MCP_GATEWAY_DIR"), gatewayDir);
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        gateway.setProcessEnvironment(env);
        gateway.start(LocalBackend::binary(QStringLiteral("mcp-gateway")),
            { QStringLiteral("--config"), QString::fromUtf8(configWith(secret)) });
        QVERIFY(gateway.waitForStarted());
        const QString pid = QString::number(gateway.processId());
        QTRY_VERIFY_WITH_TIMEOUT(blockedOnFifo().contains(pid), 20000);
        const QByteArray cmdline = readProc(pid, "cmdline");
        releaseFifo(gatewayDir);
        QVERIFY(gateway.waitForFinished(20000));
        // The gateway leaves `mcp-gateway serve` running; no sandbox ends it here.
        QFile servePid(gatewayDir + QStringLiteral("/gateway.pid"));
        const qint64 serve
            = servePid.open(QIODevice::ReadOnly) ? servePid.readAll().trimmed().toLongLong() : 0;
        if (serve > 0)
            ::kill(pid_t(serve), SIGKILL);
        QVERIFY2(gateway.exitStatus() == QProcess::NormalExit && gateway.exitCode() == 0,
            gateway.readAllStandardError().constData());
        QVERIFY2(!cmdline.contains(secret), cmdline.constData());
        QVERIFY(cmdline.startsWith(LocalBackend::binary(QStringLiteral("mcp-gateway")).toUtf8()));
    }

    // E2B's way: `bash -l -c "mcp-gateway --config '...'"` through envd. Neither the
    // host-side nsenter nor anything in the jail shows the configuration.
    void jailedCommandArgumentsStayOffHostCommandLines()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("bwrap") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        QNetworkRequest create(backend.url().resolved(QUrl(QStringLiteral("/v2/sandboxes"))));
        create.setRawHeader("X-API-Key", backend.apiKey().toUtf8());
        create.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_nam.post(create, R"({"templateID":"mcp-gateway"})");
        QSignalSpy created(reply, &QNetworkReply::finished);
        QVERIFY(reply->isFinished() || created.wait(30000));
        const QJsonObject sandbox = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        const QString id = sandbox.value(QStringLiteral("sandboxID")).toString();
        QVERIFY(!id.isEmpty());
        const QString gatewayDir
            = backend.stateDir() + QStringLiteral("/sandboxes/%1/etc/mcp-gateway").arg(id);
        QVERIFY(plantFifo(gatewayDir));

        const QByteArray secret = "sk-" + QUuid::createUuid().toByteArray(QUuid::Id128);
        StartProcessJob job(&m_nam,
            EnvdTarget::forSharedUrl(
                backend.url(), id, sandbox.value(QStringLiteral("envdAccessToken")).toString()),
            StartProcessJob::shellCommand(QStringLiteral("mcp-gateway --config '%1'")
                                              .arg(QString::fromUtf8(configWith(secret)))));
        job.setAutoDelete(false);
        QSignalSpy finished(&job, &Job::finished);
        job.start();
        QTRY_VERIFY_WITH_TIMEOUT(!blockedOnFifo().isEmpty(), 60000);
        const QStringList showing = commandLinesWith(secret);
        releaseFifo(gatewayDir);
        QVERIFY(finished.wait(60000));
        QVERIFY2(showing.isEmpty(), qPrintable(showing.join(QStringLiteral(", "))));
        QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
        QCOMPARE(job.exitCode(), 0);
    }

    void apiKeyFromFileOrEnvironment_data()
    {
        QTest::addColumn<bool>("fromFile");
        QTest::newRow("--api-key-file") << true;
        QTest::newRow("SANDBOX_DESK_LOCAL_API_KEY") << false;
    }

    void apiKeyFromFileOrEnvironment()
    {
        QFETCH(bool, fromFile);
        QTemporaryDir dir;
        const QString key = QStringLiteral("key-") + QUuid::createUuid().toString(QUuid::Id128);
        QProcess backend;
        QStringList args { QStringLiteral("--port"), QStringLiteral("0"),
            QStringLiteral("--state-dir"), dir.filePath(QStringLiteral("state")),
            QStringLiteral("--isolation"), QStringLiteral("none") };
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (fromFile) {
            QFile file(dir.filePath(QStringLiteral("key")));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(key.toUtf8() + "\n");
            file.close();
            args << QStringLiteral("--api-key-file") << file.fileName();
        } else {
            env.insert(QStringLiteral("SANDBOX_DESK_LOCAL_API_KEY"), key);
        }
        backend.setProcessEnvironment(env);
        backend.setProcessChannelMode(QProcess::SeparateChannels);
        backend.start(LocalBackend::binary(QStringLiteral("sandbox-desk-local")), args);
        QVERIFY(backend.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += backend.readAllStandardOutput()).contains("listening"), 20000);
        const QByteArray err = backend.readAllStandardError();
        const qsizetype at = out.indexOf("http://");
        QVERIFY2(at >= 0, out.constData());
        const QUrl url(QString::fromUtf8(out.mid(at).split('\n').first().trimmed()));
        QCOMPARE(healthWithKey(&m_nam, url, key), 200);
        QCOMPARE(healthWithKey(&m_nam, url, QStringLiteral("wrong")), 401);
        const QByteArray cmdline = readProc(QString::number(backend.processId()), "cmdline");
        QVERIFY(!cmdline.contains(key.toUtf8()));
        QVERIFY(!err.contains(key.toUtf8()));
        backend.terminate();
        QVERIFY(backend.waitForFinished(20000));
    }

    void leftoverSandboxFoldersAreSwept()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        const QDir state(backend.stateDir());
        // A sandbox's folder, one a kill had moved aside but not yet deleted, and the
        // folders of a run stopped before it had deleted what an earlier one left.
        for (const QString &leftover :
            { QStringLiteral("sandboxes/old-sandbox"), QStringLiteral("sandboxes/.removed-gone"),
                QStringLiteral(".removed-sandboxes-1234/older-sandbox") }) {
            const QString gatewayDir
                = state.filePath(leftover + QStringLiteral("/etc/mcp-gateway"));
            QVERIFY(QDir().mkpath(gatewayDir));
            QFile config(gatewayDir + QStringLiteral("/config.json"));
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write(configWith("sk-left-behind"));
        }
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        // Gone from their place before the backend listens, deleted soon after.
        QVERIFY(!QFileInfo::exists(state.filePath(QStringLiteral("sandboxes/old-sandbox"))));
        const QStringList keep { QStringLiteral("backend.lock"), QStringLiteral("gateway-bin") };
        QTRY_COMPARE_WITH_TIMEOUT(
            state.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name),
            keep, 30000);

        // And the backend serves on a fresh folder.
        const auto [status, body]
            = call(backend, "POST", QStringLiteral("/v2/sandboxes"), R"({"templateID":"base"})");
        QCOMPARE(status, 201);
        const QString id
            = QJsonDocument::fromJson(body).object().value(QStringLiteral("sandboxID")).toString();
        QVERIFY(
            QFileInfo(state.filePath(QStringLiteral("sandboxes/%1/home/user").arg(id))).isDir());
    }

    // A kill answers before the sandbox's files are deleted (they are deleted beside
    // the event loop), but they are gone from their place by then, and soon gone.
    void killedSandboxLeavesNoFiles()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const auto [status, body]
            = call(backend, "POST", QStringLiteral("/v2/sandboxes"), R"({"templateID":"base"})");
        QCOMPARE(status, 201);
        const QString id = QJsonDocument::fromJson(body).object().value(QStringLiteral("sandboxID")).toString();
        const QString folder = backend.stateDir() + QStringLiteral("/sandboxes/") + id;
        QVERIFY(QFileInfo(folder + QStringLiteral("/home/user")).isDir());
        for (int i = 0; i < 300; ++i) {
            QFile file(folder + QStringLiteral("/home/user/file-%1").arg(i));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("sk-in-a-file");
        }

        QCOMPARE(call(backend, "DELETE", QStringLiteral("/sandboxes/") + id, {}).first, 204);
        QVERIFY(!QFileInfo::exists(folder));
        QTRY_COMPARE_WITH_TIMEOUT(QDir(backend.stateDir() + QStringLiteral("/sandboxes"))
                                      .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList(), 30000);
    }

    // A backend told to stop kills its sandboxes and has removed every folder, the
    // files their processes wrote included, by the time it exits.
    void stoppedBackendLeavesNoFiles()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QString sandboxes = backend.stateDir() + QStringLiteral("/sandboxes");
        for (int i = 0; i < 40; ++i) {
            const auto [status, body] = call(backend, "POST", QStringLiteral("/v2/sandboxes"),
                QByteArrayLiteral(R"({"templateID":"base"})"));
            QCOMPARE(status, 201);
            const QString id = QJsonDocument::fromJson(body)
                                   .object()
                                   .value(QStringLiteral("sandboxID"))
                                   .toString();
            for (int f = 0; f < 500; ++f) {
                QFile file(sandboxes + QStringLiteral("/%1/home/user/file-%2").arg(id).arg(f));
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write("sk-in-a-file");
            }
        }
        QCOMPARE(QDir(sandboxes).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 40);

        QProcess *process = backend.process();
        process->terminate();
        QVERIFY(process->waitForFinished(60000));
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(process->exitCode(), 0);
        QCOMPARE(QDir(sandboxes).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList());
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
