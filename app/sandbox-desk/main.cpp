#include "commandline.h"
#include "common/logging.h"
#include "desktopapp.h"
#include "translations.h"

#include <QApplication>
#include <QLocale>

int main(int argc, char **argv)
{
    // Log messages quote servers and sandboxes: nothing of theirs acts on the terminal.
    sd::installTerminalSafeLogging();
    // Fixes where settings and the creation journal live, for both modes.
    QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_DESK_VERSION));
    if (sd::isCommandLineMode(argc, argv)) {
        // No display needed: the command-line mode never creates a widget.
        QCoreApplication app(argc, argv);
        sd::installTranslations(QLocale());
        return sd::runCommandLine(app);
    }
    QApplication app(argc, argv);
    sd::installTranslations(QLocale());
    return sd::runDesktopApp(app);
}
