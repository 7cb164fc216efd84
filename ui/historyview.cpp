#include "historyview.h"

#include "journal/creationjournal.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sd {

namespace {

constexpr int kCreationIdRole = Qt::UserRole + 1;

QString durationText(const CreationRecord &r)
{
    if (!r.isFinished())
        return CreationHistoryView::tr("unfinished");
    const qint64 ms = r.startedAt.msecsTo(r.finishedAt);
    return ms < 10000 ? CreationHistoryView::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1))
                      : CreationHistoryView::tr("%1 s").arg(ms / 1000);
}

bool isFailure(CreationState state)
{
    return state == CreationState::RolledBack || state == CreationState::RollbackFailed
           || state == CreationState::Rejected || state == CreationState::Cancelled;
}

} // namespace

CreationHistoryView::CreationHistoryView(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget(this))
    , m_summary(new QLabel(this))
    , m_stderr(new QPlainTextEdit(this))
    , m_search(new QLineEdit(this))
{
    setObjectName(QStringLiteral("historyView"));
    setAccessibleName(tr("Creations history"));
    m_list->setObjectName(QStringLiteral("historyList"));
    m_list->setAccessibleName(tr("Creations, newest first"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Time"), tr("Template"), tr("MCP servers"), tr("Sandbox"), tr("Result"), tr("Duration")});
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &CreationHistoryView::showSelected);

    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_summary->setAccessibleName(tr("Creation outcome"));
    m_stderr->setReadOnly(true);
    m_stderr->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_stderr->setAccessibleName(tr("Gateway stderr"));
    m_stderr->setPlaceholderText(tr("No gateway output recorded."));
    m_search->setPlaceholderText(tr("Search the output (Enter: next, Shift+Enter: previous)"));
    m_search->setAccessibleName(tr("Search the gateway output"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        find(QApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
    auto *copy = new QPushButton(tr("Copy output"), this);
    copy->setAccessibleName(tr("Copy the gateway output"));
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_stderr->toPlainText()); });

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_summary);
    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(copy);
    detailLayout->addLayout(searchRow);
    detailLayout->addWidget(m_stderr, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_list);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    // Several records of one creation arrive in a burst; redraw once.
    m_reloadLater.setSingleShot(true);
    m_reloadLater.setInterval(100);
    connect(&m_reloadLater, &QTimer::timeout, this, &CreationHistoryView::reload);
}

void CreationHistoryView::setJournal(CreationJournal *journal)
{
    if (m_journal)
        m_journal->disconnect(this);
    m_journal = journal;
    if (m_journal)
        connect(m_journal, &CreationJournal::creationChanged, this, [this] { m_reloadLater.start(); });
    reload();
}

void CreationHistoryView::reload()
{
    const QString current = m_list->currentItem() ? m_list->currentItem()->data(0, kCreationIdRole).toString() : QString();
    m_list->clear();
    if (!m_journal) {
        showSelected();
        return;
    }
    const QColor failed(0xd6, 0x3b, 0x3b);
    QTreeWidgetItem *select = nullptr;
    for (const CreationRecord &r : m_journal->history()) {
        auto *item = new QTreeWidgetItem(m_list);
        item->setData(0, kCreationIdRole, r.creationId);
        const QDateTime started = r.startedAt.toLocalTime();
        item->setText(0, started.date() == QDate::currentDate() ? started.time().toString(QStringLiteral("HH:mm:ss"))
                                                                : started.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        item->setToolTip(0, QLocale().toString(started, QLocale::LongFormat));
        item->setText(1, r.templateId);
        item->setText(2, r.mcpServers.join(QStringLiteral(", ")));
        item->setText(3, r.sandboxId);
        item->setFont(3, QFontDatabase::systemFont(QFontDatabase::FixedFont));
        item->setText(4, r.isFinished() ? displayName(r.state) : tr("unfinished (%1)").arg(displayName(r.state)));
        item->setText(5, durationText(r));
        if (isFailure(r.state) || !r.isFinished()) {
            for (int column = 0; column < m_list->columnCount(); ++column)
                item->setForeground(column, failed);
        }
        if (r.creationId == current)
            select = item;
    }
    for (int column : {0, 1, 3, 4, 5})
        m_list->resizeColumnToContents(column);
    if (select)
        m_list->setCurrentItem(select);
    showSelected();
}

void CreationHistoryView::showSelected()
{
    QTreeWidgetItem *item = m_list->currentItem();
    const auto record = item && m_journal ? m_journal->creation(item->data(0, kCreationIdRole).toString())
                                          : std::nullopt;
    if (!record) {
        m_summary->setText(m_list->topLevelItemCount() == 0 ? tr("No creations recorded yet.")
                                                            : tr("Select a creation to see how it went."));
        m_stderr->clear();
        return;
    }
    QStringList lines;
    lines << tr("<b>Creation %1</b>").arg(record->creationId.toHtmlEscaped());
    lines << tr("Started %1; %2.")
                 .arg(QLocale().toString(record->startedAt.toLocalTime(), QLocale::LongFormat),
                      record->isFinished() ? tr("ended %1 as %2")
                                                 .arg(QLocale().toString(record->finishedAt.toLocalTime(), QLocale::LongFormat),
                                                      displayName(record->state))
                                           : tr("never finished (last step: %1)").arg(displayName(record->state)));
    if (!record->sandboxId.isEmpty())
        lines << tr("Sandbox: %1").arg(record->sandboxId.toHtmlEscaped());
    if (!record->error.isEmpty())
        lines << tr("<span style=\"color:#d63b3b\">Error: %1</span>").arg(record->error.toHtmlEscaped());
    if (record->rollback)
        lines << tr("Rollback: %1").arg((record->rollback->summary.isEmpty() ? toString(record->rollback->outcome)
                                                                             : record->rollback->summary)
                                            .toHtmlEscaped());
    if (!record->orphansKilled.isEmpty())
        lines << tr("Orphans killed later: %1").arg(record->orphansKilled.join(QStringLiteral(", ")).toHtmlEscaped());
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_stderr->setPlainText(record->gatewayStderr
                           + (record->gatewayStderrTruncated ? tr("\n[… output truncated]") : QString()));
}

void CreationHistoryView::find(bool backwards)
{
    const QString text = m_search->text();
    if (text.isEmpty())
        return;
    QTextDocument::FindFlags flags;
    if (backwards)
        flags |= QTextDocument::FindBackward;
    if (!m_stderr->find(text, flags)) {
        // Wrap around once.
        m_stderr->moveCursor(backwards ? QTextCursor::End : QTextCursor::Start);
        m_stderr->find(text, flags);
    }
}

} // namespace sd
