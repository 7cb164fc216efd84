#pragma once

#include <QFrame>

class QLabel;
class QHBoxLayout;
class QToolButton;

namespace sd {

/// An inline message above the content (like KMessageWidget): a coloured strip with
/// an icon, a sentence, optional action buttons and a close button. It never steals
/// focus and keeps the content below usable.
class MessageBanner : public QFrame
{
    Q_OBJECT

public:
    enum class Type { Information, Positive, Warning, Error };

    explicit MessageBanner(QWidget *parent = nullptr);

    void setMessage(Type type, const QString &text);
    QString text() const;
    Type type() const { return m_type; }

    /// Adds a button that triggers `action`; buttons are kept until clearActions().
    void addAction(QAction *action);
    void clearActions();

    void setCloseButtonVisible(bool visible);

Q_SIGNALS:
    void closed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:

    Type m_type = Type::Information;
    QLabel *m_icon;
    QLabel *m_label;
    QHBoxLayout *m_actions;
    QToolButton *m_close;
};

} // namespace sd
