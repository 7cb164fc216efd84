#pragma once

#include <QObject>

class QSystemTrayIcon;

namespace sd {

class MainWindow;

/// The system tray icon: the app icon with a red badge counting orphans, a menu
/// (show, new sandbox, kill orphans, quit) and desktop notifications when new
/// orphans appear or a creation fails. Does nothing where no tray exists.
class TrayIcon : public QObject
{
    Q_OBJECT

public:
    explicit TrayIcon(MainWindow *window);

    static bool isAvailable();
    /// Paints the badge for `orphans` (0: the plain icon).
    void setOrphanCount(int orphans);
    void notifyCreationFailed(const QString &message);

private:
    MainWindow *m_window;
    QSystemTrayIcon *m_tray = nullptr;
    int m_orphans = -1;
};

} // namespace sd
