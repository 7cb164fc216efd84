#include "detailtabs.h"

#include "api/infojobs.h"
#include "api/sandboxjobs.h"
#include "creation/envdaccess.h"
#include "envd/processjobs.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

namespace sd {

namespace {

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    return table;
}

// envd needs the sandbox's access token, which only the detail answer carries:
// GET /sandboxes/{id}, then envd List.
class SandboxProcessesJob : public Job
{
public:
    SandboxProcessesJob(QNetworkAccessManager *network, ConnectionSettings connection, QString sandboxId,
                        QObject *parent)
        : Job(parent)
        , m_network(network)
        , m_connection(std::move(connection))
        , m_sandboxId(std::move(sandboxId))
    {
    }

    QList<ProcessInfo> processes;

protected:
    void doStart() override
    {
        auto *get = new GetSandboxJob(m_network, m_connection, m_sandboxId, this);
        m_step = get;
        connect(get, &Job::finished, this, [this, get] {
            if (get->hasError()) {
                emitError(get->error());
                return;
            }
            auto *list = new ListProcessesJob(m_network, envdTargetFor(m_connection, get->sandbox()), this);
            m_step = list;
            connect(list, &Job::finished, this, [this, list] {
                if (list->hasError()) {
                    emitError(list->error());
                    return;
                }
                processes = list->processes();
                emitResult();
            });
            list->start();
        });
        get->start();
    }

    void doCancel() override
    {
        if (m_step)
            m_step->cancel(); // ends in its finished(), which reports the cancel
        else
            emitError(Error::cancelled());
    }

private:
    QNetworkAccessManager *m_network;
    ConnectionSettings m_connection;
    QString m_sandboxId;
    QPointer<Job> m_step;
};

} // namespace

// --- DetailTab ---------------------------------------------------------------------

DetailTab::DetailTab(QWidget *parent)
    : QWidget(parent)
    , m_tools(new QHBoxLayout)
    , m_status(new QLabel(this))
    , m_body(new QVBoxLayout(this))
{
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // it quotes the server's errors
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    refresh->setAccessibleName(tr("Refresh this tab"));
    connect(refresh, &QPushButton::clicked, this, &DetailTab::reload);
    m_tools->addStretch();
    m_tools->addWidget(refresh);
    m_body->setContentsMargins(4, 4, 4, 4);
    m_body->addLayout(m_tools);
    m_body->addWidget(m_status);
}

void DetailTab::setBackend(QNetworkAccessManager *network, const ConnectionSettings &connection)
{
    m_network = network;
    m_connection = connection;
    m_loadedFor.clear();
}

void DetailTab::setSandboxId(const QString &sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_loadedFor.clear();
    if (m_job)
        m_job->cancel();
    clearContent();
    setStatus({});
    if (isVisible())
        reload();
}

void DetailTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_loadedFor != m_sandboxId)
        reload();
}

void DetailTab::reload()
{
    if (!m_network || m_sandboxId.isEmpty() || m_job)
        return;
    Job *job = makeJob();
    m_job = job;
    m_loadedFor = m_sandboxId;
    setStatus(tr("Loading…"));
    const QString forId = m_sandboxId;
    connect(job, &Job::finished, this, [this, job, forId] {
        if (forId != m_sandboxId)
            return; // an answer for a sandbox no longer shown
        if (job->hasError()) {
            // What was shown before is no longer known to be true: no stale rows under the error.
            clearContent();
            setStatus(job->error().message());
            Q_EMIT loaded(false);
            return;
        }
        setStatus({});
        showResult(job);
        Q_EMIT loaded(true);
    });
    job->start();
}

QString DetailTab::statusText() const
{
    return m_status->text();
}

void DetailTab::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

// --- LogsTab -----------------------------------------------------------------------

