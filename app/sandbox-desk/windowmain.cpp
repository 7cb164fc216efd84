#include "common/logging.h"
#include "common/translations.h"
#include "desktopapp.h"
#include "identity.h"

#include <QApplication>
#include <QLocale>

// sandbox-desk-window: the window, started by `sandbox-desk` when no command-line
// action is given (see main.cpp); the command line has already checked the arguments.
int main(int argc, char **argv)
{
    sd::installTerminalSafeLogging();
    sd::setApplicationIdentity();
    QApplication app(argc, argv);
    sd::installTranslations(QLocale());
    return sd::runDesktopApp(app);
}
