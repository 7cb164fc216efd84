#pragma once

// Helpers shared by the widget tests: running a job to its end, the settings of a
// test backend, and (testwindow.h) a main window on it. Tests may spin the event loop; library
// code never does.

#include "api/connectionsettings.h"
#include "common/job.h"
#include "localbackend.h"
#include "testwindow.h"

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

} // namespace sd::test
