#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace sd::envd {

/// One Connect envelope: a flag byte, a 4-byte big-endian length and a JSON payload.
struct Envelope
{
    enum Flag : quint8
    {
        Compressed = 0x01,
        EndStream = 0x02,
    };

    quint8 flags = 0;
    QJsonObject json;

    bool isEndStream() const { return flags & EndStream; }
};

/// Largest envelope either side accepts; a bigger length is treated as garbage.
inline constexpr qsizetype MaxEnvelopeSize = 16 * 1024 * 1024;

/// Encodes one envelope (flags + length + compact JSON).
QByteArray encodeEnvelope(const QJsonObject &json, quint8 flags = 0);
/// The end-of-stream envelope: `{}` on success, `{"error":{"code","message"}}` otherwise.
QByteArray encodeEndStream(const QString &errorCode = {}, const QString &errorMessage = {});

/// Incremental decoder of a stream of Connect envelopes. Feed it the bytes as they
/// come, in pieces of any size; take the complete envelopes with takeAll(). After the
/// first error it stays failed and ignores further bytes. Call finish() when the
/// body has ended to check that the stream was complete.
class EnvelopeDecoder
{
    Q_DECLARE_TR_FUNCTIONS(EnvelopeDecoder)

public:
    /// Appends bytes; returns false once the stream is known to be malformed.
    bool feed(const QByteArray &bytes);
    /// The envelopes decoded so far and not yet taken.
    QList<Envelope> takeAll();
    /// Checks the end of the body: no partial envelope left and (when
    /// requireEndStream) an end-of-stream envelope seen. Returns false on error.
    bool finish(bool requireEndStream = true);

    bool hasError() const { return !m_error.isEmpty(); }
    /// What is wrong with the stream, as a sentence fit for a user.
    QString errorString() const { return m_error; }
    bool endStreamSeen() const { return m_endStreamSeen; }
    /// Bytes received after the end-of-stream envelope are an error too.
    qsizetype bufferedBytes() const { return m_buffer.size() - m_offset; }

private:
    void fail(const QString &error);

    QByteArray m_buffer;
    qsizetype m_offset = 0;
    QList<Envelope> m_ready;
    QString m_error;
    bool m_endStreamSeen = false;
};

/// A Connect error found in an end-of-stream envelope or a unary error body.
struct ConnectError
{
    QString code;
    QString message;
    bool isError() const { return !code.isEmpty(); }
};

/// Reads `{"error":{"code","message"}}` (end-of-stream) or `{"code","message"}` (unary).
ConnectError parseConnectError(const QJsonObject &json);

/// Decodes a protobuf JSON `bytes` value (standard or URL-safe base64, padding
/// optional). Returns false on anything that is not base64.
bool decodeBase64(const QString &text, QByteArray *out);

/// One `ProcessEvent` of the Start/Connect streams.
struct ProcessEvent
{
    enum class Type
    {
        Unknown,
        Start,
        Stdout,
        Stderr,
        Pty,
        End,
        KeepAlive
    };

    Type type = Type::Unknown;
    quint32 pid = 0;
    QByteArray data;
    int exitCode = 0;
    bool exited = false;
    QString status;
    QString error;
};

/// Parses `{"event":{...}}`. Returns false (with a reason) on a malformed event;
/// an event kind this version does not know is Type::Unknown, not an error.
bool parseProcessEvent(const QJsonObject &response, ProcessEvent *event, QString *error);

/// Builds `{"event":{...}}` for the server side.
QJsonObject processStartEvent(quint32 pid);
QJsonObject processDataEvent(bool stderrStream, const QByteArray &data);
QJsonObject processEndEvent(
    int exitCode, bool exited, const QString &status, const QString &error = {});
QJsonObject processKeepAliveEvent();

/// The HTTP status Connect uses for an error code in a unary answer, and back.
int httpStatusForConnectCode(const QString &code);
QString connectCodeForHttpStatus(int status);

} // namespace sd::envd
