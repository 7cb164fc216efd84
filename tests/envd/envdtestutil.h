#pragma once

// Small helpers for the envd tests: raw control-plane calls against a LocalBackend
// and a way to run one envd job to its end. Tests only: these spin the event loop.

#include "envd/processjobs.h"
#include "localbackend.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

namespace sd::test {

struct HttpResult
{
    int status = 0;
    QByteArray body;
    QJsonValue json() const { return QJsonDocument::fromJson(body).isArray()
                                         ? QJsonValue(QJsonDocument::fromJson(body).array())
                                         : QJsonValue(QJsonDocument::fromJson(body).object()); }
};

inline HttpResult apiCall(QNetworkAccessManager *nam, LocalBackend *backend, const QByteArray &verb,
                          const QString &path, const QJsonObject &body = {}, int timeoutMs = 30000)
{
    QNetworkRequest request(backend->url().resolved(QUrl(path)));
    request.setRawHeader("X-API-Key", backend->apiKey().toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = nam->sendCustomRequest(request, verb,
                                                  verb == "GET" || verb == "DELETE"
                                                      ? QByteArray()
                                                      : QJsonDocument(body).toJson(QJsonDocument::Compact));
    QSignalSpy spy(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        spy.wait(timeoutMs);
    HttpResult result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    reply->deleteLater();
    return result;
}

struct TestSandbox
{
    QString id;
    QString token;
    bool isValid() const { return !id.isEmpty(); }
};

inline TestSandbox createSandbox(QNetworkAccessManager *nam, LocalBackend *backend,
                                 const QString &templateId = QStringLiteral("base"),
                                 const QJsonObject &extra = {})
{
    QJsonObject body = extra;
    body.insert(QStringLiteral("templateID"), templateId);
    const HttpResult result = apiCall(nam, backend, "POST", QStringLiteral("/v2/sandboxes"), body);
    if (result.status != 201)
        qWarning() << "create sandbox:" << result.status << result.body;
    const QJsonObject json = result.json().toObject();
    return {json.value(QStringLiteral("sandboxID")).toString(),
            json.value(QStringLiteral("envdAccessToken")).toString()};
}

inline EnvdTarget targetFor(LocalBackend *backend, const TestSandbox &sandbox)
{
    return EnvdTarget::forSharedUrl(backend->url(), sandbox.id, sandbox.token);
}

/// Starts `job` (autoDelete off) and waits for its one finished().
inline bool runJob(Job *job, int timeoutMs = 60000)
{
    job->setAutoDelete(false);
    QSignalSpy spy(job, &Job::finished);
    job->start();
    return spy.wait(timeoutMs) && spy.count() == 1;
}

inline QList<ProcessInfo> listProcesses(QNetworkAccessManager *nam, const EnvdTarget &target)
{
    ListProcessesJob job(nam, target);
    if (!runJob(&job) || job.hasError()) {
        qWarning() << "list:" << job.error().message();
        return {};
    }
    return job.processes();
}

inline bool hasPid(const QList<ProcessInfo> &processes, quint32 pid)
{
    for (const ProcessInfo &p : processes) {
        if (p.pid == pid)
            return true;
    }
    return false;
}

} // namespace sd::test
