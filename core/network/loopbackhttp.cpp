#include "loopbackhttp.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QTcpSocket>

namespace sd {

namespace {

// As Qt's own client: six connections per host and port, the rest wait.
constexpr int MaxConnectionsPerPeer = 6;
// A status line and headers larger than this are not an answer we expect.
constexpr qsizetype MaxHeadBytes = 64 * 1024;
// Sends again after a connection closed before any answer, as Qt's client.
constexpr int MaxResends = 2;

bool isToken(const QByteArray &text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (c <= ' ' || c >= 127 || c == ':')
            return false;
    }
    return true;
}

// A header value must not end the line it is on: no CR, LF or NUL.
bool isFieldValue(const QByteArray &text)
{
    for (const char c : text) {
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    }
    return true;
}

// Qt's mapping, so that code checking error() sees what Qt's client would give.
QNetworkReply::NetworkError errorForStatus(int status)
{
    switch (status) {
    case 400:
        return QNetworkReply::ProtocolInvalidOperationError;
    case 401:
        return QNetworkReply::AuthenticationRequiredError;
    case 403:
        return QNetworkReply::ContentAccessDenied;
    case 404:
        return QNetworkReply::ContentNotFoundError;
    case 405:
        return QNetworkReply::ContentOperationNotPermittedError;
    case 407:
        return QNetworkReply::ProxyAuthenticationRequiredError;
    case 409:
        return QNetworkReply::ContentConflictError;
    case 410:
        return QNetworkReply::ContentGoneError;
    case 418:
        return QNetworkReply::ProtocolInvalidOperationError;
    case 500:
        return QNetworkReply::InternalServerError;
    case 501:
        return QNetworkReply::OperationNotImplementedError;
    case 503:
        return QNetworkReply::ServiceUnavailableError;
    default:
        return status >= 500 ? QNetworkReply::UnknownServerError
                             : QNetworkReply::UnknownContentError;
    }
}

QString qtText(const char *context, const char *text)
{
    return QCoreApplication::translate(context, text);
}

} // namespace

// ---- LoopbackHttpPool ---------------------------------------------------------------

LoopbackHttpPool::LoopbackHttpPool(QObject *parent)
    : QObject(parent)
{ }

QString LoopbackHttpPool::key(const QString &host, quint16 port)
{
    return host + QLatin1Char(' ') + QString::number(port);
}

void LoopbackHttpPool::acquire(LoopbackHttpReply *reply)
{
    Peer &peer = m_peers[key(reply->peerHost(), reply->peerPort())];
    while (!peer.idle.isEmpty()) {
        QTcpSocket *socket = peer.idle.takeLast();
        socket->disconnect(this);
        if (socket->state() == QAbstractSocket::ConnectedState && socket->bytesAvailable() == 0) {
            reply->start(socket, true);
            return;
        }
        --peer.open;
        socket->deleteLater();
    }
    if (peer.open < MaxConnectionsPerPeer) {
        ++peer.open;
        reply->start(connectTo(reply->peerHost(), reply->peerPort()), false);
        return;
    }
    peer.waiting.append(reply);
}

void LoopbackHttpPool::release(LoopbackHttpReply *reply, QTcpSocket *socket, bool reusable)
{
    const QString peerKey = key(reply->peerHost(), reply->peerPort());
    Peer &peer = m_peers[peerKey];
    if (reusable && socket->state() == QAbstractSocket::ConnectedState) {
        keepIdle(peer, peerKey, socket);
    } else {
        --peer.open;
        socket->abort();
        socket->deleteLater();
    }
    if (peer.waiting.isEmpty())
        return;
    // From the event loop: the reply that let go may still be emitting its signals.
    QMetaObject::invokeMethod(
        this,
        [this, peerKey] {
            const auto it = m_peers.find(peerKey);
            while (it != m_peers.end() && !it->waiting.isEmpty()
                && (!it->idle.isEmpty() || it->open < MaxConnectionsPerPeer))
                acquire(it->waiting.takeFirst());
        },
        Qt::QueuedConnection);
}

void LoopbackHttpPool::forget(LoopbackHttpReply *reply)
{
    for (Peer &peer : m_peers)
        peer.waiting.removeAll(reply);
}

