#include "api/sandboxjobs.h"
#include "historyview.h"
#include "journal/creationjournal.h"
#include "keyvaluetable.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "mcp/mcpcatalog.h"
#include "messagebanner.h"
#include "network/networkaccessmanager.h"
#include "newsandboxdialog.h"
#include "uitest.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

using namespace sd;

namespace {

constexpr int kWait = 30000;

// A catalog server with at least one required option, for the form tests.
McpServer serverWithRequiredOption()
{
    for (const McpServer &server : McpCatalog::instance().servers()) {
        if (!server.requiredOptions().isEmpty())
            return server;
    }
    return {};
}

} // namespace

class TestNewSandboxDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void createEnabledForPlainSettings();
    void timeoutOutOfRangeDisablesCreate();
    void badJsonDisablesCreate();
    void missingRequiredOptionDisablesCreate();
    void badMetadataDisablesCreate_data();
    void badMetadataDisablesCreate();
    void formAndRawJsonStayInSync();
    void spaceTicksTheVisibleServer();
    void handTypedJsonSurvivesAFormEdit();
    void rawJsonHidesSecrets();
    void secretOptionsAreMasked();
    void optionFieldsHintNoBareTypeName();
    void successfulCreationThroughTheDialog();
    void successfulMcpCreationShowsGatewayOutput();
    void gatewayOutputIsShownEscaped();
    void failedCreationRollsBackAndRetryClearsSecrets();
    void failedCreationShowsRollbackAndFlagsOrphan();

private:
    std::unique_ptr<NewSandboxDialog> makeDialog();
    QStringList backendIds();
    bool postFaults(const QJsonArray &rules);

    sd::NetworkAccessManager m_network;
    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_settings;
    std::unique_ptr<QTemporaryDir> m_journalDir;
    std::unique_ptr<CreationJournal> m_journal;
    QTemporaryDir m_configDir;
};

void TestNewSandboxDialog::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_newsandboxdialog"));
    QVERIFY(!McpCatalog::instance().isEmpty());
}

void TestNewSandboxDialog::init()
{
    m_backend = std::make_unique<test::LocalBackend>(QStringList{QStringLiteral("--fault-injection")});
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_settings = test::backendSettings(*m_backend);
    m_journalDir = std::make_unique<QTemporaryDir>();
    m_journal = std::make_unique<CreationJournal>(
        CreationJournal::filePathFor(m_journalDir->path(), QStringLiteral("local")));
    QVERIFY(m_journal->open());
}

void TestNewSandboxDialog::cleanup()
{
    m_journal.reset();
    m_backend.reset();
    m_journalDir.reset();
}

std::unique_ptr<NewSandboxDialog> TestNewSandboxDialog::makeDialog()
{
    CreationContext context;
    context.network = &m_network;
    context.connection = m_settings;
    context.journal = m_journal.get();
    context.installId = QStringLiteral("test-install");
    context.gatewayBudget = std::chrono::seconds(60);
    context.rollback.backoff = {std::chrono::milliseconds(100)};
    auto dialog = std::make_unique<NewSandboxDialog>(context);
    dialog->show();
    return dialog;
}

QStringList TestNewSandboxDialog::backendIds()
{
    std::unique_ptr<ListSandboxesJob> job(new ListSandboxesJob(&m_network, m_settings));
    if (!test::runJob(job.get(), kWait))
        return {QStringLiteral("<list failed>")};
    QStringList ids;
    for (const Sandbox &s : job->sandboxes())
        ids.append(s.sandboxId);
    return ids;
}

