// Runs every command the README shows in "Command-line mode" and "The local backend",
// exactly as written, the way a new user would type them: from a folder holding
// `build/bin`, with `sandbox-desk` on PATH and a HOME of its own. An example that stops
// working, or one added without a check here, fails.
//
// The README names port 49900, which the backend `make run` starts may hold on a
// developer's machine; the test runs in a private network namespace where it is free.

#include "localbackend.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <sys/prctl.h>
#include <unistd.h>

#include <vector>

namespace {

const QString privateNetVariable = QStringLiteral("SD_README_PRIVATE_NET");

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// The fenced blocks of `language` between `heading` and the next heading of its level.
QStringList blocks(const QString &readme, const QString &heading, const QString &language)
{
    const qsizetype start = readme.indexOf(QStringLiteral("\n") + heading + QLatin1Char('\n'));
    if (start < 0)
        return {};
    const QString level = heading.section(QLatin1Char(' '), 0, 0);
    qsizetype end = readme.indexOf(QStringLiteral("\n") + level + QLatin1Char(' '), start + 1);
    const QString section = readme.mid(start, end < 0 ? -1 : end - start);
    QStringList found;
    const QRegularExpression fence(
        QStringLiteral("```%1\\n(.*?)```").arg(language), QRegularExpression::DotMatchesEverythingOption);
    for (auto it = fence.globalMatch(section); it.hasNext();)
        found.append(it.next().captured(1));
    return found;
}

/// The commands of a shell block: one per line, a trailing backslash joining lines.
QStringList commands(const QString &block)
{
    QStringList out;
    QString pending;
    for (const QString &line : block.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.endsWith(QLatin1Char('\\'))) {
            pending += line.chopped(1);
            continue;
        }
        out.append(pending + line);
        pending.clear();
    }
    return out;
}

} // namespace

class TestReadme : public QObject
{
    Q_OBJECT

private:
    QString m_readme;
    QTemporaryDir m_dir;
    QProcess m_backend;

    QString work() const { return m_dir.filePath(QStringLiteral("work")); }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // A new user's machine: their own HOME, nothing pointing elsewhere.
        env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        for (const QString &name : env.keys()) {
            if (name.startsWith(QLatin1String("XDG_")) || name.startsWith(QLatin1String("E2B_")))
                env.remove(name);
        }
        env.insert(QStringLiteral("PATH"),
            QStringLiteral(SD_BIN_DIR) + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        return env;
    }

