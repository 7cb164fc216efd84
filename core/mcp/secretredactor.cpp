#include "secretredactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace sd {

namespace {

const QByteArray mask = QByteArrayLiteral("[redacted]");

/// The JSON spelling of a string, without its quotes.
QByteArray jsonEscaped(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray { text }).toJson(QJsonDocument::Compact);
    return array.mid(2, array.size() - 4); // ["…"]
}

} // namespace

void SecretRedactor::addForm(const QByteArray &form)
{
    if (form.size() < minimumLength || m_forms.contains(form))
        return;
    // Longest first, so a secret containing another is masked whole.
    const auto at = std::find_if(m_forms.begin(), m_forms.end(),
        [&form](const QByteArray &other) { return other.size() < form.size(); });
    m_forms.insert(at, form);
}

void SecretRedactor::addSecret(const QString &secret)
{
    if (secret.size() < minimumLength)
        return;
    addForm(secret.toUtf8());
    addForm(jsonEscaped(secret));
}

void SecretRedactor::addSecretsIn(const QJsonValue &value)
{
    if (value.isString()) {
        addSecret(value.toString());
    } else if (value.isDouble()) {
        const double number = value.toDouble();
        // The spellings a gateway may print a number in: JSON's, C's %g, %f and %e,
        // and the shortest round-trip one.
        addForm(
            QJsonDocument(QJsonArray { number }).toJson(QJsonDocument::Compact).mid(1).chopped(1));
        addForm(QByteArray::number(number, 'g', 6));
        addForm(QByteArray::number(number, 'f', 6));
        addForm(QByteArray::number(number, 'e', 6));
        addForm(QByteArray::number(number, 'g', QLocale::FloatingPointShortest));
        if (std::abs(number) < 1e18 && number == std::trunc(number))
            addForm(QByteArray::number(qint64(number)));
    } else if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            addSecretsIn(item);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            addSecretsIn(it.value());
    }
}

QByteArray SecretRedactor::redact(QByteArray data) const
{
    for (const QByteArray &form : m_forms)
        data.replace(form, mask);
    return data;
}

QString SecretRedactor::redact(const QString &text) const
{
    if (m_forms.isEmpty())
        return text;
    return QString::fromUtf8(redact(text.toUtf8()));
}

QByteArray SecretRedactor::feed(const QByteArray &piece)
{
    if (m_forms.isEmpty())
        return piece;
    m_carry = redact(m_carry + piece);
    // A secret not yet complete starts within the last (longest - 1) bytes.
    const qsizetype keep = qMin(m_carry.size(), m_forms.constFirst().size() - 1);
    const QByteArray ready = m_carry.left(m_carry.size() - keep);
    m_carry = m_carry.right(keep);
    return ready;
}

QByteArray SecretRedactor::flush()
{
    const QByteArray rest = redact(m_carry);
    m_carry.clear();
    return rest;
}

} // namespace sd
