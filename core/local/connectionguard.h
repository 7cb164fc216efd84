#pragma once

#include "local/httpmessage.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTcpServer>
#include <QTimer>

#include <functional>

class QTcpSocket;

namespace sd::local {

/// What one client may cost the server before any of its requests is trusted.
struct ConnectionLimits
{
    qint64 maxHeaderBytes = 64 * 1024; ///< request line and headers; 431 above
    /// The largest file upload (envd's POST /files, which takes it whole), its form
    /// framing aside; 413 above.
    qint64 maxBodyBytes = 256 * 1024 * 1024;
    /// The largest body of any other call (REST, Connect): a command line and its
    /// variables (at most 2 MiB on Linux, ARG_MAX) or an MCP configuration, as JSON.
    qint64 maxCallBodyBytes = 4 * 1024 * 1024;
    /// A body larger than this is read only when the request carries its credential
    /// (the API key, or for envd the sandbox's access token); 401 before it is sent.
    qint64 maxAnonymousBodyBytes = 64 * 1024;
    /// Body bytes of all requests being received at once; 0: twice the largest upload.
    /// A body that would go past it gets 503 before it is sent.
    qint64 maxBodyBytesInFlight = 0;
    /// A body must be whole within the idle timeout plus its size at this rate (408).
    qint64 minBodyBytesPerSecond = 256 * 1024;
    /// The longest idle connection makes room for a new one. Room for the official SDK's
    /// 200 MCP creations at once, each on two connections (API and envd).
    int maxConnections = 1024;
    /// No byte in or out for this long, or a header block not complete after it: closed.
    int idleTimeoutMs = 60 * 1000;
};

/// What a request may send, decided from its header block alone (see setHeadScreen()).
struct HeadVerdict
{
    int status = 0; ///< 0: read on; otherwise refused with this status and `message`
    QString message;
    qint64 maxBodyBytes = 0; ///< when read on: the most its body may hold
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
/// Once a header block is complete, the head screen (LocalServer's Host, Origin, route
/// and credential checks) says whether its body is read at all, and how large it may
/// be; a refusal is answered before the client sends the body. Bodies being received
/// share one budget (ConnectionLimits::maxBodyBytesInFlight), and each must be whole by
/// a deadline that grows with its size, so dripping it a byte at a time does not hold
/// the connection (408).
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

    /// Decides on a request from its head; `bodyBytes` is its Content-Length (0 when
    /// none), or -1 when chunked (its size unknown).
    using HeadScreen = std::function<HeadVerdict(const HttpRequest &head, qint64 bodyBytes)>;
    void setHeadScreen(HeadScreen screen) { m_screen = std::move(screen); }
    /// Body bytes of the requests being received now (announced or seen).
    qint64 bodyBytesInFlight() const { return m_bodyBytesInFlight; }

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
        qint64 bodyLimit = 0; ///< the most the body may hold (its head's verdict)
        qint64 bodyStarted = -1; ///< when the header block was complete
        qint64 announced = 0; ///< Content-Length; 0 when none or chunked
        qint64 reserved = 0; ///< its share of m_bodyBytesInFlight
        qint64 refusedAt = -1; ///< when it was refused; -1: it was not
    };

    void onReadyRead(QTcpSocket *socket);
    /// `request` ("METHOD /path") names it in the log when its head was read.
    void refuse(
        QTcpSocket *socket, int status, const QString &message, const QString &request = QString());
    /// Takes the connection's body off the bytes in flight.
    void release(Connection &c);
    /// Counts `bytes` of the connection's body in flight; false past the budget.
    bool reserve(Connection &c, qint64 bytes);
    qint64 inFlightBudget() const;
    /// Whether the body's deadline passed at `now`.
    bool bodyTooSlow(const Connection &c, qint64 now) const;
    void abortConnection(QTcpSocket *socket);
    /// Closes the connection idle the longest; false when every one is busy.
    bool closeIdlest();
    void closeIdle();
    static bool isStreaming(const QTcpSocket *socket);

    ConnectionLimits m_limits;
    QHash<QTcpSocket *, Connection> m_connections;
    HeadScreen m_screen;
    qint64 m_bodyBytesInFlight = 0;
    QElapsedTimer m_clock;
    QTimer m_idleTimer;
};

} // namespace sd::local
