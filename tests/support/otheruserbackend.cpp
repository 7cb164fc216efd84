#include "otheruserbackend.h"

#include "localbackend.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTcpServer>
#include <QThread>

#include <csignal>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace sd::test {

quint16 freeLoopbackPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    return server.serverPort();
}

void terminateAndWait(qint64 pid, int timeoutMs)
{
    if (pid <= 0)
        return;
    ::kill(pid_t(pid), SIGTERM);
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return;
        // "pid (name) S ...": a zombie has exited; only its reaping is left.
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0 || line.mid(close + 2, 1) == "Z")
            return;
        QThread::msleep(50);
    }
    ::kill(pid_t(pid), SIGKILL);
}

OtherUserBackend::OtherUserBackend() = default;

OtherUserBackend::~OtherUserBackend()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(20000))
            m_process.kill();
        m_process.waitForFinished();
    }
}

bool OtherUserBackend::canStart() { return ::getuid() == 0; }

bool OtherUserBackend::start(int timeoutMs)
{
    if (!m_state.isValid()) {
        m_error = QStringLiteral("no temporary folder");
        return false;
    }
    // The other user must be able to enter its state folder and run its copy of the
    // binary: the build tree may sit in a folder only we can enter.
    QFile::setPermissions(m_state.path(),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
            | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
    const QString binary = m_state.filePath(QStringLiteral("sandbox-desk-local"));
    if (!QFile::copy(LocalBackend::binary(QStringLiteral("sandbox-desk-local")), binary)) {
        m_error = QStringLiteral("could not copy sandbox-desk-local to %1").arg(binary);
        return false;
    }
    m_port = freeLoopbackPort();
    m_process.setProgram(binary);
    m_process.setArguments({ QStringLiteral("--port"), QString::number(m_port),
        QStringLiteral("--isolation"), QStringLiteral("none"), QStringLiteral("--state-dir"),
        m_state.path(), QStringLiteral("--api-key"), QStringLiteral("e2b_other_users_key") });
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("XDG_DATA_HOME"));
    env.remove(QStringLiteral("XDG_CACHE_HOME"));
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    env.insert(QStringLiteral("HOME"), m_state.path());
    // Each answered request is a line of its output.
    env.insert(
        QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("sd.*.debug=false;sd.local.info=true"));
    m_process.setProcessEnvironment(env);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setChildProcessModifier([] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        ::setgroups(0, nullptr);
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(99);
    });
    m_process.start();
    if (!m_process.waitForStarted()) {
        m_error = m_process.errorString();
        return false;
    }
    // Tests only: waits for the "listening" line.
    QDeadlineTimer deadline(timeoutMs);
    while (!output().contains("listening")) {
        if (m_process.state() != QProcess::Running || deadline.hasExpired()) {
            m_error = QStringLiteral("the other user's backend did not start: %1")
                          .arg(QString::fromLocal8Bit(m_output));
            return false;
        }
    }
    return true;
}

QByteArray OtherUserBackend::output()
{
    // Everything already in the pipe (tests only: waits until it is quiet for 100 ms).
    do
        m_output += m_process.readAll();
    while (m_process.waitForReadyRead(100));
    return m_output;
}

} // namespace sd::test
