#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

#include <optional>

QT_BEGIN_NAMESPACE
class QHttpServerRequest;
class QTcpSocket;
QT_END_NAMESPACE

namespace sd::local {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

/// A request copied out of QHttpServerRequest. Qt reuses its request object for the
/// next request on the same socket, so anything handled later (a delayed fault, a
/// stream) must work on this copy. Header names are lowercased.
struct HttpRequest
{
    QByteArray method; ///< upper case: GET, POST, ...
    QString path; ///< decoded path, no query
    QUrlQuery query;
    HttpHeaders headers;
    QByteArray body;
    QHostAddress remoteAddress;

    static HttpRequest fromQt(const QHttpServerRequest &request);
    /// The method, target and headers of a raw header block (request line and header
    /// lines, without the blank line that ends it); nullopt when its request line is
    /// not `METHOD TARGET HTTP/x`. No body.
    static std::optional<HttpRequest> fromHead(const QByteArray &head);

    /// Case-insensitive header lookup; empty when absent.
    QByteArray header(const QByteArray &name) const;
    bool hasHeader(const QByteArray &name) const;
    /// Whether the client asked to close the connection after this exchange.
    bool wantsClose() const;
};

/// Whether a credential a client sent (`given`) is `expected`, which must not be empty.
/// Walks the whole of `expected` whatever the input, so the time taken says nothing
/// about how much of it matched.
bool constantTimeEquals(const QByteArray &given, const QByteArray &expected);

/// A complete (non-streamed) response: status, headers and body. Content-Length and
/// Connection are added when it is written.
struct HttpResponse
{
    int status = 200;
    HttpHeaders headers;
    QByteArray body;

    static HttpResponse json(int status, const QJsonValue &value);
    static HttpResponse noContent();
    /// E2B's Error body: {"code": status, "message": message}.
    static HttpResponse error(int status, const QString &message);

    void setHeader(const QByteArray &name, const QByteArray &value);
    QByteArray header(const QByteArray &name) const;
};

/// The standard reason phrase for an HTTP status ("Not Found").
QByteArray reasonPhrase(int status);

/// The status line, headers (Content-Length, Connection) and body of `response`.
QByteArray serializeResponse(const HttpResponse &response, bool keepAlive);
/// Serialises a complete HTTP/1.1 response onto a socket. With keepAlive false the
/// response carries `Connection: close` and the socket is closed once it is flushed.
void writeResponse(QTcpSocket *socket, const HttpResponse &response, bool keepAlive);

/// One part of a multipart/form-data body.
struct FormPart
{
    QString fileName; ///< the filename of its Content-Disposition, percent escapes undone
    QByteArray data;
};

/// The parts of a multipart/form-data `body` whose Content-Type is `contentType`;
/// false when it names no boundary or the body is not made of such parts.
bool parseFormData(const QByteArray &contentType, const QByteArray &body, QList<FormPart> *parts);

} // namespace sd::local
