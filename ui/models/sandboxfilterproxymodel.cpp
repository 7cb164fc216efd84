#include "sandboxfilterproxymodel.h"

namespace sd {

SandboxFilterProxyModel::SandboxFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SandboxTableModel::SortRole);
    // The filter reads the model directly; naming a role the countdown never
    // changes keeps its once-a-second dataChanged from re-filtering every row.
    setFilterRole(SandboxTableModel::FilterTextRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void SandboxFilterProxyModel::setSourceModel(QAbstractItemModel *model)
{
    m_model = qobject_cast<SandboxTableModel *>(model);
    Q_ASSERT(!model || m_model);
    QSortFilterProxyModel::setSourceModel(model);
}

void SandboxFilterProxyModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

void SandboxFilterProxyModel::setStateFilter(StateFilter state)
{
    if (state == m_state)
        return;
    m_state = state;
    invalidateFilter();
}

void SandboxFilterProxyModel::setOrphansOnly(bool orphansOnly)
{
    if (orphansOnly == m_orphansOnly)
        return;
    m_orphansOnly = orphansOnly;
    invalidateFilter();
}

bool SandboxFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_model || sourceParent.isValid())
        return true;
    const Sandbox &s = m_model->sandboxAt(sourceRow);
    const bool orphan = m_model->isOrphan(s.sandboxId);
    if (m_orphansOnly && !orphan)
        return false;
    switch (m_state) {
    case StateFilter::All:
        break;
    case StateFilter::Running:
        if (s.state != SandboxState::Running)
            return false;
        break;
    case StateFilter::Paused:
        if (s.state != SandboxState::Paused)
            return false;
        break;
    case StateFilter::Orphan:
        if (!orphan)
            return false;
        break;
    }
    if (m_words.isEmpty())
        return true;
    const auto contains = [](const QString &haystack, const QString &word) {
        return haystack.contains(word, Qt::CaseInsensitive);
    };
    for (const QString &word : m_words) {
        bool found = contains(s.sandboxId, word) || contains(s.templateId, word) || contains(s.alias, word);
        for (auto it = s.metadata.begin(); !found && it != s.metadata.end(); ++it)
            found = contains(it.key(), word) || contains(it.value(), word)
                    || contains(it.key() + QLatin1Char('=') + it.value(), word);
        if (!found)
            return false;
    }
    return true;
}

} // namespace sd
