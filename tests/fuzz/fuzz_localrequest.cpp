// Sends arbitrary bytes to sandbox-desk-local's HTTP front, in this process, over a
// loopback connection: the connection guard's limits, Qt's request parser, the Host
// and Origin checks, the API key, the router and every control-plane handler (path,
// query, headers, JSON body). The key is "fuzz-key" and `Host: localhost` passes, so
// the corpus reaches the handlers. envd is not attached (its requests get 501): it
// would run the requested programs.

#include "local/localserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>

namespace {

struct Harness
{
    int argc = 1;
    char name[16] = "fuzz_localreq";
    char *argv[2] = { name, nullptr };
    QCoreApplication app { argc, argv };
    QTemporaryDir state;
    sd::local::LocalServer server { options(state.path()) };
    quint16 port = 0;

    static sd::local::LocalServer::Options options(const QString &stateDir)
    {
        sd::local::LocalServer::Options o;
        o.apiKey = QStringLiteral("fuzz-key");
        o.isolation = QStringLiteral("none");
        o.stateDir = stateDir;
        o.version = QStringLiteral("fuzz");
        o.limits.maxBodyBytes = 1024 * 1024;
        return o;
    }

    Harness()
    {
        QLoggingCategory::setFilterRules(QStringLiteral("*=false")); // a line per request
        QString error;
        if (!server.listenOn(QHostAddress::LocalHost, 0, &error))
            qFatal("cannot listen: %s", qPrintable(error));
        port = server.port();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Harness *harness = new Harness; // lives as long as the process
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, harness->port);
    if (!client.waitForConnected(5000))
        return 0;
    client.write(reinterpret_cast<const char *>(data), qint64(size));
    QElapsedTimer waited;
    waited.start();
    while (client.bytesToWrite() > 0 && client.state() == QAbstractSocket::ConnectedState
        && !waited.hasExpired(2000)) {
        client.flush();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    // End of input: the server answers what came whole, then closes.
    ::shutdown(int(client.socketDescriptor()), SHUT_WR);
    while (client.state() != QAbstractSocket::UnconnectedState && !waited.hasExpired(2000)) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        client.readAll();
    }
    client.abort();
    // Every input starts from an empty backend.
    harness->server.registry()->killAll();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}
