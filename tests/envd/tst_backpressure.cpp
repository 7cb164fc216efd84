// Memory stays bounded whatever a process prints and however slowly a client reads:
// the backend stops reading a process's output while its client's queue is full,
// and the client keeps only so much of a process's output and of an answer.

#include "envd/envelope.h"
#include "envdtestutil.h"
#include "network/networkaccessmanager.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace sd;
using namespace sd::test;

namespace {

constexpr qint64 MiB = 1024 * 1024;

// A field of /proc/PID/status ("VmRSS") in kB, or -1.
qint64 statusKb(qint64 pid, const QByteArray &field)
{
    QFile file(QStringLiteral("/proc/%1/status").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// The bytes PID has written so far (/proc/PID/io), or -1.
qint64 bytesWritten(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/io").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("wchar:"))
            return line.mid(6).trimmed().toLongLong();
    }
    return -1;
}

char processState(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return '?';
    const QByteArray stat = file.readAll();
    const qsizetype close = stat.lastIndexOf(')');
    return close > 0 && close + 2 < stat.size() ? stat.at(close + 2) : '?';
}

// The child of `parent` whose command name is `name`, or 0.
qint64 childNamed(qint64 parent, const QByteArray &name)
{
    const QStringList entries
        = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        QFile file(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = file.readAll();
        const qsizetype open = stat.indexOf('(');
        const qsizetype close = stat.lastIndexOf(')');
        if (open < 0 || close < open || stat.mid(open + 1, close - open - 1) != name)
            continue;
        if (stat.mid(close + 2).split(' ').value(1).toLongLong() == parent)
            return entry.toLongLong();
    }
    return 0;
}

// A socket that sends `request` and then never reads: plain POSIX, so no event
// loop drains it behind the test's back.
int sendAndNeverRead(quint16 port, const QByteArray &request)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0
        || ::write(fd, request.constData(), size_t(request.size())) != request.size()) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Answers every request with `head` and then `bodyBytes` bytes of body, and then
// stays silent without closing: a client that waits for the end before applying its
// cap never finishes.
class OversizedServer : public QTcpServer
{
public:
    OversizedServer(QByteArray head, qint64 bodyBytes)
        : m_head(std::move(head))
        , m_bodyBytes(bodyBytes)
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    if (socket->property("answered").toBool())
                        return;
                    socket->setProperty("answered", true);
                    socket->readAll();
                    socket->write(m_head);
                    socket->write(QByteArray(m_bodyBytes, 'x'));
                });
            }
        });
    }

private:
    QByteArray m_head;
    qint64 m_bodyBytes;
};

} // namespace

class TestBackPressure : public QObject
{
    Q_OBJECT

private:
    sd::NetworkAccessManager m_nam;

private Q_SLOTS:
    void initTestCase()
    {
        // Under AddressSanitizer freed memory sits in a quarantine of up to 256 MiB before
        // it is reused, which would read as growth here: keep the backend's small, so its
        // resident size measures what it holds, not what it has freed.
        if (const QByteArray asan = qgetenv("ASAN_OPTIONS"); !asan.isEmpty())
            qputenv("ASAN_OPTIONS", asan + ":quarantine_size_mb=1");
    }

    void unreadStreamKeepsBackendMemoryBounded()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const qint64 backendPid = backend.process()->processId();
        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        const qint64 rssBefore = statusKb(backendPid, "VmRSS");
        QVERIFY(rssBefore > 0);

        const QByteArray body = envd::encodeEnvelope(QJsonObject { { QStringLiteral("process"),
            QJsonObject { { QStringLiteral("cmd"), QStringLiteral("/usr/bin/yes") } } } });
        const QByteArray request = "POST /process.Process/Start HTTP/1.1\r\nHost: 127.0.0.1:"
            + QByteArray::number(backend.port()) + "\r\nE2b-Sandbox-Port: 49983\r\nE2b-Sandbox-Id: "
            + sandbox.id.toLatin1() + "\r\nX-Access-Token: " + sandbox.token.toLatin1()
            + "\r\nContent-Type: application/connect+json\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        const int fd = sendAndNeverRead(backend.port(), request);
        QVERIFY(fd >= 0);
        qint64 yes = 0;
        QTRY_VERIFY_WITH_TIMEOUT((yes = childNamed(backendPid, "yes")) > 0, 20000);

