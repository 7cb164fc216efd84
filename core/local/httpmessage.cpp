#include "local/httpmessage.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QUrl>

namespace sd::local {

namespace {

QByteArray methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return "GET";
    case QHttpServerRequest::Method::Put:
        return "PUT";
    case QHttpServerRequest::Method::Delete:
        return "DELETE";
    case QHttpServerRequest::Method::Post:
        return "POST";
    case QHttpServerRequest::Method::Head:
        return "HEAD";
    case QHttpServerRequest::Method::Options:
        return "OPTIONS";
    case QHttpServerRequest::Method::Patch:
        return "PATCH";
    case QHttpServerRequest::Method::Connect:
        return "CONNECT";
    case QHttpServerRequest::Method::Trace:
        return "TRACE";
    default:
        return "UNKNOWN";
    }
}

} // namespace

HttpRequest HttpRequest::fromQt(const QHttpServerRequest &request)
{
    HttpRequest copy;
    copy.method = methodName(request.method());
    copy.path = request.url().path();
    copy.query = request.query();
    const auto headers = request.headers();
    copy.headers.reserve(headers.size());
    for (const auto &[name, value] : headers)
        copy.headers.emplaceBack(name.toLower(), value);
    copy.body = request.body();
    copy.remoteAddress = request.remoteAddress();
    return copy;
}

std::optional<HttpRequest> HttpRequest::fromHead(const QByteArray &head)
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || requestLine.at(0).isEmpty() || requestLine.at(1).isEmpty()
        || !requestLine.at(2).startsWith("HTTP/"))
        return std::nullopt;
    HttpRequest request;
    request.method = requestLine.at(0).toUpper();
    const QUrl url = QUrl::fromEncoded(requestLine.at(1));
    request.path = url.path();
    request.query = QUrlQuery(url);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            request.headers.emplaceBack(
                line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    return request;
}

QByteArray HttpRequest::header(const QByteArray &name) const
{
    const QByteArray lower = name.toLower();
    for (const auto &[key, value] : headers) {
        if (key == lower)
            return value;
    }
    return {};
}

bool HttpRequest::hasHeader(const QByteArray &name) const
{
    const QByteArray lower = name.toLower();
    for (const auto &header : headers) {
        if (header.first == lower)
            return true;
    }
    return false;
}

bool HttpRequest::wantsClose() const { return header("connection").trimmed().toLower() == "close"; }

HttpResponse HttpResponse::json(int status, const QJsonValue &value)
{
    HttpResponse response;
    response.status = status;
    response.headers.emplaceBack(
        QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    if (value.isArray())
        response.body = QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    else
        response.body = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return response;
}

HttpResponse HttpResponse::noContent()
{
    HttpResponse response;
    response.status = 204;
    return response;
}

HttpResponse HttpResponse::error(int status, const QString &message)
{
    return json(status,
        QJsonObject { { QStringLiteral("code"), status }, { QStringLiteral("message"), message } });
}

void HttpResponse::setHeader(const QByteArray &name, const QByteArray &value)
{
    for (auto &header : headers) {
        if (header.first.compare(name, Qt::CaseInsensitive) == 0) {
            header.second = value;
            return;
        }
    }
    headers.emplaceBack(name, value);
}

QByteArray HttpResponse::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

QByteArray serializeResponse(const HttpResponse &response, bool keepAlive)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
        + reasonPhrase(response.status) + "\r\n";
    for (const auto &[name, value] : response.headers)
        out += name + ": " + value + "\r\n";
    // 204 and 304 must not carry a body or a Content-Length other than none.
    if (response.status != 204 && response.status != 304)
        out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    out += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    out += "\r\n";
    if (response.status != 204 && response.status != 304)
        out += response.body;
    return out;
}

void writeResponse(QTcpSocket *socket, const HttpResponse &response, bool keepAlive)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    socket->write(serializeResponse(response, keepAlive));
    if (!keepAlive)
        socket->disconnectFromHost(); // flushes what is queued, then closes
}

bool parseFormData(const QByteArray &contentType, const QByteArray &body, QList<FormPart> *parts)
{
    QByteArray boundary;
    for (const QByteArray &parameter : contentType.split(';')) {
        const QByteArray trimmed = parameter.trimmed();
        if (trimmed.toLower().startsWith("boundary="))
            boundary = trimmed.mid(9);
    }
    if (boundary.size() >= 2 && boundary.startsWith('"') && boundary.endsWith('"'))
        boundary = boundary.mid(1, boundary.size() - 2);
    if (boundary.isEmpty())
        return false;
    const QByteArray delimiter = "--" + boundary;
    qsizetype at = body.indexOf(delimiter);
    if (at < 0)
        return false;
    parts->clear();
    for (;;) {
        at += delimiter.size();
        if (body.mid(at, 2) == "--")
            return true; // the closing delimiter
        if (body.mid(at, 2) != "\r\n")
            return false;
        const qsizetype headersEnd = body.indexOf("\r\n\r\n", at + 2);
        if (headersEnd < 0)
            return false;
        const qsizetype next = body.indexOf("\r\n" + delimiter, headersEnd + 4);
        if (next < 0)
            return false;
        FormPart part;
        for (const QByteArray &line : body.mid(at + 2, headersEnd - at - 2).split('\n')) {
            if (!line.trimmed().toLower().startsWith("content-disposition:"))
                continue;
            const qsizetype name = line.indexOf("filename=\"");
            const qsizetype end = name < 0 ? -1 : line.indexOf('"', name + 10);
            if (end > 0) {
                // Browsers and Node escape a quote and line breaks in the name this way.
                QByteArray fileName = line.mid(name + 10, end - name - 10);
                fileName.replace("%22", "\"").replace("%0A", "\n").replace("%0D", "\r");
                part.fileName = QString::fromUtf8(fileName);
            }
        }
        part.data = body.mid(headersEnd + 4, next - headersEnd - 4);
        parts->append(part);
        at = next + 2;
    }
}

bool constantTimeEquals(const QByteArray &given, const QByteArray &expected)
{
    unsigned char diff = given.size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const unsigned char x = i < given.size() ? static_cast<unsigned char>(given.at(i)) : 0;
        diff |= x ^ static_cast<unsigned char>(expected.at(i));
    }
    return diff == 0 && !expected.isEmpty();
}

} // namespace sd::local
