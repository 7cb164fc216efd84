#include "keyvaluetable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sd {

namespace {

// Shows a value as bullets and edits it in a password field.
class MaskedDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QString displayText(const QVariant &value, const QLocale &) const override
    {
        return QString(value.toString().size(), QChar(0x2022));
    }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override
    {
        auto *editor = qobject_cast<QLineEdit *>(QStyledItemDelegate::createEditor(parent, option, index));
        if (editor)
            editor->setEchoMode(QLineEdit::Password);
        return editor;
    }
};

} // namespace

KeyValueTable::KeyValueTable(const QString &keyTitle, const QString &valueTitle, bool maskValues,
                             QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 2, this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    m_table->setHorizontalHeaderLabels({keyTitle, valueTitle});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(0, 180);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::AllEditTriggers);
    if (maskValues)
        m_table->setItemDelegateForColumn(1, new MaskedDelegate(m_table));
    connect(m_table, &QTableWidget::itemChanged, this, &KeyValueTable::changed);

    auto *add = new QPushButton(tr("Add"), this);
    add->setAccessibleName(tr("Add a row to %1").arg(keyTitle));
    m_remove->setAccessibleName(tr("Remove the selected row"));
    m_remove->setEnabled(false);
    connect(add, &QPushButton::clicked, this, [this] {
        addRow();
        m_table->setCurrentCell(m_table->rowCount() - 1, 0);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 0));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0) {
            m_table->removeRow(row);
            Q_EMIT changed();
        }
    });
    connect(m_table, &QTableWidget::currentCellChanged, this,
            [this](int row) { m_remove->setEnabled(row >= 0); });

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
}

void KeyValueTable::addRow(const QString &key, const QString &value)
{
    {
        const QSignalBlocker blocker(m_table);
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(key));
        m_table->setItem(row, 1, new QTableWidgetItem(value));
    }
    Q_EMIT changed();
}

QList<KeyValueTable::Entry> KeyValueTable::entries() const
{
    QList<Entry> result;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString key = m_table->item(row, 0) ? m_table->item(row, 0)->text() : QString();
        const QString value = m_table->item(row, 1) ? m_table->item(row, 1)->text() : QString();
        if (key.isEmpty() && value.isEmpty())
            continue;
        result.append({key, value});
    }
    return result;
}

void KeyValueTable::setEntries(const QList<Entry> &entries)
{
    {
        const QSignalBlocker blocker(m_table);
        m_table->setRowCount(0);
    }
    for (const Entry &entry : entries)
        addRow(entry.key, entry.value);
    Q_EMIT changed();
}

void KeyValueTable::clearValues()
{
    {
        const QSignalBlocker blocker(m_table);
        for (int row = 0; row < m_table->rowCount(); ++row) {
            if (QTableWidgetItem *item = m_table->item(row, 1))
                item->setText(QString());
        }
    }
    Q_EMIT changed();
}

} // namespace sd