bool TestNewSandboxDialog::postFaults(const QJsonArray &rules)
{
    QNetworkRequest request(QUrl(m_backend->url().toString() + QStringLiteral("/_local/faults")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    std::unique_ptr<QNetworkReply> reply(m_network.post(
        request, QJsonDocument(QJsonObject{{QStringLiteral("rules"), rules}}).toJson()));
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    if (!done.wait(kWait))
        return false;
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
}

void TestNewSandboxDialog::createEnabledForPlainSettings()
{
    auto dialog = makeDialog();
    QVERIFY(dialog->canCreate());
    QVERIFY(dialog->validationMessage().isEmpty());
    auto *templateCombo = dialog->findChild<QComboBox *>(QStringLiteral("templateCombo"));
    templateCombo->setCurrentText(QString());
    QVERIFY(!dialog->canCreate());
    QVERIFY(dialog->validationMessage().contains(QStringLiteral("template")));
    templateCombo->setCurrentText(QStringLiteral("base"));
    QVERIFY(dialog->canCreate());
}

// The timeout field shows what the sandbox gets: a number out of range stays as typed
// and holds Create back with the range, instead of becoming another number.
void TestNewSandboxDialog::timeoutOutOfRangeDisablesCreate()
{
    auto dialog = makeDialog();
    auto *spin = dialog->findChild<QSpinBox *>(QStringLiteral("timeoutSpin"));
    QVERIFY(spin);
    QCOMPARE(spin->minimum(), 1);
    QCOMPARE(spin->maximum(), 24 * 60); // what the API and --timeout take
    spin->setFocus();
    for (const char *typed : { "99999999", "0" }) {
        spin->selectAll();
        QTest::keyClicks(spin, QLatin1String(typed));
        QVERIFY2(spin->text().startsWith(QLatin1String(typed) + QLatin1Char(' ')),
            qPrintable(spin->text()));
        QVERIFY(!dialog->canCreate());
        QVERIFY2(dialog->validationMessage().contains(QLatin1String("from 1 to 1440 minutes")),
            qPrintable(dialog->validationMessage()));
        // Enter creates nothing with a value other than the one shown.
        QTest::keyClick(spin, Qt::Key_Return);
        QVERIFY(!dialog->isShowingProgress());
        QVERIFY(!dialog->job());
    }
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("30"));
    QVERIFY2(dialog->canCreate(), qPrintable(dialog->validationMessage()));
    QCOMPARE(dialog->request().timeoutSeconds, qint64(30 * 60));
    QSignalSpy finished(dialog.get(), &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QVERIFY(finished.first().at(1).toBool());
    std::unique_ptr<ListSandboxesJob> list(new ListSandboxesJob(&m_network, m_settings));
    QVERIFY(test::runJob(list.get(), kWait));
    QCOMPARE(list->sandboxes().size(), 1);
    const qint64 left
        = QDateTime::currentDateTimeUtc().secsTo(list->sandboxes().constFirst().endAt);
    QVERIFY2(left > 25 * 60 && left <= 30 * 60, qPrintable(QString::number(left)));
}

void TestNewSandboxDialog::badJsonDisablesCreate()
{
    auto dialog = makeDialog();
    dialog->setMcpJson(QStringLiteral("{\n  \"fetch\": {\n    \"x\": \n}"));
    QVERIFY(!dialog->canCreate());
    // The parse error points at line and column.
    QVERIFY2(dialog->validationMessage().contains(QStringLiteral("line 4")), qPrintable(dialog->validationMessage()));
    QVERIFY(dialog->validationMessage().contains(QStringLiteral("column")));
    // Said once: no other label repeats it.
    int saying = 0;
    for (QLabel *label : dialog->findChildren<QLabel *>())
        saying += label->text().contains(QStringLiteral("line 4")) ? 1 : 0;
    QCOMPARE(saying, 1);

    // Clicking the disabled button allocates nothing.
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(!dialog->isShowingProgress());
    QVERIFY(!dialog->job());
    QCOMPARE(backendIds(), QStringList());
    QVERIFY(m_journal->creations().isEmpty());

    dialog->setMcpJson(QString());
    QVERIFY(dialog->canCreate());
}

void TestNewSandboxDialog::missingRequiredOptionDisablesCreate()
{
    const McpServer server = serverWithRequiredOption();
    QVERIFY(server.isValid());
    auto dialog = makeDialog();
    dialog->findChild<QComboBox *>(QStringLiteral("templateCombo"))->setCurrentText(QStringLiteral("mcp-gateway"));
    QVERIFY(dialog->pickServer(server.id));
    QVERIFY(!dialog->canCreate());
    const QString required = server.requiredOptions().first();
    QVERIFY2(dialog->validationMessage().contains(required), qPrintable(dialog->validationMessage()));
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(!dialog->job());

    for (const QString &name : server.requiredOptions()) {
        const McpOption *option = server.option(name);
        QString value = QStringLiteral("value");
        if (option->type == QLatin1String("integer") || option->type == QLatin1String("number"))
            value = QStringLiteral("3");
        else if (option->type == QLatin1String("boolean"))
            value = QStringLiteral("true");
        QVERIFY(dialog->setOptionText(name, value));
    }
    QVERIFY2(dialog->canCreate(), qPrintable(dialog->validationMessage()));
    QCOMPARE(backendIds(), QStringList());
}

void TestNewSandboxDialog::badMetadataDisablesCreate_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QString>("expected");
    QTest::newRow("reserved prefix") << QStringList{"sandbox-desk.creation"} << QStringLiteral("reserved");
    QTest::newRow("duplicate key") << QStringList{"owner", "owner"} << QStringLiteral("twice");
    QTest::newRow("value without key") << QStringList{""} << QStringLiteral("no key");
}

void TestNewSandboxDialog::badMetadataDisablesCreate()
{
    QFETCH(QStringList, keys);
    QFETCH(QString, expected);
    auto dialog = makeDialog();
    auto *table = dialog->findChild<KeyValueTable *>(QStringLiteral("metadataTable"));
    QVERIFY(table);
    for (const QString &key : keys)
        table->addRow(key, QStringLiteral("v"));
    QVERIFY(!dialog->canCreate());
    QVERIFY2(dialog->validationMessage().contains(expected), qPrintable(dialog->validationMessage()));
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(!dialog->job());
    QCOMPARE(backendIds(), QStringList());
}

void TestNewSandboxDialog::formAndRawJsonStayInSync()
{
    const McpServer server = serverWithRequiredOption();
    auto dialog = makeDialog();
    QVERIFY(dialog->pickServer(server.id));
    const QString required = server.requiredOptions().first();
    QVERIFY(dialog->setOptionText(required, QStringLiteral("abc")));
    const QJsonObject json = QJsonDocument::fromJson(dialog->mcpJson().toUtf8()).object();
    QVERIFY(json.contains(server.id));
    QVERIFY(json.value(server.id).toObject().contains(required));

    // Edits to the raw JSON come back into the server list.
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("serverList"));
    const auto checked = [list](const QString &id) {
        for (int row = 0; row < list->count(); ++row) {
            if (list->item(row)->data(Qt::UserRole + 1).toString() == id)
                return list->item(row)->checkState() == Qt::Checked;
        }
        return false;
    };
    QVERIFY(checked(server.id));
    dialog->setMcpJson(QStringLiteral("{}"));
    QVERIFY(!checked(server.id));
    QCOMPARE(dialog->request().mcp.has_value(), false);
}

