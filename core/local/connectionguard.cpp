#include "local/connectionguard.h"

#include "common/logging.h"
#include "local/httpmessage.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace sd::local {

namespace {

const char *const StreamingProperty = "sdStreaming";

// The Content-Length a header block announces; -1 when none.
qint64 announcedLength(const QByteArray &head)
{
    for (const QByteArray &line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0
            && line.left(colon).trimmed().compare("content-length", Qt::CaseInsensitive) == 0) {
            bool ok = false;
            const qint64 length = line.mid(colon + 1).trimmed().toLongLong(&ok);
            // Unparsable or negative: Qt's parser refuses it; count it as too long here.
            return ok && length >= 0 ? length : std::numeric_limits<qint64>::max();
        }
    }
    return -1;
}

} // namespace

ConnectionGuard::ConnectionGuard(ConnectionLimits limits, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
{
    m_clock.start();
    // A quarter of the timeout between checks: a connection lives at most 1.25 times it.
    m_idleTimer.setInterval(qBound(50, m_limits.idleTimeoutMs / 4, 5000));
    connect(&m_idleTimer, &QTimer::timeout, this, &ConnectionGuard::closeIdle);
    m_idleTimer.start();
}

ConnectionGuard::~ConnectionGuard() = default;

void ConnectionGuard::markStreaming(QTcpSocket *socket, bool streaming)
{
    if (socket)
        socket->setProperty(StreamingProperty, streaming);
}

bool ConnectionGuard::isStreaming(const QTcpSocket *socket)
{
    return socket->property(StreamingProperty).toBool();
}

void ConnectionGuard::requestTaken(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->head.clear();
    it->headStarted = -1;
    it->headComplete = false;
    it->bodyBytes = 0;
    it->lastActivity = m_clock.elapsed();
}

void ConnectionGuard::incomingConnection(qintptr handle)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return;
    }
    if (m_connections.size() >= m_limits.maxConnections && !closeIdlest()) {
        qCWarning(lcLocal) << "connection refused: all" << m_connections.size()
                           << "connections are streaming";
        socket->abort();
        socket->deleteLater();
        return;
    }
    // Without it the kernel holds back a small write while an earlier one is
    // unacknowledged (Nagle), until the client's delayed ACK (up to 40 ms): a stream's
    // end event written right after its output reached the client that much later.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    Connection connection;
    connection.socket = socket;
    connection.lastActivity = m_clock.elapsed();
    m_connections.insert(socket, connection);
    // Connected before QAbstractHttpServer connects its own: this guard sees each
    // byte before Qt parses it.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
    connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            it->lastActivity = m_clock.elapsed();
    });
    connect(socket, &QObject::destroyed, this, [this, socket] { m_connections.remove(socket); });
    addPendingConnection(socket);
}

void ConnectionGuard::onReadyRead(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &c = *it;
    c.lastActivity = m_clock.elapsed();
    if (c.refusedAt >= 0) {
        socket->readAll(); // drained until the client closes (or the idle timeout)
        return;
    }
    // Qt reads inside a transaction and has not seen these bytes yet: peek them.
    const QByteArray fresh = socket->peek(socket->bytesAvailable());
    qint64 bodyFresh = fresh.size();
    if (!c.headComplete) {
        if (c.headStarted < 0 && !fresh.isEmpty())
            c.headStarted = c.lastActivity;
        const qsizetype searchFrom = qMax<qsizetype>(0, c.head.size() - 3);
        c.head += fresh;
        const qsizetype end = c.head.indexOf("\r\n\r\n", searchFrom);
        if ((end < 0 && c.head.size() > m_limits.maxHeaderBytes)
            || end + 4 > m_limits.maxHeaderBytes) {
            refuse(socket, 431,
                tr("the request's headers are larger than %1 bytes").arg(m_limits.maxHeaderBytes));
            return;
        }
        if (end < 0)
            return;
        if (announcedLength(c.head.left(end)) > m_limits.maxBodyBytes) {
            refuse(socket, 413,
                tr("the request body is larger than %1 bytes").arg(m_limits.maxBodyBytes));
            return;
        }
        c.headComplete = true;
        bodyFresh = c.head.size() - (end + 4);
        c.head.clear();
    }
    c.bodyBytes += bodyFresh;
    // Chunk framing (and the start of a pipelined request) come on top of the body.
    if (c.bodyBytes > m_limits.maxBodyBytes + m_limits.maxHeaderBytes)
        refuse(
            socket, 413, tr("the request body is larger than %1 bytes").arg(m_limits.maxBodyBytes));
}

void ConnectionGuard::refuse(QTcpSocket *socket, int status, const QString &message)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->refusedAt = m_clock.elapsed();
    qCInfo(lcLocal).noquote() << "request refused before it was read:" << status << message;
    // Qt must not parse what follows; this guard drains it from now on.
    disconnect(socket, &QTcpSocket::readyRead, nullptr, nullptr);
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
    socket->readAll();
    // Shut only the sending side once the answer is out: closing with unread input
    // would reset the connection, and the client could lose the answer.
    const auto shutSending = [socket] {
        if (socket->bytesToWrite() == 0)
            ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
    };
    connect(socket, &QTcpSocket::bytesWritten, this, shutSending);
    socket->write(serializeResponse(HttpResponse::error(status, message), false));
    socket->flush();
    shutSending();
}

bool ConnectionGuard::closeIdlest()
{
    QTcpSocket *idlest = nullptr;
    qint64 oldest = std::numeric_limits<qint64>::max();
    for (const Connection &c : std::as_const(m_connections)) {
        if (c.socket && !isStreaming(c.socket) && c.lastActivity < oldest) {
            oldest = c.lastActivity;
            idlest = c.socket;
        }
    }
    if (!idlest)
        return false;
    m_connections.remove(idlest);
    idlest->abort();
    // A client may have been about to reuse it; say so where a failed request is looked into.
    qCInfo(lcLocal) << "closed the longest idle connection to make room: all"
                    << m_limits.maxConnections << "in use";
    return true;
}

void ConnectionGuard::closeIdle()
{
    const qint64 now = m_clock.elapsed();
    QList<QTcpSocket *> idle;
    for (const Connection &c : std::as_const(m_connections)) {
        if (!c.socket || isStreaming(c.socket))
            continue;
        // Headers dripped a byte at a time keep a connection active without a request.
        const bool headTooSlow = !c.headComplete && c.headStarted >= 0
            && now - c.headStarted >= m_limits.idleTimeoutMs;
        // A refused client gets the timeout to read its answer, however much it sends.
        const bool refusedLongAgo = c.refusedAt >= 0 && now - c.refusedAt >= m_limits.idleTimeoutMs;
        if (headTooSlow || refusedLongAgo || now - c.lastActivity >= m_limits.idleTimeoutMs)
            idle.append(c.socket);
    }
    for (QTcpSocket *socket : idle) {
        m_connections.remove(socket);
        socket->abort();
    }
}

} // namespace sd::local
