#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace sd {

/// Masks secrets in a byte stream that arrives in pieces (a process's output).
///
/// Each secret is searched in every textual form a program may print it in: as given,
/// JSON-escaped, and for numbers the usual printf/JSON spellings (`1234567`,
/// `1.23457e+06`, `1234567.000000`). A secret split across two pieces is still
/// found: feed() keeps back the last (longest form - 1) bytes until more arrive or
/// flush() is called, so nothing that could start a secret is ever returned early.
class SecretRedactor
{
public:
    static constexpr int minimumLength = 4; ///< shorter values are not masked

    SecretRedactor() = default;
    void addSecret(const QString &secret);
    /// Adds every string and number found in `value` (the MCP configuration's options).
    void addSecretsIn(const QJsonValue &value);

    bool isEmpty() const { return m_forms.isEmpty(); }
    /// Masks what is complete in `buffer`, in place (no carry-over).
    QByteArray redact(QByteArray data) const;
    QString redact(const QString &text) const;

    /// Takes the next piece of the stream; returns what is safe to pass on now.
    QByteArray feed(const QByteArray &piece);
    /// The end of the stream: returns what was kept back, masked.
    QByteArray flush();

private:
    void addForm(const QByteArray &form);

    QList<QByteArray> m_forms; ///< longest first
    QByteArray m_carry;
};

} // namespace sd
