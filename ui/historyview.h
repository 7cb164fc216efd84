#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTreeWidget;

namespace sd {

class CreationJournal;

/// Every creation of the profile's journal, newest first: time, template, MCP
/// servers, sandbox, final state (failures highlighted), duration. The selected
/// one shows its outcome, rollback and the full gateway stderr with search and copy:
/// where a user inspects a failed creation days later.
class CreationHistoryView : public QWidget
{
    Q_OBJECT

public:
    explicit CreationHistoryView(QWidget *parent = nullptr);

    /// Not owned; the view follows its creationChanged() signal.
    void setJournal(CreationJournal *journal);
    void reload();
    QTreeWidget *list() const { return m_list; }

private:
    void showSelected();
    void find(bool backwards);

    QPointer<CreationJournal> m_journal;
    QTreeWidget *m_list;
    QLabel *m_summary;
    QPlainTextEdit *m_stderr;
    QLineEdit *m_search;
    QTimer m_reloadLater;
};

} // namespace sd
