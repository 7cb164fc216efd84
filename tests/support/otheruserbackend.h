#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace sd::test {

/// A free TCP port on 127.0.0.1 (free when asked; a test takes it right after).
quint16 freeLoopbackPort();

/// Stops a process the product started detached (a local backend) with SIGTERM and
/// waits until it has exited, SIGKILL after `timeoutMs`. Nothing for pid 0.
void terminateAndWait(qint64 pid, int timeoutMs = 20000);

/// A real sandbox-desk-local run as another user (uid and gid 65534), for the checks
/// that our local key never reaches a listener someone else holds. Only root can
/// start it: canStart() says whether this process can. Stopped on destruction.
class OtherUserBackend
{
public:
    OtherUserBackend();
    ~OtherUserBackend();

    static bool canStart();
    /// False (with a reason in errorString()) if it did not come up listening.
    bool start(int timeoutMs = 20000);

    quint16 port() const { return m_port; }
    /// What it printed so far, one line per request it answered (waits for the pipe to
    /// be quiet for 100 ms).
    QByteArray output();
    QString errorString() const { return m_error; }

private:
    QTemporaryDir m_state;
    QProcess m_process;
    quint16 m_port = 0;
    QByteArray m_output;
    QString m_error;
};

} // namespace sd::test
