#pragma once

#include "models/sandboxtablemodel.h"

#include <QSortFilterProxyModel>

namespace sd {

/// Sorting and the filter bar over a SandboxTableModel: free text over ID, template
/// and metadata (case-insensitive, every word must match), a state, and "orphans
/// only". Sorts by SandboxTableModel::SortRole, so numbers and times sort as such.
class SandboxFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum class StateFilter { All, Running, Paused, Orphan };

    explicit SandboxFilterProxyModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;

    QString text() const { return m_text; }
    StateFilter stateFilter() const { return m_state; }
    bool orphansOnly() const { return m_orphansOnly; }

public Q_SLOTS:
    void setText(const QString &text);
    void setStateFilter(sd::SandboxFilterProxyModel::StateFilter state);
    void setOrphansOnly(bool orphansOnly);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    SandboxTableModel *m_model = nullptr;
    QString m_text;
    QStringList m_words;
    StateFilter m_state = StateFilter::All;
    bool m_orphansOnly = false;
};

} // namespace sd
