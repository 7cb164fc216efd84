// A creation whose journal cannot be written after the intent (a full disk, made
// with RLIMIT_FSIZE in a helper process), against the real sandbox-desk-local: the
// creation must stop, roll back, say why, and leave neither a sandbox nor a torn line.
// And a journal whose lock a stopped process holds: creations are refused, naming it,
// instead of hanging, and nothing on the caller's thread waits for it.

#include "clitestutil.h"
#include "common/error.h"
#include "creationtestutil.h"
#include "journal/creationjournal.h"
#include "teststrings.h"

#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>

using namespace sd;

class TestJournalFailure : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_backend.start()); }

    void fullDiskAfterTheIntent_data()
    {
        QTest::addColumn<QString>("limitFrom"); // the state after whose record the disk fills
        QTest::addColumn<int>("bytes"); // how much still fits
        QTest::addColumn<QString>("lastState"); // what the journal holds afterwards
        QTest::newRow("sandbox id, nothing fits")
            << QStringLiteral("allocating") << 0 << QStringLiteral("allocating");
        QTest::newRow("sandbox id, part of a line fits")
            << QStringLiteral("allocating") << 10 << QStringLiteral("allocating");
        // Without its outcome a Ready creation would look interrupted later, and
        // "Kill all orphans" would kill it: it must not stay.
        QTest::newRow("ready outcome, part of a line fits")
            << QStringLiteral("extending") << 10 << QStringLiteral("extending");
    }

    void fullDiskAfterTheIntent()
    {
        QFETCH(QString, limitFrom);
        QFETCH(int, bytes);
        QFETCH(QString, lastState);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        QProcess helper;
        helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        helper.start(QStringLiteral(JOURNAL_HELPER),
            { QStringLiteral("create"), path, m_backend.url(), m_backend.apiKey(), limitFrom,
                QString::number(bytes) });
        QVERIFY(helper.waitForFinished(120000));
        QCOMPARE(helper.exitCode(), 0);
        const QList<QByteArray> lines = helper.readAllStandardOutput().trimmed().split('\n');
        const QJsonObject result = QJsonDocument::fromJson(lines.constLast()).object();
        QVERIFY2(!result.isEmpty(), lines.constLast().constData());

        QCOMPARE(result.value(QLatin1String("state")).toString(), str(CreationState::RolledBack));
        QCOMPARE(result.value(QLatin1String("kind")).toInt(), int(Error::Kind::Journal));
        const QString error = result.value(QLatin1String("error")).toString();
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(QString::fromLocal8Bit(std::strerror(EFBIG))), qPrintable(error));
        QVERIFY(!result.value(QLatin1String("sandbox")).toString().isEmpty());
        QCOMPARE(result.value(QLatin1String("rollback")).toString(), str(RollbackOutcome::Killed));
        QVERIFY(m_backend.listIds().isEmpty()); // nothing left running

        // The records that failed left nothing behind, not even part of a line.
        QCOMPARE(QFileInfo(path).size(), result.value(QLatin1String("sizeAtLimit")).toInteger());
        CreationJournal journal(path);
        QVERIFY(journal.open());
        QVERIFY(journal.warnings().isEmpty());
        QVERIFY(journal.corruptFileMovedTo().isEmpty());
        const auto r = journal.creation(result.value(QLatin1String("creation")).toString());
        QVERIFY(r);
        QCOMPARE(toString(r->state), lastState);
        QVERIFY(!r->isFinished()); // looks interrupted, and nothing of it runs
    }

    /// A writer stopped with Ctrl+Z while it holds the journal's lock: the window's
    /// creation and the command line's are refused within a few seconds with an error
    /// that names it, and nothing is created; once it is resumed and lets go, both
    /// create again.
    void lockHeldByAStoppedProcess()
    {
        sd::test::DeskCli cli(m_backend);
        // The window's session is open before the lock is taken: its intent is what waits.
        Session session(m_backend.network(), m_backend.settings());
        QVERIFY2(session.open(QFileInfo(cli.journalPath()).absolutePath()),
            qPrintable(session.errorString()));
        QCOMPARE(session.journal()->filePath(), cli.journalPath());
        QProcess holder;
        holder.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        holder.start(QStringLiteral(JOURNAL_HELPER),
            { QStringLiteral("hold-lock"), session.journal()->lockFilePath() });
        QVERIFY(holder.waitForStarted(30000));
        QTRY_VERIFY_WITH_TIMEOUT(holder.canReadLine(), 30000);
        QCOMPARE(holder.readLine(), QByteArray("locked\n"));
        QCOMPARE(::kill(pid_t(holder.processId()), SIGSTOP), 0);
        const QString named = QStringLiteral(
            "is held by another process (pid %1, journalhelper), which is stopped (Ctrl+Z). "
            "Resume it (fg, or kill -CONT %1) or end it, then try again.")
                                  .arg(holder.processId());

        CreationJob refused(session.creationContext(), CreationRequest {});
        refused.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&refused, 120000));
        QCOMPARE(str(refused.state()), str(CreationState::Rejected));
        QCOMPARE(refused.error().kind(), Error::Kind::Journal);
        QVERIFY2(refused.error().message().contains(
                     session.journal()->filePath() + QLatin1Char(' ') + named),
            qPrintable(refused.error().message()));
        QVERIFY(!session.journal()->creation(refused.creationId())); // no intent either
        QVERIFY(m_backend.listIds().isEmpty());

        const sd::test::CliResult cliRefused
            = cli.run(QStringList { QStringLiteral("--create"), QStringLiteral("--json") }
                + cli.connection());
        QCOMPARE(cliRefused.exitCode, 5); // the journal could not be written
        QVERIFY2(cliRefused.err.contains(named.toUtf8()), cliRefused.err.constData());
        QVERIFY(m_backend.listIds().isEmpty());

        QCOMPARE(::kill(pid_t(holder.processId()), SIGCONT), 0);
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(30000));
        QCOMPARE(holder.exitCode(), 0);

        CreationJob created(session.creationContext(), CreationRequest {});
        created.setAutoDelete(false);
        QVERIFY(sd::test::runJob(&created, 120000));
        QCOMPARE(str(created.state()), str(CreationState::Ready));
        const sd::test::CliResult cliCreated
            = cli.run(QStringList { QStringLiteral("--create"), QStringLiteral("--json") }
                + cli.connection());
        QCOMPARE(cliCreated.exitCode, 0);
        QCOMPARE(
            cliCreated.json().value(QLatin1String("state")).toString(), str(CreationState::Ready));
        QCOMPARE(m_backend.listIds().size(), 2);
        m_backend.killAll();
    }

    /// While a stopped process holds the lock, a journal still opens at once and reads
    /// what is there, leaving a torn last line alone (it may be that process's record
    /// half written); a kill's record waits for the lock on the writer thread, not on
    /// the caller's, and fails naming the holder. Once the holder lets go, the record is
    /// written and the torn line is cut off.
    void nothingOnTheCallersThreadWaitsForTheLock()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.jsonl"));
        const QString id = QStringLiteral("c-held");
        const QString sandbox = QStringLiteral("sbx-held");
        {
            CreationJournal writer(path);
            QVERIFY(writer.open());
            CreationIntent intent;
            intent.creationId = id;
            intent.templateId = QStringLiteral("base");
            QVERIFY(writer.recordIntent(intent));
            QVERIFY(writer.recordSandboxId(id, sandbox));
            QVERIFY(writer.recordOutcome(id, { CreationState::Ready, {}, {}, {} }));
        }
        QFile torn(path);
        QVERIFY(torn.open(QIODevice::Append));
        torn.write("{\"v\":1,\"type\":\"state\",\"creation\":\"c-hel");
        torn.close();
        const QByteArray before = readAll(path);

        QProcess holder;
        holder.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        holder.start(QStringLiteral(JOURNAL_HELPER),
            { QStringLiteral("hold-lock"), path + QStringLiteral(".lock") });
        QVERIFY(holder.waitForStarted(30000));
        QTRY_VERIFY_WITH_TIMEOUT(holder.canReadLine(), 30000);
        QCOMPARE(holder.readLine(), QByteArray("locked\n"));
        QCOMPARE(::kill(pid_t(holder.processId()), SIGSTOP), 0);
        auto resume = qScopeGuard([&holder] {
            ::kill(pid_t(holder.processId()), SIGCONT);
            holder.closeWriteChannel();
            holder.waitForFinished(30000);
        });

        CreationJournal journal(path);
        QVERIFY2(journal.open(), qPrintable(journal.errorString()));
        const auto record = journal.creation(id);
        QVERIFY(record);
        QCOMPARE(str(record->state), str(CreationState::Ready));
        QCOMPARE(record->sandboxId, sandbox);
        QCOMPARE(readAll(path), before); // not repaired under another writer's lock

        QObject context;
        std::optional<bool> written;
        bool callerRanMeanwhile = false;
        QTimer::singleShot(0, &context, [&] { callerRanMeanwhile = !written.has_value(); });
        journal.recordLaterKill(sandbox, {}, {}, &context, [&written](bool ok) { written = ok; });
        QVERIFY(!written.has_value()); // never called before the record is written or given up
        QTRY_VERIFY_WITH_TIMEOUT(written.has_value(), 60000);
        QVERIFY(callerRanMeanwhile);
        QCOMPARE(*written, false);
        const QString named = QStringLiteral("is held by another process (pid %1, journalhelper), "
                                             "which is stopped (Ctrl+Z).")
                                  .arg(holder.processId());
        QVERIFY2(journal.errorString().contains(named), qPrintable(journal.errorString()));
        QCOMPARE(readAll(path), before);

        resume.dismiss();
        QCOMPARE(::kill(pid_t(holder.processId()), SIGCONT), 0);
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(30000));

        written.reset();
        journal.recordLaterKill(sandbox, {}, {}, &context, [&written](bool ok) { written = ok; });
        QTRY_VERIFY_WITH_TIMEOUT(written.has_value(), 60000);
        QVERIFY2(*written, qPrintable(journal.errorString()));
        QVERIFY(journal.creation(id)->killedAt.isValid());
        CreationJournal reopened(path);
        QVERIFY(reopened.open());
        QVERIFY2(reopened.warnings().isEmpty(), qPrintable(reopened.warnings().join(u'\n')));
        QVERIFY(reopened.creation(id)->killedAt.isValid());
        const QByteArray after = readAll(path);
        QCOMPARE(after.count("\"creation\":\"c-hel"), after.count("\"creation\":\"c-held\""));
        QVERIFY(after.endsWith('\n'));
    }

private:
    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
};

QTEST_GUILESS_MAIN(TestJournalFailure)
#include "tst_journalfailure.moc"
