#pragma once

#include "api/connectionsettings.h"
#include "api/replydecoding.h"
#include "common/job.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUrlQuery>

#include <chrono>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace sd {

/// Base of the control-plane jobs: one subclass per REST call.
///
/// The base sends the request with the API key, runs the per-job timeout (through
/// QNetworkReply::abort(), so the normal finish path reports "timed out"), refuses
/// redirects (the key only ever goes to the configured host), maps failures to
/// sd::Error and finishes once. A subclass only builds its request and parses its
/// answer.
class ApiJob : public Job
{
    Q_OBJECT

public:
    ApiJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        QObject *parent = nullptr);
    ~ApiJob() override;

    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }
    std::chrono::milliseconds timeout() const { return m_timeout; }

    /// The HTTP status of the last answer, 0 if none arrived.
    int httpStatus() const { return m_httpStatus; }
    /// True when the request reached the wire before the job failed: the server may
    /// have acted on it (what an ambiguous create must account for). Reliable for
    /// requests with a body (seen through upload progress); for a bodyless request
    /// Qt 6.4 may not report it, so false there means "not known to be sent".
    bool requestWasSent() const { return m_requestSent; }
    /// How many times Qt wrote the request out. It writes it again by itself, on a new
    /// connection, when the one it used closed before any answer (POST included), so
    /// more than one means the server may have acted on it more than once.
    int timesSent() const { return m_timesSent; }

protected:
    struct Request
    {
        QByteArray verb = "GET";
        QString path;
        QUrlQuery query;
        std::optional<QJsonDocument> body;
    };

    virtual Request buildRequest() const = 0;
    /// Called for a successful status; set an error (BadResponse) to fail the job.
    virtual void parseReply(int status, const QByteArray &body, QNetworkReply *reply) = 0;
    /// Which statuses count as success (default 2xx).
    virtual bool isSuccess(int status) const { return status >= 200 && status < 300; }
    /// Lets a job react to a failure before it finishes (e.g. retry another path).
    /// Return true if the job sent a new request and must not finish yet.
    virtual bool retryAfterError(const Error &) { return false; }
    /// Whether the request carries X-API-Key (false only for calls that need no key,
    /// so the secret is not handed out where it is not needed).
    virtual bool sendsApiKey() const { return true; }

    /// Sends `request`; used by doStart() and by subclasses that chain requests
    /// (pagination, fallbacks).
    void send(const Request &request);
    /// Fails the job with `error` while a request is out: that request is dropped
    /// unanswered (for a failure found after a follow-up was already sent).
    void failWithRequestOut(const Error &error);

    QNetworkAccessManager *network() const { return m_network; }
    const ConnectionSettings &settings() const { return m_settings; }

    void doStart() override;
    void doCancel() override;

private:
    void onFinished();
    Error errorFromReply(QNetworkReply *reply, const QByteArray &body) const;
    QString scrubbed(QString text) const;

    QNetworkAccessManager *m_network;
    ConnectionSettings m_settings;
    std::unique_ptr<QNetworkReply> m_reply;
    QTimer m_timer;
    std::chrono::milliseconds m_timeout { 30000 };
    int m_httpStatus = 0;
    bool m_timedOut = false;
    bool m_requestSent = false;
    int m_timesSent = 0;
};

/// "/sandboxes/<id><suffix>" with the ID percent-encoded as one path segment.
QString sandboxPath(const QString &sandboxId, const QString &suffix = {});

} // namespace sd
