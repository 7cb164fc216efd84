#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

class QTcpSocket;

namespace sd::test {

/// A tiny HTTP/1.1 server on a free loopback port for the unit tests of the API
/// jobs: it records each request and answers from a queue of canned responses
/// (one per request, Connection: close).
class FakeServer : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray method;
        QByteArray path;  ///< as sent, percent-encoding kept
        QByteArray query; ///< as sent, without '?'
        QHash<QByteArray, QByteArray> headers; ///< names lowercased
        QByteArray body;

        QByteArray header(const char *name) const { return headers.value(QByteArray(name).toLower()); }
        bool hasHeader(const char *name) const { return headers.contains(QByteArray(name).toLower()); }
    };

    struct Response
    {
        enum class Mode { Answer, Hang, Truncate };
        int status = 200;
        QByteArray body;
        QList<QPair<QByteArray, QByteArray>> headers;
        Mode mode = Mode::Answer;
    };

    explicit FakeServer(QObject *parent = nullptr);

    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    QUrl url(const QString &path = {}) const;

    /// The next request gets this answer; with an empty queue the answer is a 599.
    void enqueue(Response response) { m_queue.append(std::move(response)); }
    void enqueue(int status, QByteArray body = {}, QList<QPair<QByteArray, QByteArray>> headers = {})
    {
        enqueue(Response{status, std::move(body), std::move(headers), Response::Mode::Answer});
    }
    void enqueueHang() { enqueue(Response{0, {}, {}, Response::Mode::Hang}); }

    const QList<Request> &requests() const { return m_requests; }
    int connectionCount() const { return m_connections; }

Q_SIGNALS:
    void requestReceived();

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void answer(QTcpSocket *socket);

    QTcpServer m_server;
    QList<Response> m_queue;
    QList<Request> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_connections = 0;
};

} // namespace sd::test
