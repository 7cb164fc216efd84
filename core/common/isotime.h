#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QLatin1String>
#include <QString>
#include <QStringView>

namespace sd {

enum class IsoPrecision
{
    Seconds, ///< "2026-12-06T14:05:43Z", Qt::ISODate
    Milliseconds, ///< "2026-12-06T14:05:43.123Z", Qt::ISODateWithMs
};

/// `time` in UTC as QDateTime::toString() writes it in ISO 8601 (empty when invalid),
/// formatted by hand: Qt formats through asprintf, about 11,000 instructions a time,
/// and a list of 10,000 sandboxes writes 20,000 of them.
QString isoTime(const QDateTime &time, IsoPrecision precision);
/// The same, appended as bytes (nothing when invalid).
void appendIsoTime(QByteArray *out, const QDateTime &time, IsoPrecision precision);

/// QDateTime::fromString(text, Qt::ISODateWithMs). The form servers write, UTC with
/// "Z" and up to nine fraction digits, is read directly; anything else goes to Qt.
QDateTime parseIsoTime(QStringView text);
/// The same for bytes read straight from an answer.
QDateTime parseIsoTime(QLatin1String text);

} // namespace sd