    Result run(const QString &command)
    {
        QProcess process;
        process.setWorkingDirectory(work());
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), command });
        Result result;
        if (!process.waitForFinished(180000)) {
            process.kill();
            process.waitForFinished();
            result.err = QStringLiteral("did not finish within 180 s");
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(qEnvironmentVariable(privateNetVariable.toLatin1().constData()), QStringLiteral("1"));
        QFile file(QStringLiteral(SD_SOURCE_DIR "/README.md"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_readme = QString::fromUtf8(file.readAll());
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("home"))));
        QVERIFY(QDir().mkpath(work()));
        // `build/bin/...` as in a checkout; `import 'e2b'` resolved as after `npm install e2b`.
        QVERIFY(QFile::link(QStringLiteral(SD_BIN_DIR "/.."), work() + QStringLiteral("/build")));
        QString npm = qEnvironmentVariable("SD_NPM_DIR");
        if (npm.isEmpty())
            npm = QStringLiteral(SD_BIN_DIR "/../npm");
        QVERIFY2(QFile::exists(npm + QStringLiteral("/node_modules/e2b")),
            qPrintable(QStringLiteral("no e2b SDK in %1: run `make npm`").arg(npm)));
        QVERIFY(QFile::link(npm + QStringLiteral("/node_modules"), work() + QStringLiteral("/node_modules")));
    }

    // "The local backend": start it as shown, then the SDK script as shown.
    void localBackendSection()
    {
        const QStringList shell = blocks(m_readme, QStringLiteral("### The local backend"), QStringLiteral("sh"));
        const QStringList js = blocks(m_readme, QStringLiteral("### The local backend"), QStringLiteral("js"));
        QCOMPARE(shell.size(), 2);
        QCOMPARE(js.size(), 1);

        const QStringList start = commands(shell.at(0));
        QCOMPARE(start.size(), 1);
        const QRegularExpressionMatch promise
            = QRegularExpression(QStringLiteral("# prints: (.*)$")).match(start.constFirst());
        QVERIFY2(promise.hasMatch(), "the start command says what it prints");
        m_backend.setWorkingDirectory(work());
        m_backend.setProcessEnvironment(environment());
        m_backend.setChildProcessModifier([] {
            ::setpgid(0, 0); // stopped with everything it started
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        });
        m_backend.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), start.constFirst() });
        QVERIFY(m_backend.waitForStarted());
        QByteArray printed;
        QTRY_VERIFY_WITH_TIMEOUT(
            (printed += m_backend.readAllStandardOutput()).contains('\n') || m_backend.state() != QProcess::Running,
            30000);
        QCOMPARE(QString::fromUtf8(printed).section(QLatin1Char('\n'), 0, 0), promise.captured(1).trimmed());

        const QRegularExpressionMatch name
            = QRegularExpression(QStringLiteral("with this `([^`]+)`")).match(m_readme);
        QVERIFY(name.hasMatch());
        QFile script(work() + QLatin1Char('/') + name.captured(1));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(js.constFirst().toUtf8());
        script.close();

        const QStringList sdk = commands(shell.at(1));
        QCOMPARE(sdk.size(), 1);
        const Result result = run(sdk.constFirst());
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QRegularExpressionMatch prints
            = QRegularExpression(QStringLiteral("It prints `([^`]+)`")).match(m_readme);
        QVERIFY(prints.hasMatch());
        QCOMPARE(result.out.trimmed(), prints.captured(1));
    }

    // "Command-line mode", against the backend the previous step started on 49900,
    // which is where the Local profile points on a new machine.
    void commandLineSection()
    {
        QVERIFY2(m_backend.state() == QProcess::Running, "the local backend section failed");
        const QStringList shell = blocks(m_readme, QStringLiteral("### Command-line mode"), QStringLiteral("sh"));
        QCOMPARE(shell.size(), 1);
        QString createdId;
        for (const QString &command : commands(shell.constFirst())) {
            const Result r = run(command);
            const QString what = command + QStringLiteral("\n") + r.out + r.err;
            if (command.startsWith(QLatin1String("echo "))) {
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                continue;
            }
            QVERIFY2(command.startsWith(QLatin1String("sandbox-desk ")), qPrintable(what));
            const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
            if (command.contains(QLatin1String("--list --json"))) {
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                QVERIFY2(json.value(QLatin1String("sandboxes")).isArray(), qPrintable(what));
            } else if (command.contains(QLatin1String("--orphans"))) {
                // Exit 3 only when an orphan exists; a new backend has none.
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                QCOMPARE(r.out, QStringLiteral("No orphans.\n"));
            } else if (command.contains(QLatin1String("--create"))) {
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                const QRegularExpressionMatch ready
                    = QRegularExpression(QStringLiteral("^ready: (\\S+)$"), QRegularExpression::MultilineOption)
                          .match(r.out);
                QVERIFY2(ready.hasMatch(), qPrintable(what));
                createdId = ready.captured(1);
                const Result listed = run(QStringLiteral("sandbox-desk --profile Local --list --json"));
                const QJsonArray sandboxes = QJsonDocument::fromJson(listed.out.toUtf8())
                                                 .object()
                                                 .value(QLatin1String("sandboxes"))
                                                 .toArray();
                QCOMPARE(sandboxes.size(), 1);
                const QJsonObject sandbox = sandboxes.at(0).toObject();
                QCOMPARE(sandbox.value(QLatin1String("sandboxId")).toString(), createdId);
                QCOMPARE(sandbox.value(QLatin1String("templateId")).toString(), QStringLiteral("mcp-gateway"));
                QCOMPARE(sandbox.value(QLatin1String("metadata")).toObject().value(QLatin1String("team")).toString(),
                    QStringLiteral("data"));
                QVERIFY(sandbox.value(QLatin1String("orphan")).isNull());
            } else if (command.contains(QLatin1String("--history"))) {
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                QVERIFY2(!createdId.isEmpty() && r.out.contains(createdId) && r.out.contains(QLatin1String("ready")),
                    qPrintable(what));
            } else if (command.contains(QLatin1String("--kill-orphans --include-suspected"))) {
                // Suspected orphans too, by explicit choice; ours stays, being healthy.
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                const Result listed = run(QStringLiteral("sandbox-desk --profile Local --list --json"));
                QVERIFY2(listed.out.contains(createdId), qPrintable(listed.out));
            } else if (command.contains(QLatin1String("--kill-orphans --json"))) {
                QVERIFY2(r.exitCode == 0, qPrintable(what));
                QVERIFY2(json.value(QLatin1String("failed")).toArray().isEmpty(), qPrintable(what));
                // A healthy sandbox is not an orphan: it is still there.
                QVERIFY(!json.value(QLatin1String("killed")).toArray().contains(createdId));
            } else {
                QFAIL(qPrintable(QStringLiteral("the README shows a command this test does not check: ") + command));
            }
        }
        QVERIFY2(!createdId.isEmpty(), "the README's --create example did not run");
    }

    void cleanupTestCase()
    {
        if (m_backend.state() == QProcess::NotRunning)
            return;
        ::kill(-pid_t(m_backend.processId()), SIGTERM);
        if (!m_backend.waitForFinished(20000)) {
            ::kill(-pid_t(m_backend.processId()), SIGKILL);
            m_backend.waitForFinished();
        }
    }
};

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty(privateNetVariable.toLatin1().constData())) {
        // Re-run this test in a network namespace of its own, with a loopback of its own.
        ::setenv(privateNetVariable.toLatin1().constData(), "1", 1);
        std::vector<char *> args { const_cast<char *>("bwrap"), const_cast<char *>("--dev-bind"),
            const_cast<char *>("/"), const_cast<char *>("/"), const_cast<char *>("--unshare-net"),
            const_cast<char *>("--die-with-parent"), const_cast<char *>("--") };
        args.insert(args.end(), argv, argv + argc);
        args.push_back(nullptr);
        ::execvp("bwrap", args.data());
        std::perror("tst_readme: cannot start bwrap for a private network namespace");
        return 1;
    }
    QCoreApplication app(argc, argv);
    TestReadme test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_readme.moc"