// Focus the list, type a search, Tab back, Space: the server ticked is the one the user
// sees, not the hidden item that was current before the search.
void TestNewSandboxDialog::spaceTicksTheVisibleServer()
{
    auto dialog = makeDialog();
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("serverList"));
    auto *search = dialog->findChild<QLineEdit *>(QStringLiteral("serverSearch"));
    QVERIFY(list && search);
    list->setFocus();
    list->setCurrentRow(0);
    const QString hiddenId = list->currentItem()->data(Qt::UserRole + 1).toString();
    QCOMPARE(hiddenId, QStringLiteral("dotnetTypesExplorer")); // ".NET Types Explorer" sorts first
    search->setFocus();
    QTest::keyClicks(search, QStringLiteral("duck"));
    QVERIFY(list->currentItem());
    QVERIFY(!list->currentItem()->isHidden());
    QCOMPARE(list->currentItem()->text(), QStringLiteral("Private Web Search"));
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Space);
    const QJsonObject json = QJsonDocument::fromJson(dialog->mcpJson().toUtf8()).object();
    QCOMPARE(json.keys(), QStringList{QStringLiteral("duckduckgo")});
}

// Invalid JSON typed by hand is not thrown away by a change in the Servers form.
void TestNewSandboxDialog::handTypedJsonSurvivesAFormEdit()
{
    auto dialog = makeDialog();
    const QString typed = QStringLiteral("{\n  \"fetch\": {\n    \"x\": \n}");
    dialog->setMcpJson(typed);
    QVERIFY(!dialog->canCreate());
    QVERIFY(dialog->pickServer(QStringLiteral("duckduckgo")));
    QCOMPARE(dialog->mcpJson(), typed);
    auto *status = dialog->findChild<QLabel *>(QStringLiteral("jsonStatus"));
    QVERIFY2(status->text().contains(QStringLiteral("not in it")), qPrintable(status->text()));
    auto *replace = dialog->findChild<QPushButton *>(QStringLiteral("replaceJsonButton"));
    QVERIFY(!replace->isHidden());
    replace->click();
    const QJsonObject json = QJsonDocument::fromJson(dialog->mcpJson().toUtf8()).object();
    QVERIFY(json.contains(QStringLiteral("duckduckgo")));
    QVERIFY(dialog->canCreate());
}

