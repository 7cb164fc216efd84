// The session: one journal per API whatever the route to it, journals named after
// profiles taken over, and a session that outlives the creations it started
// (real creations against the real sandbox-desk-local).

#include "creationtestutil.h"
#include "creation/creationregistry.h"
#include "journal/creationjournal.h"
#include "session/session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace sd;
using sd::test::rule;

class TestSession : public QObject
{
    Q_OBJECT

private:
    sd::test::FaultBackend m_backend;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_backend.start()); }

    void journalKeyNamesTheEndpoint()
    {
        const auto key = [](const char *url) { return Session::journalKey(QUrl(QString::fromLatin1(url))); };
        QCOMPARE(key("https://api.e2b.app"), QStringLiteral("https-api.e2b.app-443"));
        QCOMPARE(key("https://API.E2B.app:443/"), key("https://api.e2b.app"));
        QCOMPARE(key("https://api.e2b.app/v2?x=1"), key("https://api.e2b.app"));
        QCOMPARE(key("http://127.0.0.1:49900"), QStringLiteral("http-127.0.0.1-49900"));
        QVERIFY(key("http://127.0.0.1:49901") != key("http://127.0.0.1:49900"));
        QVERIFY(key("http://api.e2b.app") != key("https://api.e2b.app"));
    }

    // A journal named after the profile (as before) becomes the endpoint's journal,
    // with its history; one already named after the endpoint is never overwritten.
    void takesOverAJournalNamedAfterTheProfile()
    {
        QTemporaryDir dir;
        const QString legacy = CreationJournal::filePathFor(dir.path(), QStringLiteral("local"));
        {
            CreationJournal old(legacy);
            QVERIFY(old.open());
            CreationIntent intent;
            intent.creationId = QStringLiteral("c-legacy");
            intent.templateId = QStringLiteral("base");
            QVERIFY(old.recordIntent(intent));
        }
        Session session(m_backend.network(), m_backend.settings());
        QVERIFY2(session.open(dir.path(), { QStringLiteral("local") }), qPrintable(session.errorString()));
        QCOMPARE(session.journal()->filePath(),
            CreationJournal::filePathFor(dir.path(), Session::journalKey(m_backend.settings().apiUrl)));
        QVERIFY(!QFile::exists(legacy));
        QCOMPARE(session.journal()->history().size(), 1);
        QCOMPARE(session.journal()->history().constFirst().creationId, QStringLiteral("c-legacy"));

        // Another legacy file does not replace the endpoint's journal.
        QFile other(CreationJournal::filePathFor(dir.path(), QStringLiteral("other")));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.close();
        Session again(m_backend.network(), m_backend.settings());
        QVERIFY(again.open(dir.path(), { QStringLiteral("other") }));
        QCOMPARE(again.journal()->history().size(), 1);
    }

    // Journals once lived in sandbox-desk/sandbox-desk/journal: the first open moves them.
    void movesAJournalOutOfTheDoubledFolder()
    {
        QTemporaryDir data;
        qputenv("XDG_DATA_HOME", QFile::encodeName(data.path()));
        QCoreApplication::setOrganizationName(QStringLiteral("sandbox-desk"));
        QCoreApplication::setApplicationName(QStringLiteral("sandbox-desk"));
        QCOMPARE(CreationJournal::defaultDirectory(), data.filePath(QStringLiteral("sandbox-desk/journal")));
        const QString old = CreationJournal::filePathFor(
            data.filePath(QStringLiteral("sandbox-desk/sandbox-desk/journal")), QStringLiteral("local"));
        QCOMPARE(CreationJournal::legacyDefaultDirectory(), QFileInfo(old).path());
        QVERIFY(QDir().mkpath(QFileInfo(old).path()));
        {
            CreationJournal journal(old);
            QVERIFY(journal.open());
            CreationIntent intent;
            intent.creationId = QStringLiteral("c-doubled");
            intent.templateId = QStringLiteral("base");
            QVERIFY(journal.recordIntent(intent));
        }
        Session session(m_backend.network(), m_backend.settings());
        QVERIFY(session.open({}, { QStringLiteral("local") }));
        QVERIFY(session.journal()->filePath().startsWith(data.filePath(QStringLiteral("sandbox-desk/journal/"))));
        QVERIFY(!QFile::exists(old));
        QCOMPARE(session.journal()->history().constFirst().creationId, QStringLiteral("c-doubled"));
        qunsetenv("XDG_DATA_HOME");
    }

    // Released (the user switched profile) while a creation's rollback waits on the
    // server: the session, and the journal the rollback writes to, stay until it ends.
    void releasedSessionLivesUntilItsCreationEnds()
    {
        QVERIFY(m_backend.clearFaults());
        QVERIFY(m_backend.setFaults({ rule(QStringLiteral("POST"), QStringLiteral("/sandboxes/*/timeout"),
                                          QStringLiteral("status"), 1, 500),
            rule(QStringLiteral("DELETE"), QStringLiteral("/sandboxes/*"), QStringLiteral("delay"), 1, 0, 1500) }));
        QTemporaryDir dir;
        QPointer<Session> session = new Session(m_backend.network(), m_backend.settings());
        QVERIFY(session->open(dir.path()));
        auto *job = new CreationJob(session->creationContext(), CreationRequest {});
        session->track(job, true);
        QSignalSpy finished(job, &Job::finished);
        QSignalSpy destroyed(session.data(), &QObject::destroyed);
        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(job->state() == CreationState::RollingBack, 20000);
        session->release();
        QVERIFY(session); // still there: its creation runs
        QVERIFY(finished.wait(30000));
        QVERIFY(destroyed.wait(10000));
        QVERIFY(!session);
        QVERIFY(m_backend.listIds().isEmpty());
        CreationJournal journal(
            CreationJournal::filePathFor(dir.path(), Session::journalKey(m_backend.settings().apiUrl)));
        QVERIFY(journal.open());
        QCOMPARE(journal.history().size(), 1);
        QVERIFY(journal.history().constFirst().isFinished());
        QCOMPARE(toString(journal.history().constFirst().state), toString(CreationState::RolledBack));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
