#pragma once

#include <QTableView>

namespace sd {

/// The sandbox table: a QTableView that says so when it has no rows, instead of
/// showing an empty grid.
class SandboxTableView : public QTableView
{
    Q_OBJECT

public:
    explicit SandboxTableView(QWidget *parent = nullptr);

    void setPlaceholderText(const QString &text);
    QString placeholderText() const { return m_placeholder; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_placeholder;
};

} // namespace sd
