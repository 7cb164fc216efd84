#include "detailpane.h"

#include "common/logging.h"
#include "detailtabs.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sd {

QString sandboxMcpUrl(const ConnectionSettings &connection, const Sandbox &sandbox)
{
    if (sandbox.domain.isEmpty() && connection.domain.isEmpty())
        return {};
    return connection.mcpUrl(sandbox.sandboxId, sandbox.domain).toString();
}

DetailPane::DetailPane(QWidget *parent)
    : QWidget(parent)
    , m_stack(new QStackedWidget(this))
    , m_placeholder(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_form(new QFormLayout)
    , m_metadata(new QTableWidget(0, 2, this))
    , m_title(new QLabel(this))
{
    setObjectName(QStringLiteral("detailPane"));
    setAccessibleName(tr("Sandbox details"));

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setEnabled(false);
    m_placeholder->setText(tr("Select a sandbox to see its details."));

    QFont titleFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_title->setAccessibleName(tr("Sandbox ID"));

    auto *details = new QWidget;
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->addWidget(m_title);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignLeft);
    addField(QStringLiteral("state"), tr("State"));
    addField(QStringLiteral("template"), tr("Template"));
    addField(QStringLiteral("started"), tr("Started"));
    addField(QStringLiteral("ends"), tr("Ends"));
    addField(QStringLiteral("timeLeft"), tr("Time left"));
    addField(QStringLiteral("resources"), tr("Resources"));
    addField(QStringLiteral("envd"), tr("envd version"));
    addField(QStringLiteral("client"), tr("Client ID"));
    addField(QStringLiteral("internet"), tr("Internet access"));
    addField(QStringLiteral("orphan"), tr("Orphan"));

    auto *mcpRow = new QWidget;
    auto *mcpLayout = new QHBoxLayout(mcpRow);
    mcpLayout->setContentsMargins(0, 0, 0, 0);
    auto *mcpLabel = new QLabel;
    mcpLabel->setTextFormat(Qt::PlainText);
    mcpLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    mcpLabel->setWordWrap(true);
    mcpLabel->setAccessibleName(tr("MCP URL"));
    auto *copyMcp = new QPushButton(tr("Copy"));
    m_copyMcp = copyMcp;
    copyMcp->setAccessibleName(tr("Copy MCP URL"));
    connect(copyMcp, &QPushButton::clicked, this,
            [this] { Q_EMIT copyRequested(m_mcpUrl, tr("MCP URL")); });
    mcpLayout->addWidget(mcpLabel, 1);
    mcpLayout->addWidget(copyMcp, 0, Qt::AlignTop);
    m_form->addRow(tr("MCP URL"), mcpRow);
    m_fields.insert(QStringLiteral("mcp"), mcpLabel);
    detailsLayout->addLayout(m_form);

    auto *metadataTitle = new QLabel(tr("Metadata"));
    QFont bold = metadataTitle->font();
    bold.setBold(true);
    metadataTitle->setFont(bold);
    detailsLayout->addWidget(metadataTitle);
    m_metadata->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
    m_metadata->horizontalHeader()->setStretchLastSection(true);
    m_metadata->verticalHeader()->hide();
    m_metadata->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_metadata->setObjectName(QStringLiteral("sandboxMetadata"));
    m_metadata->setAccessibleName(tr("Metadata"));
    m_metadata->setMinimumHeight(80);
    detailsLayout->addWidget(m_metadata, 1);

    auto *scroll = new QScrollArea;
    scroll->setWidget(details);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_tabs->addTab(scroll, tr("Details"));
    m_logs = new LogsTab(m_tabs);
    m_metrics = new MetricsTab(m_tabs);
    m_processes = new ProcessesTab(m_tabs);
    m_tabs->addTab(m_logs, tr("Logs"));
    m_tabs->addTab(m_metrics, tr("Metrics"));
    m_tabs->addTab(m_processes, tr("Processes"));
    m_tabs->setAccessibleName(tr("Sandbox detail tabs"));

    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_tabs);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void DetailPane::setBackend(QNetworkAccessManager *network, const ConnectionSettings &connection)
{
    m_logs->setBackend(network, connection);
    m_metrics->setBackend(network, connection);
    m_processes->setBackend(network, connection);
}

QLabel *DetailPane::addField(const QString &key, const QString &label)
{
    auto *value = new QLabel;
    // What the server says about a sandbox is shown as text, never as HTML.
    value->setTextFormat(Qt::PlainText);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    value->setWordWrap(true);
    value->setAccessibleName(label);
    m_form->addRow(label, value);
    m_fields.insert(key, value);
    return value;
}

QString DetailPane::fieldText(const QString &field) const
{
    if (field == QLatin1String("id"))
        return m_title->text();
    const QLabel *label = m_fields.value(field);
    return label ? label->text() : QString();
}