QTcpSocket *LoopbackHttpPool::replace(QTcpSocket *stale, const QString &host, quint16 port)
{
    stale->disconnect();
    stale->abort();
    stale->deleteLater(); // it may be emitting the signal that told us
    return connectTo(host, port);
}

QTcpSocket *LoopbackHttpPool::connectTo(const QString &host, quint16 port)
{
    auto *socket = new QTcpSocket(this);
    socket->connectToHost(host, port);
    return socket;
}

void LoopbackHttpPool::keepIdle(Peer &peer, const QString &peerKey, QTcpSocket *socket)
{
    peer.idle.append(socket);
    // The server closes idle connections; let them go when it does (or sends
    // anything unasked).
    const auto drop = [this, peerKey, socket] {
        Peer &owner = m_peers[peerKey];
        if (owner.idle.removeOne(socket)) {
            --owner.open;
            socket->disconnect(this);
            socket->deleteLater();
        }
    };
    connect(socket, &QTcpSocket::disconnected, this, drop);
    connect(socket, &QTcpSocket::readyRead, this, drop);
}

// ---- LoopbackHttpReply --------------------------------------------------------------

bool LoopbackHttpReply::handles(const QUrl &url)
{
    if (url.scheme() != QLatin1String("http") || !url.userInfo().isEmpty())
        return false;
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    return address.setAddress(host) && address.isLoopback();
}

LoopbackHttpReply::LoopbackHttpReply(QNetworkAccessManager::Operation operation,
    const QByteArray &verb, const QNetworkRequest &request, const QByteArray &body,
    LoopbackHttpPool *pool, QObject *parent)
    : QNetworkReply(parent)
    , m_verb(verb)
    , m_bodySize(body.size())
    , m_pool(pool)
{
    setRequest(request);
    setUrl(request.url());
    setOperation(operation);
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);

    const QUrl &target = request.url();
    QByteArray path = target.path(QUrl::FullyEncoded).toLatin1();
    if (path.isEmpty())
        path = "/";
    if (target.hasQuery())
        path += '?' + target.query(QUrl::FullyEncoded).toLatin1();
    QByteArray host = target.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (target.port() != -1)
        host += ':' + QByteArray::number(target.port());

    bool valid = isToken(verb);
    QByteArray head = verb + ' ' + path + " HTTP/1.1\r\nHost: " + host + "\r\n";
    for (const QByteArray &name : request.rawHeaderList()) {
        const QByteArray value = request.rawHeader(name);
        valid = valid && isToken(name) && isFieldValue(value);
        if (name.compare("content-length", Qt::CaseInsensitive) == 0
            || name.compare("host", Qt::CaseInsensitive) == 0)
            continue;
        head += name + ": " + value + "\r\n";
    }
    if (!body.isEmpty() || verb == "POST" || verb == "PUT" || verb == "PATCH")
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    head += "\r\n";
    m_requestBytes = head + body;

    m_transferTimer.setSingleShot(true);
    connect(&m_transferTimer, &QTimer::timeout, this, &LoopbackHttpReply::abort);
    if (!valid) {
        // Qt's client would put such a header on the wire as it is.
        QMetaObject::invokeMethod(
            this,
            [this] {
                fail(ProtocolInvalidOperationError,
                    tr("A request header holds a line break or an invalid name."));
            },
            Qt::QueuedConnection);
        return;
    }
    if (request.transferTimeout() > 0)
        m_transferTimer.start(request.transferTimeout());
    // Signals only once the caller has connected to them.
    QMetaObject::invokeMethod(this, &LoopbackHttpReply::begin, Qt::QueuedConnection);
}

LoopbackHttpReply::~LoopbackHttpReply()
{
    if (m_stage == Stage::Waiting && m_pool)
        m_pool->forget(this);
    else if (m_stage != Stage::Done)
        releaseSocket(false);
}

void LoopbackHttpReply::begin()
{
    if (m_stage != Stage::Waiting)
        return;
    if (!m_pool) {
        fail(OperationCanceledError, qtText("QNetworkReplyHttpImpl", "Operation canceled"));
        return;
    }
    m_pool->acquire(this);
}

