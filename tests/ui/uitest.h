#pragma once

// Helpers shared by the widget tests: running a job to its end, the settings of a
// test backend, and a main window on it. Tests may spin the event loop; library
// code never does.

#include "api/connectionsettings.h"
#include "common/job.h"
#include "localbackend.h"
#include "mainwindow.h"

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>

#include <memory>

namespace sd::test {

/// Runs `job` (not auto-deleted) to its end; true when it succeeded.
inline bool runJob(Job *job, int timeoutMs = 20000)
{
    job->setAutoDelete(false);
    QSignalSpy finished(job, &Job::finished);
    job->start();
    if (!finished.wait(timeoutMs))
        return false;
    return !job->hasError();
}

/// The connection to a started LocalBackend.
inline ConnectionSettings backendSettings(const LocalBackend &backend)
{
    ConnectionSettings settings;
    settings.apiUrl = backend.url();
    settings.sandboxUrl = backend.url();
    settings.domain.clear();
    settings.apiKey = backend.apiKey();
    return settings;
}

/// QSettings of this test only, in `directory`.
inline void useTestSettings(const QString &directory, const QString &applicationName)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, directory);
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk-test"));
    QCoreApplication::setApplicationName(applicationName);
}

/// Whether the application's settings file on disk holds `text` anywhere (to prove
/// a secret never reached it).
inline bool settingsFileContains(const QString &text)
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.readAll().contains(text.toUtf8());
}

/// A shown main window on `local`, refreshing only when the test asks. The E2B CLI's
/// login is read from `cliLoginPath`; by default from nowhere, so the login of
/// whoever runs the tests never shows.
inline std::unique_ptr<MainWindow> makeWindow(const ConnectionSettings &local, const QString &journalDirectory,
                                              bool rememberState = false, const QString &cliLoginPath = {})
{
    DesktopOptions options;
    options.cliLoginPath = cliLoginPath.isEmpty() ? journalDirectory + QStringLiteral("/no-e2b-cli/config.json")
                                                  : cliLoginPath;
    options.localConnection = local;
    options.rememberState = rememberState;
    options.journalDirectory = journalDirectory;
    auto window = std::make_unique<MainWindow>(options);
    window->setRefreshInterval(0);
    window->resize(1200, 700);
    window->show();
    return window;
}

} // namespace sd::test
