#include "newsandboxdialog.h"

#include "common/logging.h"
#include "mcp/mcpcommand.h"
#include "session/session.h"

#include "keyvaluetable.h"
#include "messagebanner.h"
#include "mcp/mcpconfigcheck.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sd {

namespace {

const QString kReservedPrefix = QStringLiteral("sandbox-desk.");
constexpr int kMaxTimeoutMinutes = kMaxTimeoutSeconds / 60;

/// Minutes, from 1 to the API's 24 hours. A whole number outside that range stays as
/// typed, for the dialog to name the range and hold Create back: a spin box cuts it
/// short keystroke by keystroke instead (99999999 quietly read 999), or shows a 0 it
/// does not take while the sandbox gets the value before it.
class TimeoutSpinBox : public QSpinBox
{
public:
    using QSpinBox::QSpinBox;

    QLineEdit *editor() const { return lineEdit(); }

protected:
    QValidator::State validate(QString &text, int &pos) const override
    {
        const QValidator::State state = QSpinBox::validate(text, pos);
        if (state != QValidator::Invalid)
            return state;
        QString number = text;
        if (number.endsWith(suffix()))
            number.chop(suffix().size());
        static const QRegularExpression digits(QStringLiteral("^\\s*[0-9]{1,12}\\s*$"));
        return digits.match(number).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
    }

    void keyPressEvent(QKeyEvent *event) override
    {
        // Enter would put the last valid number back and create with it at once.
        if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
            && !hasAcceptableInput()) {
            event->accept();
            return;
        }
        QSpinBox::keyPressEvent(event);
    }
};
constexpr int kServerIdRole = Qt::UserRole + 1;
constexpr int kStateRole = Qt::UserRole + 2;

// Text for an option's form field from its JSON value.
QString optionText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 15);
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Array: {
        QStringList items;
        for (const QJsonValue &item : value.toArray())
            items.append(item.isString() ? item.toString() : QString::fromUtf8(QJsonDocument(QJsonArray{item}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
        return items.join(QStringLiteral(", "));
    }
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    default:
        return {};
    }
}

// The JSON value for an option from its field's text, following the option's type;
// text that does not fit is passed on as a string, and the MCP check names it.
QJsonValue optionValue(const McpOption &option, const QString &text)
{
    const QString trimmed = text.trimmed();
    if (option.type == QLatin1String("integer") || option.type == QLatin1String("number")) {
        bool ok = false;
        const double number = trimmed.toDouble(&ok);
        return ok ? QJsonValue(number) : QJsonValue(text);
    }
    if (option.type == QLatin1String("boolean")) {
        if (trimmed == QLatin1String("true"))
            return true;
        if (trimmed == QLatin1String("false"))
            return false;
        return text;
    }
    if (option.type == QLatin1String("array")) {
        QJsonArray array;
        for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString value = item.trimmed();
            bool ok = false;
            const double number = value.toDouble(&ok);
            if (ok && (option.itemType == QLatin1String("number") || option.itemType == QLatin1String("integer")))
                array.append(number);
            else
                array.append(value);
        }
        return array;
    }
    if (option.type == QLatin1String("object")) {
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
        if (doc.isObject())
            return doc.object();
    }
    return text;
}

QIcon stepIcon(QStyle *style, const QString &state)
{
    if (state == QLatin1String("done"))
        return style->standardIcon(QStyle::SP_DialogApplyButton);
    if (state == QLatin1String("failed"))
        return style->standardIcon(QStyle::SP_DialogCancelButton);
    if (state == QLatin1String("current"))
        return style->standardIcon(QStyle::SP_ArrowRight);
    return {};
}

} // namespace

NewSandboxDialog::NewSandboxDialog(CreationContext context, QWidget *parent)
    : QDialog(parent)
    , m_context(std::move(context))
    , m_catalog(m_context.catalog ? *m_context.catalog : McpCatalog::instance())
{
    setObjectName(QStringLiteral("newSandboxDialog"));
    setWindowTitle(tr("New sandbox"));
    setAccessibleName(tr("New sandbox"));
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(createFormPage());
    m_pages->addWidget(createProgressPage());
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    resize(900, 640);
    validate();
}

NewSandboxDialog::~NewSandboxDialog()
{
    if (m_job) {
        m_job->disconnect(this);
        // Deleting a running job cancels it without awaiting its rollback, so cancel
        // it and hand it to the session, which keeps it (and its journal) alive until
        // the rollback ends and makes quitting wait for it.
        if (!m_job->isFinished()) {
            CreationJob *job = m_job.release();
            job->setAutoDelete(true);
            if (m_session)
                m_session->track(job, true);
            else
                job->setParent(nullptr);
            job->cancel();
        }
    }
}

