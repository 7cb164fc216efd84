#pragma once

#include <QIcon>
#include <QObject>
#include <QSystemTrayIcon>

class QAction;
class QMenu;

namespace sd {

class MainWindow;

/// The system tray icon: the app icon with a red badge counting orphans, a menu
/// (show, new sandbox, kill orphans, quit) and desktop notifications when new
/// orphans appear or a creation fails.
///
/// The icon, tooltip and menu are kept here even where no tray exists (offscreen,
/// some desktops), so they can be checked; they are only handed to a
/// QSystemTrayIcon when the desktop has a tray.
class TrayIcon : public QObject
{
    Q_OBJECT

public:
    explicit TrayIcon(MainWindow *window);

    static bool isAvailable();
    /// Paints the badge for `orphans` (0: the plain icon).
    void setOrphanCount(int orphans);
    void notifyCreationFailed(const QString &message);

    int orphanCount() const { return m_orphans; }
    QIcon icon() const { return m_icon; }
    QString toolTip() const { return m_toolTip; }
    QMenu *menu() const { return m_menu; }
    QAction *showAction() const { return m_show; }
    QAction *quitAction() const { return m_quit; }

Q_SIGNALS:
    /// Every desktop notification asked for, shown as a tray message where a tray exists.
    void notificationRequested(const QString &title, const QString &message);

private:
    void notify(const QString &title, const QString &message, QSystemTrayIcon::MessageIcon icon);

    MainWindow *m_window;
    QSystemTrayIcon *m_tray = nullptr;
    QMenu *m_menu;
    QAction *m_show;
    QAction *m_quit;
    QIcon m_icon;
    QString m_toolTip;
    int m_orphans = -1;
};

} // namespace sd
