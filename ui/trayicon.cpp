#include "trayicon.h"

#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QPainter>
#include <QSystemTrayIcon>

namespace sd {

TrayIcon::TrayIcon(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    if (!isAvailable())
        return;
    m_tray = new QSystemTrayIcon(this);
    auto *menu = new QMenu(window);
    QAction *show = menu->addAction(tr("&Show Sandbox Desk"));
    connect(show, &QAction::triggered, window, [window] {
        window->showNormal();
        window->raise();
        window->activateWindow();
    });
    menu->addAction(window->newSandboxAction());
    menu->addAction(window->killOrphansAction());
    menu->addSeparator();
    QAction *quit = menu->addAction(tr("&Quit"));
    connect(quit, &QAction::triggered, qApp, &QApplication::quit);
    m_tray->setContextMenu(menu);
    connect(m_tray, &QSystemTrayIcon::activated, window, [window](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger) {
            window->showNormal();
            window->activateWindow();
        }
    });
    connect(window, &MainWindow::orphansScanned, this, &TrayIcon::setOrphanCount);
    connect(window, &MainWindow::newOrphansFound, this, [this](const QStringList &ids) {
        m_tray->showMessage(tr("Orphan sandboxes found"),
                            tr("%n sandbox(es) left behind by failed creations: %1", nullptr, int(ids.size()))
                                .arg(ids.join(QStringLiteral(", "))),
                            QSystemTrayIcon::Warning);
    });
    setOrphanCount(0);
    m_tray->show();
}

bool TrayIcon::isAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void TrayIcon::setOrphanCount(int orphans)
{
    if (!m_tray || orphans == m_orphans)
        return;
    m_orphans = orphans;
    const QIcon base(QStringLiteral(":/icons/sandbox-desk.svg"));
    m_tray->setToolTip(orphans > 0 ? tr("Sandbox Desk: %n orphan(s)", nullptr, orphans) : tr("Sandbox Desk"));
    if (orphans == 0) {
        m_tray->setIcon(base);
        return;
    }
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
    m_tray->setIcon(badged);
}

void TrayIcon::notifyCreationFailed(const QString &message)
{
    if (m_tray)
        m_tray->showMessage(tr("A sandbox creation failed"), message, QSystemTrayIcon::Critical);
}

} // namespace sd
