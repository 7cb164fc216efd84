#include "desktopapp.h"

#include "mainwindow.h"

#include <QApplication>
#include <QIcon>

namespace sd {

int runDesktopApp(QApplication &app)
{
    if (QCoreApplication::organizationName().isEmpty())
        QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
    if (QCoreApplication::applicationName().isEmpty() || QCoreApplication::applicationName() == QLatin1String("sandbox-desk"))
        QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
    QGuiApplication::setApplicationDisplayName(QObject::tr("Sandbox Desk"));
    QGuiApplication::setDesktopFileName(QStringLiteral("sandbox-desk"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/sandbox-desk.svg")));

    DesktopOptions options;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--local-port") && i + 1 < args.size()) {
            bool ok = false;
            const uint port = args.at(i + 1).toUInt(&ok);
            if (ok && port > 0 && port < 65536)
                options.localPort = quint16(port);
            ++i;
        } else if (args.at(i).startsWith(QLatin1String("--local-port="))) {
            bool ok = false;
            const uint port = args.at(i).mid(13).toUInt(&ok);
            if (ok && port > 0 && port < 65536)
                options.localPort = quint16(port);
        }
    }

    MainWindow window(options);
    window.show();
    return app.exec();
}

} // namespace sd
