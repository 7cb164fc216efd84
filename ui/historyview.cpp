#include "historyview.h"

#include "common/logging.h"
#include "journal/creationjournal.h"

#include <QAction>
#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sd {

namespace {

/// Readable on light and dark palettes alike.
QColor failedColor() { return QColor(0xd6, 0x3b, 0x3b); }
constexpr int maxMarkedMatches = 1000;

/// "0.36 s", "12.3 s", "4 min 05 s": short enough for a column, exact enough to compare.
QString durationText(qint64 ms)
{
    if (ms < 10000)
        return CreationHistoryView::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 2));
    if (ms < 60000)
        return CreationHistoryView::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1));
    const qint64 seconds = ms / 1000;
    return CreationHistoryView::tr("%1 min %2 s")
        .arg(seconds / 60)
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

QString durationText(const CreationRecord &r, bool active)
{
    if (!r.isFinished())
        return active ? CreationHistoryView::tr("running") : CreationHistoryView::tr("unfinished");
    return durationText(r.startedAt.msecsTo(r.finishedAt));
}

/// A time of day to the millisecond, with the date when it is not `day`.
QString stepTime(const QDateTime &time, const QDate &day)
{
    if (!time.isValid())
        return CreationHistoryView::tr("unknown");
    const QDateTime local = time.toLocalTime();
    return local.date() == day ? local.toString(QStringLiteral("HH:mm:ss.zzz"))
                               : local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString orphanText(OrphanReason reason)
{
    switch (reason) {
    case OrphanReason::RollbackFailed:
        return CreationHistoryView::tr(
            "The sandbox may still be running: the orphan list flags it (rollback failed).");
    case OrphanReason::LostResponse:
        return CreationHistoryView::tr(
            "The server may have created a sandbox it never named: the orphan list looks for "
            "it by its creation tag (lost response).");
    case OrphanReason::Interrupted:
    case OrphanReason::GatewayDown:
        break;
    }
    return CreationHistoryView::tr("The orphan list flags what is left (%1).")
        .arg(toString(reason));
}

QString stepText(const CreationStep &step)
{
    switch (step.kind) {
    case CreationStep::Kind::State:
        return displayName(step.state);
    case CreationStep::Kind::SandboxKnown:
        return CreationHistoryView::tr("Sandbox allocated");
    case CreationStep::Kind::Found:
        return step.detail.isEmpty()
            ? CreationHistoryView::tr("Search by creation tag found nothing")
            : CreationHistoryView::tr("Search by creation tag found sandboxes");
    case CreationStep::Kind::GatewayOutput:
        return CreationHistoryView::tr("Gateway start ended; its output was recorded");
    case CreationStep::Kind::OrphanKilled:
        return CreationHistoryView::tr("Removed later as an orphan");
    case CreationStep::Kind::Killed:
        return CreationHistoryView::tr("Sandbox killed");
    case CreationStep::Kind::KillFailed:
        return CreationHistoryView::tr("A later kill failed");
    }
    return {};
}

void setForeground(QTreeWidgetItem *item, const QBrush &brush)
{
    for (int column = 0; column < item->columnCount(); ++column)
        item->setForeground(column, brush);
}

} // namespace

