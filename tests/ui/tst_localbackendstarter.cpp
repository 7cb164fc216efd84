// Finding (or starting) the local backend for the Local profile: the key goes only to
// a listener of this user, the backend is started with isolation, and what isolation
// it reports is kept. Against the real sandbox-desk-local.

#include "localbackend.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "network/networkaccessmanager.h"
#include "otheruserbackend.h"
#include "session/localbackendstarter.h"
#include "uitest.h"

#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sd;

class TestLocalBackendStarter : public QObject
{
    Q_OBJECT

private:
    sd::NetworkAccessManager m_network;
    QTemporaryDir m_dir;

    /// The key file a backend started with --api-key would have written; empty on failure.
    QString writeKeyFile(const QString &key)
    {
        QFile file(m_dir.filePath(QStringLiteral("key")));
        if (!file.open(QIODevice::WriteOnly) || file.write(key.toUtf8()) < 0)
            return {};
        return file.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The key file and the log of a backend this test starts stay in the test's folder.
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("data"))));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("cache"))));
    }

    void listenerUidFromProcNetTcp()
    {
        const QByteArray table =
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
            "   0: 0100007F:C0B4 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1\n"
            "   1: 0100007F:C0B5 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1\n"
            "   2: 0A00000F:C0B6 00000000:0000 0A 00000000:00000000 00:00000000 00000000    33        0 3 1\n"
            "   3: 00000000:C0B7 00000000:0000 0A 00000000:00000000 00:00000000 00000000    42        0 4 1\n";
        QCOMPARE(LocalBackendStarter::listenerUid(table, 0xC0B4), qint64(1000));
        QCOMPARE(LocalBackendStarter::listenerUid(table, 0xC0B5), qint64(-1)); // connected, not listening
        QCOMPARE(LocalBackendStarter::listenerUid(table, 0xC0B6), qint64(-1)); // not loopback
        QCOMPARE(LocalBackendStarter::listenerUid(table, 0xC0B7), qint64(42)); // any address includes loopback
        const QByteArray table6 =
            "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
            "   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 5 1\n";
        QCOMPARE(LocalBackendStarter::listenerUid(table6, 0x1F90), qint64(1001));
    }

    // Our own backend: the key from its file, and the isolation it reports.
    void connectsToThisUsersBackend()
    {
        test::LocalBackend backend;
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QString keyFile = writeKeyFile(backend.apiKey());
        QVERIFY(!keyFile.isEmpty());
        LocalBackendStarter starter(&m_network, backend.port());
        starter.setAutoDelete(false);
        starter.setStartAllowed(false);
        starter.setKeyFile(keyFile);
        QVERIFY(test::runJob(&starter));
        QCOMPARE(starter.settings().apiKey, backend.apiKey());
        QCOMPARE(starter.isolation(), QStringLiteral("bwrap"));
        QVERIFY(!starter.startedBackend());
    }

    // Another user took the port first: it answers, but it never gets the key.
    void refusesAnotherUsersListener()
    {
        // Only root can start a listener as another user. CI runs as root, so this runs
        // there; elsewhere listenerUidFromProcNetTcp covers the ownership check itself.
        if (!test::OtherUserBackend::canStart())
            QSKIP("starting a listener as another user needs root");
        test::OtherUserBackend other;
        QVERIFY2(other.start(), qPrintable(other.errorString()));
        const quint16 port = other.port();

        LocalBackendStarter starter(&m_network, port);
        starter.setAutoDelete(false);
        starter.setStartAllowed(false);
        starter.setKeyFile(m_dir.filePath(QStringLiteral("key")));
        QVERIFY(!test::runJob(&starter));
        QCOMPARE(starter.error().message(),
                 QStringLiteral("Port %1 is held by another user's program (uid 65534); the local backend's key is "
                                "not sent to it. Choose another port with --local-port, or stop that program.")
                     .arg(port));
        QVERIFY(starter.settings().apiKey.isEmpty());
    }

    // A backend that runs sandboxes unjailed: the window says so and keeps saying it.
    void windowWarnsWithoutIsolation()
    {
        test::LocalBackend backend({QStringLiteral("--isolation"), QStringLiteral("none")});
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const QString keyFile = writeKeyFile(backend.apiKey());
        QVERIFY(!keyFile.isEmpty());
        test::useTestSettings(m_dir.path(), QStringLiteral("tst_localbackendstarter"));
        DesktopOptions options;
        options.localPort = backend.port();
        options.startLocalBackend = false;
        options.localKeyFile = keyFile;
        options.rememberState = false;
        options.journalDirectory = m_dir.filePath(QStringLiteral("journal"));
        MainWindow window(options);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.connectionState() == MainWindow::ConnectionState::Connected, 20000);
        QVERIFY(window.connectionWarning()->isVisible());
        QVERIFY2(window.connectionWarning()->text().startsWith(
                     QLatin1String("Sandboxes on this computer run without isolation")),
            qPrintable(window.connectionWarning()->text()));
        window.refresh();
        QTRY_VERIFY(window.connectionWarning()->isVisible()); // a good refresh does not hide it
    }

    // Nothing answers: the backend is started, asked to isolate, and found.
    void startsTheBackendWithIsolation()
    {
        const quint16 port = test::freeLoopbackPort();
        LocalBackendStarter starter(&m_network, port);
        starter.setAutoDelete(false);
        starter.setBinaryDirectory(QStringLiteral(SD_BIN_DIR));
        QSignalSpy starting(&starter, &LocalBackendStarter::startingBackend);
        const bool ok = test::runJob(&starter, 30000);
        if (starter.startedPid() > 0)
            ::kill(pid_t(starter.startedPid()), SIGTERM);
        QVERIFY2(ok, qPrintable(starter.error().message()));
        QCOMPARE(starting.size(), 1);
        QVERIFY(starter.startedBackend());
        QCOMPARE(starter.isolation(), QStringLiteral("bwrap"));
        QVERIFY(starter.settings().apiKey.startsWith(QLatin1String("e2b_")));
        QVERIFY(QFile::exists(LocalBackendStarter::logFile()));
    }
};

QTEST_MAIN(TestLocalBackendStarter)
#include "tst_localbackendstarter.moc"
