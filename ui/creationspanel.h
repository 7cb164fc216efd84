#pragma once

#include <QHash>
#include <QList>
#include <QPointer>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace sd {

class CreationJob;
class CreationJournal;
class Session;

/// The creations running in this window, one row each: what it makes, the step it
/// is in, its sandbox once known, and Cancel. It shows while one runs, so that a
/// creation sent to the background from the New sandbox dialog stays in sight; a
/// creation that ends leaves the panel for the creations history.
class CreationsPanel : public QWidget
{
    Q_OBJECT

public:
    enum Column
    {
        TemplateColumn,
        McpColumn,
        StartedColumn,
        StepColumn,
        SandboxColumn,
        CancelColumn,
    };
    /// list() item data (column 0): the creation id.
    static constexpr int CreationIdRole = Qt::UserRole + 1;

    explicit CreationsPanel(QWidget *parent = nullptr);

    /// Lists the creations `session` runs, now and later. Not owned; a session that
    /// goes away takes its rows with it.
    void addSession(Session *session);

    QTreeWidget *list() const { return m_list; }
    /// The row of a running creation; null when it does not run here.
    QTreeWidgetItem *row(const QString &creationId) const;
    /// Cancels a running creation (it rolls back what it made); false when it does
    /// not run here or already rolls back.
    bool cancel(const QString &creationId);

Q_SIGNALS:
    /// The user cancelled `creationId` from the panel.
    void cancelRequested(const QString &creationId);

private:
    void sync();
    void fillRow(QTreeWidgetItem *item, const CreationJob *job);

    QLabel *m_title;
    QTreeWidget *m_list;
    QList<QPointer<Session>> m_sessions;
    QHash<QString, QPointer<CreationJob>> m_jobs; ///< running creations by id
    QHash<QString, QPointer<CreationJournal>> m_journals; ///< their journals, by creation id
};

} // namespace sd
