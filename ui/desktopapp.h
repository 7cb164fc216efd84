#pragma once

class QApplication;

namespace sd {

/// Runs the desktop application: reads the options it understands from the command
/// line (`--local-port N`), opens the main window and runs the event loop.
int runDesktopApp(QApplication &app);

} // namespace sd