QWidget *NewSandboxDialog::createFormPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *form = new QFormLayout;
    m_template = new QComboBox(page);
    m_template->setObjectName(QStringLiteral("templateCombo"));
    m_template->setEditable(true);
    m_template->addItems({QStringLiteral("mcp-gateway"), QStringLiteral("base")});
    m_template->setCurrentText(QStringLiteral("base"));
    m_template->setAccessibleName(tr("Template"));
    connect(m_template, &QComboBox::currentTextChanged, this, &NewSandboxDialog::validate);
    form->addRow(tr("&Template:"), m_template);

    auto *timeout = new TimeoutSpinBox(page);
    m_timeout = timeout;
    m_timeout->setObjectName(QStringLiteral("timeoutSpin"));
    m_timeout->setRange(1, kMaxTimeoutMinutes);
    m_timeout->setValue(5);
    m_timeout->setSuffix(tr(" min"));
    m_timeout->setAccessibleName(tr("Timeout in minutes"));
    m_timeout->setToolTip(tr("The sandbox is killed this long after it is created unless extended."));
    connect(m_timeout, &QSpinBox::valueChanged, this, &NewSandboxDialog::validate);
    // Text the spin box does not take yet changes no value: watched as typed, and again
    // once editing ends (leaving the field puts the last valid value back).
    connect(timeout->editor(), &QLineEdit::textChanged, this, &NewSandboxDialog::validate);
    connect(m_timeout, &QAbstractSpinBox::editingFinished, this, &NewSandboxDialog::validate);
    form->addRow(tr("T&imeout:"), m_timeout);
    layout->addLayout(form);

    auto *sections = new QTabWidget(page);
    sections->setObjectName(QStringLiteral("sections"));
    sections->setAccessibleName(tr("Sandbox settings"));
    m_metadata = new KeyValueTable(tr("Key"), tr("Value"), false, sections);
    m_metadata->setObjectName(QStringLiteral("metadataTable"));
    m_metadata->table()->setAccessibleName(tr("Metadata"));
    connect(m_metadata, &KeyValueTable::changed, this, &NewSandboxDialog::validate);
    m_env = new KeyValueTable(tr("Name"), tr("Value (secret)"), true, sections);
    m_env->setObjectName(QStringLiteral("envTable"));
    m_env->table()->setAccessibleName(tr("Environment variables"));
    connect(m_env, &KeyValueTable::changed, this, &NewSandboxDialog::validate);
    sections->addTab(createMcpSection(), tr("&MCP servers"));
    sections->addTab(m_metadata, tr("M&etadata"));
    sections->addTab(m_env, tr("E&nvironment"));
    layout->addWidget(sections, 1);

    m_problem = new QLabel(page);
    m_problem->setObjectName(QStringLiteral("validationLabel"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAccessibleName(tr("Validation"));
    m_force = new QCheckBox(tr("Create &anyway"), page);
    m_force->setObjectName(QStringLiteral("forceCheck"));
    m_force->setToolTip(tr("Create although the MCP configuration has warnings"));
    m_force->hide();
    connect(m_force, &QCheckBox::toggled, this, &NewSandboxDialog::validate);

    auto *buttons = new QDialogButtonBox(page);
    m_createButton = buttons->addButton(tr("&Create"), QDialogButtonBox::AcceptRole);
    m_createButton->setObjectName(QStringLiteral("createButton"));
    m_createButton->setDefault(true);
    m_cancelFormButton = buttons->addButton(QDialogButtonBox::Cancel);
    connect(m_createButton, &QPushButton::clicked, this, &NewSandboxDialog::startCreation);
    connect(m_cancelFormButton, &QPushButton::clicked, this, &NewSandboxDialog::reject);

    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_problem, 1);
    bottom->addWidget(m_force);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    return page;
}

