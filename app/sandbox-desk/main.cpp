#include "commandline.h"
#include "common/logging.h"
#include "common/translations.h"
#include "identity.h"

#include <QCoreApplication>
#include <QLocale>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

// The window is a program of its own, sandbox-desk-window: this one links no display
// library (Widgets, Gui, OpenGL, fonts), which is half the start-up time of every
// command a script runs. It sits beside this program in a build tree, and in the
// private folder SD_PRIVATE_RELDIR names once installed. exec keeps the process, its
// arguments and its environment: to the user it is still `sandbox-desk`.
constexpr const char *WindowProgram = "sandbox-desk-window";

/// Returns only when no window program could be started; `failed` says why.
void execWindow(char **argv, std::string *failed)
{
    char self[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        *failed = std::string("/proc/self/exe: ") + std::strerror(errno);
        return;
    }
    self[length] = '\0';
    const std::string dir(self, std::strrchr(self, '/') - self);
    std::string tried;
    for (const std::string &candidate :
        { dir + '/' + WindowProgram, dir + '/' + SD_PRIVATE_RELDIR + '/' + WindowProgram }) {
        ::execv(candidate.c_str(), argv);
        if (errno != ENOENT) {
            *failed = candidate + ": " + std::strerror(errno);
            return;
        }
        tried += (tried.empty() ? "" : ", ") + candidate;
    }
    *failed = "no " + std::string(WindowProgram) + " at " + tried;
}

} // namespace

int main(int argc, char **argv)
{
    // Log messages quote servers and sandboxes: nothing of theirs acts on the terminal.
    sd::installTerminalSafeLogging();
    std::string windowFailed;
    const bool commandLine = sd::isCommandLineMode(argc, argv);
    if (!commandLine)
        execWindow(argv, &windowFailed);

    sd::setApplicationIdentity();
    // No display needed: this program never creates a widget.
    QCoreApplication app(argc, argv);
    sd::installTranslations(QLocale());
    if (!commandLine) {
        std::fprintf(stderr, "%s\n",
            qUtf8Printable(QCoreApplication::translate("main",
                "sandbox-desk: the window could not be started (%1). Is Sandbox Desk fully "
                "installed? The command-line mode works without it: sandbox-desk --help")
                               .arg(QString::fromLocal8Bit(windowFailed.c_str()))));
        return 1;
    }
    return sd::runCommandLine(app);
}
