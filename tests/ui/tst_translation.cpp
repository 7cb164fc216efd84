// The German translation is complete where it shows: with it installed, the main
// window (on a real local backend), the New sandbox dialog before and after a
// creation, the creations history, a kill confirmation and the profiles dialog show
// no English string that has a German translation, and no English sentence at all.
// Plural forms read right in English ("1 sandbox") and German, and the command-line
// mode speaks German under LANG=de_DE.UTF-8 while its JSON keeps English keys.

#include "api/sandboxjobs.h"
#include "common/translations.h"
#include "historyview.h"
#include "localbackend.h"
#include "mainwindow.h"
#include "network/networkaccessmanager.h"
#include "newsandboxdialog.h"
#include "profilesdialog.h"
#include "uitest.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTextEdit>
#include <QTranslator>
#include <QTreeWidget>
#include <QXmlStreamReader>

using namespace sd;

namespace {

constexpr int kWait = 20000;

struct Message
{
    QString context;
    QString source;
    bool numerus = false;
    QStringList translations; ///< one, or one per plural form
};

/// The messages of a .ts file of the source tree.
QList<Message> readTs(const QString &name)
{
    QFile file(QStringLiteral(SD_SOURCE_DIR "/resources/translations/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<Message> messages;
    QString context;
    Message message;
    bool unfinished = false;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            if (unfinished)
                message.translations.clear(); // not translated
            messages.append(message);
        }
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            message = Message();
            message.context = context;
            message.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            unfinished = false;
        } else if (name == QLatin1String("source")) {
            message.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            unfinished = xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
            if (!message.numerus)
                message.translations.append(xml.readElementText());
        } else if (name == QLatin1String("numerusform")) {
            message.translations.append(xml.readElementText());
        }
    }
    return xml.hasError() ? QList<Message>() : messages;
}

/// Accelerator marks off ("&Quit" and "&&" read "Quit" and "&"), white space simplified.
QString normalized(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text.simplified();
}

/// An English source as a pattern for what it shows once its arguments are filled in.
QRegularExpression sourcePattern(const QString &source)
{
    static const QRegularExpression placeholder(QStringLiteral("%(?:n|L?\\d+)"));
    const QString text = normalized(source);
    QString pattern;
    qsizetype at = 0;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        pattern += QRegularExpression::escape(text.mid(at, match.capturedStart() - at)) + QStringLiteral(".+");
        at = match.capturedEnd();
    }
    pattern += QRegularExpression::escape(text.mid(at));
    return QRegularExpression(QRegularExpression::anchoredPattern(pattern),
                              QRegularExpression::DotMatchesEverythingOption);
}

/// Words of English sentences that German text does not use: a string holding one was
/// not translated, whether or not it went through tr().
const QRegularExpression englishWord(QStringLiteral(
    "\\b(the|and|of|with|to|is|are|not|from|for|this|only|your|you|will|could|yet|none|no|"
    "select|show|kill|create|cancel|copy|refresh|search|close|remove|add|save|quit)\\b"),
    QRegularExpression::CaseInsensitiveOption);

struct Seen
{
    QString text;
    QString where;
};

QString nameOf(const QObject *object)
{
    const QString name = object->objectName();
    return QLatin1String(object->metaObject()->className())
        + (name.isEmpty() ? QString() : QStringLiteral("#") + name);
}

void addText(QList<Seen> *seen, const QString &text, const QString &where)
{
    if (text.trimmed().isEmpty())
        return;
    seen->append({ text, where });
    if (Qt::mightBeRichText(text))
        seen->append({ QTextDocumentFragment::fromHtml(text).toPlainText(), where });
}

void addActions(QList<Seen> *seen, const QList<QAction *> &actions, const QString &where)
{
    for (const QAction *action : actions) {
        const QString at = where + QStringLiteral(" > action ") + action->objectName();
        addText(seen, action->text(), at);
        // QAction makes a tool tip of its text when none was set: that one is the text.
        if (action->toolTip() != normalized(action->text()))
            addText(seen, action->toolTip(), at + QStringLiteral(" (tool tip)"));
        addText(seen, action->statusTip(), at + QStringLiteral(" (status tip)"));
    }
}