QWidget *NewSandboxDialog::createMcpSection()
{
    m_mcpTabs = new QTabWidget;
    m_mcpTabs->setObjectName(QStringLiteral("mcpTabs"));
    m_mcpTabs->setDocumentMode(true);

    // Servers: a searchable list on the left, the picked server's options on the right.
    auto *servers = new QWidget;
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_serverSearch = new QLineEdit(left);
    m_serverSearch->setObjectName(QStringLiteral("serverSearch"));
    m_serverSearch->setPlaceholderText(tr("Search %n server(s)", nullptr, int(m_catalog.servers().size())));
    m_serverSearch->setClearButtonEnabled(true);
    m_serverSearch->setAccessibleName(tr("Search MCP servers"));
    connect(m_serverSearch, &QLineEdit::textChanged, this, &NewSandboxDialog::filterServers);
    m_serverList = new QListWidget(left);
    m_serverList->setObjectName(QStringLiteral("serverList"));
    m_serverList->setAccessibleName(tr("MCP servers; tick to include"));
    m_serverList->setUniformItemSizes(true);
    for (const McpServer &server : m_catalog.servers()) {
        auto *item = new QListWidgetItem(server.title.isEmpty() ? server.id : server.title, m_serverList);
        item->setData(kServerIdRole, server.id);
        item->setToolTip(server.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_serverList->sortItems(); // by title, as people look for them
    connect(m_serverList, &QListWidget::itemChanged, this, &NewSandboxDialog::onServerItemChanged);
    connect(m_serverList, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item)
            showServerOptions(item->data(kServerIdRole).toString());
    });
    leftLayout->addWidget(m_serverSearch);
    leftLayout->addWidget(m_serverList, 1);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_optionsTitle = new QLabel(tr("Pick a server to see its options."), right);
    m_optionsTitle->setWordWrap(true);
    QFont bold = m_optionsTitle->font();
    bold.setBold(true);
    m_optionsTitle->setFont(bold);
    m_optionsHost = new QWidget;
    m_optionsForm = new QFormLayout(m_optionsHost);
    m_optionsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *scroll = new QScrollArea(right);
    scroll->setWidget(m_optionsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *legend = new QLabel(tr("* required. Secret-looking options are masked."), right);
    legend->setEnabled(false);
    rightLayout->addWidget(m_optionsTitle);
    rightLayout->addWidget(scroll, 1);
    rightLayout->addWidget(legend);

    auto *splitter = new QSplitter(Qt::Horizontal, servers);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    auto *serversLayout = new QVBoxLayout(servers);
    serversLayout->addWidget(splitter);
    m_mcpTabs->addTab(servers, tr("Servers"));

    // Raw JSON, kept in sync both ways.
    auto *raw = new QWidget;
    auto *rawLayout = new QVBoxLayout(raw);
    m_json = new QPlainTextEdit(raw);
    m_json->setObjectName(QStringLiteral("mcpJson"));
    m_json->setAccessibleName(tr("MCP configuration as JSON"));
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setPlaceholderText(tr("{\n  \"server-id\": { \"option\": \"value\" }\n}"));
    m_json->setTabChangesFocus(true);
    connect(m_json, &QPlainTextEdit::textChanged, this, &NewSandboxDialog::onJsonEdited);
    m_jsonStatus = new QLabel(raw);
    m_jsonStatus->setObjectName(QStringLiteral("jsonStatus"));
    m_jsonStatus->setWordWrap(true);
    // Secret option values are hidden here as in the form, until the user reveals them.
    m_revealSecrets = new QCheckBox(tr("Show &secret values"), raw);
    m_revealSecrets->setObjectName(QStringLiteral("revealSecrets"));
    connect(m_revealSecrets, &QCheckBox::toggled, this, &NewSandboxDialog::writeJsonFromForm);
    m_replaceJson = new QPushButton(tr("Replace with the &form's servers"), raw);
    m_replaceJson->setObjectName(QStringLiteral("replaceJsonButton"));
    m_replaceJson->hide();
    connect(m_replaceJson, &QPushButton::clicked, this, [this] {
        m_jsonValid = true;
        writeJsonFromForm();
        validate();
    });
    auto *rawButtons = new QHBoxLayout;
    rawButtons->addWidget(m_revealSecrets);
    rawButtons->addStretch();
    rawButtons->addWidget(m_replaceJson);
    rawLayout->addWidget(m_json, 1);
    rawLayout->addWidget(m_jsonStatus);
    rawLayout->addLayout(rawButtons);
    m_mcpTabs->addTab(raw, tr("Raw JSON"));
    return m_mcpTabs;
}

QWidget *NewSandboxDialog::createProgressPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    m_progressTitle = new QLabel(page);
    m_progressTitle->setTextFormat(Qt::PlainText); // it names the server's sandbox and template
    QFont big = m_progressTitle->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_progressTitle->setFont(big);
    m_progressTitle->setWordWrap(true);
    layout->addWidget(m_progressTitle);

    m_outcome = new MessageBanner(page);
    m_outcome->setObjectName(QStringLiteral("outcomeBanner"));
    m_outcome->setCloseButtonVisible(false);
    m_outcome->hide();
    layout->addWidget(m_outcome);

    auto *middle = new QHBoxLayout;
    m_steps = new QListWidget(page);
    m_steps->setObjectName(QStringLiteral("stepList"));
    m_steps->setAccessibleName(tr("Creation steps"));
    m_steps->setSelectionMode(QAbstractItemView::NoSelection);
    m_steps->setMaximumWidth(260);
    middle->addWidget(m_steps);
    auto *outputBox = new QVBoxLayout;
    m_outputTitle = new QLabel(tr("Gateway output"), page);
    m_output = new QPlainTextEdit(page);
    m_output->setObjectName(QStringLiteral("gatewayOutput"));
    m_output->setAccessibleName(tr("Gateway output"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setMaximumBlockCount(20000);
    m_output->setPlaceholderText(tr("Nothing yet."));
    outputBox->addWidget(m_outputTitle);
    outputBox->addWidget(m_output, 1);
    middle->addLayout(outputBox, 1);
    layout->addLayout(middle, 1);

    auto *buttons = new QDialogButtonBox(page);
    m_copyIdButton = buttons->addButton(tr("Copy &ID"), QDialogButtonBox::ActionRole);
    m_retryButton = buttons->addButton(tr("&Retry"), QDialogButtonBox::ActionRole);
    m_retryButton->setObjectName(QStringLiteral("retryButton"));
    m_cancelButton = buttons->addButton(tr("&Cancel creation"), QDialogButtonBox::RejectRole);
    m_cancelButton->setObjectName(QStringLiteral("cancelCreationButton"));
    m_backgroundButton = buttons->addButton(tr("Run in &background"), QDialogButtonBox::ActionRole);
    m_backgroundButton->setObjectName(QStringLiteral("backgroundButton"));
    m_backgroundButton->setToolTip(tr("Close this window; the creation goes on and the main window reports how it ends"));
    connect(m_backgroundButton, &QPushButton::clicked, this, &NewSandboxDialog::runInBackground);
    m_closeButton = buttons->addButton(QDialogButtonBox::Close);
    m_closeButton->setObjectName(QStringLiteral("closeButton"));
    connect(m_copyIdButton, &QPushButton::clicked, this, [this] {
        if (m_job)
            QGuiApplication::clipboard()->setText(m_job->sandboxId());
    });
    connect(m_retryButton, &QPushButton::clicked, this, [this] { showForm(true); });
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        if (m_job && !m_job->isFinished()) {
            m_cancelButton->setEnabled(false);
            m_job->cancel();
        }
    });
    connect(m_closeButton, &QPushButton::clicked, this, &QDialog::accept);
    layout->addWidget(buttons);
    return page;
}

