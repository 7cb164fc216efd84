#include "trayicon.h"

#include "mainwindow.h"

#include <QAction>
#include <QMenu>
#include <QPainter>
#include <QSystemTrayIcon>

namespace sd {

TrayIcon::TrayIcon(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_menu(new QMenu(window))
{
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    m_show = m_menu->addAction(tr("&Show Sandbox Desk"));
    m_show->setObjectName(QStringLiteral("trayShowAction"));
    connect(m_show, &QAction::triggered, window, [window] {
        window->showNormal();
        window->raise();
        window->activateWindow();
    });
    m_menu->addAction(window->newSandboxAction());
    m_menu->addAction(window->killOrphansAction());
    m_menu->addSeparator();
    m_quit = m_menu->addAction(tr("&Quit"));
    m_quit->setObjectName(QStringLiteral("trayQuitAction"));
    // Through the window, so its geometry and columns are saved before the app ends.
    connect(m_quit, &QAction::triggered, window, &MainWindow::quit);
    connect(window, &MainWindow::orphansScanned, this, &TrayIcon::setOrphanCount);
    connect(window, &MainWindow::newOrphansFound, this, [this](const QStringList &ids) {
        notify(tr("Orphan sandboxes found"),
               tr("%n sandbox(es) left behind by failed creations: %1", nullptr, int(ids.size()))
                   .arg(ids.join(QStringLiteral(", "))),
               QSystemTrayIcon::Warning);
    });
    setOrphanCount(0);

    if (!isAvailable())
        return;
    m_tray = new QSystemTrayIcon(m_icon, this);
    m_tray->setToolTip(m_toolTip);
    m_tray->setContextMenu(m_menu);
    connect(m_tray, &QSystemTrayIcon::activated, window, [window](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger) {
            window->showNormal();
            window->activateWindow();
        }
    });
    m_tray->show();
}

bool TrayIcon::isAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void TrayIcon::setOrphanCount(int orphans)
{
    if (orphans == m_orphans)
        return;
    m_orphans = orphans;
    const QIcon base(QStringLiteral(":/icons/sandbox-desk.svg"));
    m_toolTip = orphans > 0 ? tr("Sandbox Desk: %n orphan(s)", nullptr, orphans) : tr("Sandbox Desk");
    if (orphans == 0) {
        m_icon = base;
    } else {
        QIcon badged;
        for (int size : {16, 22, 24, 32, 48, 64}) {
            QPixmap pixmap = base.pixmap(size, size);
            QPainter painter(&pixmap);
            painter.setRenderHint(QPainter::Antialiasing);
            const qreal d = size * 0.55;
            const QRectF badge(size - d, size - d, d, d);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(0xd6, 0x3b, 0x3b));
            painter.drawEllipse(badge);
            QFont font = painter.font();
            font.setPixelSize(int(d * 0.7));
            font.setBold(true);
            painter.setFont(font);
            painter.setPen(Qt::white);
            painter.drawText(badge, Qt::AlignCenter, orphans > 9 ? QStringLiteral("9+") : QString::number(orphans));
            painter.end();
            badged.addPixmap(pixmap);
        }
        m_icon = badged;
    }
    if (m_tray) {
        m_tray->setIcon(m_icon);
        m_tray->setToolTip(m_toolTip);
    }
}

void TrayIcon::notifyCreationFailed(const QString &message)
{
    notify(tr("A sandbox creation failed"), message, QSystemTrayIcon::Critical);
}

void TrayIcon::notify(const QString &title, const QString &message, QSystemTrayIcon::MessageIcon icon)
{
    Q_EMIT notificationRequested(title, message);
    if (m_tray)
        m_tray->showMessage(title, message, icon);
}

} // namespace sd
