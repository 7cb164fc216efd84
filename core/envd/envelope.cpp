#include "envelope.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QtEndian>

namespace sd::envd {

namespace {
QJsonObject event(const char *name, const QJsonObject &body)
{
    return QJsonObject { { QStringLiteral("event"),
        QJsonObject { { QLatin1String(name), body } } } };
}
} // namespace

QByteArray encodeEnvelope(const QJsonObject &json, quint8 flags)
{
    const QByteArray payload = QJsonDocument(json).toJson(QJsonDocument::Compact);
    QByteArray out;
    out.reserve(5 + payload.size());
    out.append(char(flags));
    char length[4];
    qToBigEndian(quint32(payload.size()), length);
    out.append(length, 4);
    out.append(payload);
    return out;
}

QByteArray encodeEndStream(const QString &errorCode, const QString &errorMessage)
{
    QJsonObject json;
    if (!errorCode.isEmpty()) {
        json.insert(QStringLiteral("error"),
            QJsonObject { { QStringLiteral("code"), errorCode },
                { QStringLiteral("message"), errorMessage } });
    }
    return encodeEnvelope(json, Envelope::EndStream);
}

bool EnvelopeDecoder::feed(const QByteArray &bytes)
{
    if (hasError())
        return false;
    m_buffer.append(bytes);
    while (!hasError()) {
        const qsizetype available = m_buffer.size() - m_offset;
        if (available < 5)
            break;
        const auto *header = reinterpret_cast<const uchar *>(m_buffer.constData() + m_offset);
        const quint8 flags = header[0];
        const quint32 length = qFromBigEndian<quint32>(header + 1);
        if (m_endStreamSeen) {
            fail(tr("the sandbox sent data after the end of the stream"));
            break;
        }
        if (length > quint32(MaxEnvelopeSize)) {
            fail(tr("the sandbox sent a message of %1 bytes, more than the limit of 16 MiB")
                     .arg(length));
            break;
        }
        if (flags & Envelope::Compressed) {
            fail(tr("the sandbox sent a compressed message, which is not supported"));
            break;
        }
        if (available < qsizetype(5 + length))
            break;
        const QByteArray payload = m_buffer.mid(m_offset + 5, length);
        m_offset += 5 + length;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(payload, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            fail(parseError.error != QJsonParseError::NoError
                    ? tr("the sandbox sent a message that is not valid JSON (%1 at offset %2)")
                          .arg(parseError.errorString())
                          .arg(parseError.offset)
                    : tr("the sandbox sent a message that is not a JSON object"));
            break;
        }
        Envelope envelope;
        envelope.flags = flags;
        envelope.json = doc.object();
        if (envelope.isEndStream())
            m_endStreamSeen = true;
        m_ready.append(envelope);
    }
    // Drop consumed bytes now and then, not on every envelope.
    if (m_offset > 0 && (m_offset == m_buffer.size() || m_offset > 64 * 1024)) {
        m_buffer.remove(0, m_offset);
        m_offset = 0;
    }
    return !hasError();
}

QList<Envelope> EnvelopeDecoder::takeAll()
{
    QList<Envelope> out;
    out.swap(m_ready);
    return out;
}

bool EnvelopeDecoder::finish(bool requireEndStream)
{
    if (hasError())
        return false;
    const qsizetype left = m_buffer.size() - m_offset;
    if (left > 0 && !m_endStreamSeen) {
        if (left < 5) {
            fail(tr("the sandbox closed the connection in the middle of a message header"));
        } else {
            const auto *header = reinterpret_cast<const uchar *>(m_buffer.constData() + m_offset);
            const quint32 length = qFromBigEndian<quint32>(header + 1);
            fail(tr("a message announced %1 bytes but the body ended after %2")
                     .arg(length)
                     .arg(left - 5));
        }
        return false;
    }
    if (left > 0) {
        fail(tr("the sandbox sent data after the end of the stream"));
        return false;
    }
    if (requireEndStream && !m_endStreamSeen) {
        fail(tr("the sandbox closed the connection early"));
        return false;
    }
    return true;
}

void EnvelopeDecoder::fail(const QString &error)
{
    if (m_error.isEmpty())
        m_error = error;
}

ConnectError parseConnectError(const QJsonObject &json)
{
    const QJsonObject error = json.contains(QStringLiteral("error"))
        ? json.value(QStringLiteral("error")).toObject()
        : json;
    ConnectError out;
    out.code = error.value(QStringLiteral("code")).toString();
    out.message = error.value(QStringLiteral("message")).toString();
    if (out.code.isEmpty() && json.contains(QStringLiteral("error")))
        out.code = QStringLiteral("unknown");
    return out;
}

bool decodeBase64(const QString &text, QByteArray *out)
{
    const QByteArray latin = text.toLatin1();
    if (latin.isEmpty()) {
        out->clear();
        return true;
    }
    // Protobuf JSON accepts both alphabets, with or without padding.
    const bool urlSafe = latin.contains('-') || latin.contains('_');
    auto options = (urlSafe ? QByteArray::Base64UrlEncoding : QByteArray::Base64Encoding)
        | QByteArray::AbortOnBase64DecodingErrors;
    QByteArray padded = latin;
    if (!padded.endsWith('=')) {
        while (padded.size() % 4)
            padded.append('=');
    }
    if (padded.size() % 4 != 0)
        return false;
    auto result = QByteArray::fromBase64Encoding(padded, options);
    if (!result)
        return false;
    *out = std::move(result.decoded);
    return true;
}

bool parseProcessEvent(const QJsonObject &response, ProcessEvent *event, QString *error)
{
    *event = ProcessEvent();
    const QJsonValue eventValue = response.value(QStringLiteral("event"));
    if (!eventValue.isObject()) {
        *error = EnvelopeDecoder::tr("the sandbox sent a process message without an event");
        return false;
    }
    const QJsonObject e = eventValue.toObject();
    if (e.contains(QStringLiteral("start"))) {
        event->type = ProcessEvent::Type::Start;
        const QJsonValue pid
            = e.value(QStringLiteral("start")).toObject().value(QStringLiteral("pid"));
        event->pid = quint32(pid.toVariant().toULongLong());
        return true;
    }
    if (e.contains(QStringLiteral("data"))) {
        const QJsonObject data = e.value(QStringLiteral("data")).toObject();
        QString key;
        if (data.contains(QStringLiteral("stdout"))) {
            event->type = ProcessEvent::Type::Stdout;
            key = QStringLiteral("stdout");
        } else if (data.contains(QStringLiteral("stderr"))) {
            event->type = ProcessEvent::Type::Stderr;
            key = QStringLiteral("stderr");
        } else if (data.contains(QStringLiteral("pty"))) {
            event->type = ProcessEvent::Type::Pty;
            key = QStringLiteral("pty");
        } else {
            return true; // empty data event
        }
        const QJsonValue value = data.value(key);
        if (!value.isString() || !decodeBase64(value.toString(), &event->data)) {
            *error = EnvelopeDecoder::tr("the sandbox sent %1 output that is not valid base64").arg(key);
            return false;
        }
        return true;
    }
    if (e.contains(QStringLiteral("end"))) {
        const QJsonObject end = e.value(QStringLiteral("end")).toObject();
        event->type = ProcessEvent::Type::End;
        event->exitCode = end.value(QStringLiteral("exitCode")).toInt();
        event->exited = end.value(QStringLiteral("exited")).toBool();
        event->status = end.value(QStringLiteral("status")).toString();
        event->error = end.value(QStringLiteral("error")).toString();
        return true;
    }
    if (e.contains(QStringLiteral("keepalive"))) {
        event->type = ProcessEvent::Type::KeepAlive;
        return true;
    }
    return true;
}

QJsonObject processStartEvent(quint32 pid)
{
    return event("start", QJsonObject { { QStringLiteral("pid"), qint64(pid) } });
}

QJsonObject processDataEvent(bool stderrStream, const QByteArray &data)
{
    return event("data",
        QJsonObject { { stderrStream ? QStringLiteral("stderr") : QStringLiteral("stdout"),
            QString::fromLatin1(data.toBase64()) } });
}

QJsonObject processEndEvent(int exitCode, bool exited, const QString &status, const QString &error)
{
    QJsonObject end { { QStringLiteral("exitCode"), exitCode },
        { QStringLiteral("exited"), exited }, { QStringLiteral("status"), status } };
    if (!error.isEmpty())
        end.insert(QStringLiteral("error"), error);
    return event("end", end);
}

QJsonObject processKeepAliveEvent() { return event("keepalive", QJsonObject()); }

int httpStatusForConnectCode(const QString &code)
{
    static const QHash<QString, int> statuses {
        { QStringLiteral("canceled"), 499 },
        { QStringLiteral("unknown"), 500 },
        { QStringLiteral("invalid_argument"), 400 },
        { QStringLiteral("deadline_exceeded"), 504 },
        { QStringLiteral("not_found"), 404 },
        { QStringLiteral("already_exists"), 409 },
        { QStringLiteral("permission_denied"), 403 },
        { QStringLiteral("resource_exhausted"), 429 },
        { QStringLiteral("failed_precondition"), 400 },
        { QStringLiteral("aborted"), 409 },
        { QStringLiteral("out_of_range"), 400 },
        { QStringLiteral("unimplemented"), 501 },
        { QStringLiteral("internal"), 500 },
        { QStringLiteral("unavailable"), 503 },
        { QStringLiteral("data_loss"), 500 },
        { QStringLiteral("unauthenticated"), 401 },
    };
    return statuses.value(code, 500);
}

QString connectCodeForHttpStatus(int status)
{
    switch (status) {
    case 400:
        return QStringLiteral("internal"); // Connect maps a bare 400 to internal
    case 401:
        return QStringLiteral("unauthenticated");
    case 403:
        return QStringLiteral("permission_denied");
    case 404:
        return QStringLiteral("unimplemented");
    case 408:
        return QStringLiteral("deadline_exceeded");
    case 415:
        return QStringLiteral("internal");
    case 429:
        return QStringLiteral("unavailable");
    case 502:
    case 503:
    case 504:
        return QStringLiteral("unavailable");
    default:
        return QStringLiteral("unknown");
    }
}

} // namespace sd::envd