void LoopbackHttpReply::start(QTcpSocket *socket, bool reused)
{
    m_socket = socket;
    m_reused = reused;
    m_stage = Stage::Sending;
    connect(socket, &QTcpSocket::readyRead, this, &LoopbackHttpReply::onReadyRead);
    connect(socket, &QTcpSocket::bytesWritten, this, &LoopbackHttpReply::onBytesWritten);
    connect(socket, &QTcpSocket::disconnected, this, &LoopbackHttpReply::onSocketGone);
    connect(socket, &QAbstractSocket::errorOccurred, this, &LoopbackHttpReply::onSocketGone);
    if (socket->state() == QAbstractSocket::ConnectedState)
        sendRequest();
    else
        connect(socket, &QTcpSocket::connected, this, &LoopbackHttpReply::sendRequest);
}

void LoopbackHttpReply::sendRequest()
{
    if (!m_socket || m_stage != Stage::Sending)
        return;
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket->write(m_requestBytes);
    m_socket->flush(); // on the wire now, not at the next turn of the event loop
    onBytesWritten();
}

void LoopbackHttpReply::onBytesWritten()
{
    if (!m_socket || m_stage != Stage::Sending || m_socket->bytesToWrite() > 0)
        return;
    m_stage = Stage::StatusLine;
    ++m_sends;
    QMetaObject::invokeMethod(this, &LoopbackHttpReply::announceSent, Qt::QueuedConnection);
}

void LoopbackHttpReply::announceSent()
{
    const QPointer<LoopbackHttpReply> self(this);
    while (self && m_announcedSends < m_sends) {
        ++m_announcedSends;
        if (m_bodySize > 0)
            Q_EMIT uploadProgress(m_bodySize, m_bodySize);
        if (self)
            Q_EMIT requestSent();
    }
}

void LoopbackHttpReply::onReadyRead()
{
    if (!m_socket || m_stage == Stage::Done)
        return;
    m_in += m_socket->readAll();
    if (m_stage == Stage::Sending) // an answer before the whole request (say, a 413)
        m_stage = Stage::StatusLine;
    if (m_transferTimer.isActive())
        m_transferTimer.start();
    parse();
}

void LoopbackHttpReply::parse()
{
    if (m_stage == Stage::StatusLine && !parseHead())
        return;
    if (m_stage == Stage::Body)
        takeBody();
}

bool LoopbackHttpReply::parseHead()
{
    for (;;) {
        const qsizetype end = m_in.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_in.size() > MaxHeadBytes)
                fail(ProtocolFailure, tr("The server's answer has headers larger than 64 KiB."));
            return false;
        }
        const QList<QByteArray> lines = m_in.left(end).split('\n');
        m_in.remove(0, end + 4);
        const QByteArray statusLine = lines.first().trimmed();
        // "HTTP/1.1 200 OK"
        const bool http10 = statusLine.startsWith("HTTP/1.0 ");
        bool ok = statusLine.startsWith("HTTP/1.") && statusLine.size() >= 12
            && statusLine.at(8) == ' ';
        const int status = ok ? statusLine.mid(9, 3).toInt(&ok) : 0;
        if (!ok || status < 100 || status > 999) {
            fail(ProtocolFailure, tr("The server's answer is not HTTP."));
            return false;
        }
        if (status < 200 && status != 101)
            continue; // an interim answer (100 Continue); the real one follows
        m_status = status;
        m_keepAlive = !http10;

        QList<QPair<QByteArray, QByteArray>> headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray &line = lines.at(i);
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            auto same = std::find_if(headers.begin(), headers.end(),
                [&](const auto &h) { return h.first.compare(name, Qt::CaseInsensitive) == 0; });
            if (same != headers.end())
                same->second += ", " + value; // as Qt's client joins repeated headers
            else
                headers.append({ name, value });
        }

        m_contentLength = -1;
        for (const auto &[name, value] : std::as_const(headers)) {
            setRawHeader(name, value);
            const QByteArray lower = value.toLower();
            if (name.compare("connection", Qt::CaseInsensitive) == 0) {
                if (lower.contains("close"))
                    m_keepAlive = false;
                else if (lower.contains("keep-alive"))
                    m_keepAlive = true;
            } else if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0) {
                m_chunked = lower.contains("chunked");
            } else if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
                m_contentLength = value.toLongLong(&ok);
                if (!ok || m_contentLength < 0) {
                    fail(ProtocolFailure, tr("The server's answer has an invalid Content-Length."));
                    return false;
                }
            } else if (name.compare("location", Qt::CaseInsensitive) == 0 && status >= 300
                && status < 400) {
                setAttribute(QNetworkRequest::RedirectionTargetAttribute, QUrl::fromEncoded(value));
            }
        }
        setAttribute(QNetworkRequest::HttpStatusCodeAttribute, status);
        setAttribute(QNetworkRequest::HttpReasonPhraseAttribute, statusLine.mid(13));
        if (m_chunked)
            m_contentLength = -1;
        if (m_verb == "HEAD" || status == 204 || status == 304) {
            m_chunked = false;
            m_contentLength = 0;
        }
        if (!m_chunked && m_contentLength < 0)
            m_keepAlive = false; // the body ends when the connection does
        m_stage = Stage::Body;

        const QPointer<LoopbackHttpReply> self(this);
        Q_EMIT metaDataChanged();
        return self && m_stage == Stage::Body;
    }
}