        // Either `yes` is held (blocked on its full pipe, nothing written for two
        // seconds) or it got far past any bound the backend may keep. One look without
        // progress is not enough: a backend that is merely slow (under a sanitizer, on a
        // busy machine) leaves `yes` blocked for a moment and then reads on.
        qint64 last = -1;
        QElapsedTimer unchanged;
        const auto settled = [&] {
            const qint64 written = bytesWritten(yes);
            if (written != last) {
                last = written;
                unchanged.start();
            }
            const bool held
                = processState(yes) == 'S' && written > MiB && unchanged.elapsed() >= 2000;
            return held || written > 1024 * MiB;
        };
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 300000);
        const qint64 rssAfter = statusKb(backendPid, "VmRSS");
        ::close(fd);
        QVERIFY2((rssAfter - rssBefore) * 1024 < 64 * MiB,
            qPrintable(QStringLiteral("the backend grew from %1 to %2 kB while `yes` wrote %3 MiB")
                           .arg(rssBefore)
                           .arg(rssAfter)
                           .arg(last / MiB)));
        QVERIFY2(last < 256 * MiB, qPrintable(QString::number(last)));
    }

    void keptOutputIsCapped()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        auto job = std::make_unique<StartProcessJob>(&m_nam, targetFor(&backend, sandbox),
            StartProcessJob::shellCommand(
                QStringLiteral("head -c %1 /dev/zero; head -c 10 /dev/zero >&2")
                    .arg(StartProcessJob::DefaultMaxKeptOutput + MiB)));
        qint64 streamed = 0;
        connect(job.get(), &StartProcessJob::stdoutReceived, this,
            [&](const QByteArray &data) { streamed += data.size(); });
        QVERIFY(runJob(job.get(), 120000));
        QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        QCOMPARE(streamed, StartProcessJob::DefaultMaxKeptOutput + MiB);
        QCOMPARE(job->stdoutData().size(), StartProcessJob::DefaultMaxKeptOutput);
        QCOMPARE(job->stderrData().size(), 10);
        QVERIFY(job->isOutputTruncated());

        auto small = std::make_unique<StartProcessJob>(&m_nam, targetFor(&backend, sandbox),
            StartProcessJob::shellCommand(QStringLiteral("echo 0123456789")));
        small->setMaxKeptOutput(4);
        QVERIFY(runJob(small.get(), 120000));
        QCOMPARE(small->stdoutData(), QByteArray("0123"));
        QVERIFY(small->isOutputTruncated());
    }

    // The caps hold while the answer still comes: a client that read a whole answer
    // first would wait here for an end that never comes.
    void oversizedAnswersAreCutShort_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("errorKind");
        QTest::newRow("unary answer")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          "Content-Length: 1073741824\r\n\r\n")
            << int(Error::Kind::BadResponse);
        QTest::newRow("error body")
            << QByteArray("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
                          "Content-Length: 1073741824\r\n\r\n")
            << int(Error::Kind::Http);
    }

    void oversizedAnswersAreCutShort()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, errorKind);
        OversizedServer server(head, 9 * MiB);
        QVERIFY(server.listen(QHostAddress::LocalHost));
        ListProcessesJob job(&m_nam,
            EnvdTarget::forSharedUrl(
                QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort())),
                QStringLiteral("sbx"), QStringLiteral("token")));
        job.setRequestTimeoutMs(0);
        QVERIFY(runJob(&job, 60000));
        QVERIFY(job.hasError());
        QCOMPARE(int(job.error().kind()), errorKind);
    }
};

QTEST_GUILESS_MAIN(TestBackPressure)
#include "tst_backpressure.moc"