// The raw JSON hides secret option values like the form does, unless revealed.
void TestNewSandboxDialog::rawJsonHidesSecrets()
{
    McpServer secretServer;
    McpOption secretOption;
    for (const McpServer &server : McpCatalog::instance().servers()) {
        for (const McpOption &option : server.options) {
            if (option.secret && option.type == QLatin1String("string") && !secretServer.isValid()) {
                secretServer = server;
                secretOption = option;
            }
        }
    }
    QVERIFY(secretServer.isValid());
    auto dialog = makeDialog();
    QVERIFY(dialog->pickServer(secretServer.id));
    const QString secret = QStringLiteral("s3cret-value-for-the-raw-tab");
    QVERIFY(dialog->setOptionText(secretOption.name, secret));
    auto *raw = dialog->findChild<QPlainTextEdit *>(QStringLiteral("mcpJson"));
    QVERIFY(!raw->toPlainText().contains(secret));
    QVERIFY(raw->toPlainText().contains(secretOption.name));
    QVERIFY(raw->isReadOnly());
    // Why the box takes no typing is said under it, not only on hover.
    auto *status = dialog->findChild<QLabel *>(QStringLiteral("jsonStatus"));
    QVERIFY2(
        status->text().contains(QLatin1String("Show secret values")), qPrintable(status->text()));
    QVERIFY(dialog->mcpJson().contains(secret)); // the configuration keeps it
    dialog->findChild<QCheckBox *>(QStringLiteral("revealSecrets"))->setChecked(true);
    QVERIFY(raw->toPlainText().contains(secret));
    QVERIFY(!raw->isReadOnly());
    QVERIFY(status->text().isEmpty());
    // Hidden again: the mask goes back on screen, the value stays in the configuration.
    dialog->findChild<QCheckBox *>(QStringLiteral("revealSecrets"))->setChecked(false);
    QVERIFY(!raw->toPlainText().contains(secret));
    QVERIFY(dialog->mcpJson().contains(secret));
    QVERIFY(!test::settingsFileContains(secret));
}

void TestNewSandboxDialog::secretOptionsAreMasked()
{
    // A server with a secret-looking option shows it in a password field.
    McpServer secretServer;
    McpOption secretOption;
    for (const McpServer &server : McpCatalog::instance().servers()) {
        for (const McpOption &option : server.options) {
            if (option.secret && option.type == QLatin1String("string")) {
                secretServer = server;
                secretOption = option;
                break;
            }
        }
        if (secretServer.isValid())
            break;
    }
    QVERIFY(secretServer.isValid());
    auto dialog = makeDialog();
    QVERIFY(dialog->pickServer(secretServer.id));
    auto *edit = dialog->findChild<QLineEdit *>(QStringLiteral("option:") + secretOption.name);
    QVERIFY(edit);
    QCOMPARE(edit->echoMode(), QLineEdit::Password);
}