void NewSandboxDialog::addTemplates(const QStringList &templateIds)
{
    for (const QString &id : templateIds) {
        if (m_template->findText(id) < 0)
            m_template->addItem(id);
    }
}

bool NewSandboxDialog::isShowingProgress() const
{
    return m_pages->currentIndex() == 1;
}

std::optional<QJsonObject> NewSandboxDialog::mcpConfig() const
{
    if (m_mcp.isEmpty())
        return std::nullopt;
    QJsonObject config;
    for (auto it = m_mcp.begin(); it != m_mcp.end(); ++it)
        config.insert(it.key(), it.value());
    return config;
}

CreationRequest NewSandboxDialog::request() const
{
    CreationRequest request;
    request.templateId = m_template->currentText().trimmed();
    request.timeoutSeconds = m_timeout->value() * 60;
    for (const auto &entry : m_metadata->entries())
        request.metadata.insert(entry.key.trimmed(), entry.value);
    for (const auto &entry : m_env->entries())
        request.envVars.insert(entry.key.trimmed(), entry.value);
    request.mcp = mcpConfig();
    return request;
}

bool NewSandboxDialog::canCreate() const
{
    return m_createButton->isEnabled();
}

QString NewSandboxDialog::validationMessage() const
{
    return m_validation;
}

void NewSandboxDialog::followMcpTemplate()
{
    // MCP servers need the gateway template: switch to it (and back) while the user
    // has not chosen a template of their own.
    const QString current = m_template->currentText().trimmed();
    const QString wanted = m_mcp.isEmpty() ? QStringLiteral("base") : QStringLiteral("mcp-gateway");
    if (current != wanted && (current == m_autoTemplate || current.isEmpty())) {
        m_template->setCurrentText(wanted);
        m_autoTemplate = wanted;
    }
}