void addModel(QList<Seen> *seen, const QAbstractItemModel *model, const QString &where)
{
    if (!model)
        return;
    for (int column = 0; column < model->columnCount(); ++column) {
        for (const int role : { int(Qt::DisplayRole), int(Qt::ToolTipRole) })
            addText(seen, model->headerData(column, Qt::Horizontal, role).toString(),
                    where + QStringLiteral(" > header %1").arg(column));
    }
    // Rows (and the children of tree rows) as far as a person scrolls in a test.
    std::function<void(const QModelIndex &)> rows = [&](const QModelIndex &parent) {
        for (int row = 0; row < qMin(model->rowCount(parent), 50); ++row) {
            for (int column = 0; column < model->columnCount(parent); ++column) {
                const QModelIndex index = model->index(row, column, parent);
                for (const int role : { int(Qt::DisplayRole), int(Qt::ToolTipRole) })
                    addText(seen, index.data(role).toString(),
                            where + QStringLiteral(" > row %1 column %2").arg(row).arg(column));
            }
            rows(model->index(row, 0, parent));
        }
    };
    rows(QModelIndex());
}

/// Every text `root` and its children show or can show (hidden pages included).
QList<Seen> visibleTexts(QWidget *root)
{
    QList<Seen> seen;
    QList<QWidget *> widgets { root };
    widgets += root->findChildren<QWidget *>();
    for (QWidget *w : std::as_const(widgets)) {
        const QString at = nameOf(root) + QStringLiteral(" > ") + nameOf(w);
        if (w->isWindow() || qobject_cast<QDockWidget *>(w))
            addText(&seen, w->windowTitle(), at + QStringLiteral(" (title)"));
        addText(&seen, w->toolTip(), at + QStringLiteral(" (tool tip)"));
        addText(&seen, w->statusTip(), at + QStringLiteral(" (status tip)"));
        addText(&seen, w->whatsThis(), at + QStringLiteral(" (what's this)"));
        addText(&seen, w->accessibleName(), at + QStringLiteral(" (accessible name)"));
        addText(&seen, w->accessibleDescription(), at + QStringLiteral(" (accessible description)"));
        addActions(&seen, w->actions(), at);
        if (auto *label = qobject_cast<QLabel *>(w))
            addText(&seen, label->text(), at);
        if (auto *button = qobject_cast<QAbstractButton *>(w))
            addText(&seen, button->text(), at);
        if (auto *box = qobject_cast<QGroupBox *>(w))
            addText(&seen, box->title(), at);
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            addText(&seen, edit->placeholderText(), at + QStringLiteral(" (placeholder)"));
        if (auto *edit = qobject_cast<QPlainTextEdit *>(w)) {
            addText(&seen, edit->placeholderText(), at + QStringLiteral(" (placeholder)"));
            if (edit->isReadOnly() && edit->objectName() != QLatin1String("gatewayOutput"))
                addText(&seen, edit->toPlainText(), at);
        }
        if (auto *edit = qobject_cast<QTextEdit *>(w))
            addText(&seen, edit->placeholderText(), at + QStringLiteral(" (placeholder)"));
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            addText(&seen, spin->specialValueText(), at + QStringLiteral(" (special value)"));
        if (auto *combo = qobject_cast<QComboBox *>(w)) {
            for (int i = 0; i < combo->count(); ++i)
                addText(&seen, combo->itemText(i), at + QStringLiteral(" > item %1").arg(i));
            addText(&seen, combo->placeholderText(), at + QStringLiteral(" (placeholder)"));
        }
        if (auto *tabs = qobject_cast<QTabBar *>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                addText(&seen, tabs->tabText(i), at + QStringLiteral(" > tab %1").arg(i));
                addText(&seen, tabs->tabToolTip(i), at + QStringLiteral(" > tab %1 (tool tip)").arg(i));
            }
        }
        if (auto *menu = qobject_cast<QMenu *>(w))
            addText(&seen, menu->title(), at);
        if (auto *bar = qobject_cast<QStatusBar *>(w))
            addText(&seen, bar->currentMessage(), at);
        // The MCP catalog's server titles are product names, not the app's words.
        if (auto *view = qobject_cast<QAbstractItemView *>(w); view && view->objectName() != QLatin1String("serverList"))
            addModel(&seen, view->model(), at);
    }
    return seen;
}

