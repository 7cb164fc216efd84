#pragma once

#include <QHash>
#include <QPointer>
#include <optional>
#include <QSet>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace sd {

class CreationJournal;
struct CreationRecord;

/// Every creation of the profile's journal, newest first: time, template, MCP
/// servers, sandbox, final state (failures highlighted), duration. The selected
/// one shows its outcome, its state timeline (each step with its time and the time
/// since the step before, failed steps highlighted), its rollback and the full
/// gateway stderr with search and copy: where a user inspects a failed creation
/// days later.
class CreationHistoryView : public QWidget
{
    Q_OBJECT

public:
    /// Item data (column 0) of list() and timeline() rows.
    enum Role
    {
        CreationIdRole = Qt::UserRole + 1, ///< list(): the creation id
        /// True for a creation that failed or never finished, or a step that failed
        /// (drawn highlighted).
        FailedRole,
    };
    /// Columns of timeline().
    enum TimelineColumn
    {
        StepColumn,
        TimeColumn,
        SinceColumn, ///< time since the step before
        DetailColumn,
    };

    explicit CreationHistoryView(QWidget *parent = nullptr);

    /// Not owned; the view follows its creationChanged() signal.
    void setJournal(CreationJournal *journal);
    void reload();
    /// The sandboxes the last good refresh listed: a creation whose rollback failed is
    /// then said to be still running, or no longer, instead of "may still be running".
    void setListedSandboxes(const QSet<QString> &sandboxIds);
    /// Selects a creation by id; false if the list does not show it.
    bool select(const QString &creationId);

    QTreeWidget *list() const { return m_list; }
    QTreeWidget *timeline() const { return m_timeline; }
    QLabel *summary() const { return m_summary; }
    QPlainTextEdit *gatewayStderr() const { return m_stderr; }
    QLineEdit *searchField() const { return m_search; }
    /// Filters the list to the creations whose gateway stderr holds its text.
    QLineEdit *outputFilter() const { return m_outputFilter; }
    /// "Showing 2 of 7" while the output filter hides creations, else empty.
    QString outputFilterStatus() const;
    /// "3 matches", "No match" or empty.
    QString searchStatus() const;

    /// Searches the gateway stderr for the search field's text from the cursor,
    /// wrapping around once; selects the match. Returns false if there is none.
    bool find(bool backwards = false);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onCreationChanged(const QString &creationId);
    void fillRow(QTreeWidgetItem *item, const CreationRecord &record);
    void showSelected();
    void showTimeline(const CreationRecord &record);
    void markMatches();
    void applyOutputFilter();

    QPointer<CreationJournal> m_journal;
    QTreeWidget *m_list;
    QLabel *m_summary;
    QTreeWidget *m_timeline;
    QPlainTextEdit *m_stderr;
    QLineEdit *m_search;
    QLabel *m_searchStatus;
    QLineEdit *m_outputFilter;
    QLabel *m_outputFilterStatus;
    QHash<QString, QTreeWidgetItem *> m_rows; ///< list() rows by creation id
    QString m_shownCreation; ///< the creation whose stderr is shown, to keep its scroll
    std::optional<QSet<QString>> m_listed; ///< unknown until the window's first good refresh
};

} // namespace sd
