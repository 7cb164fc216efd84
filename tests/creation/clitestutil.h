#pragma once

// The real sandbox-desk binary in command-line mode, run as a child process with a
// home of its own: its settings, profiles and journal are private to the test.

#include "creationtestutil.h"
#include "journal/creationjournal.h"
#include "session/session.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace sd::test {

/// One finished run of the command line.
struct CliResult
{
    int exitCode = -1; ///< -1 when it crashed or did not finish
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

class DeskCli
{
public:
    explicit DeskCli(const FaultBackend &backend)
        : m_backend(backend)
    { }

    /// A file or folder inside the private home.
    QString path(const QString &relative) const { return m_home.filePath(relative); }

    QProcessEnvironment environment(const QString &apiKey = {}) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), path(QStringLiteral("cache")));
        env.insert(QStringLiteral("E2B_API_KEY"), apiKey.isEmpty() ? m_backend.apiKey() : apiKey);
        env.remove(QStringLiteral("E2B_API_URL"));
        env.remove(QStringLiteral("E2B_SANDBOX_URL"));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("sd.*.debug=false"));
        return env;
    }

    /// The options that point the command line at the backend.
    QStringList connection() const
    {
        return { QStringLiteral("--api-url"), m_backend.url(), QStringLiteral("--sandbox-url"),
            m_backend.url(), QStringLiteral("--profile"), QStringLiteral("cli-test") };
    }

    QString journalPath() const
    {
        // One journal per API, whichever route (--api-url, --profile, the window) leads there.
        return CreationJournal::filePathFor(path(QStringLiteral("data/sandbox-desk/journal")),
            Session::journalKey(QUrl(m_backend.url())));
    }

    std::unique_ptr<QProcess> launch(const QStringList &args, const QString &apiKey = {}) const
    {
        auto process = std::make_unique<QProcess>();
        process->setProgram(LocalBackend::binary(QStringLiteral("sandbox-desk")));
        process->setArguments(args);
        process->setProcessEnvironment(environment(apiKey));
        process->start();
        return process;
    }

    /// Runs to the end (tests only: blocks up to two minutes).
    CliResult run(const QStringList &args, const QString &apiKey = {}) const
    {
        auto process = launch(args, apiKey);
        CliResult result;
        if (!process->waitForFinished(120000)) {
            process->kill();
            process->waitForFinished();
            qWarning("sandbox-desk %s did not finish", qPrintable(args.join(QLatin1Char(' '))));
            return result;
        }
        result.exitCode = process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
        result.out = process->readAllStandardOutput();
        result.err = process->readAllStandardError();
        return result;
    }

private:
    const FaultBackend &m_backend;
    QTemporaryDir m_home;
};

} // namespace sd::test