/// Removes every translator the application holds.
void removeTranslations()
{
    qDeleteAll(QCoreApplication::instance()->findChildren<QTranslator *>());
}

} // namespace

class TestTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void germanIsComplete();
    void germanQuotesAreGerman();
    void englishPluralsHaveNoParentheses();
    void pluralsReadRightInEnglishAndGerman();
    void windowAndDialogsShowNoEnglish();
    void commandLineSpeaksGerman();

private:
    /// The strings among `seen` still in English, with where they are, one a line.
    QString untranslated(const QList<Seen> &seen) const;
    QString createSandbox();

    QList<Message> m_german;
    QList<QRegularExpression> m_englishSources;
    sd::NetworkAccessManager m_network;
    std::unique_ptr<test::LocalBackend> m_backend;
    ConnectionSettings m_settings;
    QTemporaryDir m_configDir;
    QTemporaryDir m_journalDir;
};

void TestTranslation::initTestCase()
{
    QVERIFY(m_configDir.isValid());
    test::useTestSettings(m_configDir.path(), QStringLiteral("tst_translation"));
    m_german = readTs(QStringLiteral("sandbox-desk_de.ts"));
    QVERIFY(m_german.size() > 500);
    // The English strings that have German words of their own: seeing one means a
    // translation is missing or never reached (a context lupdate and the code name
    // differently). Strings German keeps as they are ("Sandbox", "ID", "%1 (%2)") and
    // patterns of fewer than three letters ("%1d %2h") say nothing.
    // English words that are German words too ("Profile", the plural of "Profil") say
    // nothing either.
    static const QRegularExpression letters(QStringLiteral("[A-Za-z]"));
    QSet<QString> germanTexts;
    for (const Message &m : std::as_const(m_german)) {
        for (const QString &t : m.translations)
            germanTexts.insert(normalized(t));
    }
    for (const Message &m : std::as_const(m_german)) {
        const bool kept = !m.translations.isEmpty()
            && std::all_of(m.translations.cbegin(), m.translations.cend(),
                           [&](const QString &t) { return normalized(t) == normalized(m.source); });
        QString literal = m.source;
        literal.remove(QRegularExpression(QStringLiteral("%(?:n|L?\\d+)")));
        if (!kept && literal.count(letters) >= 3 && !germanTexts.contains(normalized(m.source)))
            m_englishSources.append(sourcePattern(m.source));
    }
    m_backend = std::make_unique<test::LocalBackend>();
    QVERIFY2(m_backend->start(), qPrintable(m_backend->errorString()));
    m_settings = test::backendSettings(*m_backend);
}

void TestTranslation::cleanup()
{
    removeTranslations();
}

QString TestTranslation::untranslated(const QList<Seen> &seen) const
{
    QStringList found;
    for (const Seen &s : seen) {
        const QString text = normalized(s.text);
        const bool known = std::any_of(m_englishSources.cbegin(), m_englishSources.cend(),
                                       [&](const QRegularExpression &p) { return p.match(text).hasMatch(); });
        // Option names (--kill-orphans) and identifiers (mcp-gateway) are not words.
        static const QRegularExpression identifiers(QStringLiteral("(--)?\\w+(-\\w+)+|--\\w+"));
        const QRegularExpressionMatch word = englishWord.match(QString(text).remove(identifiers));
        if (known || word.hasMatch()) {
            const QString line = QStringLiteral("  \"%1\"  at %2%3")
                                     .arg(text, s.where,
                                          known ? QString() : QStringLiteral(" (English word \"%1\")").arg(word.captured(1)));
            if (!found.contains(line))
                found.append(line);
        }
    }
    return found.join(QLatin1Char('\n'));
}

