#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTcpServer>
#include <QTimer>

class QTcpSocket;

namespace sd::local {

/// What one client may cost the server before any of its requests is trusted.
struct ConnectionLimits
{
    qint64 maxHeaderBytes = 64 * 1024; ///< request line and headers; 431 above
    qint64 maxBodyBytes = 256 * 1024 * 1024; ///< 413 above (files are uploaded whole)
    /// The longest idle connection makes room for a new one. Room for the official SDK's
    /// 200 MCP creations at once, each on two connections (API and envd).
    int maxConnections = 1024;
    /// No byte in or out for this long, or a header block not complete after it: closed.
    int idleTimeoutMs = 60 * 1000;
};

/// The listening socket of LocalServer, enforcing ConnectionLimits.
///
/// QAbstractHttpServer (Qt 6.4) reads a request whole, body included, before it
/// calls the server, and has no limit of its own. This server creates each
/// connection's socket itself and connects to its readyRead() before Qt does, so it
/// sees every byte first: it counts the header block and the body, reads the
/// Content-Length as soon as the headers are complete, and refuses (431, 413) before
/// Qt parses or buffers more. A refused connection stops being read by Qt, gets its
/// answer, then has its sending side shut so the client reads the answer before the
/// close (closing with unread input would reset the connection).
///
/// A connection counts as busy while a streamed response runs (markStreaming());
/// only connections that are not busy are closed when idle or to make room.
class ConnectionGuard : public QTcpServer
{
    Q_OBJECT

public:
    explicit ConnectionGuard(ConnectionLimits limits, QObject *parent = nullptr);
    ~ConnectionGuard() override;

    const ConnectionLimits &limits() const { return m_limits; }
    int connectionCount() const { return int(m_connections.size()); }

    /// The HTTP server took a whole request from `socket`: what follows is a new one.
    void requestTaken(QTcpSocket *socket);
    /// A streamed response runs on `socket` (true) or has ended (false).
    static void markStreaming(QTcpSocket *socket, bool streaming);

protected:
    void incomingConnection(qintptr handle) override;

private:
    struct Connection
    {
        QPointer<QTcpSocket> socket;
        qint64 lastActivity = 0;
        qint64 headStarted = -1; ///< when the header block's first byte came; -1: none yet
        QByteArray head; ///< the header block so far
        bool headComplete = false;
        qint64 bodyBytes = 0; ///< body bytes seen (with chunk framing)
        qint64 refusedAt = -1; ///< when it was refused; -1: it was not
    };

    void onReadyRead(QTcpSocket *socket);
    void refuse(QTcpSocket *socket, int status, const QString &message);
    void forget(QTcpSocket *socket);
    /// Closes the connection idle the longest; false when every one is busy.
    bool closeIdlest();
    void closeIdle();
    static bool isStreaming(const QTcpSocket *socket);

    ConnectionLimits m_limits;
    QHash<QTcpSocket *, Connection> m_connections;
    QElapsedTimer m_clock;
    QTimer m_idleTimer;
};

} // namespace sd::local
