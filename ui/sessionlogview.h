#pragma once

#include "common/sessionlog.h"

#include <QAbstractTableModel>
#include <QDialog>
#include <QPointer>

class QLabel;
class QPushButton;
class QTableView;

namespace sd {

/// This session's log messages as rows (time, category, level, message), following
/// the SessionLog: new messages are inserted at the end and those the ring buffer
/// dropped are removed from the top, never a reset.
class SessionLogModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        TimeColumn,
        CategoryColumn,
        LevelColumn,
        MessageColumn,
        ColumnCount
    };

    /// `log` is not owned; null shows nothing.
    explicit SessionLogModel(SessionLog *log, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The rows as lines of formatLogLine(), for a bug report.
    QString text() const;
    /// Messages the ring buffer no longer holds.
    qint64 droppedCount() const { return m_firstSequence; }

    /// Takes in what the log gained since the last call (done on SessionLog::changed()).
    void update();

private:
    QPointer<SessionLog> m_log;
    QList<LogEntry> m_entries;
    qint64 m_firstSequence = 0; ///< sequence number of m_entries.first()
};

/// Help > Session log: the messages of this session in a table, with a Copy button
/// that puts them on the clipboard as text for a bug report. Debug messages show
/// when the app was started with --verbose.
class SessionLogView : public QDialog
{
    Q_OBJECT

public:
    explicit SessionLogView(SessionLog *log, QWidget *parent = nullptr);

    SessionLogModel *model() const { return m_model; }

private:
    void updateSummary();

    SessionLogModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QPushButton *m_copy;
};

} // namespace sd
