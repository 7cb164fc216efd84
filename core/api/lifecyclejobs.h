#pragma once

#include "api/apijob.h"
#include "api/sandbox.h"

namespace sd {

/// POST /sandboxes/{id}/pause. A 409 (already paused) counts as success:
/// the sandbox is paused either way (wasAlreadyPaused() tells which).
class PauseSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    PauseSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                    QString sandboxId, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    bool wasAlreadyPaused() const { return m_alreadyPaused; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;
    bool isSuccess(int status) const override { return ApiJob::isSuccess(status) || status == 409; }

private:
    QString m_sandboxId;
    bool m_alreadyPaused = false;
};

/// POST /sandboxes/{id}/resume {timeout}: resumes a paused sandbox, which then
/// ends `timeoutSeconds` from now. Answers the `Sandbox` (with a fresh envd token).
/// E2B marks this call deprecated in favour of ConnectSandboxJob.
class ResumeSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    ResumeSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                     QString sandboxId, int timeoutSeconds, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    const Sandbox &sandbox() const { return m_sandbox; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    QString m_sandboxId;
    int m_timeoutSeconds;
    Sandbox m_sandbox;
};

/// POST /sandboxes/{id}/connect {timeout}: returns the `Sandbox`, resuming it if it
/// was paused (201) and extending (never shortening) its timeout.
class ConnectSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    ConnectSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
                      QString sandboxId, int timeoutSeconds, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    const Sandbox &sandbox() const { return m_sandbox; }
    /// True when the server resumed a paused sandbox (201), false when it was running (200).
    bool wasResumed() const { return m_resumed; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    QString m_sandboxId;
    int m_timeoutSeconds;
    Sandbox m_sandbox;
    bool m_resumed = false;
};

} // namespace sd