LogsTab::LogsTab(QWidget *parent)
    : DetailTab(parent)
    , m_table(makeTable({tr("Time"), tr("Level"), tr("Message")}, this))
    , m_entryView(new QPlainTextEdit(this))
    , m_level(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_follow(new QCheckBox(tr("&Follow"), this))
{
    setObjectName(QStringLiteral("logsTab"));
    m_table->setObjectName(QStringLiteral("logsTable"));
    m_table->setAccessibleName(tr("Sandbox logs"));
    m_level->setAccessibleName(tr("Log level"));
    m_level->addItem(tr("All levels"), QString());
    for (const char *level : {"debug", "info", "warn", "error"})
        m_level->addItem(QString::fromLatin1(level), QString::fromLatin1(level));
    m_search->setPlaceholderText(tr("Search logs"));
    m_search->setAccessibleName(tr("Search logs"));
    m_search->setClearButtonEnabled(true);
    m_follow->setToolTip(tr("Fetch new entries every 5 seconds and keep the newest in view"));
    toolRow()->insertWidget(0, m_level);
    toolRow()->insertWidget(1, m_search, 1);
    toolRow()->insertWidget(2, m_follow);
    m_body->insertWidget(1, m_table, 1);
    m_entryView->setObjectName(QStringLiteral("logEntryView"));
    m_entryView->setAccessibleName(tr("The selected log entry in full"));
    m_entryView->setReadOnly(true);
    m_entryView->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_entryView->setMaximumHeight(m_entryView->fontMetrics().lineSpacing() * 5 + 12);
    m_entryView->hide();
    m_body->insertWidget(2, m_entryView);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        const QTableWidgetItem *time = m_table->item(row, 0);
        const QTableWidgetItem *level = m_table->item(row, 1);
        const QTableWidgetItem *message = m_table->item(row, 2);
        const bool shown = time && level && message;
        m_entryView->setPlainText(
            shown ? QStringLiteral("%1  %2\n%3").arg(time->toolTip(), level->text(), message->text()) : QString());
        m_entryView->setVisible(shown);
    });
    connect(m_level, &QComboBox::currentIndexChanged, this, &LogsTab::applyFilter);
    connect(m_search, &QLineEdit::textChanged, this, &LogsTab::applyFilter);
    m_followTimer.setInterval(5000);
    connect(&m_followTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            reload();
    });
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_followTimer.start();
            reload();
        } else {
            m_followTimer.stop();
        }
    });
}

Job *LogsTab::makeJob()
{
    return new SandboxLogsJob(m_network, m_connection, m_sandboxId, this);
}

void LogsTab::showResult(Job *job)
{
    m_entries = static_cast<SandboxLogsJob *>(job)->entries();
    applyFilter();
    if (m_follow->isChecked())
        m_table->scrollToBottom();
}

void LogsTab::clearContent()
{
    m_entries.clear();
    m_table->setRowCount(0);
}

void LogsTab::applyFilter()
{
    const QString level = m_level->currentData().toString();
    const QString needle = m_search->text();
    m_table->setRowCount(0);
    const QColor errorColour(0xd6, 0x3b, 0x3b);
    for (const SandboxLogEntry &entry : std::as_const(m_entries)) {
        if (!level.isEmpty() && entry.level.compare(level, Qt::CaseInsensitive) != 0)
            continue;
        if (!needle.isEmpty() && !entry.message.contains(needle, Qt::CaseInsensitive))
            continue;
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(entry.timestamp.toLocalTime().toString(QStringLiteral("HH:mm:ss"))));
        m_table->item(row, 0)->setToolTip(entry.timestamp.toLocalTime().toString(Qt::ISODateWithMs));
        m_table->setItem(row, 1, new QTableWidgetItem(entry.level));
        // Cut at the column's edge: the whole message on hover.
        auto *message = new QTableWidgetItem(entry.message);
        message->setToolTip(entry.message);
        m_table->setItem(row, 2, message);
        if (entry.level.startsWith(QLatin1String("err"), Qt::CaseInsensitive)) {
            for (int column = 0; column < 3; ++column)
                m_table->item(row, column)->setForeground(errorColour);
        }
    }
    m_table->resizeColumnToContents(0);
    m_table->resizeColumnToContents(1);
    if (m_entries.isEmpty())
        setStatus(tr("No log entries."));
}

// --- MetricsTab --------------------------------------------------------------------

