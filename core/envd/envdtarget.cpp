#include "envdtarget.h"

#include <QCoreApplication>

namespace sd {

EnvdTarget EnvdTarget::forSandboxHost(const QString &domain, const QString &sandboxId,
                                      const QString &accessToken, bool https)
{
    EnvdTarget target;
    target.url.setScheme(https ? QStringLiteral("https") : QStringLiteral("http"));
    target.url.setHost(QStringLiteral("%1-%2.%3").arg(EnvdPort).arg(sandboxId, domain));
    target.sandboxId = sandboxId;
    target.accessToken = accessToken;
    return target;
}

EnvdTarget EnvdTarget::forSharedUrl(const QUrl &url, const QString &sandboxId,
                                    const QString &accessToken)
{
    EnvdTarget target;
    target.url = url;
    target.sandboxId = sandboxId;
    target.accessToken = accessToken;
    return target;
}

bool EnvdTarget::isPerSandboxHost() const
{
    return url.host().startsWith(QStringLiteral("%1-").arg(EnvdPort));
}

QUrl EnvdTarget::methodUrl(const QString &method) const
{
    QUrl out = url;
    QString path = out.path();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    out.setPath(path + method);
    return out;
}

void EnvdTarget::applyHeaders(QNetworkRequest *request) const
{
    if (!isPerSandboxHost()) {
        request->setRawHeader("E2b-Sandbox-Id", sandboxId.toUtf8());
        request->setRawHeader("E2b-Sandbox-Port", QByteArray::number(EnvdPort));
    }
    if (!accessToken.isEmpty())
        request->setRawHeader("X-Access-Token", accessToken.toUtf8());
    request->setRawHeader("Authorization",
                          "Basic " + (user.toUtf8() + ':').toBase64());
    const QString version = QCoreApplication::applicationVersion();
    request->setHeader(QNetworkRequest::UserAgentHeader,
                       QStringLiteral("sandbox-desk/%1")
                           .arg(version.isEmpty() ? QStringLiteral("0.1.0") : version));
}

} // namespace sd
