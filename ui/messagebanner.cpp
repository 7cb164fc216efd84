#include "messagebanner.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

namespace sd {

namespace {

QColor accent(MessageBanner::Type type)
{
    switch (type) {
    case MessageBanner::Type::Information:
        return QColor(0x3d, 0xae, 0xe9);
    case MessageBanner::Type::Positive:
        return QColor(0x27, 0xae, 0x60);
    case MessageBanner::Type::Warning:
        return QColor(0xf6, 0x74, 0x00);
    case MessageBanner::Type::Error:
        return QColor(0xda, 0x44, 0x53);
    }
    return {};
}

QColor mix(const QColor &a, const QColor &b, qreal ratio)
{
    return QColor::fromRgbF(a.redF() * (1 - ratio) + b.redF() * ratio,
                            a.greenF() * (1 - ratio) + b.greenF() * ratio,
                            a.blueF() * (1 - ratio) + b.blueF() * ratio);
}

} // namespace

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_actions(new QHBoxLayout)
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Message"));

    m_label->setObjectName(QStringLiteral("messageText"));
    // Messages quote servers and sandboxes: never let them render as HTML.
    m_label->setTextFormat(Qt::PlainText);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close this message"));
    m_close->setAccessibleName(tr("Close message"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 6, 6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
    layout->addLayout(m_actions);
    layout->addWidget(m_close, 0, Qt::AlignTop);
}

void MessageBanner::setMessage(Type type, const QString &text)
{
    m_type = type;
    m_label->setText(text);
    m_label->setAccessibleName(text);
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    if (type == Type::Warning)
        icon = QStyle::SP_MessageBoxWarning;
    else if (type == Type::Error)
        icon = QStyle::SP_MessageBoxCritical;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    update();
}

QString MessageBanner::text() const
{
    return m_label->text();
}

void MessageBanner::addAction(QAction *action)
{
    auto *button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_actions->addWidget(button);
}

void MessageBanner::clearActions()
{
    while (QLayoutItem *item = m_actions->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void MessageBanner::setCloseButtonVisible(bool visible)
{
    m_close->setVisible(visible);
}

void MessageBanner::paintEvent(QPaintEvent *)
{
    // A tint of the accent over the current window colour, so light and dark
    // palettes both keep readable text.
    const QColor colour = accent(m_type);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(colour, 1));
    painter.setBrush(mix(palette().color(QPalette::Window), colour, 0.18));
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

} // namespace sd
