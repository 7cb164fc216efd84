#pragma once

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

namespace sd::test {

/// Starts a real sandbox-desk-local on a free loopback port with its own state
/// directory and API key, and stops it (and everything it runs) on destruction.
/// Only tests may block: start() spins the event loop until the backend prints
/// its "listening" line.
class LocalBackend
{
public:
    explicit LocalBackend(QStringList extraArgs = {});
    ~LocalBackend();

    /// Starts the backend through `command` (a program and its arguments, the
    /// backend's path and arguments follow), which must exec it: to run it in a
    /// namespace of its own, for one.
    void setWrapper(QStringList command) { m_wrapper = std::move(command); }
    /// Runs the backend as an ordinary user (nobody, uid 65534), from copies of the
    /// binaries it can reach, as most people run it. Only root may; see canRunAsNobody().
    void setRunAsNobody(bool asNobody) { m_asNobody = asNobody; }
    static bool canRunAsNobody();
    /// Returns false (with a reason in errorString()) if the backend did not come up.
    bool start(int timeoutMs = 20000);
    void stop();

    QUrl url() const { return m_url; }
    quint16 port() const { return quint16(m_url.port()); }
    QString apiKey() const { return m_apiKey; }
    QString stateDir() const { return m_stateDir.path(); }
    QString errorString() const { return m_error; }
    /// Everything the backend printed on stderr so far (for failure messages). It
    /// goes to a file, not into this process: a long run (the soak) would otherwise
    /// keep every line in the QProcess buffer and read that as the client's memory.
    QByteArray stderrOutput();
    QString stderrPath() const { return m_logDir.filePath(QStringLiteral("stderr.log")); }
    QProcess *process() { return m_process.get(); }

    static QString binary(const QString &name);

private:
    QStringList m_extraArgs;
    QStringList m_wrapper;
    bool m_asNobody = false;
    QTemporaryDir m_binDir; ///< the binaries' copies, when run as nobody
    QTemporaryDir m_stateDir;
    QTemporaryDir m_logDir;
    QString m_apiKey;
    QUrl m_url;
    QString m_error;
    std::unique_ptr<QProcess> m_process;
};

} // namespace sd::test