QString TestTranslation::createSandbox()
{
    NewSandbox request;
    request.templateId = QStringLiteral("base");
    request.metadata.insert(QStringLiteral("costCentre"), QStringLiteral("data"));
    request.timeoutSeconds = 600;
    std::unique_ptr<CreateSandboxJob> job(new CreateSandboxJob(&m_network, m_settings, request));
    if (!test::runJob(job.get()))
        return {};
    return job->sandbox().sandboxId;
}

void TestTranslation::germanIsComplete()
{
    QStringList missing;
    for (const Message &m : std::as_const(m_german)) {
        if (m.translations.isEmpty() || m.translations.contains(QString())
            || (m.numerus && m.translations.size() != 2))
            missing.append(m.context + QStringLiteral(": ") + m.source);
    }
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("Not translated to German:\n") + missing.join(QLatin1Char('\n'))));
}

void TestTranslation::germanQuotesAreGerman()
{
    // Quoted words read „so“ in German. What must stay as typed keeps its straight quotes:
    // JSON examples in braces, and the attributes of markup.
    static const QRegularExpression literal(
        QStringLiteral("\\{[^{}]*(\\{[^{}]*\\}[^{}]*)*\\}|<[^<>]*>"));
    QStringList wrong;
    for (const Message &m : std::as_const(m_german)) {
        for (const QString &translation : m.translations) {
            const QString prose = QString(translation).remove(literal);
            if (prose.contains(QLatin1Char('"'))
                || prose.count(QChar(0x201E)) != prose.count(QChar(0x201C))
                || prose.contains(QChar(0x201D)))
                wrong.append(translation);
        }
    }
    QVERIFY2(wrong.isEmpty(),
        qPrintable(QStringLiteral("Quotes other than „…“:\n") + wrong.join(QLatin1Char('\n'))));
}

