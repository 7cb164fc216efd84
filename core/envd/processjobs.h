#pragma once

#include "envd/envdjob.h"
#include "envd/processconfig.h"

#include <QList>
#include <QMap>

namespace sd {

/// Shared by Start and Connect: reads a stream of ProcessEvents.
///
/// started() fires once with the pid (Start only; Connect knows the pid it asked
/// for when attaching by pid), stdoutReceived()/stderrReceived() as each chunk
/// arrives, in order. finished() fires once: hasError() for transport, protocol or
/// RPC failures; otherwise the process ended and exitCode()/exited()/status() tell how.
/// A non-zero exit code is not a job error.
class ProcessStreamJob : public EnvdJob
{
    Q_OBJECT

public:
    using EnvdJob::EnvdJob;

    quint32 pid() const { return m_pid; }
    int exitCode() const { return m_exitCode; }
    bool exited() const { return m_exited; }
    QString status() const { return m_status; }
    /// The process's own error text from its end event, if any.
    QString processError() const { return m_processError; }
    bool hasEnded() const { return m_ended; }

    /// What stdoutData()/stderrData() keep by default, each: a command that prints
    /// without end must not fill the client's memory. The signals carry all of it.
    static constexpr qsizetype DefaultMaxKeptOutput = 8 * 1024 * 1024;

    /// Keeps output in stdoutData()/stderrData() (default true), the first
    /// maxKeptOutput() bytes of each.
    void setKeepOutput(bool keep) { m_keepOutput = keep; }
    void setMaxKeptOutput(qsizetype bytes) { m_maxKeptOutput = qMax<qsizetype>(0, bytes); }
    qsizetype maxKeptOutput() const { return m_maxKeptOutput; }
    /// Output beyond maxKeptOutput() came and was not kept.
    bool isOutputTruncated() const { return m_outputTruncated; }
    QByteArray stdoutData() const { return m_stdout; }
    QByteArray stderrData() const { return m_stderr; }

    void setConnectTimeoutMs(int ms) { m_connectTimeoutMs = ms; }
    void setKeepAliveIntervalSeconds(int seconds) { m_keepAliveSeconds = seconds; }

Q_SIGNALS:
    /// The process runs, with this pid.
    void started(quint32 pid);
    void stdoutReceived(const QByteArray &data);
    void stderrReceived(const QByteArray &data);

protected:
    bool streamMessage(const QJsonObject &json) override;
    void streamEnded() override;

private:
    void keep(QByteArray *kept, const QByteArray &data);

protected:
    quint32 m_pid = 0;
    int m_connectTimeoutMs = 0;
    int m_keepAliveSeconds = 50;

private:
    int m_exitCode = -1;
    bool m_exited = false;
    bool m_ended = false;
    bool m_keepOutput = true;
    bool m_outputTruncated = false;
    qsizetype m_maxKeptOutput = DefaultMaxKeptOutput;
    QString m_status;
    QString m_processError;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

/// `process.Process/Start`: runs a command and streams its output.
/// cancel() aborts the stream and, when the pid is known, sends SIGKILL to the
/// process (a SendSignalJob on the same network access manager).
class StartProcessJob : public ProcessStreamJob
{
    Q_OBJECT

public:
    StartProcessJob(QNetworkAccessManager *network, EnvdTarget target, ProcessConfig config,
        QObject *parent = nullptr);

    /// Runs `/bin/bash -l -c command` as the SDK's commands.run() does.
    static ProcessConfig shellCommand(
        const QString &command, const QMap<QString, QString> &envs = {}, const QString &cwd = {});

    void setTag(const QString &tag) { m_tag = tag; }
    /// Keeps stdin open for SendInput (default false, as the current SDK).
    void setStdin(bool stdinOpen) { m_stdin = stdinOpen; }
    void setKillOnCancel(bool kill) { m_killOnCancel = kill; }
    const ProcessConfig &config() const { return m_config; }

protected:
    void doStart() override;
    void doCancel() override;
    QString errorContext() const override;

private:
    QNetworkAccessManager *m_network;
    ProcessConfig m_config;
    QString m_tag;
    bool m_stdin = false;
    bool m_killOnCancel = true;
};

/// `process.Process/Connect`: attaches to a running process and streams its further
/// output. cancel() only detaches.
class ConnectProcessJob : public ProcessStreamJob
{
    Q_OBJECT

public:
    ConnectProcessJob(QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector,
        QObject *parent = nullptr);

protected:
    void doStart() override;
    QString errorContext() const override;

private:
    ProcessSelector m_selector;
};

/// `process.Process/List`.
class ListProcessesJob : public EnvdJob
{
    Q_OBJECT

public:
    using EnvdJob::EnvdJob;
    QList<ProcessInfo> processes() const { return m_processes; }

protected:
    void doStart() override;
    void unaryReplied(const QJsonObject &json) override;
    QString errorContext() const override;

private:
    QList<ProcessInfo> m_processes;
};

/// `process.Process/SendSignal` with SIGTERM or SIGKILL.
class SendSignalJob : public EnvdJob
{
    Q_OBJECT

public:
    enum class Signal
    {
        Term = 15,
        Kill = 9
    };
    SendSignalJob(QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector,
        Signal signal, QObject *parent = nullptr);

protected:
    void doStart() override;
    QString errorContext() const override;

private:
    ProcessSelector m_selector;
    Signal m_signal;
};

/// `process.Process/SendInput`: bytes to a process's stdin (Start with setStdin(true)).
class SendInputJob : public EnvdJob
{
    Q_OBJECT

public:
    SendInputJob(QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector,
        QByteArray data, QObject *parent = nullptr);

protected:
    void doStart() override;
    QString errorContext() const override;

private:
    ProcessSelector m_selector;
    QByteArray m_data;
};

/// `process.Process/CloseStdin`.
class CloseStdinJob : public EnvdJob
{
    Q_OBJECT

public:
    CloseStdinJob(QNetworkAccessManager *network, EnvdTarget target, ProcessSelector selector,
        QObject *parent = nullptr);

protected:
    void doStart() override;
    QString errorContext() const override;

private:
    ProcessSelector m_selector;
};

} // namespace sd
