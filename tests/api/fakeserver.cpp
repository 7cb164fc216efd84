#include "fakeserver.h"

#include <QTcpSocket>

namespace sd::test {

FakeServer::FakeServer(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &FakeServer::onNewConnection);
}

bool FakeServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl FakeServer::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path));
}

void FakeServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        socket->setParent(this);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeServer::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return;
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    Request request;
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    const QByteArray target = requestLine.value(1);
    const qsizetype question = target.indexOf('?');
    request.path = question < 0 ? target : target.left(question);
    request.query = question < 0 ? QByteArray() : target.mid(question + 1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    const qsizetype length = request.headers.value("content-length").toLongLong();
    if (buffer.size() < headerEnd + 4 + length)
        return; // wait for the rest of the body
    request.body = buffer.mid(headerEnd + 4, length);
    buffer.clear();
    m_requests.append(request);
    answer(socket);
    Q_EMIT requestReceived();
}

void FakeServer::answer(QTcpSocket *socket)
{
    const Response response = m_queue.isEmpty()
        ? Response{599, QByteArrayLiteral("{\"code\":599,\"message\":\"no canned answer\"}"), {}, {}}
        : m_queue.takeFirst();
    if (response.mode == Response::Mode::Hang)
        return; // keep the socket open, never answer
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + " Canned\r\n";
    bool hasType = false;
    for (const auto &[name, value] : response.headers) {
        out += name + ": " + value + "\r\n";
        hasType = hasType || name.toLower() == "content-type";
    }
    if (!hasType && !response.body.isEmpty())
        out += "Content-Type: application/json\r\n";
    const qsizetype announced = response.mode == Response::Mode::Truncate ? response.body.size() + 100
                                                                           : response.body.size();
    out += "Content-Length: " + QByteArray::number(announced) + "\r\n";
    out += "Connection: close\r\n\r\n";
    out += response.body;
    socket->write(out);
    socket->disconnectFromHost();
}

} // namespace sd::test
