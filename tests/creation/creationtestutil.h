#pragma once

// Helpers shared by the creation tests: a real sandbox-desk-local with fault
// injection, and blocking wrappers (tests only) around the core jobs.

#include "api/sandboxjobs.h"
#include "creation/creationjob.h"
#include "localbackend.h"
#include "network/networkaccessmanager.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

namespace sd::test {

/// Starts a job and spins until it finished (tests only).
inline bool runJob(Job *job, int timeoutMs = 60000)
{
    QSignalSpy spy(job, &Job::finished);
    if (!job->isStarted())
        job->start();
    return spy.size() > 0 || spy.wait(timeoutMs);
}

class FaultBackend
{
public:
    FaultBackend()
        : m_backend({ QStringLiteral("--fault-injection") })
    { }

    bool start()
    {
        if (!m_backend.start(60000)) {
            qWarning("%s", qPrintable(m_backend.errorString()));
            return false;
        }
        return true;
    }

    ConnectionSettings settings() const
    {
        ConnectionSettings s;
        s.apiUrl = m_backend.url();
        s.sandboxUrl = m_backend.url();
        s.apiKey = m_backend.apiKey();
        return s;
    }

    /// What a creation on this backend needs; tests add budgets and backoffs.
    CreationContext creationContext(CreationJournal *journal, const QString &installId)
    {
        CreationContext c;
        c.network = &m_network;
        c.connection = settings();
        c.journal = journal;
        c.installId = installId;
        return c;
    }

    QString url() const { return m_backend.url().toString(); }
    quint16 port() const { return m_backend.port(); }
    QString apiKey() const { return m_backend.apiKey(); }
    QNetworkAccessManager *network() { return &m_network; }

    /// POST /_local/faults with `rules`; true on 2xx.
    bool setFaults(const QJsonArray &rules)
    {
        return call("POST", QJsonObject { { QStringLiteral("rules"), rules } });
    }
    bool clearFaults() { return call("DELETE", {}); }
    /// The rules not used up yet (GET /_local/faults).
    QJsonArray faults()
    {
        QByteArray body;
        if (!call("GET", {}, &body))
            return { QStringLiteral("<could not read the rules>") };
        return QJsonDocument::fromJson(body).object().value(QLatin1String("rules")).toArray();
    }

    QList<Sandbox> list()
    {
        ListSandboxesJob job(&m_network, settings());
        job.setAutoDelete(false);
        if (!runJob(&job) || job.hasError()) {
            qWarning("list failed: %s", qPrintable(job.error().message()));
            return {};
        }
        return job.sandboxes();
    }

    QStringList listIds()
    {
        QStringList ids;
        for (const Sandbox &s : list())
            ids << s.sandboxId;
        ids.sort();
        return ids;
    }

    /// Kills every sandbox on the backend.
    void killAll()
    {
        for (const QString &id : listIds()) {
            KillSandboxJob kill(&m_network, settings(), id);
            kill.setAutoDelete(false);
            runJob(&kill);
        }
    }

    /// Creates a sandbox the way another client would (no tags of ours).
    Sandbox createRaw(
        const QString &templateId, const Metadata &metadata = {}, int timeoutSeconds = 300)
    {
        NewSandbox request;
        request.templateId = templateId;
        request.timeoutSeconds = timeoutSeconds;
        request.metadata = metadata;
        CreateSandboxJob job(&m_network, settings(), request);
        job.setAutoDelete(false);
        if (!runJob(&job) || job.hasError())
            qWarning("create failed: %s", qPrintable(job.error().message()));
        return job.sandbox();
    }

private:
    bool call(const QByteArray &verb, const QJsonObject &body, QByteArray *answer = nullptr)
    {
        QNetworkRequest request(QUrl(url() + QStringLiteral("/_local/faults")));
        request.setRawHeader("X-API-Key", apiKey().toUtf8());
        request.setHeader(
            QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        std::unique_ptr<QNetworkReply> reply(m_network.sendCustomRequest(
            request, verb, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson()));
        QSignalSpy spy(reply.get(), &QNetworkReply::finished);
        if (!spy.wait(20000))
            return false;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray replyBody = reply->readAll();
        if (status < 200 || status >= 300)
            qWarning("faults %s: HTTP %d %s", verb.constData(), status, replyBody.constData());
        if (answer)
            *answer = replyBody;
        return status >= 200 && status < 300;
    }

    LocalBackend m_backend;
    sd::NetworkAccessManager m_network;
};

inline QJsonObject rule(const QString &method, const QString &path, const QString &action,
    int count = 1, int status = 0, int delayMs = 0)
{
    QJsonObject r { { QStringLiteral("method"), method }, { QStringLiteral("path"), path },
        { QStringLiteral("action"), action }, { QStringLiteral("count"), count } };
    if (status)
        r.insert(QStringLiteral("status"), status);
    if (delayMs)
        r.insert(QStringLiteral("delayMs"), delayMs);
    return r;
}

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace sd::test
