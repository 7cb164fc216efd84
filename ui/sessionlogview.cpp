#include "sessionlogview.h"

#include "common/logging.h"

#include <QClipboard>
#include <QColor>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace sd {

SessionLogModel::SessionLogModel(SessionLog *log, QObject *parent)
    : QAbstractTableModel(parent)
    , m_log(log)
{
    if (m_log)
        connect(m_log, &SessionLog::changed, this, &SessionLogModel::update);
    update();
}

void SessionLogModel::update()
{
    if (!m_log)
        return;
    // Read once: messages may arrive from other threads meanwhile.
    const QList<LogEntry> entries = m_log->entries();
    const qint64 total = m_log->totalCount();
    const qint64 first = total - entries.size();
    // The log can only have grown: drop what it dropped, append what is new.
    const qint64 shownEnd = m_firstSequence + m_entries.size();
    const int gone = int(qMin<qint64>(first - m_firstSequence, m_entries.size()));
    if (gone > 0) {
        beginRemoveRows({}, 0, gone - 1);
        m_entries.remove(0, gone);
        endRemoveRows();
    }
    m_firstSequence = first;
    // Entries already shown are those below shownEnd; the rest are new.
    const int firstNew = int(qMax<qint64>(0, shownEnd - first));
    if (firstNew < entries.size()) {
        beginInsertRows({}, int(m_entries.size()), int(entries.size()) - 1);
        m_entries.append(entries.mid(m_entries.size()));
        endInsertRows();
    }
}

int SessionLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int SessionLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const LogEntry &entry = m_entries.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return entry.time.toString(QStringLiteral("hh:mm:ss.zzz"));
        case CategoryColumn:
            return entry.category;
        case LevelColumn:
            return levelName(entry.level);
        case MessageColumn:
            return entry.message;
        }
    } else if (role == Qt::ToolTipRole && index.column() == TimeColumn) {
        return entry.time.toString(Qt::ISODateWithMs);
    } else if (role == Qt::ToolTipRole && index.column() == MessageColumn) {
        return entry.message; // the whole line, where the column elides it
    } else if (role == Qt::ForegroundRole && entry.level >= QtWarningMsg
        && entry.level != QtInfoMsg) {
        return QColor(entry.level == QtWarningMsg ? 0xb3741a : 0xd63b3b);
    }
    return {};
}

QVariant SessionLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case CategoryColumn:
        return tr("Category");
    case LevelColumn:
        return tr("Level");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

QString SessionLogModel::text() const
{
    QString text;
    for (const LogEntry &entry : m_entries)
        text += formatLogLine(entry) + QLatin1Char('\n');
    return text;
}

SessionLogView::SessionLogView(SessionLog *log, QWidget *parent)
    : QDialog(parent)
    , m_model(new SessionLogModel(log, this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_copy(new QPushButton(tr("&Copy"), this))
{
    setObjectName(QStringLiteral("sessionLogView"));
    setWindowTitle(tr("Session log"));
    m_table->setObjectName(QStringLiteral("sessionLogTable"));
    m_table->setAccessibleName(tr("Session log messages"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Every message is one line (SessionLog::append()), so rows have one fixed height:
    // sizing them to their contents measured all 5,000 rows for each new message.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setColumnWidth(SessionLogModel::TimeColumn, 110);
    m_table->setColumnWidth(SessionLogModel::CategoryColumn, 120);
    m_table->setColumnWidth(SessionLogModel::LevelColumn, 70);
    m_summary->setObjectName(QStringLiteral("sessionLogSummary"));
    m_summary->setWordWrap(true);
    m_copy->setObjectName(QStringLiteral("copySessionLogButton"));
    m_copy->setAccessibleName(tr("Copy the session log"));
    m_copy->setToolTip(tr("Copy every message as text, for a bug report"));
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_model->text());
        m_summary->setText(tr("Copied %n message(s) to the clipboard.", nullptr, m_model->rowCount()));
    });

    // Follow new messages while the view is at the bottom.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_table->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2)
            m_table->scrollToBottom();
        updateSummary();
    });

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_summary, 1);
    bottom->addWidget(m_copy);
    bottom->addWidget(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addLayout(bottom);
    updateSummary();
    m_table->scrollToBottom();
    resize(900, 480);
}

void SessionLogView::updateSummary()
{
    QString summary = tr("%n message(s) of this session", nullptr, m_model->rowCount());
    if (m_model->droppedCount() > 0)
        summary += QLatin1String("; ") + tr("%n older one(s) no longer kept", nullptr, int(m_model->droppedCount()));
    summary += QLatin1String(". ")
        + (verboseLoggingEnabled() ? tr("Debug messages are on (--verbose).")
                                   : tr("Start with --verbose for debug messages."));
    m_summary->setText(summary);
}

} // namespace sd