// An option field's placeholder says how to write its value, never just the schema's
// type name ("string").
void TestNewSandboxDialog::optionFieldsHintNoBareTypeName()
{
    auto dialog = makeDialog();
    const QStringList typeNames { QStringLiteral("string"), QStringLiteral("integer"),
        QStringLiteral("number"), QStringLiteral("object"), QStringLiteral("array"),
        QStringLiteral("any") };
    QSet<QString> typesSeen;
    for (const McpServer &server : McpCatalog::instance().servers()) {
        bool wanted = false;
        for (const McpOption &option : server.options)
            wanted = wanted || !typesSeen.contains(option.type);
        if (!wanted)
            continue;
        QVERIFY(dialog->pickServer(server.id));
        for (const McpOption &option : server.options) {
            typesSeen.insert(option.type);
            auto *edit = dialog->findChild<QLineEdit *>(QStringLiteral("option:") + option.name);
            QVERIFY2(edit, qPrintable(option.name));
            QVERIFY2(!typeNames.contains(edit->placeholderText()),
                qPrintable(server.id + QLatin1Char('.') + option.name + QLatin1String(": ")
                    + edit->placeholderText()));
            if (option.type == QLatin1String("string"))
                QCOMPARE(edit->placeholderText(), QString());
            else if (option.type == QLatin1String("integer"))
                QCOMPARE(edit->placeholderText(), QStringLiteral("whole number"));
        }
    }
    QVERIFY(typesSeen.contains(QStringLiteral("string")));
    QVERIFY(typesSeen.contains(QStringLiteral("integer")));
}

void TestNewSandboxDialog::successfulCreationThroughTheDialog()
{
    auto dialog = makeDialog();
    auto *table = dialog->findChild<KeyValueTable *>(QStringLiteral("metadataTable"));
    table->addRow(QStringLiteral("owner"), QStringLiteral("dialog-test"));
    QVERIFY(dialog->canCreate());
    QSignalSpy finished(dialog.get(), &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(dialog->isShowingProgress());
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().at(1).toBool(), true);
    const QString id = finished.first().at(0).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(backendIds(), QStringList{id});
    QVERIFY(dialog->job()->state() == CreationState::Ready);
    auto *outcome = dialog->findChild<MessageBanner *>(QStringLiteral("outcomeBanner"));
    QVERIFY(outcome->isVisible());
    QVERIFY(outcome->text().contains(id));
    // The steps ticked: every step shown is done.
    auto *steps = dialog->findChild<QListWidget *>(QStringLiteral("stepList"));
    QCOMPARE(steps->count(), 3); // Allocating, Extending, Ready (no gateway without MCP)
    for (int row = 0; row < steps->count(); ++row)
        QVERIFY2(steps->item(row)->data(Qt::AccessibleTextRole).toString().endsWith(QStringLiteral("done")),
                 qPrintable(steps->item(row)->data(Qt::AccessibleTextRole).toString()));
    // The journal has the creation.
    m_journal->refresh();
    const QList<CreationRecord> history = m_journal->history();
    QCOMPARE(history.size(), 1);
    QCOMPARE(history.first().sandboxId, id);
    QVERIFY(history.first().state == CreationState::Ready);
}

void TestNewSandboxDialog::successfulMcpCreationShowsGatewayOutput()
{
    QVERIFY(McpCatalog::instance().contains(QStringLiteral("fetch")));
    auto dialog = makeDialog();
    dialog->setMcpJson(QStringLiteral("{\"fetch\": {}}"));
    // Picking MCP servers switches to the gateway template.
    QCOMPARE(dialog->findChild<QComboBox *>(QStringLiteral("templateCombo"))->currentText(), QStringLiteral("mcp-gateway"));
    QVERIFY2(dialog->canCreate(), qPrintable(dialog->validationMessage()));
    QSignalSpy finished(dialog.get(), &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(dialog->job()->errorMessage()));
    auto *output = dialog->findChild<QPlainTextEdit *>(QStringLiteral("gatewayOutput"));
    QVERIFY(output->isVisible());
    QVERIFY2(output->toPlainText().contains(QStringLiteral("gateway"), Qt::CaseInsensitive),
             qPrintable(output->toPlainText()));
    auto *steps = dialog->findChild<QListWidget *>(QStringLiteral("stepList"));
    QCOMPARE(steps->count(), 4);
    QCOMPARE(steps->item(1)->data(Qt::AccessibleTextRole).toString(),
             QStringLiteral("%1: done").arg(displayName(CreationState::StartingGateway)));
    QCOMPARE(backendIds(), QStringList{dialog->job()->sandboxId()});
}

