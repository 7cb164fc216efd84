#include "checkconnectionjob.h"

#include "api/infojobs.h"
#include "api/sandboxjobs.h"

namespace sd {

CheckConnectionJob::CheckConnectionJob(
    QNetworkAccessManager *network, const ConnectionSettings &settings, QObject *parent)
    : Job(parent)
    , m_network(network)
    , m_settings(settings)
{ }

CheckConnectionJob::~CheckConnectionJob()
{
    // The step deletes itself once it has finished; stop it rather than let it run on.
    abandonStep(m_step);
}

void CheckConnectionJob::startStep(ApiJob *job)
{
    m_step = job;
    job->setTimeout(m_timeout);
    job->start(); // auto-deletes after finished()
}

void CheckConnectionJob::doStart()
{
    auto *health = new HealthJob(m_network, m_settings);
    connect(health, &Job::finished, this, [this, health] {
        m_step = nullptr;
        const Error::Kind kind = health->error().kind();
        if (kind == Error::Kind::Transport || kind == Error::Kind::Timeout
            || kind == Error::Kind::Rejected) {
            m_failedStep = Step::Reach;
            emitError(health->error());
            return;
        }
        checkKey();
    });
    startStep(health);
}

void CheckConnectionJob::checkKey()
{
    SandboxFilter filter;
    filter.pageSize = 1;
    filter.followPages = false;
    auto *list = new ListSandboxesJob(m_network, m_settings, filter);
    connect(list, &Job::finished, this, [this, list] {
        m_step = nullptr;
        if (list->hasError()) {
            m_failedStep = Step::Key;
            emitError(list->error());
            return;
        }
        m_running = list->totalRunning();
        emitResult();
    });
    startStep(list);
}

void CheckConnectionJob::doCancel()
{
    abandonStep(m_step);
    emitError(Error::cancelled());
}

} // namespace sd
