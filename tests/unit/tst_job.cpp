#include "common/job.h"

#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace sd;

namespace {
// Finishes after a delay unless cancelled; counts how often it was asked to stop.
class DelayJob : public Job
{
public:
    int cancels = 0;
    bool started = false;
    bool finishesAlone = true; // false: only finishLate() ends it

    // What a timer or reply that fires after a cancel would do.
    void finishLate() { emitResult(); }

protected:
    void doStart() override
    {
        started = true;
        if (finishesAlone)
            QTimer::singleShot(50, this, [this] { emitResult(); });
    }
    void doCancel() override
    {
        ++cancels;
        emitError(Error::cancelled());
    }
};
} // namespace

class TestJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startOnlySchedules()
    {
        DelayJob job;
        job.setAutoDelete(false);
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        QVERIFY(!job.started);
        QVERIFY(spy.wait(2000));
        QVERIFY(job.started);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!job.hasError());
    }

    void cancelIsIdempotentAndFinishesOnce()
    {
        // The job's own result comes only when the test asks, so a slow machine
        // cannot let it finish before the cancel.
        DelayJob job;
        job.finishesAlone = false;
        job.setAutoDelete(false);
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        QTRY_VERIFY(job.started);
        job.cancel();
        job.cancel();
        QCOMPARE(job.cancels, 1);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
        job.finishLate();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(job.error().kind(), Error::Kind::Cancelled);
    }

    void cancelBeforeStartRunsNothing()
    {
        DelayJob job;
        job.setAutoDelete(false);
        QSignalSpy spy(&job, &Job::finished);
        job.start();
        job.cancel();
        QTest::qWait(100);
        QVERIFY(!job.started);
        QCOMPARE(spy.count(), 1);
    }

    void autoDeleteDeletesAfterFinish()
    {
        auto *job = new DelayJob;
        QPointer<Job> guard(job);
        QSignalSpy spy(job, &Job::finished);
        job->start();
        QVERIFY(spy.wait(2000));
        QTRY_VERIFY(guard.isNull());
    }
};

QTEST_GUILESS_MAIN(TestJob)
#include "tst_job.moc"