// The gateway echoes a server name it does not know: text from the sandbox, shown
// with its controls and bidirectional overrides as escapes, one whole line.
void TestNewSandboxDialog::gatewayOutputIsShownEscaped()
{
    auto dialog = makeDialog();
    const QString hostile = QStringLiteral("x\u202ey\x1b[2J");
    dialog->setMcpJson(
        QString::fromUtf8(QJsonDocument(QJsonObject { { hostile, QJsonObject() } }).toJson()));
    auto *force = dialog->findChild<QCheckBox *>(QStringLiteral("forceCheck"));
    QVERIFY(force->isVisibleTo(dialog.get())); // not in the catalog: a warning
    force->setChecked(true);
    QVERIFY2(dialog->canCreate(), qPrintable(dialog->validationMessage()));
    QSignalSpy finished(dialog.get(), &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(dialog->job()->errorMessage()));
    const QString shown
        = dialog->findChild<QPlainTextEdit *>(QStringLiteral("gatewayOutput"))->toPlainText();
    QVERIFY2(!shown.contains(QChar(0x202e)) && !shown.contains(QChar(0x1b)), qPrintable(shown));
    QVERIFY2(shown.split(QLatin1Char('\n'))
                 .contains(QStringLiteral(
                     "mcp-gateway: warning: \"x\\u202ey\\x1b[2J\" is not an MCP server in the "
                     "catalog, so its options cannot be checked; the gateway may not be able to "
                     "start it. Check the spelling of the server name.")),
        qPrintable(shown));
    QCOMPARE(backendIds(), QStringList { dialog->job()->sandboxId() });
}

void TestNewSandboxDialog::failedCreationRollsBackAndRetryClearsSecrets()
{
    // Extending fails once; the rollback's kill works.
    QVERIFY(postFaults(QJsonArray{QJsonObject{
        {"method", "POST"}, {"path", "/sandboxes/*/timeout"}, {"action", "status"}, {"status", 500}, {"count", 1}}}));
    auto dialog = makeDialog();
    auto *env = dialog->findChild<KeyValueTable *>(QStringLiteral("envTable"));
    env->addRow(QStringLiteral("API_TOKEN"), QStringLiteral("s3cret-value"));
    QVERIFY(dialog->canCreate());
    QSignalSpy finished(dialog.get(), &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().at(1).toBool(), false);
    QVERIFY(dialog->job()->state() == CreationState::RolledBack);
    QCOMPARE(backendIds(), QStringList()); // rolled back: nothing left
    auto *outcome = dialog->findChild<MessageBanner *>(QStringLiteral("outcomeBanner"));
    QVERIFY(outcome->isVisible());
    QVERIFY2(outcome->text().contains(QStringLiteral("HTTP 500")), qPrintable(outcome->text()));
    QVERIFY(!outcome->text().contains(QStringLiteral("s3cret-value")));
    // In the words of the history and the command line.
    QVERIFY2(outcome->text().contains(
                 QStringLiteral("\nRollback: the sandbox was removed (attempts: 1)")),
        qPrintable(outcome->text()));
    auto *steps = dialog->findChild<QListWidget *>(QStringLiteral("stepList"));
    QStringList marks;
    for (int row = 0; row < steps->count(); ++row)
        marks << steps->item(row)->data(Qt::AccessibleTextRole).toString();
    QCOMPARE(marks.last(), QStringLiteral("%1: done").arg(displayName(CreationState::RolledBack)));
    QVERIFY2(marks.contains(QStringLiteral("%1: failed").arg(displayName(CreationState::Extending))),
             qPrintable(marks.join(QLatin1Char('|'))));
    QVERIFY(marks.contains(QStringLiteral("%1: done").arg(displayName(CreationState::RollingBack))));

    // Retry: the same settings, secrets to enter again.
    auto *retry = dialog->findChild<QPushButton *>(QStringLiteral("retryButton"));
    QVERIFY(retry->isVisible());
    retry->click();
    QVERIFY(!dialog->isShowingProgress());
    QCOMPARE(env->entries().size(), 1);
    QCOMPARE(env->entries().first().key, QStringLiteral("API_TOKEN"));
    QVERIFY(env->entries().first().value.isEmpty());
}

