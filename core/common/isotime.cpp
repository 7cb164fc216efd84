#include "isotime.h"

#include "jsonstring.h"

#include <optional>

namespace sd {

namespace {

/// Writes "yyyy-MM-ddTHH:mm:ss[.zzz]Z" into `text`; returns its length, or 0 when
/// Qt's own formatting must decide (invalid, or a year that is not four digits).
qsizetype formatIsoTime(const QDateTime &time, IsoPrecision precision, char (&text)[24])
{
    if (!time.isValid())
        return 0;
    // The calendar date of a day count, without QDateTime's conversions (Howard
    // Hinnant's days_from_civil inverted; exact for the proleptic Gregorian calendar).
    constexpr qint64 msPerDay = 86400000;
    const qint64 msecs = time.toMSecsSinceEpoch();
    qint64 days = msecs / msPerDay;
    qint64 inDay = msecs % msPerDay;
    if (inDay < 0) {
        inDay += msPerDay;
        --days;
    }
    days += 719468;
    const qint64 era = (days >= 0 ? days : days - 146096) / 146097;
    const qint64 dayOfEra = days - era * 146097;
    const qint64 yearOfEra
        = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const qint64 dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const qint64 shiftedMonth = (5 * dayOfYear + 2) / 153; // March is 0
    const int day = int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
    const int month = int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
    const qint64 year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    if (year < 1 || year > 9999)
        return 0;
    const auto put = [&text](int at, int value, int digits) {
        for (int i = digits - 1; i >= 0; --i, value /= 10)
            text[at + i] = char('0' + value % 10);
    };
    const int msOfDay = int(inDay);
    put(0, int(year), 4);
    text[4] = '-';
    put(5, month, 2);
    text[7] = '-';
    put(8, day, 2);
    text[10] = 'T';
    put(11, msOfDay / 3600000, 2);
    text[13] = ':';
    put(14, msOfDay / 60000 % 60, 2);
    text[16] = ':';
    put(17, msOfDay / 1000 % 60, 2);
    if (precision == IsoPrecision::Seconds) {
        text[19] = 'Z';
        return 20;
    }
    text[19] = '.';
    put(20, msOfDay % 1000, 3);
    text[23] = 'Z';
    return 24;
}

Qt::DateFormat qtFormat(IsoPrecision precision)
{
    return precision == IsoPrecision::Seconds ? Qt::ISODate : Qt::ISODateWithMs;
}

/// The value of `count` ASCII digits at `at`, or -1 if any is not one.
template<typename View>
int digits(View text, qsizetype at, qsizetype count)
{
    int value = 0;
    for (qsizetype i = at; i < at + count; ++i) {
        const char16_t c = text[i].unicode();
        if (c < u'0' || c > u'9')
            return -1;
        value = value * 10 + (c - u'0');
    }
    return value;
}

/// Days from 1970-01-01 to a valid proleptic Gregorian date (Howard Hinnant's
/// days_from_civil, the inverse of formatIsoTime()'s).
qint64 daysFromCivil(int year, int month, int day)
{
    const int y = year - (month <= 2 ? 1 : 0);
    const int era = y / 400; // years here are 0 to 9999
    const int yearOfEra = y - era * 400;
    const int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return qint64(era) * 146097 + dayOfEra - 719468;
}

bool isValidDate(int year, int month, int day)
{
    static constexpr int monthDays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (year < 1 || month < 1 || month > 12 || day < 1)
        return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= monthDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

/// "yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z" read directly; nullopt when Qt should read it.
/// Only values that need no carrying or rounding decision are taken: Qt rounds the
/// fraction to the nearest millisecond in floating point, so a fourth digit of 4 or 5
/// (close to half) and a round-up to 1000 are left to it. The time is built from its
/// milliseconds: QDate and QTime would check and convert it again (half the cost of
/// reading a listed sandbox's two times).
template<typename View>
std::optional<QDateTime> readServerTime(View text)
{
    if (text.size() < 20 || text.size() > 30 || text.back().unicode() != u'Z'
        || text[4].unicode() != u'-' || text[7].unicode() != u'-' || text[10].unicode() != u'T'
        || text[13].unicode() != u':' || text[16].unicode() != u':')
        return std::nullopt;
    const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
    const int hour = digits(text, 11, 2), minute = digits(text, 14, 2);
    const int second = digits(text, 17, 2);
    if (hour < 0 || minute < 0 || second < 0 || !isValidDate(year, month, day) || hour > 23
        || minute > 59 || second > 59)
        return std::nullopt;
    int msec = 0;
    const View fraction = text.sliced(19).chopped(1);
    if (!fraction.isEmpty()) {
        const qsizetype count = fraction.size() - 1;
        if (fraction[0].unicode() != u'.' || count < 1 || count > 9
            || digits(fraction, 1, count) < 0)
            return std::nullopt;
        const View shown = fraction.sliced(1);
        msec = digits(shown, 0, qMin<qsizetype>(count, 3));
        for (qsizetype i = count; i < 3; ++i)
            msec *= 10;
        if (count > 3) {
            const char16_t next = shown[3].unicode();
            if (next == u'4' || next == u'5')
                return std::nullopt;
            if (next > u'5' && ++msec == 1000)
                return std::nullopt;
        }
    }
    const qint64 msecs = daysFromCivil(year, month, day) * 86400000
        + ((hour * 60 + minute) * 60 + second) * qint64(1000) + msec;
    return QDateTime::fromMSecsSinceEpoch(msecs, Qt::UTC);
}

} // namespace

QString isoTime(const QDateTime &time, IsoPrecision precision)
{
    char text[24];
    const qsizetype size = formatIsoTime(time, precision, text);
    if (size == 0)
        return time.isValid() ? time.toUTC().toString(qtFormat(precision)) : QString();
    return QString::fromLatin1(text, size);
}

void appendIsoTime(QByteArray *out, const QDateTime &time, IsoPrecision precision)
{
    char text[24];
    const qsizetype size = formatIsoTime(time, precision, text);
    if (size == 0) {
        if (time.isValid())
            out->append(time.toUTC().toString(qtFormat(precision)).toUtf8());
        return;
    }
    appendBytesInPlace(out, text, size);
}

QDateTime parseIsoTime(QStringView text)
{
    if (const auto time = readServerTime(text))
        return *time;
    return QDateTime::fromString(text, Qt::ISODateWithMs);
}

QDateTime parseIsoTime(QLatin1String text)
{
    if (const auto time = readServerTime(text))
        return *time;
    return QDateTime::fromString(QString(text), Qt::ISODateWithMs);
}

} // namespace sd