void LoopbackHttpReply::takeBody()
{
    const qsizetype before = m_data.size();
    bool done = false;
    if (m_chunked) {
        for (;;) {
            if (m_inTrailer) {
                const qsizetype eol = m_in.indexOf("\r\n");
                if (eol < 0)
                    break;
                const bool last = eol == 0;
                m_in.remove(0, eol + 2);
                if (last) {
                    done = true;
                    break;
                }
                continue;
            }
            if (m_chunkLeft < 0) {
                const qsizetype eol = m_in.indexOf("\r\n");
                if (eol < 0) {
                    if (m_in.size() > 1024) {
                        fail(ProtocolFailure, tr("The server's answer has an invalid chunk."));
                        return;
                    }
                    break;
                }
                QByteArray sizeText = m_in.left(eol);
                const qsizetype semicolon = sizeText.indexOf(';');
                if (semicolon >= 0)
                    sizeText.truncate(semicolon);
                bool ok = false;
                const qint64 size = sizeText.trimmed().toLongLong(&ok, 16);
                if (!ok || size < 0) {
                    fail(ProtocolFailure, tr("The server's answer has an invalid chunk."));
                    return;
                }
                m_in.remove(0, eol + 2);
                if (size == 0) {
                    m_inTrailer = true;
                    continue;
                }
                m_chunkLeft = size;
            }
            if (m_chunkLeft > 0) {
                const qsizetype take = qsizetype(qMin<qint64>(m_chunkLeft, m_in.size()));
                m_data.append(m_in.constData(), take);
                m_in.remove(0, take);
                m_chunkLeft -= take;
                if (m_chunkLeft > 0)
                    break;
            }
            if (m_in.size() < 2)
                break;
            if (!m_in.startsWith("\r\n")) {
                fail(ProtocolFailure, tr("The server's answer has an invalid chunk."));
                return;
            }
            m_in.remove(0, 2);
            m_chunkLeft = -1;
        }
    } else if (m_contentLength >= 0) {
        const qsizetype take = qsizetype(qMin<qint64>(m_contentLength - m_received, m_in.size()));
        if (take == m_in.size() && m_data.size() == m_readPos) {
            m_data = std::exchange(m_in, {}); // the usual case: no copy
            m_readPos = 0;
        } else {
            m_data.append(m_in.constData(), take);
            m_in.remove(0, take);
        }
        done = m_received + take == m_contentLength;
    } else {
        m_data += std::exchange(m_in, {});
    }

    const QPointer<LoopbackHttpReply> self(this);
    const qint64 fresh = m_data.size() - before;
    if (fresh > 0) {
        m_received += fresh;
        Q_EMIT downloadProgress(m_received, m_chunked ? -1 : m_contentLength);
        if (!self || m_stage == Stage::Done)
            return;
        Q_EMIT readyRead();
        if (!self || m_stage == Stage::Done)
            return;
    }
    if (done)
        complete();
}

void LoopbackHttpReply::complete()
{
    m_stage = Stage::Done;
    m_transferTimer.stop();
    releaseSocket(m_keepAlive && m_in.isEmpty());
    const QPointer<LoopbackHttpReply> self(this);
    announceSent();
    if (!self)
        return;
    const bool failed = m_status >= 400;
    if (m_status == 401) {
        setError(AuthenticationRequiredError, qtText("QHttp", "Host requires authentication"));
    } else if (failed) {
        setError(errorForStatus(m_status),
            qtText("QNetworkReply", "Error transferring %1 - server replied: %2")
                .arg(url().toString(),
                    QString::fromLatin1(
                        attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray())));
    }
    setFinished(true);
    if (failed) {
        Q_EMIT errorOccurred(error());
        if (!self)
            return;
    }
    Q_EMIT finished();
}