void TestNewSandboxDialog::failedCreationShowsRollbackAndFlagsOrphan()
{
    // Extending fails, and so does every kill: the rollback fails and leaves an orphan.
    QVERIFY(postFaults(QJsonArray{
        QJsonObject{{"method", "POST"}, {"path", "/sandboxes/*/timeout"}, {"action", "status"}, {"status", 500}},
        QJsonObject{{"method", "DELETE"}, {"path", "/sandboxes/*"}, {"action", "status"}, {"status", 500}},
    }));

    DesktopOptions options;
    options.localConnection = m_settings;
    options.rememberState = false;
    options.journalDirectory = m_journalDir->path();
    MainWindow window(options);
    window.setRefreshInterval(0);
    window.show();
    QSignalSpy refreshed(&window, &MainWindow::refreshed);
    QVERIFY(refreshed.wait(kWait));

    NewSandboxDialog *dialog = window.newSandbox();
    QVERIFY(dialog);
    QSignalSpy finished(dialog, &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QCOMPARE(finished.first().at(1).toBool(), false);
    QVERIFY(dialog->job()->state() == CreationState::RollbackFailed);
    const QString id = dialog->job()->sandboxId();
    QVERIFY(!id.isEmpty());
    auto *outcome = dialog->findChild<MessageBanner *>(QStringLiteral("outcomeBanner"));
    QVERIFY(outcome->isVisible());
    QVERIFY2(outcome->text().contains(QStringLiteral("500")), qPrintable(outcome->text()));
    QVERIFY(outcome->text().contains(QStringLiteral("orphan")));
    QVERIFY(dialog->findChild<QPushButton *>(QStringLiteral("retryButton"))->isVisible());

    // The history lists the failed creation, with its sandbox.
    QTRY_COMPARE_WITH_TIMEOUT(window.historyView()->list()->topLevelItemCount(), 1, kWait);
    QTreeWidgetItem *entry = window.historyView()->list()->topLevelItem(0);
    QCOMPARE(entry->text(3), id);
    QCOMPARE(entry->foreground(4).color(), QColor(0xd6, 0x3b, 0x3b));

    // The main window flags the sandbox as an orphan with its reason.
    QSignalSpy scanned(&window, &MainWindow::orphansScanned);
    QTRY_VERIFY_WITH_TIMEOUT(window.model()->isOrphan(id), kWait);
    const QModelIndex flag = window.model()->index(window.model()->rowOf(id), SandboxTableModel::FlagColumn);
    QVERIFY(!flag.data(Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(window.killOrphansAction()->isEnabled());

    // With the faults gone, "Kill all orphans" clears it on the backend.
    QNetworkRequest clear(QUrl(m_backend->url().toString() + QStringLiteral("/_local/faults")));
    clear.setRawHeader("X-API-Key", m_backend->apiKey().toUtf8());
    std::unique_ptr<QNetworkReply> reply(m_network.deleteResource(clear));
    QSignalSpy cleared(reply.get(), &QNetworkReply::finished);
    QVERIFY(cleared.wait(kWait));
    dialog->close();

    window.killOrphansAction()->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = window.findChild<QMessageBox *>(QStringLiteral("killConfirmation"))) && box->isVisible(), kWait);
    QVERIFY(box->informativeText().contains(id));
    QSignalSpy done(&window, &MainWindow::actionsFinished);
    box->findChild<QPushButton *>(QStringLiteral("confirmKillButton"))->click();
    QVERIFY(done.wait(kWait));
    QCOMPARE(backendIds(), QStringList());
    QTRY_COMPARE_WITH_TIMEOUT(window.model()->rowCount(), 0, kWait);
}

QTEST_MAIN(TestNewSandboxDialog)
#include "tst_newsandboxdialog.moc"
