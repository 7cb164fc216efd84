#include "sandboxtableview.h"

#include <QPainter>

namespace sd {

SandboxTableView::SandboxTableView(QWidget *parent)
    : QTableView(parent)
{
}

void SandboxTableView::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    viewport()->update();
}

void SandboxTableView::paintEvent(QPaintEvent *event)
{
    QTableView::paintEvent(event);
    if (!model() || model()->rowCount() > 0 || m_placeholder.isEmpty())
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    painter.drawText(viewport()->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     m_placeholder);
}

} // namespace sd
