#include "mainwindow.h"

namespace sd {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Sandbox Desk"));
}

} // namespace sd
