#pragma once

#include "local/httpmessage.h"

#include <QObject>
#include <QPointer>
#include <QTcpSocket>

namespace sd::local {

/// Writes one streamed HTTP/1.1 response (`Transfer-Encoding: chunked`) to a socket
/// as data becomes ready, e.g. a Connect server stream from envd.
///
/// Usage, from EnvdHandler::handleEnvdRequest():
/// \code
///   auto *writer = new HttpStreamWriter(socket, this);
///   writer->begin(200, {{"Content-Type", "application/connect+json"}});
///   writer->writeChunk(envelope);      // whenever data is ready, as often as needed
///   writer->finish();                  // terminating chunk; connection stays usable
/// \endcode
///
/// The socket is held in a QPointer: Qt deletes it when the peer goes away, and then
/// every write is a no-op and peerDisconnected() fires once. The writer does not own
/// the socket; its owner (the parent passed in) deletes the writer, typically after
/// finished() or peerDisconnected(). Never blocks.
class HttpStreamWriter : public QObject
{
    Q_OBJECT

public:
    explicit HttpStreamWriter(QTcpSocket *socket, QObject *parent = nullptr);
    ~HttpStreamWriter() override;

    /// Writes the status line and headers. Content-Length is never sent;
    /// `Transfer-Encoding: chunked` is added. With keepAlive false the connection is
    /// closed after finish().
    void begin(int status, const HttpHeaders &headers, bool keepAlive = true);
    /// Sends one chunk now. Empty data is ignored (an empty chunk would end the body).
    void writeChunk(const QByteArray &data);
    /// Sends the terminating chunk; the socket is then free for the next request
    /// (or closed, see begin()). Emits finished(). Idempotent.
    void finish();
    /// Closes the connection mid-stream without the terminating chunk, so the peer
    /// sees a truncated body (used by fault injection). Emits nothing.
    void abort();

    bool isStarted() const { return m_started; }
    bool isFinished() const { return m_finished; }
    /// True while the socket is still connected.
    bool isConnected() const;
    /// Bytes queued in the socket but not yet sent (for back-pressure decisions).
    qint64 bytesToWrite() const;

Q_SIGNALS:
    /// The peer closed the connection (or it broke) before finish(). Emitted at most once.
    void peerDisconnected();
    /// finish() wrote the terminating chunk.
    void finished();
    /// Some queued bytes reached the peer's side (see bytesToWrite()).
    void bytesWritten();

private:
    void onDisconnected();

    QPointer<QTcpSocket> m_socket;
    bool m_started = false;
    bool m_finished = false;
    bool m_keepAlive = true;
    bool m_disconnectReported = false;
};

} // namespace sd::local
