#pragma once

#include "local/httpmessage.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace sd::local {

/// envd's signed `/files` links, which the SDK's `uploadUrl()` and `downloadUrl()` make:
/// the query carries `signature` (`v1_` and the unpadded base64 of the SHA-256 of
/// `path:operation:user:token[:expiration]`, the operation `read` for GET and `write`
/// for POST) and, when the link expires, `signature_expiration` in Unix seconds. Such a
/// link stands in for the X-Access-Token header; it names no sandbox, so the backend
/// finds the sandbox whose token signed it.
struct FileSignature
{
    enum class Check
    {
        Absent, ///< no signature in the query: the token header decides
        Valid,
        Invalid, ///< not made with this token, for this path, operation and user
        Expired
    };

    /// A query value as envd reads it: `+` is a space (the SDK's links are form-encoded).
    static QString queryValue(const HttpRequest &request, const QString &key);
    static bool isSigned(const HttpRequest &request);
    /// What `request`'s signature says for a sandbox whose token is `token`.
    static Check check(const HttpRequest &request, const QByteArray &token,
        const QDateTime &now = QDateTime::currentDateTimeUtc());
    /// The signature the SDK computes; `expiration` < 0 when the link does not expire.
    static QByteArray sign(const QString &path, const QString &operation, const QString &user,
        const QByteArray &token, qint64 expiration = -1);
};

} // namespace sd::local