void DetailPane::showSandbox(const Sandbox *sandbox, const std::optional<OrphanFlag> &orphan,
                             const ConnectionSettings &connection, const QDateTime &now,
                             const QString &placeholder)
{
    const QString shownId = sandbox ? sandbox->sandboxId : QString();
    for (DetailTab *tab : {static_cast<DetailTab *>(m_logs), static_cast<DetailTab *>(m_metrics),
                           static_cast<DetailTab *>(m_processes)})
        tab->setSandboxId(shownId);
    if (!sandbox) {
        m_sandboxId.clear();
        m_placeholder->setText(placeholder.isEmpty() ? tr("Select a sandbox to see its details.")
                                                     : placeholder);
        m_stack->setCurrentWidget(m_placeholder);
        return;
    }
    const bool sameSandbox = m_sandboxId == sandbox->sandboxId;
    m_sandboxId = sandbox->sandboxId;
    m_stack->setCurrentWidget(m_tabs);
    m_title->setText(sandbox->sandboxId);

    const auto set = [this](const char *key, const QString &text) {
        QLabel *label = m_fields.value(QLatin1String(key));
        if (label->text() != text)
            label->setText(text);
    };
    QString state = sandbox->state == SandboxState::Paused ? tr("paused") : tr("running");
    if (orphan)
        state = orphan->suspected ? tr("%1 · suspected orphan").arg(state)
                                  : tr("%1 · orphan").arg(state);
    set("state", state);
    set("template", sandbox->alias.isEmpty() || sandbox->alias == sandbox->templateId
                        ? sandbox->templateId
                                             : tr("%1 (%2)").arg(sandbox->alias, sandbox->templateId));
    const QString timeFormat = QStringLiteral("yyyy-MM-dd HH:mm:ss");
    set("started", sandbox->startedAt.toLocalTime().toString(timeFormat));
    set("ends", sandbox->state == SandboxState::Paused ? tr("never while paused")
                                                       : sandbox->endAt.toLocalTime().toString(timeFormat));
    const qint64 left = now.secsTo(sandbox->endAt);
    set("timeLeft",
        sandbox->state == SandboxState::Paused ? tr("paused")
            : left > 0                         ? SandboxTableModel::formatDuration(left)
                                               : tr("expiring"));
    QString resources = tr("%n vCPU", nullptr, sandbox->cpuCount) + QStringLiteral(", ")
                        + tr("%1 MiB RAM").arg(sandbox->memoryMB);
    if (sandbox->diskSizeMB > 0)
        resources += QStringLiteral(", ") + tr("%1 MiB disk").arg(sandbox->diskSizeMB);
    set("resources", resources);
    set("envd", sandbox->envdVersion.isEmpty() ? tr("unknown") : sandbox->envdVersion);
    set("client", sandbox->clientId.isEmpty() ? tr("unknown") : sandbox->clientId);
    // Not set when created: E2B then allows it (allowInternetAccess defaults to true).
    set("internet",
        !sandbox->allowInternetAccess.has_value() ? tr("allowed (default)")
            : *sandbox->allowInternetAccess       ? tr("allowed")
                                                  : tr("blocked"));
    if (orphan) {
        // The reason is a sentence without its full stop (the table shows it after a
        // colon); the evidence is the next sentence.
        set("orphan", orphan->evidence.isEmpty()
                ? orphan->reason
                : orphan->reason + (orphan->reason.endsWith(QLatin1Char('.')) ? QString() : QStringLiteral("."))
                    + QLatin1Char('\n') + orphan->evidence);
    } else {
        set("orphan", tr("no"));
    }
    m_mcpUrl = sandboxMcpUrl(connection, *sandbox);
    set("mcp", m_mcpUrl.isEmpty() ? tr("none (no public domain for this sandbox)") : m_mcpUrl);
    m_copyMcp->setEnabled(!m_mcpUrl.isEmpty());

    // Whoever created the sandbox wrote its metadata: shown with its control and
    // reordering characters as escapes.
    QList<std::pair<QString, QString>> metadata;
    for (auto it = sandbox->metadata.begin(); it != sandbox->metadata.end(); ++it)
        metadata.append({ terminalSafe(it.key(), false), terminalSafe(it.value(), false) });
    if (!sameSandbox || m_metadata->rowCount() != metadata.size() || [&] {
            for (int row = 0; row < metadata.size(); ++row) {
                if (m_metadata->item(row, 0)->text() != metadata.at(row).first
                    || m_metadata->item(row, 1)->text() != metadata.at(row).second)
                    return true;
            }
            return false;
        }()) {
        m_metadata->setRowCount(int(metadata.size()));
        for (int row = 0; row < metadata.size(); ++row) {
            // Cut at the column's edge, whole on hover. Metadata is not secret (the New
            // sandbox dialog shows it in clear; environment values never reach this pane).
            for (int column : { 0, 1 }) {
                const QString &text
                    = column == 0 ? metadata.at(row).first : metadata.at(row).second;
                auto *item = new QTableWidgetItem(text);
                // As escaped rich text: wrapped when long, never read as markup.
                item->setToolTip(QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>")
                                     .arg(text.toHtmlEscaped()));
                m_metadata->setItem(row, column, item);
            }
        }
    }
}

} // namespace sd
