#include "local/httpstreamwriter.h"

#include "local/connectionguard.h"

namespace sd::local {

HttpStreamWriter::HttpStreamWriter(QTcpSocket *socket, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
{
    if (m_socket) {
        connect(m_socket, &QTcpSocket::disconnected, this, &HttpStreamWriter::onDisconnected);
        // The socket may be deleted without a disconnected() we still see.
        connect(m_socket, &QObject::destroyed, this, &HttpStreamWriter::onDisconnected);
        connect(m_socket, &QIODevice::bytesWritten, this, &HttpStreamWriter::bytesWritten);
    }
}

HttpStreamWriter::~HttpStreamWriter()
{
    if (m_socket) {
        disconnect(m_socket, nullptr, this, nullptr);
        if (m_started && !m_finished)
            ConnectionGuard::markStreaming(m_socket, false);
    }
}

bool HttpStreamWriter::isConnected() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 HttpStreamWriter::bytesToWrite() const { return m_socket ? m_socket->bytesToWrite() : 0; }

void HttpStreamWriter::begin(int status, const HttpHeaders &headers, bool keepAlive)
{
    if (m_started || !isConnected())
        return;
    m_started = true;
    m_keepAlive = keepAlive;
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const auto &[name, value] : headers) {
        if (name.compare("content-length", Qt::CaseInsensitive) == 0
            || name.compare("transfer-encoding", Qt::CaseInsensitive) == 0
            || name.compare("connection", Qt::CaseInsensitive) == 0)
            continue;
        out += name + ": " + value + "\r\n";
    }
    out += "Transfer-Encoding: chunked\r\n";
    out += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    out += "\r\n";
    m_socket->write(out);
    // A stream may say nothing for a long time; the connection is not idle meanwhile.
    ConnectionGuard::markStreaming(m_socket, true);
}

void HttpStreamWriter::writeChunk(const QByteArray &data)
{
    if (!m_started || m_finished || data.isEmpty() || !isConnected())
        return;
    m_socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

void HttpStreamWriter::finish()
{
    if (!m_started || m_finished)
        return;
    m_finished = true;
    ConnectionGuard::markStreaming(m_socket, false);
    if (isConnected()) {
        m_socket->write("0\r\n\r\n");
        if (!m_keepAlive)
            m_socket->disconnectFromHost();
    }
    Q_EMIT finished();
}

void HttpStreamWriter::abort()
{
    m_finished = true;
    m_disconnectReported = true; // the caller chose this; do not report it back
    if (m_socket)
        m_socket->disconnectFromHost();
}

void HttpStreamWriter::onDisconnected()
{
    if (m_finished || m_disconnectReported)
        return;
    m_disconnectReported = true;
    Q_EMIT peerDisconnected();
}

} // namespace sd::local