void LoopbackHttpReply::onSocketGone()
{
    if (!m_socket || m_stage == Stage::Done)
        return;
    m_in += m_socket->readAll();
    parse();
    if (!m_socket || m_stage == Stage::Done)
        return;
    const QAbstractSocket::SocketError socketError = m_socket->error();
    if (m_stage == Stage::Body && !m_chunked && m_contentLength < 0
        && socketError == QAbstractSocket::RemoteHostClosedError) {
        complete(); // a body without a length ends with the connection
        return;
    }
    // Closed before any answer: a kept-alive connection the server had let go, or a
    // dropped one. Sent again on a new connection, twice at most, as Qt's client does
    // (every send is announced by requestSent(), so a caller can tell).
    const bool noAnswer = m_status == 0 && m_in.isEmpty()
        && (m_stage == Stage::Sending || m_stage == Stage::StatusLine);
    if (noAnswer && m_resends < MaxResends && m_pool
        && (m_reused || socketError == QAbstractSocket::RemoteHostClosedError)) {
        ++m_resends;
        QTcpSocket *stale = m_socket;
        m_socket = nullptr;
        stale->disconnect(this);
        start(m_pool->replace(stale, peerHost(), peerPort()), false);
        return;
    }
    switch (socketError) {
    case QAbstractSocket::ConnectionRefusedError:
        fail(ConnectionRefusedError, qtText("QHttp", "Connection refused"));
        break;
    case QAbstractSocket::RemoteHostClosedError:
        fail(RemoteHostClosedError, qtText("QHttp", "Connection closed"));
        break;
    case QAbstractSocket::HostNotFoundError:
        fail(HostNotFoundError, qtText("QHttp", "Host %1 not found").arg(peerHost()));
        break;
    case QAbstractSocket::SocketTimeoutError:
        fail(TimeoutError, qtText("QHttp", "Socket operation timed out"));
        break;
    default:
        fail(UnknownNetworkError, m_socket->errorString());
        break;
    }
}

void LoopbackHttpReply::fail(NetworkError code, const QString &text)
{
    if (m_stage == Stage::Done)
        return;
    const bool waiting = m_stage == Stage::Waiting;
    m_stage = Stage::Done;
    m_transferTimer.stop();
    if (waiting) {
        if (m_pool)
            m_pool->forget(this);
    } else {
        releaseSocket(false);
    }
    const QPointer<LoopbackHttpReply> self(this);
    announceSent(); // a request that went out is known to have, before the error
    if (!self)
        return;
    setError(code, text);
    setFinished(true);
    Q_EMIT errorOccurred(code);
    if (self)
        Q_EMIT finished();
}

void LoopbackHttpReply::abort()
{
    if (m_stage == Stage::Done)
        return;
    QNetworkReply::close();
    fail(OperationCanceledError, qtText("QNetworkReplyHttpImpl", "Operation canceled"));
}

// As Qt's HTTP reply: closing one still running cancels it; a finished one only
// drops what was not read.
void LoopbackHttpReply::close()
{
    if (m_stage == Stage::Done)
        QNetworkReply::close();
    else
        abort();
}

void LoopbackHttpReply::releaseSocket(bool reusable)
{
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    if (!socket)
        return;
    socket->disconnect(this);
    if (m_pool)
        m_pool->release(this, socket, reusable);
    else
        socket->deleteLater();
}

qint64 LoopbackHttpReply::bytesAvailable() const
{
    return m_data.size() - m_readPos + QNetworkReply::bytesAvailable();
}

qint64 LoopbackHttpReply::readData(char *data, qint64 maxSize)
{
    const qint64 available = m_data.size() - m_readPos;
    if (available == 0)
        return m_stage == Stage::Done ? -1 : 0;
    const qint64 count = qMin(maxSize, available);
    memcpy(data, m_data.constData() + m_readPos, size_t(count));
    m_readPos += count;
    if (m_readPos == m_data.size()) {
        m_data.clear();
        m_readPos = 0;
    }
    return count;
}

} // namespace sd
