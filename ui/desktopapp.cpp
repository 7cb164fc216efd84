#include "desktopapp.h"

#include "mainwindow.h"

#include "common/logging.h"
#include "common/sessionlog.h"
#include "common/shutdownsignals.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

namespace sd {

int runDesktopApp(QApplication &app)
{
    // Before anything logs: Help > Session log shows this session's messages.
    SessionLog::install();
    if (QCoreApplication::organizationName().isEmpty())
        QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
    if (QCoreApplication::applicationName().isEmpty() || QCoreApplication::applicationName() == QLatin1String("sandbox-desk"))
        QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
    QGuiApplication::setApplicationDisplayName(QObject::tr("Sandbox Desk"));
    QGuiApplication::setDesktopFileName(QStringLiteral("sandbox-desk"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/sandbox-desk.svg")));

    // Everything else was refused by the command-line mode before a display was needed
    // (see isCommandLineMode), so a port given here is valid.
    DesktopOptions options;
    QCommandLineParser parser;
    const QCommandLineOption localPort(QStringLiteral("local-port"), QString(), QStringLiteral("PORT"));
    const QCommandLineOption verbose(QStringLiteral("verbose"));
    parser.addOptions({ localPort, verbose });
    parser.parse(app.arguments());
    if (parser.isSet(verbose))
        enableVerboseLogging();
    if (parser.isSet(localPort))
        options.localPort = quint16(parser.value(localPort).toUInt());

    MainWindow window(options);
    // SIGTERM and SIGINT quit the way the window's Quit does: rollbacks first.
    ShutdownSignals shutdown;
    QObject::connect(&shutdown, &ShutdownSignals::received, &window, &MainWindow::quit);
    QObject::connect(&window, &MainWindow::quitReady, &app, &QCoreApplication::quit, Qt::QueuedConnection);
    window.show();
    return app.exec();
}

} // namespace sd
