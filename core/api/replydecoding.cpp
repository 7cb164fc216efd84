#include "api/replydecoding.h"

#include <QJsonDocument>

namespace sd {

QString serverMessageFromBody(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject()) {
        const QJsonValue message = doc.object().value(QLatin1String("message"));
        if (message.isString())
            return message.toString();
    }
    QString text = QString::fromUtf8(body.left(200)).simplified();
    if (body.size() > 200)
        text += QStringLiteral("…");
    return text;
}

namespace {
std::optional<QJsonDocument> parseJson(const QByteArray &body, QString *problem)
{
    if (body.trimmed().isEmpty()) {
        *problem = QStringLiteral("the answer is empty");
        return std::nullopt;
    }
    QJsonParseError parseError;
    QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *problem = QStringLiteral("the answer is not JSON (%1)").arg(parseError.errorString());
        return std::nullopt;
    }
    return doc;
}
} // namespace

std::optional<QJsonObject> parseJsonObject(const QByteArray &body, QString *problem)
{
    const auto doc = parseJson(body, problem);
    if (!doc)
        return std::nullopt;
    if (!doc->isObject()) {
        *problem = QStringLiteral("expected a JSON object");
        return std::nullopt;
    }
    return doc->object();
}

std::optional<QJsonArray> parseJsonArray(const QByteArray &body, QString *problem)
{
    const auto doc = parseJson(body, problem);
    if (!doc)
        return std::nullopt;
    if (!doc->isArray()) {
        *problem = QStringLiteral("expected a JSON array");
        return std::nullopt;
    }
    return doc->array();
}

bool readCreatedSandbox(const QByteArray &body, Sandbox *out, QString *problem)
{
    const auto json = parseJsonObject(body, problem);
    if (!json)
        return false;
    const auto sandbox = Sandbox::fromCreated(*json, problem);
    if (!sandbox)
        return false;
    *out = *sandbox;
    return true;
}

} // namespace sd