void TestTranslation::englishPluralsHaveNoParentheses()
{
    const QList<Message> english = readTs(QStringLiteral("sandbox-desk_en.ts"));
    QVERIFY(!english.isEmpty());
    // Every plural of the sources, German file and English file alike.
    QSet<QString> plurals;
    for (const Message &m : std::as_const(m_german)) {
        if (m.numerus)
            plurals.insert(m.context + QLatin1Char('\x01') + m.source);
    }
    installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
    QStringList wrong;
    for (const QString &key : std::as_const(plurals)) {
        const QString context = key.section(QLatin1Char('\x01'), 0, 0);
        const QString source = key.section(QLatin1Char('\x01'), 1);
        for (const int n : { 1, 2 }) {
            const QString text = QCoreApplication::translate(context.toUtf8().constData(),
                                                             source.toUtf8().constData(), nullptr, n);
            if (text.contains(QLatin1String("(s)")) || text.contains(QLatin1String("(es)"))
                || !text.contains(QString::number(n)))
                wrong.append(QStringLiteral("%1 (n=%2): %3").arg(source).arg(n).arg(text));
        }
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
}

void TestTranslation::pluralsReadRightInEnglishAndGerman()
{
    const auto tr = [](const char *context, const char *source, int n) {
        return QCoreApplication::translate(context, source, nullptr, n);
    };
    installTranslations(QLocale(QLocale::English, QLocale::UnitedKingdom));
    QCOMPARE(tr("sd::MainWindow", "Killed %n sandbox(es).", 1), QStringLiteral("Killed 1 sandbox."));
    QCOMPARE(tr("sd::MainWindow", "Killed %n sandbox(es).", 2), QStringLiteral("Killed 2 sandboxes."));
    QCOMPARE(tr("sd::TrayIcon", "Sandbox Desk: %n orphan(s)", 1), QStringLiteral("Sandbox Desk: 1 orphan"));
    QCOMPARE(tr("sd::TrayIcon", "Sandbox Desk: %n orphan(s)", 3), QStringLiteral("Sandbox Desk: 3 orphans"));
    QCOMPARE(tr("sd::CreationHistoryView", "%n match(es)", 1), QStringLiteral("1 match"));
    QCOMPARE(tr("sd::CreationHistoryView", "%n match(es)", 0), QStringLiteral("0 matches"));
    removeTranslations();

    installTranslations(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(tr("sd::MainWindow", "Killed %n sandbox(es).", 1), QStringLiteral("1 Sandbox beendet."));
    QCOMPARE(tr("sd::MainWindow", "Killed %n sandbox(es).", 2), QStringLiteral("2 Sandboxes beendet."));
    QCOMPARE(tr("sd::TrayIcon", "Sandbox Desk: %n orphan(s)", 1), QStringLiteral("Sandbox Desk: 1 verwaiste Sandbox"));
    QCOMPARE(tr("sd::TrayIcon", "Sandbox Desk: %n orphan(s)", 3), QStringLiteral("Sandbox Desk: 3 verwaiste Sandboxes"));
    QCOMPARE(tr("sd::CreationJournal", "The journal had %n unreadable line(s); it was moved to %1 and its readable "
                                       "records were kept", 1).arg(QStringLiteral("x")),
             QStringLiteral("Das Journal hatte 1 unlesbare Zeile; es wurde nach x verschoben, seine lesbaren "
                            "Einträge wurden behalten"));
    QCOMPARE(tr("sd::CreationJob", "[first %n byte(s) of output cut]\n", 1000),
             QStringLiteral("[erste 1000 Byte der Ausgabe abgeschnitten]\n"));
    removeTranslations();

    // A language without a translation of its own still gets the English plurals.
    installTranslations(QLocale(QLocale::French, QLocale::France));
    QCOMPARE(tr("sd::MainWindow", "Killed %n sandbox(es).", 1), QStringLiteral("Killed 1 sandbox."));
}

void TestTranslation::windowAndDialogsShowNoEnglish()
{
    installTranslations(QLocale(QLocale::German, QLocale::Germany));
    const QString sandboxId = createSandbox();
    QVERIFY(!sandboxId.isEmpty());

    auto window = test::makeWindow(m_settings, m_journalDir.path());
    QTRY_COMPARE_WITH_TIMEOUT(window->connectionState(), MainWindow::ConnectionState::Connected, kWait);
    QTRY_VERIFY_WITH_TIMEOUT(window->selectSandbox(sandboxId), kWait);
    // Qt's own words come from its translation (the tool bar's extension button).
    QList<Seen> seen = visibleTexts(window.get());
    QString english = untranslated(seen);
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("Main window, in English:\n") + english));
    const auto shows = [&](const QString &text) {
        return std::any_of(seen.cbegin(), seen.cend(), [&](const Seen &s) { return normalized(s.text) == text; });
    };
    QVERIFY(shows(QStringLiteral("Datei")));
    QVERIFY(shows(QStringLiteral("Vorlage")));
    QVERIFY(shows(QStringLiteral("läuft")));

    // The kill confirmation: Qt's own Cancel reads "Abbrechen" (qtbase's translation).
    window->findChild<QAction *>(QStringLiteral("killAction"))->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = window->findChild<QMessageBox *>(QStringLiteral("killConfirmation"))), kWait);
    english = untranslated(visibleTexts(box));
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("Kill confirmation, in English:\n") + english));
    QCOMPARE(box->button(QMessageBox::Cancel)->text().remove(QLatin1Char('&')), QStringLiteral("Abbrechen"));
    box->reject();

    // The New sandbox dialog, before Create and once the sandbox is ready.
    NewSandboxDialog *dialog = window->newSandbox();
    QVERIFY(dialog);
    english = untranslated(visibleTexts(dialog));
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("New sandbox dialog, in English:\n") + english));
    auto *search = dialog->findChild<QLineEdit *>(QStringLiteral("serverSearch"));
    QVERIFY(search->placeholderText().endsWith(QLatin1String(" Server durchsuchen")));
    auto *templates = dialog->findChild<QComboBox *>(QStringLiteral("templateCombo"));
    templates->setCurrentText(QStringLiteral("base"));
    QSignalSpy finished(dialog, &NewSandboxDialog::creationFinished);
    dialog->findChild<QPushButton *>(QStringLiteral("createButton"))->click();
    QVERIFY(finished.wait(kWait));
    QVERIFY(finished.last().at(1).toBool());
    english = untranslated(visibleTexts(dialog));
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("New sandbox dialog after a creation, in English:\n") + english));
    dialog->close();

    // The creations history with that creation selected.
    auto *dock = window->findChild<QDockWidget *>(QStringLiteral("historyDock"));
    dock->show();
    CreationHistoryView *history = window->historyView();
    QTRY_VERIFY_WITH_TIMEOUT(history->list()->topLevelItemCount() > 0, kWait);
    history->list()->setCurrentItem(history->list()->topLevelItem(0));
    QTRY_VERIFY_WITH_TIMEOUT(history->timeline()->topLevelItemCount() > 0, kWait);
    english = untranslated(visibleTexts(dock));
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("Creations history, in English:\n") + english));

    // The profiles dialog.
    window->findChild<QAction *>(QStringLiteral("profilesAction"))->trigger();
    ProfilesDialog *profiles = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((profiles = window->findChild<ProfilesDialog *>()), kWait);
    english = untranslated(visibleTexts(profiles));
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("Profiles dialog, in English:\n") + english));
    profiles->reject();
}