MetricsTab::MetricsTab(QWidget *parent)
    : DetailTab(parent)
    , m_view(new QChartView(this))
    , m_cpu(new QLineSeries)
    , m_memory(new QLineSeries)
{
    setObjectName(QStringLiteral("metricsTab"));
    m_cpu->setName(tr("CPU %"));
    m_memory->setName(tr("Memory MiB"));
    auto *chart = new QChart;
    chart->addSeries(m_cpu);
    chart->addSeries(m_memory);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    // The chart follows the application palette rather than a fixed theme.
    chart->setBackgroundBrush(palette().color(QPalette::Base));
    chart->setTitleBrush(palette().color(QPalette::Text));
    chart->legend()->setLabelColor(palette().color(QPalette::Text));
    auto *time = new QDateTimeAxis;
    time->setFormat(QStringLiteral("HH:mm"));
    auto *cpuAxis = new QValueAxis;
    cpuAxis->setRange(0, 100);
    cpuAxis->setTitleText(tr("CPU %"));
    auto *memAxis = new QValueAxis;
    memAxis->setTitleText(tr("MiB"));
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(time), static_cast<QAbstractAxis *>(cpuAxis),
                                static_cast<QAbstractAxis *>(memAxis)}) {
        axis->setLabelsColor(palette().color(QPalette::Text));
        axis->setTitleBrush(palette().color(QPalette::Text));
    }
    chart->addAxis(time, Qt::AlignBottom);
    chart->addAxis(cpuAxis, Qt::AlignLeft);
    chart->addAxis(memAxis, Qt::AlignRight);
    m_cpu->attachAxis(time);
    m_cpu->attachAxis(cpuAxis);
    m_memory->attachAxis(time);
    m_memory->attachAxis(memAxis);
    m_view->setChart(chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setAccessibleName(tr("CPU and memory over time"));
    m_body->insertWidget(1, m_view, 1);
}

Job *MetricsTab::makeJob()
{
    auto *job = new SandboxMetricsJob(m_network, m_connection, m_sandboxId, this);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    job->setInterval(now.addSecs(-3600), now);
    return job;
}

void MetricsTab::showResult(Job *job)
{
    const QList<SandboxMetric> metrics = static_cast<SandboxMetricsJob *>(job)->metrics();
    QList<QPointF> cpu;
    QList<QPointF> memory;
    double maxMemory = 1;
    for (const SandboxMetric &m : metrics) {
        const double t = double(m.timestamp.toMSecsSinceEpoch());
        cpu.append({t, m.cpuUsedPct});
        memory.append({t, double(m.memUsed) / (1024 * 1024)});
        maxMemory = std::max({maxMemory, double(m.memTotal) / (1024 * 1024), memory.last().y()});
    }
    m_cpu->replace(cpu);
    m_memory->replace(memory);
    const auto axes = m_view->chart()->axes();
    for (QAbstractAxis *axis : axes) {
        if (auto *time = qobject_cast<QDateTimeAxis *>(axis); time && !metrics.isEmpty())
            time->setRange(metrics.first().timestamp.toLocalTime(), metrics.last().timestamp.toLocalTime());
        if (auto *value = qobject_cast<QValueAxis *>(axis); value && value->alignment() == Qt::AlignRight)
            value->setRange(0, maxMemory);
    }
    if (metrics.isEmpty())
        setStatus(tr("No samples yet."));
}

void MetricsTab::clearContent()
{
    m_cpu->clear();
    m_memory->clear();
}

// --- ProcessesTab ------------------------------------------------------------------

ProcessesTab::ProcessesTab(QWidget *parent)
    : DetailTab(parent)
    , m_table(makeTable({tr("PID"), tr("Tag"), tr("Command")}, this))
{
    setObjectName(QStringLiteral("processesTab"));
    m_table->setObjectName(QStringLiteral("processesTable"));
    m_table->setAccessibleName(tr("Processes in the sandbox"));
    m_table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->insertWidget(1, m_table, 1);
}

Job *ProcessesTab::makeJob()
{
    return new SandboxProcessesJob(m_network, m_connection, m_sandboxId, this);
}

void ProcessesTab::showResult(Job *job)
{
    const QList<ProcessInfo> processes = static_cast<SandboxProcessesJob *>(job)->processes;
    m_table->setRowCount(int(processes.size()));
    int row = 0;
    for (const ProcessInfo &p : processes) {
        auto *pid = new QTableWidgetItem;
        pid->setData(Qt::DisplayRole, p.pid);
        m_table->setItem(row, 0, pid);
        m_table->setItem(row, 1, new QTableWidgetItem(p.tag));
        // Arguments only (environment values may be secrets), and never the gateway's
        // configuration, which holds MCP option values.
        QString command = (QStringList{p.config.cmd} + p.config.args).join(QLatin1Char(' '));
        if (const qsizetype config = command.indexOf(QLatin1String("--config")); config >= 0)
            command = command.left(config) + tr("--config (hidden: holds secrets)");
        auto *commandItem = new QTableWidgetItem(command);
        commandItem->setToolTip(command);
        m_table->setItem(row, 2, commandItem);
        ++row;
    }
    m_table->resizeColumnToContents(0);
    if (processes.isEmpty())
        setStatus(tr("No processes."));
}

void ProcessesTab::clearContent()
{
    m_table->setRowCount(0);
}

} // namespace sd
