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

// Whether a header block announces a chunked body (no length to judge it by up front).
bool announcesChunks(const QByteArray &head)
{
    for (const QByteArray &line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0
            && line.left(colon).trimmed().compare("transfer-encoding", Qt::CaseInsensitive) == 0
            && line.mid(colon + 1).toLower().contains("chunked"))
            return true;
    }
    return false;
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
    release(*it);
    it->head.clear();
    it->headStarted = -1;
    it->headComplete = false;
    it->bodyBytes = 0;
    it->bodyStarted = -1;
    it->announced = 0;
    it->lastActivity = m_clock.elapsed();
}

void ConnectionGuard::release(Connection &c)
{
    m_bodyBytesInFlight -= c.reserved;
    c.reserved = 0;
}

bool ConnectionGuard::reserve(Connection &c, qint64 bytes)
{
    if (bytes <= c.reserved)
        return true;
    if (m_bodyBytesInFlight - c.reserved + bytes > inFlightBudget())
        return false;
    m_bodyBytesInFlight += bytes - c.reserved;
    c.reserved = bytes;
    return true;
}

qint64 ConnectionGuard::inFlightBudget() const
{
    if (m_limits.maxBodyBytesInFlight > 0)
        return m_limits.maxBodyBytesInFlight;
    // Two of the largest uploads, with their framing, at once.
    const qint64 largest = m_limits.maxBodyBytes + m_limits.maxHeaderBytes;
    return largest > std::numeric_limits<qint64>::max() / 2 ? std::numeric_limits<qint64>::max()
                                                            : 2 * largest;
}

bool ConnectionGuard::bodyTooSlow(const Connection &c, qint64 now) const
{
    if (!c.headComplete || c.bodyStarted < 0 || m_limits.minBodyBytesPerSecond <= 0)
        return false;
    const qint64 size = qMax(c.announced, c.bodyBytes);
    const qint64 allowedMs = m_limits.idleTimeoutMs + size / m_limits.minBodyBytesPerSecond * 1000
        + size % m_limits.minBodyBytesPerSecond * 1000 / m_limits.minBodyBytesPerSecond;
    return now - c.bodyStarted >= allowedMs;
}

void ConnectionGuard::abortConnection(QTcpSocket *socket)
{
    if (auto it = m_connections.find(socket); it != m_connections.end()) {
        release(*it);
        m_connections.erase(it);
    }
    socket->abort();
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
    connect(socket, &QObject::destroyed, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end()) {
            release(*it);
            m_connections.erase(it);
        }
    });
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
        const QByteArray headBlock = c.head.left(end);
        const qint64 announced = announcedLength(headBlock);
        const bool chunked = announced < 0 && announcesChunks(headBlock);
        qint64 bodyLimit = m_limits.maxBodyBytes;
        if (m_screen) {
            if (const std::optional<HttpRequest> head = HttpRequest::fromHead(headBlock)) {
                const HeadVerdict verdict
                    = m_screen(*head, chunked ? -1 : qMax<qint64>(0, announced));
                if (verdict.status != 0) {
                    refuse(socket, verdict.status, verdict.message,
                        QString::fromLatin1(head->method) + u' ' + head->path);
                    return;
                }
                bodyLimit = verdict.maxBodyBytes;
            }
            // A head Qt cannot parse either is refused by Qt, before any body.
        }
        if (announced > bodyLimit) {
            refuse(socket, 413, tr("the request body is larger than %1 bytes").arg(bodyLimit));
            return;
        }
        if (!reserve(c, qMax<qint64>(0, announced))) {
            refuse(socket, 503,
                tr("too many request bodies are being received at once (%1 bytes at most): "
                   "try again when the uploads under way are done")
                    .arg(inFlightBudget()));
            return;
        }
        c.headComplete = true;
        c.bodyLimit = bodyLimit;
        c.bodyStarted = c.lastActivity;
        c.announced = qMax<qint64>(0, announced);
        bodyFresh = c.head.size() - (end + 4);
        c.head.clear();
    }
    c.bodyBytes += bodyFresh;
    // Chunk framing (and the start of a pipelined request) come on top of the body.
    if (c.bodyBytes > c.bodyLimit + m_limits.maxHeaderBytes) {
        refuse(socket, 413, tr("the request body is larger than %1 bytes").arg(c.bodyLimit));
        return;
    }
    // A chunked body has no length to reserve up front: what came so far is counted.
    if (!reserve(c, c.bodyBytes))
        refuse(socket, 503,
            tr("too many request bodies are being received at once (%1 bytes at most): "
               "try again when the uploads under way are done")
                .arg(inFlightBudget()));
}

void ConnectionGuard::refuse(
    QTcpSocket *socket, int status, const QString &message, const QString &request)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->refusedAt = m_clock.elapsed();
    release(*it);
    if (request.isEmpty())
        qCInfo(lcLocal).noquote() << "request refused before it was read:" << status << message;
    else
        qCInfo(lcLocal).noquote() << request << status
                                  << "(refused before its body was read:" << message + u')';
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
    abortConnection(idlest);
    // A client may have been about to reuse it; say so where a failed request is looked into.
    qCInfo(lcLocal) << "closed the longest idle connection to make room: all"
                    << m_limits.maxConnections << "in use";
    return true;
}

void ConnectionGuard::closeIdle()
{
    const qint64 now = m_clock.elapsed();
    QList<QTcpSocket *> idle;
    QList<QTcpSocket *> slowBodies;
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
        // So does a body dripped a byte at a time: it gets an answer saying so.
        else if (c.refusedAt < 0 && bodyTooSlow(c, now))
            slowBodies.append(c.socket);
    }
    for (QTcpSocket *socket : std::as_const(idle))
        abortConnection(socket);
    for (QTcpSocket *socket : std::as_const(slowBodies)) {
        const Connection &c = m_connections.value(socket);
        refuse(socket, 408,
            tr("the request body came too slowly: %1 of %2 bytes in %3 ms; a body must arrive "
               "within %4 ms plus 1 s for every %5 bytes")
                .arg(c.bodyBytes)
                .arg(c.announced > 0 ? QString::number(c.announced) : tr("(chunked)"))
                .arg(now - c.bodyStarted)
                .arg(m_limits.idleTimeoutMs)
                .arg(m_limits.minBodyBytesPerSecond));
    }
}

} // namespace sd::local
