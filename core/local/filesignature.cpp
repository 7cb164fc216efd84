#include "filesignature.h"

#include <QCryptographicHash>

namespace sd::local {

namespace {

const QString SignatureKey = QStringLiteral("signature");
const QString ExpirationKey = QStringLiteral("signature_expiration");

} // namespace

QString FileSignature::queryValue(const HttpRequest &request, const QString &key)
{
    QByteArray raw = request.query.queryItemValue(key, QUrl::FullyEncoded).toLatin1();
    raw.replace('+', "%20");
    return QUrl::fromPercentEncoding(raw);
}

bool FileSignature::isSigned(const HttpRequest &request)
{
    return request.query.hasQueryItem(SignatureKey);
}

QByteArray FileSignature::sign(const QString &path, const QString &operation, const QString &user,
    const QByteArray &token, qint64 expiration)
{
    QByteArray raw = path.toUtf8() + ':' + operation.toUtf8() + ':' + user.toUtf8() + ':' + token;
    if (expiration >= 0)
        raw += ':' + QByteArray::number(expiration);
    return "v1_"
        + QCryptographicHash::hash(raw, QCryptographicHash::Sha256)
              .toBase64(QByteArray::OmitTrailingEquals);
}

FileSignature::Check FileSignature::check(
    const HttpRequest &request, const QByteArray &token, const QDateTime &now)
{
    if (!isSigned(request))
        return Check::Absent;
    const QString operation
        = request.method == "POST" ? QStringLiteral("write") : QStringLiteral("read");
    qint64 expiration = -1;
    if (request.query.hasQueryItem(ExpirationKey)) {
        bool ok = false;
        expiration = queryValue(request, ExpirationKey).toLongLong(&ok);
        if (!ok || expiration < 0)
            return Check::Invalid;
    }
    const QByteArray expected = sign(queryValue(request, QStringLiteral("path")), operation,
        queryValue(request, QStringLiteral("username")), token, expiration);
    if (!constantTimeEquals(queryValue(request, SignatureKey).toLatin1(), expected))
        return Check::Invalid;
    if (expiration >= 0 && expiration < now.toSecsSinceEpoch())
        return Check::Expired;
    return Check::Valid;
}

} // namespace sd::local
