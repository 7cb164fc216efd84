#pragma once

#include "common/job.h"
#include "envd/envdtarget.h"
#include "envd/envelope.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace sd {

/// Base of every envd (Connect RPC, JSON codec) call.
///
/// Owns the one request, the time limits, the mapping of every failure to sd::Error
/// and the single finish path. A unary subclass builds its request body and parses
/// the answer in unaryReplied(); a streaming subclass handles each message in
/// streamMessage() and the end in streamEnded(). The QNetworkAccessManager is not
/// owned and must outlive the job.
class EnvdJob : public Job
{
    Q_OBJECT

public:
    EnvdJob(QNetworkAccessManager *network, EnvdTarget target, QObject *parent = nullptr);
    ~EnvdJob() override;

    const EnvdTarget &target() const { return m_target; }

    /// Client-side limit for unary calls (default 30 s); 0 disables it.
    void setRequestTimeoutMs(int ms) { m_requestTimeoutMs = ms; }

protected:
    void doCancel() override;

    /// Sends a unary call; the JSON answer goes to unaryReplied().
    void sendUnary(const QString &method, const QJsonObject &body);
    /// Opens a server stream; `connectTimeoutMs` is the server deadline (0 = none),
    /// `keepAliveSeconds` the ping interval asked of the server (0 = none).
    void sendStream(
        const QString &method, const QJsonObject &body, int connectTimeoutMs, int keepAliveSeconds);

    /// A unary call answered 200 with a JSON object; call emitResult()/emitError().
    virtual void unaryReplied(const QJsonObject &json);
    /// One stream message (not end-of-stream). Return false after setting an error
    /// with failStream() to stop.
    virtual bool streamMessage(const QJsonObject &json);
    /// The stream ended cleanly (end-of-stream without error); default emitResult().
    virtual void streamEnded();
    /// Stops the request and finishes with `error`.
    void failStream(const Error &error);
    /// Drops the reply without reporting (cancel / finish paths).
    void releaseReply();

    /// What the user reads before each error of this call, e.g. "Could not start the process".
    virtual QString errorContext() const = 0;

private:
    void send(const QString &method, const QJsonObject &body, bool stream, int connectTimeoutMs,
        int keepAliveSeconds);
    void onReadyRead();
    /// Reads a unary answer or error body so far; false when it finished the job
    /// because the body is larger than the job takes.
    bool readBody();
    void onFinished();
    void onTimeout();
    bool processEnvelopes();
    void finishWith(Error error);

    QNetworkAccessManager *m_network;
    EnvdTarget m_target;
    std::unique_ptr<QNetworkReply> m_reply;
    envd::EnvelopeDecoder m_decoder;
    QTimer m_timer;
    int m_requestTimeoutMs = 30000;
    bool m_stream = false;
    bool m_timedOut = false;
    bool m_statusChecked = false;
    bool m_statusOk = false;
    QByteArray m_body; ///< a unary answer or an error body, read as it comes
};

} // namespace sd
