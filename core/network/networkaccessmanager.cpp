#include "networkaccessmanager.h"

#include "loopbackhttp.h"

#include <QNetworkReply>

namespace sd {

NetworkAccessManager::NetworkAccessManager(QObject *parent)
    : QNetworkAccessManager(parent)
    , m_loopback(new LoopbackHttpPool(this))
{ }

NetworkAccessManager::~NetworkAccessManager()
{
    // Replies before the pool their sockets come from (~QNetworkAccessManager would
    // delete them only after the pool, a child created earlier).
    qDeleteAll(findChildren<LoopbackHttpReply *>(Qt::FindDirectChildrenOnly));
}

QNetworkReply *NetworkAccessManager::createRequest(
    Operation operation, const QNetworkRequest &request, QIODevice *outgoingData)
{
    // A body the reply cannot take in one piece (a stream) goes through Qt's client.
    if (!LoopbackHttpReply::handles(request.url())
        || (outgoingData && outgoingData->isSequential()))
        return QNetworkAccessManager::createRequest(operation, request, outgoingData);
    QByteArray verb;
    switch (operation) {
    case HeadOperation:
        verb = "HEAD";
        break;
    case GetOperation:
        verb = "GET";
        break;
    case PutOperation:
        verb = "PUT";
        break;
    case PostOperation:
        verb = "POST";
        break;
    case DeleteOperation:
        verb = "DELETE";
        break;
    case CustomOperation:
        verb = request.attribute(QNetworkRequest::CustomVerbAttribute).toByteArray();
        break;
    case UnknownOperation:
        break;
    }
    if (verb.isEmpty())
        return QNetworkAccessManager::createRequest(operation, request, outgoingData);
    const QByteArray body = outgoingData ? outgoingData->readAll() : QByteArray();
    return new LoopbackHttpReply(operation, verb, request, body, m_loopback, this);
}

} // namespace sd
