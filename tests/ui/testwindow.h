#pragma once

// A main window for the widget tests, and settings of their own; apart from
// uitest.h so that tests built on the creation tests' helpers can use it too.

#include "api/connectionsettings.h"
#include "mainwindow.h"

#include <QCoreApplication>
#include <QSettings>

#include <memory>

namespace sd::test {

/// QSettings of this test only, in `directory`.
inline void useTestSettings(const QString &directory, const QString &applicationName)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, directory);
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk-test"));
    QCoreApplication::setApplicationName(applicationName);
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
