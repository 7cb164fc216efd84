#pragma once

#include <QNetworkAccessManager>

namespace sd {

class LoopbackHttpPool;

/// The QNetworkAccessManager every part of Sandbox Desk uses. Plain-HTTP requests to
/// this machine (the local backend and its sandboxes) go over kept-alive sockets in
/// the caller's thread; everything else goes through Qt's own client.
///
/// Why: Qt 6.4 hands each HTTP request to a network thread and back, and reads a
/// response's status line and headers one byte per read(). On loopback that is most
/// of a request's cost: 100 pages of a list take about 80 ms through Qt's client and
/// about 21 ms over one QTcpSocket (docs/benchmarks.md). The replies behave as Qt's
/// do for everything the jobs use: status and headers, readyRead as the body
/// arrives, requestSent, errors and their codes, abort(), transfer timeouts.
class NetworkAccessManager : public QNetworkAccessManager
{
    Q_OBJECT
public:
    explicit NetworkAccessManager(QObject *parent = nullptr);
    ~NetworkAccessManager() override;

protected:
    QNetworkReply *createRequest(
        Operation operation, const QNetworkRequest &request, QIODevice *outgoingData) override;

private:
    LoopbackHttpPool *m_loopback;
};

} // namespace sd