void NewSandboxDialog::validate()
{
    QStringList errors;
    QStringList warnings;
    if (m_template->currentText().trimmed().isEmpty())
        errors << tr("Choose a template.");
    if (!m_timeout->hasAcceptableInput())
        errors
            << tr("The timeout must be from 1 to %1 minutes (24 hours).").arg(kMaxTimeoutMinutes);

    QSet<QString> keys;
    for (const auto &entry : m_metadata->entries()) {
        const QString key = entry.key.trimmed();
        if (key.isEmpty())
            errors << tr("A metadata row has a value but no key.");
        else if (key.startsWith(kReservedPrefix))
            errors << tr("The metadata key \"%1\" is reserved: keys starting with \"%2\" are set by Sandbox Desk.")
                          .arg(key, kReservedPrefix);
        else if (keys.contains(key))
            errors << tr("The metadata key \"%1\" appears twice.").arg(key);
        keys.insert(key);
    }
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    QSet<QString> names;
    for (const auto &entry : m_env->entries()) {
        const QString name = entry.key.trimmed();
        if (!envName.match(name).hasMatch())
            errors << tr("\"%1\" is not a valid environment variable name (letters, digits and _, not "
                         "starting with a digit).")
                          .arg(name);
        else if (names.contains(name))
            errors << tr("The environment variable \"%1\" appears twice.").arg(name);
        names.insert(name);
    }

    if (!m_jsonValid) {
        errors << tr("MCP JSON: %1").arg(m_jsonError);
    } else if (const auto config = mcpConfig()) {
        for (const McpFinding &finding : McpConfigCheck(m_catalog).check(*config))
            (finding.isError() ? errors : warnings) << finding.message;
        if (!isKnownGatewayTemplate(m_template->currentText()))
            warnings << tr("MCP servers run in the gateway of the \"mcp-gateway\" template; \"%1\" may not have it.")
                            .arg(m_template->currentText().trimmed());
    }

    m_force->setVisible(errors.isEmpty() && !warnings.isEmpty());
    m_valid = errors.isEmpty() && (warnings.isEmpty() || m_force->isChecked());
    m_createButton->setEnabled(m_valid);

    QString text;
    QString colour;
    if (!errors.isEmpty()) {
        text = errors.join(QLatin1Char('\n'));
        colour = QStringLiteral("#d63b3b");
    } else if (!warnings.isEmpty()) {
        text = warnings.join(QLatin1Char('\n'));
        colour = QStringLiteral("#c06000");
    }
    m_validation = text;
    m_problem->setText(text.isEmpty() ? QString()
                                      : QStringLiteral("<span style=\"color:%1\">%2</span>")
                                            .arg(colour, text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    m_createButton->setToolTip(text.isEmpty() ? tr("Create the sandbox") : text);
}

// --- MCP servers -------------------------------------------------------------------

void NewSandboxDialog::filterServers(const QString &text)
{
    const QString needle = text.trimmed();
    for (int row = 0; row < m_serverList->count(); ++row) {
        QListWidgetItem *item = m_serverList->item(row);
        const bool match = needle.isEmpty() || item->text().contains(needle, Qt::CaseInsensitive)
                           || item->data(kServerIdRole).toString().contains(needle, Qt::CaseInsensitive);
        item->setHidden(!match);
    }
    // Keyboard actions (Space ticks) act on the current item: it must be one the user
    // sees, so it follows the filter to the first visible server.
    QListWidgetItem *current = m_serverList->currentItem();
    if (current && !current->isHidden())
        return;
    QListWidgetItem *firstVisible = nullptr;
    for (int row = 0; row < m_serverList->count() && !firstVisible; ++row) {
        if (!m_serverList->item(row)->isHidden())
            firstVisible = m_serverList->item(row);
    }
    if (firstVisible)
        m_serverList->setCurrentItem(firstVisible);
    else
        m_serverList->setCurrentItem(nullptr);
}

bool NewSandboxDialog::pickServer(const QString &serverId)
{
    for (int row = 0; row < m_serverList->count(); ++row) {
        QListWidgetItem *item = m_serverList->item(row);
        if (item->data(kServerIdRole).toString() == serverId) {
            item->setCheckState(Qt::Checked);
            m_serverList->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

bool NewSandboxDialog::setOptionText(const QString &option, const QString &text)
{
    auto *edit = m_optionsHost->findChild<QLineEdit *>(QStringLiteral("option:") + option);
    if (!edit)
        return false;
    edit->setText(text);
    return true;
}

void NewSandboxDialog::onServerItemChanged(QListWidgetItem *item)
{
    if (m_syncing)
        return;
    const QString id = item->data(kServerIdRole).toString();
    if (item->checkState() == Qt::Checked) {
        if (!m_mcp.contains(id))
            m_mcp.insert(id, QJsonObject());
        m_serverList->setCurrentItem(item);
    } else {
        m_mcp.remove(id);
    }
    showServerOptions(id);
    writeJsonFromForm();
    followMcpTemplate();
    validate();
}

void NewSandboxDialog::showServerOptions(const QString &serverId)
{
    m_shownServer = serverId;
    while (m_optionsForm->rowCount() > 0)
        m_optionsForm->removeRow(0);
    const McpServer server = m_catalog.server(serverId);
    const bool picked = m_mcp.contains(serverId);
    m_optionsTitle->setText(server.isValid() ? tr("%1 (%2)").arg(server.title, server.id)
                                             : tr("%1 (not in the catalog)").arg(serverId));
    if (!picked) {
        m_optionsForm->addRow(new QLabel(tr("Tick the server in the list to configure it.")));
        return;
    }
    if (server.options.isEmpty()) {
        m_optionsForm->addRow(new QLabel(tr("This server has no options.")));
        return;
    }
    const QJsonObject values = m_mcp.value(serverId);
    for (const McpOption &option : server.options) {
        auto *label = new QLabel(option.required ? option.name + QStringLiteral(" *") : option.name);
        if (option.required) {
            QFont bold = label->font();
            bold.setBold(true);
            label->setFont(bold);
        }
        auto *edit = new QLineEdit;
        edit->setObjectName(QStringLiteral("option:") + option.name);
        edit->setAccessibleName(option.required ? tr("%1 (required)").arg(option.name) : option.name);
        edit->setText(optionText(values.value(option.name)));
        // How to write the value where its type says more than "text"; the catalog
        // keeps no descriptions or examples, and a bare type name ("string") helps nobody.
        QString hint;
        if (option.type == QLatin1String("array"))
            hint = tr("comma-separated list");
        else if (option.type == QLatin1String("boolean"))
            hint = QStringLiteral("true / false");
        else if (option.type == QLatin1String("integer"))
            hint = tr("whole number");
        else if (option.type == QLatin1String("number"))
            hint = tr("decimal number");
        else if (option.type == QLatin1String("object"))
            hint = tr("JSON object, e.g. {\"name\": \"value\"}");
        edit->setPlaceholderText(hint);
        if (option.secret) {
            edit->setEchoMode(QLineEdit::Password);
            QAction *reveal = edit->addAction(style()->standardIcon(QStyle::SP_FileDialogContentsView),
                                              QLineEdit::TrailingPosition);
            reveal->setToolTip(tr("Show or hide"));
            reveal->setCheckable(true);
            connect(reveal, &QAction::toggled, edit, [edit](bool shown) {
                edit->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
            });
        }
        label->setBuddy(edit);
        connect(edit, &QLineEdit::textEdited, this, [this, serverId, option](const QString &text) {
            onOptionEdited(serverId, option, text);
        });
        // setText() from code (tests, keyboard helpers) goes the same way.
        connect(edit, &QLineEdit::textChanged, this, [this, serverId, option, edit](const QString &text) {
            if (!edit->isModified())
                onOptionEdited(serverId, option, text);
        });
        m_optionsForm->addRow(label, edit);
    }
}

void NewSandboxDialog::onOptionEdited(const QString &serverId, const McpOption &option, const QString &text)
{
    if (m_syncing || !m_mcp.contains(serverId))
        return;
    QJsonObject &values = m_mcp[serverId];
    if (text.isEmpty())
        values.remove(option.name);
    else
        values.insert(option.name, optionValue(option, text));
    writeJsonFromForm();
    validate();
}

void NewSandboxDialog::writeJsonFromForm()
{
    if (!m_jsonValid) {
        // Never drop what the user typed: keep it and say that the two now differ.
        m_jsonStatus->setText(tr("The JSON below has an error, so the Servers form's changes are not in it: "
                                 "fix it, or replace it with the form's servers."));
        m_replaceJson->show();
        return;
    }
    m_syncing = true;
    std::optional<QJsonObject> config = mcpConfig();
    bool hidden = false;
    if (config && !m_revealSecrets->isChecked()) {
        for (auto server = config->begin(); server != config->end(); ++server) {
            QJsonObject options = server.value().toObject();
            for (const McpOption &option : m_catalog.server(server.key()).options) {
                if (option.secret && options.contains(option.name)) {
                    options.insert(option.name, QStringLiteral("••••••••"));
                    hidden = true;
                }
            }
            *server = options;
        }
    }
    m_json->setPlainText(config ? QString::fromUtf8(QJsonDocument(*config).toJson(QJsonDocument::Indented))
                                : QString());
    // Hidden values cannot be edited as text; revealing them makes the JSON editable.
    m_jsonMasked = hidden;
    m_json->setReadOnly(hidden);
    const QString note = hidden
        ? tr("Secret values are hidden: tick \"Show secret values\" to edit the JSON")
        : QString();
    m_json->setToolTip(note);
    m_jsonValid = true;
    m_jsonError.clear();
    // Said under the JSON too: a tooltip alone leaves a read-only box unexplained.
    m_jsonStatus->setText(note);
    m_replaceJson->hide();
    m_syncing = false;
}

void NewSandboxDialog::onJsonEdited()
{
    if (m_syncing)
        return;
    const QByteArray text = m_json->toPlainText().toUtf8();
    if (text.trimmed().isEmpty()) {
        m_jsonValid = true;
        m_jsonError.clear();
        m_mcp.clear();
    } else {
        const McpConfigParse parsed = McpConfigCheck::parse(text);
        m_jsonValid = parsed.ok;
        m_jsonError = parsed.message;
        if (parsed.ok) {
            m_mcp.clear();
            for (auto it = parsed.config.begin(); it != parsed.config.end(); ++it)
                m_mcp.insert(it.key(), it.value().toObject());
        }
    }
    // The error itself is said once, in the dialog's problem line.
    m_jsonStatus->clear();
    m_replaceJson->setVisible(false);
    if (m_jsonValid) {
        followMcpTemplate();
        m_syncing = true;
        syncListChecks();
        if (!m_shownServer.isEmpty())
            showServerOptions(m_shownServer);
        m_syncing = false;
    }
    validate();
}

void NewSandboxDialog::syncListChecks()
{
    QSet<QString> listed;
    for (int row = 0; row < m_serverList->count(); ++row) {
        QListWidgetItem *item = m_serverList->item(row);
        const QString id = item->data(kServerIdRole).toString();
        listed.insert(id);
        item->setCheckState(m_mcp.contains(id) ? Qt::Checked : Qt::Unchecked);
    }
    // Servers the catalog does not know still get a row, so they can be unticked.
    for (auto it = m_mcp.begin(); it != m_mcp.end(); ++it) {
        if (listed.contains(it.key()))
            continue;
        auto *item = new QListWidgetItem(tr("%1 (not in the catalog)").arg(it.key()));
        item->setData(kServerIdRole, it.key());
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        m_serverList->insertItem(0, item);
    }
}

void NewSandboxDialog::setMcpJson(const QString &text)
{
    m_json->setPlainText(text);
}

QString NewSandboxDialog::mcpJson() const
{
    // With secret values hidden on screen, the configuration itself is the form's.
    if (m_jsonMasked) {
        const auto config = mcpConfig();
        return config ? QString::fromUtf8(QJsonDocument(*config).toJson(QJsonDocument::Indented)) : QString();
    }
    return m_json->toPlainText();
}

// --- Creation ----------------------------------------------------------------------

void NewSandboxDialog::startCreation()
{
    validate();
    if (!m_valid)
        return;
    CreationRequest req = request();
    m_jobHasMcp = req.mcp.has_value();
    m_job = std::make_unique<CreationJob>(m_context, req);
    m_job->setAutoDelete(false);
    connect(m_job.get(), &CreationJob::stateChanged, this, &NewSandboxDialog::onStateChanged);
    m_gatewayStdout = {};
    m_gatewayStderr = {};
    connect(m_job.get(), &CreationJob::gatewayStderrReceived, this,
        [this](const QByteArray &data) { appendOutput(m_gatewayStderr.take(data)); });
    connect(m_job.get(), &CreationJob::gatewayStdoutReceived, this,
        [this](const QByteArray &data) { appendOutput(m_gatewayStdout.take(data)); });
    connect(m_job.get(), &CreationJob::sandboxAllocated, this, [this](const QString &id) {
        m_progressTitle->setText(tr("Creating sandbox %1 from %2…").arg(id, m_job->templateId()));
    });
    connect(m_job.get(), &Job::finished, this, &NewSandboxDialog::onFinished);

    m_steps->clear();
    const auto addStep = [this](CreationState state) {
        auto *item = new QListWidgetItem(displayName(state), m_steps);
        item->setData(kStateRole, int(state));
        item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    };
    addStep(CreationState::Allocating);
    if (m_jobHasMcp)
        addStep(CreationState::StartingGateway);
    addStep(CreationState::Extending);
    addStep(CreationState::Ready);
    m_output->clear();
    m_output->setVisible(m_jobHasMcp);
    m_outputTitle->setVisible(m_jobHasMcp);
    m_outcome->hide();
    m_progressTitle->setText(tr("Creating a sandbox from %1…").arg(m_job->templateId()));
    m_cancelButton->setEnabled(true);
    m_cancelButton->show();
    m_backgroundButton->show();
    m_retryButton->hide();
    m_copyIdButton->hide();
    m_closeButton->hide();
    m_lastState = CreationState::Validating;
    m_pages->setCurrentIndex(1);
    m_cancelButton->setFocus();
    if (m_session)
        m_session->track(m_job.get());
    m_job->start();
}

void NewSandboxDialog::onStateChanged(CreationState state)
{
    const QString doneMark = QStringLiteral("done");
    const QString failedMark = QStringLiteral("failed");
    constexpr int markRole = Qt::UserRole + 3;
    // How the step being left ended: the one that failed turns into a rollback (or a
    // refusal); the rollback step itself failed only if nothing could be removed.
    const bool leftFailed = state == CreationState::RollingBack || state == CreationState::Rejected
                            || state == CreationState::Cancelled || state == CreationState::RollbackFailed;
    const bool failing = leftFailed || state == CreationState::RolledBack;
    QListWidgetItem *current = nullptr;
    for (int row = 0; row < m_steps->count(); ++row) {
        QListWidgetItem *item = m_steps->item(row);
        const auto itemState = CreationState(item->data(kStateRole).toInt());
        if (itemState == state)
            current = item;
        else if (itemState == m_lastState && !isFinal(m_lastState))
            item->setData(markRole, leftFailed ? failedMark : doneMark);
    }
    if (failing) {
        // Steps that never ran leave the list; the rollback's steps join it.
        for (int row = m_steps->count() - 1; row >= 0; --row) {
            if (m_steps->item(row)->data(markRole).toString().isEmpty() && m_steps->item(row) != current)
                delete m_steps->takeItem(row);
        }
        if (!current) {
            current = new QListWidgetItem(displayName(state), m_steps);
            current->setData(kStateRole, int(state));
        }
    }
    if (current) {
        const bool final = isFinal(state);
        const bool bad = state == CreationState::RollbackFailed || state == CreationState::Rejected
                         || state == CreationState::Cancelled;
        current->setData(markRole, final ? (bad ? failedMark : doneMark) : QStringLiteral("current"));
    }
    QFont normal = m_steps->font();
    QFont bold = normal;
    bold.setBold(true);
    for (int row = 0; row < m_steps->count(); ++row) {
        QListWidgetItem *item = m_steps->item(row);
        const QString mark = item->data(markRole).toString();
        item->setIcon(stepIcon(style(), mark));
        item->setFont(mark == QLatin1String("current") ? bold : normal);
        item->setForeground(palette().color(mark.isEmpty() ? QPalette::Disabled : QPalette::Active, QPalette::Text));
        item->setData(Qt::AccessibleTextRole,
                      mark.isEmpty() ? tr("%1: pending").arg(item->text()) : tr("%1: %2").arg(item->text(), mark));
    }
    // A rollback runs to its end: cancelling it would leave more behind.
    if (state == CreationState::RollingBack)
        m_cancelButton->setEnabled(false);
    m_lastState = state;
}

void NewSandboxDialog::appendOutput(const QByteArray &text)
{
    if (text.isEmpty())
        return;
    QScrollBar *bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    m_output->moveCursor(QTextCursor::End);
    // The sandbox writes this: a bidirectional override would reorder what follows it.
    m_output->insertPlainText(terminalSafe(QString::fromUtf8(text)));
    if (atEnd)
        bar->setValue(bar->maximum());
}

void NewSandboxDialog::onFinished()
{
    for (LineBuffer *lines : { &m_gatewayStdout, &m_gatewayStderr }) {
        if (const QByteArray rest = lines->takeRest(); !rest.isEmpty())
            appendOutput(rest + '\n');
    }
    CreationJob *job = m_job.get();
    const bool ready = job->state() == CreationState::Ready;
    m_cancelButton->hide();
    m_backgroundButton->hide();
    m_closeButton->show();
    m_retryButton->setVisible(!ready);
    m_copyIdButton->setVisible(ready);
    if (ready) {
        m_progressTitle->setText(tr("Sandbox %1 is ready.").arg(job->sandboxId()));
        QString text = tr("Sandbox %1 runs from %2.").arg(job->sandboxId(), job->templateId());
        if (!job->mcpFindings().isEmpty())
            text += QLatin1Char(' ') + tr("%n warning(s) from the MCP check.", nullptr, int(job->mcpFindings().size()));
        m_outcome->setMessage(MessageBanner::Type::Positive, text);
        m_closeButton->setFocus();
    } else {
        // A cancelled creation is rolled back too: it is reported as cancelled, not failed.
        const bool cancelled = job->endedCancelled();
        m_progressTitle->setText(cancelled ? tr("The creation was cancelled.") : tr("The creation failed."));
        QString text = job->errorMessage();
        if (const auto rollback = job->rollback())
            text += QStringLiteral("\n") + tr("Rollback: %1").arg(rollbackText(*rollback));
        if (job->state() == CreationState::RollbackFailed)
            text += QStringLiteral("\n") + tr("It is flagged as an orphan in the list, where \"Kill all orphans\" can remove it later.");
        m_outcome->setMessage(cancelled ? MessageBanner::Type::Warning : MessageBanner::Type::Error, text);
        m_retryButton->setFocus();
    }
    m_outcome->show();
    Q_EMIT creationFinished(ready ? job->sandboxId() : QString(), ready);
}

void NewSandboxDialog::showForm(bool clearSecrets)
{
    if (clearSecrets) {
        // Secrets are not kept past an attempt: environment values and secret options.
        m_env->clearValues();
        for (auto it = m_mcp.begin(); it != m_mcp.end(); ++it) {
            const McpServer server = m_catalog.server(it.key());
            for (const McpOption &option : server.options) {
                if (option.secret)
                    it.value().remove(option.name);
            }
        }
        writeJsonFromForm();
        if (!m_shownServer.isEmpty())
            showServerOptions(m_shownServer);
    }
    m_pages->setCurrentIndex(0);
    validate();
}

void NewSandboxDialog::reject()
{
    if (!m_job || m_job->isFinished()) {
        QDialog::reject();
        return;
    }
    if (findChild<QMessageBox *>(QStringLiteral("cancelCreationConfirmation")))
        return;
    // Escape or closing the window must not destroy a sandbox whose gateway may already
    // run: ask, with "keep watching" as what Escape answers.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Cancel the creation?"),
                                tr("The sandbox is still being created. Cancelling removes what was created so far."),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("cancelCreationConfirmation"));
    QPushButton *cancel = box->addButton(tr("&Cancel creation"), QMessageBox::DestructiveRole);
    QPushButton *background = box->addButton(tr("Run in &background"), QMessageBox::AcceptRole);
    QPushButton *keep = box->addButton(tr("&Keep watching"), QMessageBox::RejectRole);
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, cancel, background] {
        if (!m_job || m_job->isFinished())
            return;
        if (box->clickedButton() == cancel) {
            m_cancelButton->setEnabled(false);
            m_job->cancel();
        } else if (box->clickedButton() == background) {
            runInBackground();
        }
    });
    box->open();
}

void NewSandboxDialog::runInBackground()
{
    if (!m_job || m_job->isFinished())
        return;
    hide();
    Q_EMIT movedToBackground();
}

} // namespace sd
