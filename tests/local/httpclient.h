#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QUrl>

#include <memory>

namespace sd::test {

/// One finished exchange, read back for assertions.
struct HttpResult
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;
    bool finished = false;

    QJsonObject object() const { return QJsonDocument::fromJson(body).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(body).array(); }
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
    bool hasHeader(const QByteArray &name) const
    {
        for (const auto &header : headers) {
            if (header.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    }
    QString message() const { return object().value(QStringLiteral("message")).toString(); }
};

/// Real HTTP through QNetworkAccessManager against one backend (tests only: spins the
/// event loop until the reply finishes).
class HttpClient
{
public:
    HttpClient(QUrl base, QString apiKey)
        : m_base(std::move(base))
        , m_apiKey(std::move(apiKey))
    {
    }

    void setApiKey(const QString &key) { m_apiKey = key; }

    HttpResult send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {},
                    const QList<QPair<QByteArray, QByteArray>> &extraHeaders = {}, int timeoutMs = 30000)
    {
        QUrl url = m_base;
        const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
        url.setPath(q < 0 ? pathAndQuery : pathAndQuery.left(q));
        if (q >= 0)
            url.setQuery(pathAndQuery.mid(q + 1), QUrl::StrictMode);
        QNetworkRequest request(url);
        if (!m_apiKey.isNull())
            request.setRawHeader("X-API-Key", m_apiKey.toUtf8());
        if (!body.isNull())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        for (const auto &[name, value] : extraHeaders)
            request.setRawHeader(name, value);
        std::unique_ptr<QNetworkReply> reply(m_nam.sendCustomRequest(request, method, body));
        QSignalSpy spy(reply.get(), &QNetworkReply::finished);
        HttpResult result;
        if (!reply->isFinished() && !spy.wait(timeoutMs))
            return result;
        result.finished = true;
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.error = reply->error();
        result.body = reply->readAll();
        result.headers = reply->rawHeaderPairs();
        return result;
    }

    HttpResult get(const QString &path) { return send("GET", path); }
    HttpResult del(const QString &path) { return send("DELETE", path); }
    HttpResult post(const QString &path, const QJsonObject &body)
    {
        return send("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact));
    }
    HttpResult postRaw(const QString &path, const QByteArray &body) { return send("POST", path, body); }

    /// Creates a sandbox and returns its Sandbox object (empty on failure).
    QJsonObject create(const QJsonObject &body = {{QStringLiteral("templateID"), QStringLiteral("base")}})
    {
        const HttpResult r = post(QStringLiteral("/v2/sandboxes"), body);
        return r.status == 201 ? r.object() : QJsonObject();
    }

    /// IDs of all sandboxes (running and paused), through v2 with paging.
    QStringList allIds()
    {
        QStringList ids;
        QString token;
        do {
            QString path = QStringLiteral("/v2/sandboxes?state=running,paused&limit=100");
            if (!token.isEmpty())
                path += QStringLiteral("&nextToken=") + QString::fromLatin1(QUrl::toPercentEncoding(token));
            const HttpResult r = get(path);
            if (r.status != 200)
                return {QStringLiteral("<list failed>")};
            for (const QJsonValue &v : r.array())
                ids.append(v.toObject().value(QStringLiteral("sandboxID")).toString());
            token = QString::fromLatin1(r.header("X-Next-Token"));
        } while (!token.isEmpty());
        return ids;
    }

private:
    QUrl m_base;
    QString m_apiKey;
    QNetworkAccessManager m_nam;
};

/// Sends one raw request on a fresh TCP connection and collects everything the server
/// writes until it closes (or timeoutMs). QNetworkAccessManager silently resends a
/// request whose connection closed before any answer, so connection drops are checked
/// at this level.
struct RawExchange
{
    QByteArray received;
    bool closedByServer = false;
};

inline RawExchange rawExchange(quint16 port, const QByteArray &request, int timeoutMs = 20000)
{
    RawExchange result;
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(timeoutMs))
        return result;
    socket.write(request);
    QSignalSpy closed(&socket, &QTcpSocket::disconnected);
    closed.wait(timeoutMs);
    result.closedByServer = closed.count() > 0;
    result.received = socket.readAll();
    return result;
}

inline QByteArray rawRequest(const QByteArray &method, const QByteArray &path, const QString &apiKey,
                             const QByteArray &body = {})
{
    QByteArray out = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-API-Key: "
                     + apiKey.toUtf8() + "\r\n";
    if (!body.isEmpty())
        out += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    out += "\r\n" + body;
    return out;
}

} // namespace sd::test
