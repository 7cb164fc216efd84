#pragma once

// A benchmark's floor: HTTP/1.1 on a raw socket, with blocking reads. Only the
// benchmarks use it, to measure what the backend and the loopback cost with no
// client library in between.

#include <QByteArray>
#include <QString>
#include <QTcpSocket>
#include <QUrl>

namespace sd::bench {

/// HTTP/1.1 requests on one kept-alive socket, each read to the end of its body
/// (Content-Length or chunked): the least a client can do for a round trip.
class RawHttp
{
public:
    explicit RawHttp(const QUrl &url, QByteArray apiKey)
        : m_url(url)
        , m_apiKey(std::move(apiKey))
    { }

    /// A control-plane request: the API key, and a JSON body when there is one. The
    /// status, or 0 (errorString() says why).
    int request(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
        QByteArray *replyBody = nullptr)
    {
        const QByteArray headers = "X-API-Key: " + m_apiKey + "\r\nAccept: application/json\r\n"
            + (body.isEmpty() ? QByteArray() : QByteArray("Content-Type: application/json\r\n"));
        return send(method, path, headers, body, replyBody);
    }

    /// Any request: `headers` are whole header lines ("Name: value\r\n" each), sent
    /// after Host and before Content-Length. The backend closes a connection left idle
    /// while the other contenders ran: then one new connection, in the first (warm-up,
    /// uncounted) cycle of a round.
    int send(const QByteArray &method, const QByteArray &path, const QByteArray &headers,
        const QByteArray &body, QByteArray *replyBody = nullptr)
    {
        const QByteArray message = method + ' ' + path + " HTTP/1.1\r\nHost: "
            + m_url.host().toLatin1() + ':' + QByteArray::number(m_url.port()) + "\r\n" + headers
            + (body.isEmpty() ? QByteArray()
                              : "Content-Length: " + QByteArray::number(body.size()) + "\r\n")
            + "\r\n" + body;
        const bool reused = m_socket.state() == QAbstractSocket::ConnectedState;
        int status = exchange(message, replyBody);
        if (status == 0 && reused) {
            m_socket.abort();
            m_buffer.clear();
            status = exchange(message, replyBody);
        }
        return status;
    }
    QString errorString() const { return m_error; }

private:
    int exchange(const QByteArray &message, QByteArray *replyBody)
    {
        if (m_socket.state() != QAbstractSocket::ConnectedState) {
            m_socket.connectToHost(m_url.host(), quint16(m_url.port()));
            if (!m_socket.waitForConnected(ReadTimeoutMs))
                return fail(QStringLiteral("connect: ") + m_socket.errorString());
        }
        m_socket.write(message);
        qsizetype headerEnd = -1;
        while ((headerEnd = m_buffer.indexOf("\r\n\r\n")) < 0) {
            if (!readMore())
                return 0;
        }
        const QByteArray head = m_buffer.left(headerEnd).toLower();
        const int status = head.mid(9, 3).toInt();
        m_buffer.remove(0, headerEnd + 4);
        QByteArray content;
        if (head.contains("transfer-encoding: chunked")) {
            while (true) {
                qsizetype lineEnd = -1;
                while ((lineEnd = m_buffer.indexOf("\r\n")) < 0) {
                    if (!readMore())
                        return 0;
                }
                const qsizetype size = m_buffer.left(lineEnd).toLongLong(nullptr, 16);
                while (m_buffer.size() < lineEnd + 2 + size + 2) {
                    if (!readMore())
                        return 0;
                }
                content += m_buffer.mid(lineEnd + 2, size);
                m_buffer.remove(0, lineEnd + 2 + size + 2);
                if (size == 0)
                    break;
            }
        } else {
            const qsizetype at = head.indexOf("content-length:");
            const qsizetype length = at < 0
                ? 0
                : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            while (m_buffer.size() < length) {
                if (!readMore())
                    return 0;
            }
            content = m_buffer.left(length);
            m_buffer.remove(0, length);
        }
        if (replyBody)
            *replyBody = content;
        return status;
    }

    bool readMore()
    {
        if (!m_socket.waitForReadyRead(ReadTimeoutMs)) {
            fail(m_socket.errorString());
            return false;
        }
        m_buffer += m_socket.readAll();
        return true;
    }

    int fail(const QString &why)
    {
        m_error = why;
        return 0;
    }

    static constexpr int ReadTimeoutMs = 10000;
    QUrl m_url;
    QByteArray m_apiKey;
    QTcpSocket m_socket;
    QByteArray m_buffer; ///< read and not yet consumed
    QString m_error;
};

} // namespace sd::bench
