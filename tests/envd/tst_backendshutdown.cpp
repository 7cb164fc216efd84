// sandbox-desk-local shuts down cleanly: on SIGTERM, with sandboxes that ran
// processes (one still running one, one killed before), it exits with status 0 and,
// in the sanitizer build where leak detection is switched on for it here, leaks
// nothing (LeakSanitizer would print its report and fail the exit status).

#include "envdtestutil.h"
#include "network/networkaccessmanager.h"

using namespace sd;
using namespace sd::test;

class TestBackendShutdown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sigtermWithRunningSandboxesExitsCleanly()
    {
        // The suite runs sanitizer builds with leak detection off (Qt's widget tests
        // report leaks outside this project); the backend has no widgets, so its
        // leaks are checked.
        QByteArray asanOptions = qgetenv("ASAN_OPTIONS");
        asanOptions.replace("detect_leaks=0", "detect_leaks=1");
        if (!asanOptions.contains("detect_leaks"))
            asanOptions += asanOptions.isEmpty() ? "detect_leaks=1" : ":detect_leaks=1";
        qputenv("ASAN_OPTIONS", asanOptions);

        sd::NetworkAccessManager nam;
        LocalBackend backend;
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));

        const TestSandbox killedLater = createSandbox(&nam, &backend);
        const TestSandbox leftRunning = createSandbox(&nam, &backend);
        QVERIFY(killedLater.isValid() && leftRunning.isValid());
        for (const TestSandbox &sandbox : { killedLater, leftRunning }) {
            StartProcessJob job(&nam, targetFor(&backend, sandbox),
                StartProcessJob::shellCommand(QStringLiteral("echo ran; sleep 300 &")));
            QVERIFY(runJob(&job, 120000));
            QVERIFY2(!job.hasError(), qPrintable(job.error().message()));
            QCOMPARE(job.exitCode(), 0);
        }
        // One still streaming when the backend goes.
        StartProcessJob streaming(&nam, targetFor(&backend, leftRunning),
            StartProcessJob::shellCommand(QStringLiteral("echo begin; sleep 300")));
        streaming.setAutoDelete(false);
        QSignalSpy started(&streaming, &StartProcessJob::started);
        QSignalSpy finished(&streaming, &Job::finished);
        streaming.start();
        QVERIFY(started.wait(60000));
        QCOMPARE(apiCall(&nam, &backend, "DELETE", QStringLiteral("/sandboxes/") + killedLater.id)
                     .status,
            204);

        QProcess *process = backend.process();
        process->terminate();
        QVERIFY(process->waitForFinished(60000));
        const QByteArray errors = backend.stderrOutput();
        QVERIFY2(!errors.contains("LeakSanitizer"), errors.constData());
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(process->exitCode(), 0);
        // The client sees the stream end rather than hang.
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QVERIFY(streaming.hasError());
    }
};

QTEST_GUILESS_MAIN(TestBackendShutdown)
#include "tst_backendshutdown.moc"
