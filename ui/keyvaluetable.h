#pragma once

#include <QMap>
#include <QWidget>

class QPushButton;
class QTableWidget;

namespace sd {

/// An editable two-column table of names and values (metadata, environment) with
/// Add and Remove buttons. With masked values, values are drawn as bullets and
/// edited in a password field: environment values are secrets.
class KeyValueTable : public QWidget
{
    Q_OBJECT

public:
    explicit KeyValueTable(const QString &keyTitle, const QString &valueTitle, bool maskValues,
                           QWidget *parent = nullptr);

    struct Entry
    {
        QString key;
        QString value;
    };
    /// The rows in order, blank rows (no key and no value) left out.
    QList<Entry> entries() const;
    void setEntries(const QList<Entry> &entries);
    /// Clears every value, keeping the keys (secrets are re-entered on retry).
    void clearValues();
    QTableWidget *table() const { return m_table; }
    void addRow(const QString &key = {}, const QString &value = {});

Q_SIGNALS:
    void changed();

private:
    QTableWidget *m_table;
    QPushButton *m_remove;
};

} // namespace sd
