#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QTimer>

class QTcpSocket;

namespace sd {

class LoopbackHttpReply;

/// Kept-alive connections to HTTP servers on this machine: at most six at a time per
/// host and port, as Qt's own client, with the requests beyond them waiting in order.
class LoopbackHttpPool : public QObject
{
    Q_OBJECT
public:
    explicit LoopbackHttpPool(QObject *parent = nullptr);

    /// Starts `reply` on an idle connection or a new one, or queues it until one is free.
    void acquire(LoopbackHttpReply *reply);
    /// `reply` is done with `socket`: kept for the next request when `reusable`.
    void release(LoopbackHttpReply *reply, QTcpSocket *socket, bool reusable);
    /// A queued `reply` that went away before it started.
    void forget(LoopbackHttpReply *reply);
    /// A new connection in place of `stale`, a kept-alive one the server had closed.
    QTcpSocket *replace(QTcpSocket *stale, const QString &host, quint16 port);

private:
    struct Peer
    {
        QList<QTcpSocket *> idle;
        QList<LoopbackHttpReply *> waiting;
        int open = 0; // idle or in use
    };
    QTcpSocket *connectTo(const QString &host, quint16 port);
    void keepIdle(Peer &peer, const QString &peerKey, QTcpSocket *socket);
    static QString key(const QString &host, quint16 port);
    QHash<QString, Peer> m_peers;
};

/// One HTTP/1.1 request over a LoopbackHttpPool connection, as a QNetworkReply.
class LoopbackHttpReply : public QNetworkReply
{
    Q_OBJECT
public:
    /// Whether requests to `url` go this way: plain http to a loopback address or
    /// localhost (never through a proxy).
    static bool handles(const QUrl &url);

    LoopbackHttpReply(QNetworkAccessManager::Operation operation, const QByteArray &verb,
        const QNetworkRequest &request, const QByteArray &body, LoopbackHttpPool *pool,
        QObject *parent);
    ~LoopbackHttpReply() override;

    void abort() override;
    void close() override;
    qint64 bytesAvailable() const override;
    bool isSequential() const override { return true; }

    QString peerHost() const { return url().host(); }
    quint16 peerPort() const { return quint16(url().port(80)); }
    /// Called by the pool: send the request on `socket` (`reused` if kept alive).
    void start(QTcpSocket *socket, bool reused);

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    enum class Stage
    {
        Waiting,
        Sending,
        StatusLine,
        Body,
        Done
    };

    void begin();
    void sendRequest();
    void onBytesWritten();
    void onReadyRead();
    void onSocketGone();
    void announceSent();
    void parse();
    /// Reads the status line and headers; true once the body may follow.
    bool parseHead();
    void takeBody();
    void complete();
    void fail(NetworkError code, const QString &text);
    void releaseSocket(bool reusable);

    QByteArray m_verb;
    QByteArray m_requestBytes;
    qint64 m_bodySize = 0;
    QPointer<LoopbackHttpPool> m_pool;
    QPointer<QTcpSocket> m_socket;
    bool m_reused = false;
    int m_resends = 0;
    int m_sends = 0; // times the whole request was written
    int m_announcedSends = 0; // ... and announced by requestSent()
    Stage m_stage = Stage::Waiting;
    QTimer m_transferTimer;

    QByteArray m_in; // received, not yet parsed
    int m_status = 0;
    bool m_keepAlive = true;
    bool m_chunked = false;
    qint64 m_contentLength = -1; // -1: until the connection closes
    qint64 m_chunkLeft = -1; // -1: a chunk-size line is next
    bool m_inTrailer = false;
    qint64 m_received = 0;

    QByteArray m_data; // body, readable
    qsizetype m_readPos = 0;
};

} // namespace sd
