#pragma once

// What the benchmarks that talk to a real sandbox-desk-local share: the backend's
// connection settings, running a job to its end, the environment that points the
// official SDK and CLI at it, where they are installed, and the Node side's runs.

#include "benchutil.h"
#include "localbackend.h"

#include "api/connectionsettings.h"
#include "api/sandboxjobs.h"
#include "common/job.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QStringList>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace sd::bench {

/// `--npm-dir DIR`, else $SD_NPM_DIR, else <build>/npm (where `make npm` installs); made
/// absolute, since Node's createRequire() refuses a relative path.
inline QString npmDir(const QStringList &args)
{
    return QFileInfo(optionValue(args, QStringLiteral("--npm-dir"),
                         qEnvironmentVariable("SD_NPM_DIR",
                             QCoreApplication::applicationDirPath() + QStringLiteral("/../npm"))))
        .absoluteFilePath();
}

/// This process's environment with E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY
/// naming `backend`, as the official SDK and CLI read them.
inline QProcessEnvironment e2bEnvironment(const sd::test::LocalBackend &backend)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString url = backend.url().toString(QUrl::StripTrailingSlash);
    env.insert(QStringLiteral("E2B_API_URL"), url);
    env.insert(QStringLiteral("E2B_SANDBOX_URL"), url);
    env.insert(QStringLiteral("E2B_API_KEY"), backend.apiKey());
    return env;
}

/// POSTs until the backend holds `total` sandboxes, 32 requests in flight.
inline bool fillBackend(
    QNetworkAccessManager *network, const sd::test::LocalBackend &backend, int already, int total)
{
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("templateID"), QStringLiteral("base") },
            { QStringLiteral("timeout"),
                3600 } }).toJson(QJsonDocument::Compact);
    int sent = already;
    int done = already;
    bool ok = true;
    QEventLoop loop;
    std::function<void()> sendOne = [&] {
        QNetworkRequest request(backend.url().resolved(QUrl(QStringLiteral("/sandboxes"))));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        request.setRawHeader("X-API-Key", backend.apiKey().toLatin1());
        QNetworkReply *reply = network->post(request, body);
        ++sent;
        QObject::connect(reply, &QNetworkReply::finished, reply, [&, reply] {
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 201)
                ok = false;
            reply->deleteLater();
            ++done;
            if (sent < total && ok)
                sendOne();
            else if (done == sent)
                loop.quit();
        });
    };
    for (int i = 0; i < 32 && sent < total; ++i)
        sendOne();
    if (sent > done)
        loop.exec();
    return ok;
}

/// The core library's settings for `backend`.
inline sd::ConnectionSettings connectionSettings(const sd::test::LocalBackend &backend)
{
    sd::ConnectionSettings settings;
    settings.apiUrl = backend.url();
    settings.sandboxUrl = backend.url();
    settings.apiKey = backend.apiKey();
    return settings;
}

/// Starts `backend`, saying so when it does not come up.
inline bool startBackend(sd::test::LocalBackend *backend)
{
    if (backend->start())
        return true;
    std::printf("sandbox-desk-local did not start: %s\n", qPrintable(backend->errorString()));
    return false;
}

/// Runs `job` to its end in a local event loop (a benchmark may; library code may not).
inline bool runJob(sd::Job *job)
{
    QEventLoop loop;
    QObject::connect(job, &sd::Job::finished, &loop, &QEventLoop::quit);
    job->start();
    loop.exec();
    return !job->hasError();
}

/// Kills every sandbox on the backend, all at once (not timed).
inline void killAll(QNetworkAccessManager *network, const sd::ConnectionSettings &settings)
{
    sd::ListSandboxesJob list(network, settings);
    list.setAutoDelete(false);
    runJob(&list);
    int left = int(list.sandboxes().size());
    if (left == 0)
        return;
    QEventLoop loop;
    for (const sd::Sandbox &sandbox : list.sandboxes()) {
        auto *kill = new sd::KillSandboxJob(network, settings, sandbox.sandboxId);
        QObject::connect(kill, &sd::Job::finished, &loop, [&] {
            if (--left == 0)
                loop.quit();
        });
        kill->start();
    }
    loop.exec();
}

