#include "localbackend.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <csignal>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace sd::test {

LocalBackend::LocalBackend(QStringList extraArgs)
    : m_extraArgs(std::move(extraArgs))
{
    // Shaped like an E2B key so the official SDK accepts it.
    QByteArray hex;
    for (int i = 0; i < 20; ++i)
        hex += QByteArray::number(QRandomGenerator::global()->bounded(256), 16).rightJustified(2, '0');
    m_apiKey = QStringLiteral("e2b_") + QString::fromLatin1(hex);
}

LocalBackend::~LocalBackend()
{
    stop();
}

QString LocalBackend::binary(const QString &name)
{
    return QStringLiteral(SD_BIN_DIR "/") + name;
}

bool LocalBackend::canRunAsNobody() { return ::getuid() == 0; }

bool LocalBackend::start(int timeoutMs)
{
    m_process = std::make_unique<QProcess>();
    QString program = binary(QStringLiteral("sandbox-desk-local"));
    if (m_asNobody) {
        // The build tree may sit in a folder only we can enter: nobody runs copies.
        constexpr auto Open = QFileDevice::ReadOwner | QFileDevice::WriteOwner
            | QFileDevice::ExeOwner | QFileDevice::ReadOther | QFileDevice::ExeOther;
        QFile::setPermissions(m_binDir.path(), Open);
        QFile::setPermissions(m_stateDir.path(), Open | QFileDevice::WriteOther);
        for (const QString &name :
            { QStringLiteral("sandbox-desk-local"), QStringLiteral("mcp-gateway") }) {
            if (!QFile::copy(binary(name), m_binDir.filePath(name))) {
                m_error = QStringLiteral("could not copy %1 for nobody").arg(name);
                return false;
            }
        }
        program = m_binDir.filePath(QStringLiteral("sandbox-desk-local"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : { "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR" })
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("HOME"), m_stateDir.path());
        m_process->setProcessEnvironment(env);
    }
    const QStringList command = m_wrapper
        + QStringList { program, QStringLiteral("--port"), QStringLiteral("0"),
              QStringLiteral("--state-dir"), m_stateDir.path(), QStringLiteral("--api-key"),
              m_apiKey }
        + m_extraArgs;
    m_process->setProgram(command.first());
    m_process->setArguments(command.mid(1));
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // Appended to: a restarted backend keeps what the earlier run printed.
    m_process->setStandardErrorFile(stderrPath(), QIODevice::Append);
    // A test killed by CTest's timeout must not leave its backend (and sandboxes) behind.
    m_process->setChildProcessModifier([asNobody = m_asNobody] {
        if (asNobody) {
            ::setgroups(0, nullptr);
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(99);
        }
        ::prctl(PR_SET_PDEATHSIG, SIGTERM); // after setuid, which clears it
    });
    m_process->start();
    if (!m_process->waitForStarted(timeoutMs)) {
        m_error = QStringLiteral("could not start %1: %2").arg(m_process->program(), m_process->errorString());
        return false;
    }
    QByteArray out;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        if (m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("sandbox-desk-local exited: %1").arg(QString::fromUtf8(stderrOutput()));
            return false;
        }
        m_process->waitForReadyRead(100);
        out += m_process->readAllStandardOutput();
        for (const QByteArray &line : out.split('\n')) {
            if (line.startsWith("listening ")) {
                m_url = QUrl(QString::fromUtf8(line.mid(10).trimmed()));
                return true;
            }
        }
    }
    m_error = QStringLiteral("sandbox-desk-local printed no 'listening' line within %1 ms").arg(timeoutMs);
    return false;
}

QByteArray LocalBackend::stderrOutput()
{
    QFile file(stderrPath());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void LocalBackend::stop()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return;
    m_process->terminate();
    if (!m_process->waitForFinished(10000)) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

} // namespace sd::test