CreationHistoryView::CreationHistoryView(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget(this))
    , m_summary(new QLabel(this))
    , m_timeline(new QTreeWidget(this))
    , m_stderr(new QPlainTextEdit(this))
    , m_search(new QLineEdit(this))
    , m_searchStatus(new QLabel(this))
    , m_outputFilter(new QLineEdit(this))
    , m_outputFilterStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("historyView"));
    setAccessibleName(tr("Creations history"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_list->setObjectName(QStringLiteral("historyList"));
    m_list->setAccessibleName(tr("Creations, newest first"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({ tr("Time"), tr("Template"), tr("MCP servers"), tr("Sandbox"),
        tr("Result"), tr("Duration") });
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &CreationHistoryView::showSelected);

    // Which creation said "connection refused"? Searched across all of them.
    m_outputFilter->setObjectName(QStringLiteral("historyOutputFilter"));
    m_outputFilter->setPlaceholderText(tr("Find creations by their gateway output"));
    m_outputFilter->setAccessibleName(tr("Filter creations by gateway output"));
    m_outputFilter->setClearButtonEnabled(true);
    connect(m_outputFilter, &QLineEdit::textChanged, this, &CreationHistoryView::applyOutputFilter);
    m_outputFilterStatus->setObjectName(QStringLiteral("historyOutputFilterStatus"));
    m_outputFilterStatus->setAccessibleName(tr("Creations shown"));

    m_summary->setObjectName(QStringLiteral("historySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_summary->setAccessibleName(tr("Creation outcome"));
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_timeline->setObjectName(QStringLiteral("historyTimeline"));
    m_timeline->setAccessibleName(tr("State timeline of the selected creation"));
    m_timeline->setRootIsDecorated(false);
    m_timeline->setUniformRowHeights(true);
    m_timeline->setSelectionMode(QAbstractItemView::SingleSelection);
    m_timeline->setHeaderLabels({ tr("Step"), tr("Time"), tr("Since previous"), tr("Detail") });
    m_timeline->header()->setStretchLastSection(true);
    auto *timelineTitle = new QLabel(tr("&Timeline"), this);
    timelineTitle->setBuddy(m_timeline);

    m_stderr->setObjectName(QStringLiteral("historyStderr"));
    m_stderr->setReadOnly(true);
    m_stderr->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_stderr->setFont(fixed);
    m_stderr->setAccessibleName(tr("Gateway stderr"));
    m_stderr->setPlaceholderText(tr("No gateway output recorded."));
    auto *stderrTitle = new QLabel(tr("&Gateway stderr"), this);
    stderrTitle->setBuddy(m_stderr);

    m_search->setObjectName(QStringLiteral("historySearch"));
    m_search->setPlaceholderText(tr("Search the output (Enter: next, Shift+Enter: previous)"));
    m_search->setAccessibleName(tr("Search the gateway output"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        markMatches();
        if (!m_search->text().isEmpty()) {
            // Search as you type, from the top.
            m_stderr->moveCursor(QTextCursor::Start);
            find(false);
        }
    });
    m_searchStatus->setObjectName(QStringLiteral("historySearchStatus"));
    m_searchStatus->setAccessibleName(tr("Search result"));

    const auto addButton = [this](const QString &text, const QString &accessible,
                               QStyle::StandardPixmap icon, QKeySequence::StandardKey key) {
        auto *action = new QAction(style()->standardIcon(icon), text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(
            tr("%1 (%2)").arg(accessible, action->shortcut().toString(QKeySequence::NativeText)));
        addAction(action);
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setAccessibleName(accessible);
        return button;
    };
    QToolButton *previous = addButton(tr("Previous"), tr("Find the previous match"),
        QStyle::SP_ArrowUp, QKeySequence::FindPrevious);
    connect(previous->defaultAction(), &QAction::triggered, this, [this] { find(true); });
    QToolButton *next = addButton(
        tr("Next"), tr("Find the next match"), QStyle::SP_ArrowDown, QKeySequence::FindNext);
    connect(next->defaultAction(), &QAction::triggered, this, [this] { find(false); });
    auto *copy = new QPushButton(tr("&Copy output"), this);
    copy->setObjectName(QStringLiteral("historyCopy"));
    copy->setAccessibleName(tr("Copy the gateway output"));
    copy->setToolTip(tr("Copies the whole gateway stderr of the selected creation"));
    connect(copy, &QPushButton::clicked, this,
        [this] { QGuiApplication::clipboard()->setText(m_stderr->toPlainText()); });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_summary);
    topLayout->addWidget(timelineTitle);
    topLayout->addWidget(m_timeline, 1);

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(stderrTitle);
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_searchStatus);
    searchRow->addWidget(previous);
    searchRow->addWidget(next);
    searchRow->addWidget(copy);
    bottomLayout->addLayout(searchRow);
    bottomLayout->addWidget(m_stderr, 1);

    auto *detail = new QSplitter(Qt::Vertical, this);
    detail->addWidget(top);
    detail->addWidget(bottom);
    detail->setStretchFactor(0, 3);
    detail->setStretchFactor(1, 2);
    detail->setChildrenCollapsible(false);

    auto *listSide = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listSide);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_outputFilter, 1);
    filterRow->addWidget(m_outputFilterStatus);
    listLayout->addLayout(filterRow);
    listLayout->addWidget(m_list, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(listSide);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
}

void CreationHistoryView::setJournal(CreationJournal *journal)
{
    if (m_journal)
        m_journal->disconnect(this);
    m_journal = journal;
    m_listed.reset(); // another API: its list is not known yet
    if (m_journal)
        connect(m_journal, &CreationJournal::creationChanged, this,
            &CreationHistoryView::onCreationChanged);
    reload();
}

void CreationHistoryView::reload()
{
    const QString current = m_list->currentItem()
        ? m_list->currentItem()->data(0, CreationIdRole).toString()
        : QString();
    // One showSelected() at the end: clearing on the way must not reset the detail
    // (and the reader's place in the output) of a creation that is still there.
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    m_rows.clear();
    if (m_journal) {
        for (const CreationRecord &r : m_journal->history()) {
            auto *item = new QTreeWidgetItem(m_list);
            fillRow(item, r);
            m_rows.insert(r.creationId, item);
        }
    }
    for (int column : { 0, 1, 3, 4, 5 })
        m_list->resizeColumnToContents(column);
    if (QTreeWidgetItem *select = m_rows.value(current))
        m_list->setCurrentItem(select);
    int shown = 0;
    for (const QTreeWidgetItem *item : std::as_const(m_rows))
        shown += item->isHidden() ? 0 : 1;
    m_outputFilterStatus->setText(m_outputFilter->text().isEmpty()
            ? QString()
            : tr("Showing %1 of %2").arg(shown).arg(m_rows.size()));
    showSelected();
}

void CreationHistoryView::onCreationChanged(const QString &creationId)
{
    // One row by id, at once: the row is right when the job's finished() arrives,
    // and the list keeps its selection and scroll position.
    QTreeWidgetItem *item = m_rows.value(creationId);
    const auto record = m_journal ? m_journal->creation(creationId) : std::nullopt;
    if (!item || !record || m_rows.size() != m_journal->count() || !m_outputFilter->text().isEmpty()) {
        reload(); // a new creation, some compacted away, or the filter's count to redo
        return;
    }
    fillRow(item, *record);
    m_list->resizeColumnToContents(4); // a later kill lengthens the result
    if (m_list->currentItem() == item)
        showSelected();
}

void CreationHistoryView::fillRow(QTreeWidgetItem *item, const CreationRecord &r)
{
    const bool active = m_journal && m_journal->isActive(r.creationId);
    item->setData(0, CreationIdRole, r.creationId);
    const QDateTime started = r.startedAt.toLocalTime();
    item->setText(0,
        started.date() == QDate::currentDate()
            ? started.time().toString(QStringLiteral("HH:mm:ss"))
            : started.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    item->setToolTip(0, QLocale().toString(started, QLocale::LongFormat));
    item->setText(1, r.templateId);
    item->setToolTip(1, r.templateId);
    item->setText(2, r.mcpServers.join(QStringLiteral(", ")));
    item->setToolTip(2, item->text(2));
    item->setText(3, r.sandboxId);
    item->setToolTip(3, r.sandboxId);
    item->setFont(3, QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QString result = r.isFinished()
        ? displayName(r.shownState())
        : (active ? tr("running (%1)") : tr("unfinished (%1)")).arg(displayName(r.state));
    // What became of its sandbox since, or the row would still read "Ready" (or the
    // step it stopped in) for a sandbox the user has killed from the list.
    if (r.killedAt.isValid()) {
        result = tr("%1 · sandbox killed").arg(result);
    } else if (!r.orphansKilled.isEmpty()) {
        const auto killed = QSet<QString>(r.orphansKilled.begin(), r.orphansKilled.end()).size();
        result = tr("%1 · %n orphan(s) killed", nullptr, int(killed)).arg(result);
    }
    item->setText(4, result);
    // The whole error on hover, where the column is too narrow for it.
    // A cancel's error ("Cancelled") would only repeat the result.
    item->setToolTip(4, r.error.isEmpty() || r.endedCancelled() ? item->text(4)
                                                               : tr("%1: %2").arg(item->text(4), r.error));
    item->setText(5, durationText(r, active));
    const bool failed = r.hasFailed() || (!r.isFinished() && !active);
    item->setData(0, FailedRole, failed);
    setForeground(item, failed ? QBrush(failedColor()) : QBrush());
    item->setData(
        4, Qt::AccessibleTextRole, failed ? tr("%1 (failed)").arg(item->text(4)) : QVariant());
    const QString needle = m_outputFilter->text();
    item->setHidden(!needle.isEmpty() && !r.gatewayStderr.contains(needle, Qt::CaseInsensitive));
}

void CreationHistoryView::setListedSandboxes(const QSet<QString> &sandboxIds)
{
    if (m_listed == sandboxIds)
        return;
    m_listed = sandboxIds;
    showSelected();
}

bool CreationHistoryView::select(const QString &creationId)
{
    QTreeWidgetItem *item = m_rows.value(creationId);
    if (item)
        m_list->setCurrentItem(item);
    return item;
}

void CreationHistoryView::showSelected()
{
    QTreeWidgetItem *item = m_list->currentItem();
    const auto record = item && m_journal
        ? m_journal->creation(item->data(0, CreationIdRole).toString())
        : std::nullopt;
    if (!record) {
        m_summary->setText(m_list->topLevelItemCount() == 0
                ? tr("No creations recorded yet.")
                : tr("Select a creation to see how it went."));
        m_timeline->clear();
        m_stderr->clear();
        m_shownCreation.clear();
        markMatches();
        return;
    }
    const CreationRecord &r = *record;
    const bool active = m_journal->isActive(r.creationId);
    const QLocale locale;
    QStringList lines;
    lines << tr("<b>Creation %1</b>").arg(r.creationId.toHtmlEscaped());
    lines << tr("Template %1; MCP servers: %2; timeout %3 s.")
                 .arg(r.templateId.toHtmlEscaped(),
                     r.hasMcp() ? r.mcpServers.join(QStringLiteral(", ")).toHtmlEscaped()
                                : tr("none"))
                 .arg(r.timeoutSeconds);
    const QString started = locale.toString(r.startedAt.toLocalTime(), QLocale::LongFormat);
    if (r.isFinished())
        lines << tr("Started %1; ended as %2 after %3.")
                     .arg(started, displayName(r.shownState()), durationText(r, active));
    else if (active)
        lines << tr("Started %1; running (now: %2).").arg(started, displayName(r.state));
    else
        lines << tr("Started %1; never finished (last step: %2). The app was closed, killed or "
                    "crashed, or another process still runs it.")
                     .arg(started, displayName(r.state));
    if (!r.sandboxId.isEmpty())
        lines << tr("Sandbox: <tt>%1</tt>").arg(r.sandboxId.toHtmlEscaped());
    if (r.endedCancelled())
        lines << (r.state == CreationState::Cancelled
                ? tr("Cancelled by the user before a sandbox was made.")
                : tr("Cancelled by the user; what it had made was removed."));
    else if (!r.error.isEmpty())
        lines << tr("<span style=\"color:%1\">Error: %2</span>")
                     .arg(failedColor().name(), r.error.toHtmlEscaped());
    if (r.rollback)
        lines << tr("Rollback: %1.").arg(rollbackText(*r.rollback).toHtmlEscaped());
    if (r.orphanReason == OrphanReason::RollbackFailed && m_listed && !r.sandboxId.isEmpty()) {
        // The list says what became of it since.
        const bool running = m_listed->contains(r.sandboxId);
        lines << (running ? tr("The sandbox is still running: the orphan list flags it (rollback failed).")
                          : tr("The sandbox is no longer running (removed since, or its timeout ended)."));
    } else if (r.orphanReason) {
        lines << orphanText(*r.orphanReason).toHtmlEscaped();
    }
    if (r.killedAt.isValid())
        lines << tr("The sandbox was killed later: %1.")
                     .arg(locale.toString(r.killedAt.toLocalTime(), QLocale::LongFormat));
    if (!r.orphansKilled.isEmpty())
        lines << tr("Removed later as orphans: %1")
                     .arg(r.orphansKilled.join(QStringLiteral(", ")).toHtmlEscaped());
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    showTimeline(r);

    // The sandbox wrote this: a bidirectional override would reorder what follows it.
    const QString text = terminalSafe(r.gatewayStderr)
        + (r.gatewayStderrTruncated
                ? tr("\n[… output truncated at %1 KiB]").arg(CreationJournal::maxStderrBytes / 1024)
                : QString());
    // A reload (another creation changed) keeps where the user was reading.
    if (r.creationId != m_shownCreation || text != m_stderr->toPlainText()) {
        m_stderr->setPlainText(text);
        m_shownCreation = r.creationId;
        markMatches();
    }
}

void CreationHistoryView::showTimeline(const CreationRecord &r)
{
    m_timeline->clear();
    const QDate day = r.startedAt.toLocalTime().date();
    const bool active = m_journal && m_journal->isActive(r.creationId);
    QFont bold = m_timeline->font();
    bold.setBold(true);
    const QBrush eventBrush = palette().brush(QPalette::PlaceholderText);
    QDateTime previous;
    qsizetype lastState = -1;
    for (qsizetype i = 0; i < r.timeline.size(); ++i) {
        if (r.timeline.at(i).kind == CreationStep::Kind::State)
            lastState = i;
    }
    for (qsizetype i = 0; i < r.timeline.size(); ++i) {
        const CreationStep &step = r.timeline.at(i);
        auto *item = new QTreeWidgetItem(m_timeline);
        const bool isState = step.kind == CreationStep::Kind::State;
        // A cancel ends in a rollback; its last step says who ended it.
        item->setText(StepColumn,
            isState && i == lastState && r.isFinished() ? displayName(r.shownState())
                                                        : stepText(step));
        item->setText(TimeColumn, stepTime(step.time, day));
        item->setText(SinceColumn,
            previous.isValid() && step.time.isValid()
                ? tr("+%1").arg(durationText(previous.msecsTo(step.time)))
                : (i == 0 ? tr("+%1").arg(durationText(0)) : QString()));
        item->setFont(TimeColumn, QFontDatabase::systemFont(QFontDatabase::FixedFont));
        QString detail = step.detail;
        if (isState && isFinal(step.state) && r.rollback
            && (step.state == CreationState::RolledBack
                || step.state == CreationState::RollbackFailed))
            detail = rollbackText(*r.rollback);
        else if (i == lastState && !r.isFinished())
            detail = active ? tr("in progress") : tr("stopped here: the creation never finished");
        else if (step.interrupted)
            detail = tr("stopped here by the cancel");
        item->setText(DetailColumn, detail);
        item->setToolTip(DetailColumn, detail);
        item->setToolTip(StepColumn, item->text(StepColumn));
        item->setData(0, FailedRole, step.failed);
        if (step.failed) {
            setForeground(item, failedColor());
            item->setFont(StepColumn, bold);
            item->setIcon(StepColumn, style()->standardIcon(QStyle::SP_DialogCancelButton));
            item->setData(StepColumn, Qt::AccessibleTextRole, tr("%1 (failed)").arg(item->text(0)));
        } else if (!isState || step.interrupted) {
            setForeground(item, eventBrush);
        } else if (isFinal(step.state) || i < lastState) {
            item->setIcon(StepColumn, style()->standardIcon(QStyle::SP_DialogApplyButton));
        }
        if (step.time.isValid())
            previous = step.time;
    }
    for (int column : { StepColumn, TimeColumn, SinceColumn })
        m_timeline->resizeColumnToContents(column);
}

QString CreationHistoryView::searchStatus() const { return m_searchStatus->text(); }

QString CreationHistoryView::outputFilterStatus() const { return m_outputFilterStatus->text(); }

void CreationHistoryView::applyOutputFilter()
{
    // reload() hides what does not match; the shown creation's matches are marked too.
    reload();
    if (!m_list->currentItem() || m_list->currentItem()->isHidden()) {
        QTreeWidgetItem *firstShown = nullptr;
        for (int i = 0; i < m_list->topLevelItemCount() && !firstShown; ++i) {
            if (!m_list->topLevelItem(i)->isHidden())
                firstShown = m_list->topLevelItem(i);
        }
        m_list->setCurrentItem(firstShown);
    }
    if (!m_outputFilter->text().isEmpty())
        m_search->setText(m_outputFilter->text());
}

bool CreationHistoryView::find(bool backwards)
{
    const QString text = m_search->text();
    if (text.isEmpty())
        return false;
    QTextDocument::FindFlags flags;
    if (backwards)
        flags |= QTextDocument::FindBackward;
    if (m_stderr->find(text, flags))
        return true;
    // Wrap around once.
    const QTextCursor before = m_stderr->textCursor();
    m_stderr->moveCursor(backwards ? QTextCursor::End : QTextCursor::Start);
    if (m_stderr->find(text, flags))
        return true;
    m_stderr->setTextCursor(before);
    return false;
}

void CreationHistoryView::markMatches()
{
    const QString text = m_search->text();
    QList<QTextEdit::ExtraSelection> marks;
    if (text.isEmpty()) {
        m_searchStatus->clear();
        m_stderr->setExtraSelections(marks);
        return;
    }
    // Every match, so the eye finds them all while Enter steps through them.
    QTextDocument *document = m_stderr->document();
    QTextCursor cursor(document);
    int count = 0;
    while (true) {
        cursor = document->find(text, cursor);
        if (cursor.isNull())
            break;
        ++count;
        if (marks.size() < maxMarkedMatches) {
            QTextEdit::ExtraSelection mark;
            mark.cursor = cursor;
            mark.format.setBackground(palette().color(QPalette::Highlight).lighter(160));
            mark.format.setForeground(palette().color(QPalette::HighlightedText).darker(300));
            marks << mark;
        }
    }
    m_stderr->setExtraSelections(marks);
    m_searchStatus->setText(count == 0 ? tr("No match") : tr("%n match(es)", nullptr, count));
}

bool CreationHistoryView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            find(key->modifiers() & Qt::ShiftModifier);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace sd
