#pragma once

#include "api/sandbox.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

namespace sd {

/// Why a sandbox is believed to be an orphan (left behind by a failed creation),
/// as the UI shows it: a short reason and the evidence behind it.
struct OrphanFlag
{
    QString reason;
    QString evidence;
    bool suspected = false; ///< not ours per the journal: shown apart, never killed in bulk

    bool operator==(const OrphanFlag &other) const = default;
};

/// The sandboxes of one profile, one row per sandbox, keyed by sandbox ID.
///
/// Refreshes are applied as diffs (rows inserted, removed, or dataChanged for the
/// rows that really changed), never as a model reset, so selection, sort order and
/// scroll position survive. The time-left column counts down from a one-second
/// timer that signals dataChanged for that column only. Rows keep their insertion
/// order; sorting and filtering belong to SandboxFilterProxyModel.
class SandboxTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        IdColumn,
        TemplateColumn,
        StateColumn,
        StartedColumn,
        TimeLeftColumn,
        CpuColumn,
        MemoryColumn,
        MetadataColumn,
        FlagColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    /// What the state badge shows; an orphan outranks running/paused.
    enum class DisplayState { Running, Paused, Orphan };

    enum Role {
        SandboxIdRole = Qt::UserRole + 1, ///< QString
        DisplayStateRole,                 ///< int (DisplayState)
        IsOrphanRole,                     ///< bool
        SortRole,                         ///< a value that sorts naturally for the column
        FilterTextRole,                   ///< id, template and metadata in one string
    };

    explicit SandboxTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the content with `sandboxes`, applied as a diff by sandbox ID.
    void setSandboxes(const QList<Sandbox> &sandboxes);
    /// Applies one page of a list still being loaded: its listed rows are updated and
    /// its new ones appended, and no row is removed, since the rest of the list has not
    /// arrived yet. setSandboxes() with the whole list then removes what is gone.
    void mergeSandboxes(const QList<Sandbox> &page);
    /// Orphan flags by sandbox ID; flags for IDs not (yet) listed are kept for later.
    void setOrphanFlags(const QHash<QString, OrphanFlag> &flags);
    /// Marks the rows as possibly out of date (the last refresh failed).
    void setStale(bool stale);
    bool isStale() const { return m_stale; }

    /// -1 when the ID is not listed. While rows are being removed (inside the
    /// rowsAboutToBeRemoved/rowsRemoved signals) the numbers of later rows are stale;
    /// sandbox() is exact at all times.
    int rowOf(const QString &sandboxId) const;
    const Sandbox &sandboxAt(int row) const { return m_rows[size_t(row)]->sandbox; }
    /// nullptr when the ID is not listed.
    const Sandbox *sandbox(const QString &sandboxId) const;
    std::optional<OrphanFlag> orphanFlag(const QString &sandboxId) const;
    bool isOrphan(const QString &sandboxId) const { return m_orphans.contains(sandboxId); }
    DisplayState displayState(int row) const;
    /// Running, paused and orphan counts (an orphan also counts as running/paused).
    /// Kept as rows change, so asking after every page of a large list costs nothing.
    int count(DisplayState state) const;
    QStringList orphanIds() const;

    /// The clock the countdown reads (tests inject a fixed one). Default: now, UTC.
    void setClock(std::function<QDateTime()> clock);
    /// Starts or stops the one-second countdown (stopped while the window is hidden).
    void setCountdownRunning(bool running);
    bool isCountdownRunning() const { return m_countdown.isActive(); }
    /// Signals dataChanged for the time-left column; what the countdown timer calls.
    void tick();

    /// Metadata as one compact line: `k=v, k2=v2`, a part holding `,`, `=` or `"`
    /// (or blank at either end) in quotes: `note="a, b=c"`.
    static QString compactMetadata(const Metadata &metadata);
    /// Seconds as the countdown shows them, each part with its unit: `42 s`,
    /// `4 min 05 s`, `16 h 08 min`, `2 d 3 h`.
    static QString formatDuration(qint64 seconds);

private:
    // A row knows its own number, so the ID index maps to rows, not to numbers, and
    // renumbering after a removal walks the vector instead of rehashing every ID.
    struct Row
    {
        Sandbox sandbox;
        int number = 0;
    };

    /// An answer (a whole list or one page) against the rows: the ones it lists, as
    /// (row number, index in the answer) in the answer's order, and the indexes of IDs
    /// new to the model, in order of first appearance. A new ID twice in one answer
    /// counts once, its last value winning.
    struct Split
    {
        QList<std::pair<int, qsizetype>> listed;
        QList<qsizetype> added;
    };
    Split splitAnswer(const QList<Sandbox> &answer) const;
    void removeRows(const std::vector<bool> &gone);
    void applyChanges(const QList<std::pair<const Row *, qsizetype>> &changedRows,
                      const QList<Sandbox> &sandboxes);
    void appendRows(const QList<qsizetype> &added, const QList<Sandbox> &sandboxes);
    void renumberFrom(int first);
    void updateCountdown();
    void countRow(const Sandbox &sandbox, int delta);

    // Pointers, so removing scattered rows from 10,000 moves pointers, not values.
    std::vector<std::unique_ptr<Row>> m_rows;
    QHash<QString, Row *> m_rowById;
    QHash<QString, OrphanFlag> m_orphans;
    int m_runningCount = 0;
    int m_pausedCount = 0;
    std::function<QDateTime()> m_clock;
    QTimer m_countdown;
    bool m_countdownWanted = true;
    bool m_stale = false;
};

} // namespace sd