/// The official SDK's side of a benchmark: Node scripts in tests/bench/ run with the
/// environment that points `e2b` (installed in npmDir()) at the backend.
class OfficialSdk
{
public:
    OfficialSdk(const sd::test::LocalBackend &backend, const QStringList &args)
        : m_env(e2bEnvironment(backend))
    {
        const QString npm = npmDir(args);
        m_env.insert(QStringLiteral("SD_NPM_DIR"), npm);
        m_available = QFile::exists(npm + QStringLiteral("/node_modules/e2b/package.json"));
        if (!m_available)
            std::printf("(the official SDK is not in %s: run `make npm`; its column is left out)\n",
                qPrintable(npm));
    }

    bool available() const { return m_available; }
    const QProcessEnvironment &environment() const { return m_env; }

    enum class Outcome
    {
        Ok,
        Failed,
        TimedOut
    };

    /// Runs `node tests/bench/<script> args...` and keeps what it printed in `out`;
    /// says on stderr why when it failed or ran past `timeoutMs` (then it is killed).
    Outcome run(
        const QString &script, const QStringList &args, int timeoutMs, QByteArray *out) const
    {
        QProcess node;
        node.setProcessEnvironment(m_env);
        node.setProgram(QStandardPaths::findExecutable(QStringLiteral("node")));
        node.setArguments(QStringList { QStringLiteral(SD_BENCH_SOURCE_DIR "/") + script } + args);
        // Waited for in an event loop, not with waitForFinished(): the backend's log
        // pipe (sd::test::LocalBackend) is read only there, and a backend whose pipe is
        // full blocks writing its next line.
        QEventLoop loop;
        QObject::connect(&node, &QProcess::finished, &loop, &QEventLoop::quit);
        QObject::connect(&node, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                loop.quit();
        });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        node.start();
        loop.exec();
        if (node.state() != QProcess::NotRunning) {
            node.kill();
            node.waitForFinished();
            std::fprintf(stderr, "%s ran past %d s\n", qPrintable(script), timeoutMs / 1000);
            return Outcome::TimedOut;
        }
        if (node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0) {
            std::fprintf(stderr, "%s failed: %s\n", qPrintable(script),
                node.readAllStandardError().left(600).constData());
            return Outcome::Failed;
        }
        *out = node.readAllStandardOutput();
        return Outcome::Ok;
    }

private:
    QProcessEnvironment m_env;
    bool m_available = false;
};

/// The official SDK's cycles (sdk-cycle.mjs), `mcp` as its MCP_JSON when given, each
/// after `pauseMs` of quiet: time per cycle into `out`, Node's CPU time per cycle into
/// `cpu`.
inline void sdkCycles(const OfficialSdk &sdk, int count, int warmup, const QJsonObject &mcp,
    Samples *out, Samples *cpu, int pauseMs = 0)
{
    const QStringList args { QString::number(count), QString::number(warmup),
        mcp.isEmpty() ? QString()
                      : QString::fromUtf8(QJsonDocument(mcp).toJson(QJsonDocument::Compact)),
        QString::number(pauseMs) };
    QByteArray printed;
    if (sdk.run(QStringLiteral("sdk-cycle.mjs"), args, 1800000, &printed)
        != OfficialSdk::Outcome::Ok)
        return;
    const QJsonObject result = QJsonDocument::fromJson(printed).object();
    for (const QJsonValue &t : result.value(QLatin1String("ns")).toArray())
        out->add(qint64(t.toDouble()));
    for (const QJsonValue &t : result.value(QLatin1String("cpuNs")).toArray())
        cpu->add(qint64(t.toDouble()));
}

} // namespace sd::bench
