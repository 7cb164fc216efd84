#include "creationspanel.h"

#include "creation/creationjob.h"
#include "creation/creationregistry.h"
#include "journal/creationjournal.h"
#include "session/session.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sd {

namespace {

constexpr int kVisibleRows = 3;

} // namespace

CreationsPanel::CreationsPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("creationsPanel"));
    setAccessibleName(tr("Running creations"));
    m_title->setObjectName(QStringLiteral("creationsPanelTitle"));
    m_list->setObjectName(QStringLiteral("creationsList"));
    m_list->setAccessibleName(tr("Creations running now"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    m_list->setFocusPolicy(Qt::NoFocus); // the Cancel buttons take the focus
    m_list->setHeaderLabels(
        { tr("Template"), tr("MCP servers"), tr("Started"), tr("Step"), tr("Sandbox"), QString() });
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(McpColumn, QHeaderView::Stretch);
    // A few rows in sight; more scroll.
    const int rowHeight = QToolButton().sizeHint().height() + 2;
    m_list->setFixedHeight(m_list->header()->sizeHint().height() + kVisibleRows * rowHeight
        + 2 * m_list->frameWidth());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_list);
    hide();
}

void CreationsPanel::addSession(Session *session)
{
    if (!session || m_sessions.contains(session))
        return;
    m_sessions.append(session);
    connect(session->creations(), &CreationRegistry::activeChanged, this, &CreationsPanel::sync);
    connect(session, &QObject::destroyed, this, &CreationsPanel::sync, Qt::QueuedConnection);
    sync();
}

QTreeWidgetItem *CreationsPanel::row(const QString &creationId) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(0, CreationIdRole).toString() == creationId)
            return item;
    }
    return nullptr;
}

bool CreationsPanel::cancel(const QString &creationId)
{
    CreationJob *job = m_jobs.value(creationId);
    if (!job || job->isFinished() || job->isCancelRequested()
        || job->state() == CreationState::RollingBack)
        return false;
    job->cancel();
    if (QTreeWidgetItem *item = row(creationId))
        fillRow(item, job);
    Q_EMIT cancelRequested(creationId);
    return true;
}

void CreationsPanel::sync()
{
    m_sessions.removeAll(nullptr);
    QHash<QString, QPointer<CreationJob>> running;
    QHash<QString, QPointer<CreationJournal>> journals;
    for (Session *session : std::as_const(m_sessions)) {
        for (CreationJob *job : session->creations()->active()) {
            running.insert(job->creationId(), job);
            journals.insert(job->creationId(), session->journal());
        }
    }
    m_journals = journals;
    // Rows of creations that ended go; their outcome is in the history.
    for (int i = m_list->topLevelItemCount() - 1; i >= 0; --i) {
        if (!running.contains(m_list->topLevelItem(i)->data(0, CreationIdRole).toString()))
            delete m_list->takeTopLevelItem(i);
    }
    for (auto it = running.cbegin(); it != running.cend(); ++it) {
        if (m_jobs.contains(it.key()) && row(it.key()))
            continue;
        CreationJob *job = it.value();
        auto *item = new QTreeWidgetItem;
        item->setData(0, CreationIdRole, job->creationId());
        item->setFont(SandboxColumn, QFontDatabase::systemFont(QFontDatabase::FixedFont));
        m_list->insertTopLevelItem(0, item);
        auto *cancelButton = new QToolButton(m_list);
        cancelButton->setObjectName(QStringLiteral("cancelCreation"));
        cancelButton->setText(tr("Cancel"));
        cancelButton->setToolTip(tr("Cancel this creation and remove what it has created so far"));
        cancelButton->setAccessibleName(tr("Cancel the creation from %1").arg(job->templateId()));
        const QString id = job->creationId();
        connect(cancelButton, &QToolButton::clicked, this, [this, id] { cancel(id); });
        m_list->setItemWidget(item, CancelColumn, cancelButton);
        fillRow(item, job);
        // The step as it changes; the journal already holds it for the history.
        connect(job, &CreationJob::stateChanged, this, [this, id] {
            if (QTreeWidgetItem *changed = row(id); changed && m_jobs.value(id))
                fillRow(changed, m_jobs.value(id));
        });
        connect(job, &CreationJob::sandboxAllocated, this, [this, id] {
            if (QTreeWidgetItem *changed = row(id); changed && m_jobs.value(id))
                fillRow(changed, m_jobs.value(id));
        });
    }
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it) {
        if (it.value() && !running.contains(it.key()))
            it.value()->disconnect(this);
    }
    m_jobs = running;
    for (int column : { TemplateColumn, StartedColumn, StepColumn, SandboxColumn, CancelColumn })
        m_list->resizeColumnToContents(column);
    const int count = m_list->topLevelItemCount();
    m_title->setText(
        tr("Creations running: %n (they end in the creations history, Ctrl+H)", nullptr, count));
    setVisible(count > 0);
}

void CreationsPanel::fillRow(QTreeWidgetItem *item, const CreationJob *job)
{
    // The journal names the servers and the start once the intent is written, which is
    // after the job was handed over.
    const CreationJournal *journal = m_journals.value(job->creationId());
    if (const auto record = journal && item->text(StartedColumn).isEmpty()
            ? journal->creation(job->creationId())
            : std::nullopt) {
        item->setText(McpColumn,
            record->hasMcp() ? record->mcpServers.join(QStringLiteral(", ")) : tr("none"));
        item->setToolTip(McpColumn, item->text(McpColumn));
        const QDateTime started = record->startedAt.toLocalTime();
        item->setText(StartedColumn, started.time().toString(QStringLiteral("HH:mm:ss")));
        item->setToolTip(StartedColumn, QLocale().toString(started, QLocale::LongFormat));
        m_list->resizeColumnToContents(StartedColumn);
    }
    item->setText(TemplateColumn, job->templateId());
    item->setToolTip(TemplateColumn, tr("Creation %1").arg(job->creationId()));
    const bool rollingBack = job->state() == CreationState::RollingBack;
    QString step = displayName(job->state());
    if (job->isCancelRequested())
        step = rollingBack ? tr("Cancelled: removing what it created") : tr("Cancelling…");
    item->setText(StepColumn, step);
    item->setText(SandboxColumn, job->sandboxId());
    item->setToolTip(SandboxColumn, job->sandboxId());
    // A rollback runs to its end: cancelling it would leave more behind.
    if (auto *button = qobject_cast<QToolButton *>(m_list->itemWidget(item, CancelColumn)))
        button->setEnabled(!rollingBack && !job->isCancelRequested());
    m_list->resizeColumnToContents(StepColumn);
    m_list->resizeColumnToContents(SandboxColumn);
}

} // namespace sd
