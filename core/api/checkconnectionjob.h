#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"

#include <QPointer>

#include <chrono>

class QNetworkAccessManager;

namespace sd {

class ApiJob;

/// "Test connection" for the profile settings: is the API reachable, and does it
/// take the key?
///
///   HealthJob (GET /health, no key)
///      │ transport error or timeout ──▶ finish, failedStep() == Reach
///      ▼ any HTTP answer: the server is there
///   ListSandboxesJob (one sandbox, first page only; needs the key)
///      │ error ──▶ finish, failedStep() == Key (a 401 says "check the key")
///      ▼
///   finish: success, runningSandboxes() from X-Total-Running
class CheckConnectionJob : public Job
{
    Q_OBJECT

public:
    enum class Step
    {
        None,
        Reach,
        Key
    };

    CheckConnectionJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        QObject *parent = nullptr);
    ~CheckConnectionJob() override;

    /// Per request; the check makes two.
    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

    /// Which step failed (None on success or cancel).
    Step failedStep() const { return m_failedStep; }
    /// Running sandboxes the server reported, -1 if it did not say.
    int runningSandboxes() const { return m_running; }

protected:
    void doStart() override;
    void doCancel() override;

private:
    void startStep(ApiJob *job);
    void checkKey();

    QNetworkAccessManager *m_network;
    ConnectionSettings m_settings;
    std::chrono::milliseconds m_timeout { 15000 };
    QPointer<ApiJob> m_step;
    Step m_failedStep = Step::None;
    int m_running = -1;
};

} // namespace sd