void TestTranslation::commandLineSpeaksGerman()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : { "LANGUAGE", "LC_ALL", "LC_MESSAGES", "E2B_API_URL", "E2B_SANDBOX_URL" })
        env.remove(QLatin1String(name));
    env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("E2B_API_KEY"), m_backend->apiKey());
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("sd.*.debug=false"));
    const auto run = [&](const QStringList &args, QByteArray *out, QByteArray *err) {
        QProcess process;
        process.setProgram(test::LocalBackend::binary(QStringLiteral("sandbox-desk")));
        process.setArguments(args);
        process.setProcessEnvironment(env);
        process.start();
        if (!process.waitForFinished(60000))
            return -1;
        *out = process.readAllStandardOutput();
        *err = process.readAllStandardError();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    };
    QByteArray out;
    QByteArray err;

    // --help: the options, the description and Qt's own lines, all in German.
    QCOMPARE(run({ QStringLiteral("--help") }, &out, &err), 0);
    const QString help = QString::fromUtf8(out);
    QVERIFY2(help.contains(QStringLiteral("Alle Sandboxes auflisten")), qPrintable(help));
    QVERIFY2(help.contains(QStringLiteral("Aufruf:")), qPrintable(help)); // qtbase's "Usage:"
    QList<Seen> lines;
    for (const QString &line : help.split(QLatin1Char('\n'))) {
        // An option line is "  --name <VALUE>  description": the option names stay.
        const QString description = line.section(QRegularExpression(QStringLiteral("\\s{2,}")), -1);
        lines.append({ description, QStringLiteral("--help") });
    }
    const QString english = untranslated(lines);
    QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("--help, in English:\n") + english));

    // A usage error, in German, on stderr.
    QCOMPARE(run({ QStringLiteral("--kill") }, &out, &err), 2);
    QCOMPARE(QString::fromUtf8(err), QStringLiteral("--kill braucht mindestens eine Sandbox-ID.\nSiehe --help.\n"));
    // What was given is quoted as German quotes it.
    QCOMPARE(run({ QStringLiteral("--create"), QStringLiteral("--timeout"), QStringLiteral("abc") },
                 &out, &err),
        2);
    QCOMPARE(QString::fromUtf8(err),
        QStringLiteral("--timeout braucht eine ganze Zahl von Sekunden, etwa 300 (angegeben: "
                       "„abc“).\nSiehe --help.\n"));

    // Text output is German; --json keeps its English keys and values.
    const QStringList connection { QStringLiteral("--api-url"), m_backend->url().toString(),
                                   QStringLiteral("--sandbox-url"), m_backend->url().toString() };
    QCOMPARE(run(connection + QStringList { QStringLiteral("--orphans") }, &out, &err), 0);
    QCOMPARE(QString::fromUtf8(out), QStringLiteral("Keine verwaisten Sandboxes.\n"));
    QCOMPARE(run(connection + QStringList { QStringLiteral("--create"), QStringLiteral("--template"),
                                            QStringLiteral("base"), QStringLiteral("--json") },
                 &out, &err), 0);
    const QJsonObject created = QJsonDocument::fromJson(out).object();
    QVERIFY2(created.contains(QStringLiteral("sandboxId")), out.constData());
    QCOMPARE(run(connection + QStringList { QStringLiteral("--list"), QStringLiteral("--json") }, &out, &err), 0);
    const QJsonArray sandboxes = QJsonDocument::fromJson(out).object().value(QStringLiteral("sandboxes")).toArray();
    QVERIFY2(!sandboxes.isEmpty(), out.constData());
    const QJsonObject first = sandboxes.first().toObject();
    for (const char *key : { "sandboxId", "templateId", "state", "startedAt", "endAt", "metadata", "orphan" })
        QVERIFY2(first.contains(QLatin1String(key)), qPrintable(QStringLiteral("no key %1 in %2").arg(QLatin1String(key), QString::fromUtf8(out))));
    QCOMPARE(first.value(QStringLiteral("state")).toString(), QStringLiteral("running"));

    // The list's lines: the state and its end in German too.
    QCOMPARE(run(connection + QStringList { QStringLiteral("--list") }, &out, &err), 0);
    const QString listed = QString::fromUtf8(out);
    const QString sandboxId = created.value(QStringLiteral("sandboxId")).toString();
    QVERIFY2(listed.contains(QStringLiteral("%1  base  läuft  endet ").arg(sandboxId)),
        qPrintable(listed));

    // A failed creation's rollback in the words of the history ("die Sandbox wurde
    // entfernt (Versuche: 1)"): the gateway cannot start on the base template, used
    // anyway (--force).
    const QString mcp = home.filePath(QStringLiteral("mcp.json"));
    QFile mcpFile(mcp);
    QVERIFY(mcpFile.open(QIODevice::WriteOnly));
    mcpFile.write("{\"duckduckgo\": {}}");
    mcpFile.close();
    QCOMPARE(run(connection
                     + QStringList { QStringLiteral("--create"), QStringLiteral("--template"),
                         QStringLiteral("base"), QStringLiteral("--force"), QStringLiteral("--mcp"),
                         mcp },
                 &out, &err),
        1);
    const QString failed = QString::fromUtf8(out);
    QVERIFY2(
        failed.contains(QStringLiteral("\nRollback: die Sandbox wurde entfernt (Versuche: 1)\n")),
        qPrintable(failed));

    // A server missing from the catalog: the local gateway warns about it (in English)
    // and the command line does not say it again in German.
    QVERIFY(mcpFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    mcpFile.write("{\"nosuchserver\": {}}");
    mcpFile.close();
    QCOMPARE(
        run(connection + QStringList { QStringLiteral("--create"), QStringLiteral("--mcp"), mcp },
            &out, &err),
        0);
    const QString warned = QString::fromUtf8(out + err);
    QCOMPARE(warned.count(QStringLiteral("nosuchserver")), 1);
    QVERIFY2(warned.contains(
                 QStringLiteral("mcp-gateway: warning: \"nosuchserver\" is not an MCP server")),
        qPrintable(warned));
}

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
