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

#include <algorithm>
#include <memory>
#include <vector>

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

    /// SendInput is answered once the process took the input, as envd answers it, so a
    /// client that waits for each answer goes at the pace the process reads; input sent
    /// without waiting is refused past a 16 MiB backlog, which the backend had held
    /// however much came. Nothing accepted is lost, and a call that waits is not taken
    /// for an idle connection (here idle after 300 ms).
    void unreadInputIsPacedAndBounded()
    {
        LocalBackend backend({ QStringLiteral("--isolation"), QStringLiteral("none"),
            QStringLiteral("--idle-timeout-ms"), QStringLiteral("300") });
        QVERIFY2(backend.start(), qPrintable(backend.errorString()));
        const TestSandbox sandbox = createSandbox(&m_nam, &backend);
        QVERIFY(sandbox.isValid());
        const EnvdTarget target = targetFor(&backend, sandbox);
        const QString go = backend.stateDir() + QStringLiteral("/read-now");
        ProcessConfig reader;
        reader.cmd = QStringLiteral("/bin/sh");
        reader.args = QStringList { QStringLiteral("-c"),
            QStringLiteral("while [ ! -e '%1' ]; do sleep 0.05; done; wc -c").arg(go) };
        StartProcessJob process(&m_nam, target, reader);
        process.setStdin(true);
        process.setAutoDelete(false);
        QSignalSpy started(&process, &StartProcessJob::started);
        QSignalSpy ended(&process, &Job::finished);
        process.start();
        QVERIFY(started.wait(60000));

        // One manager each, so every call is in flight at once.
        std::vector<std::unique_ptr<sd::NetworkAccessManager>> networks;
        std::vector<std::unique_ptr<SendInputJob>> inputs;
        for (int i = 0; i < 9; ++i) {
            networks.push_back(std::make_unique<sd::NetworkAccessManager>());
            const QByteArray data(i == 0 ? MiB : 2 * MiB, char('a' + i));
            inputs.push_back(std::make_unique<SendInputJob>(
                networks.back().get(), target, ProcessSelector::byPid(process.pid()), data));
            inputs.back()->setAutoDelete(false);
            inputs.back()->start();
            if (i == 0)
                QTest::qWait(200); // the first is taken first
        }
        const auto finished = [&] {
            return std::count_if(
                inputs.begin(), inputs.end(), [](const auto &job) { return job->isFinished(); });
        };
        // 1 + 7 × 2 MiB wait for the process; the ninth call would make it 17.
        QTRY_COMPARE_WITH_TIMEOUT(finished(), 1, 60000);
        QTest::qWait(1000);
        QCOMPARE(finished(), 1);
        const auto refused = std::find_if(
            inputs.begin(), inputs.end(), [](const auto &job) { return job->isFinished(); });
        QVERIFY((*refused)->hasError());
        QVERIFY2((*refused)->error().message().contains(
                     QLatin1String("wait for each SendInput to be answered before sending more")),
            qPrintable((*refused)->error().message()));

        QFile(go).open(QIODevice::WriteOnly);
        QTRY_COMPARE_WITH_TIMEOUT(finished(), 9, 60000);
        for (const auto &job : inputs) {
            if (job.get() != refused->get())
                QVERIFY2(!job->hasError(), qPrintable(job->error().message()));
        }
        CloseStdinJob close(&m_nam, target, ProcessSelector::byPid(process.pid()));
        QVERIFY(runJob(&close));
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
        QCOMPARE(process.stdoutData().trimmed(), QByteArray::number(15 * MiB));
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
