#include "common/isotime.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

using namespace sd;

namespace {

/// Both invalid, or the same instant in the same kind of time.
bool sameTime(const QDateTime &a, const QDateTime &b)
{
    if (a.isValid() != b.isValid())
        return false;
    return !a.isValid()
        || (a.toMSecsSinceEpoch() == b.toMSecsSinceEpoch() && a.timeSpec() == b.timeSpec()
            && a.offsetFromUtc() == b.offsetFromUtc());
}

QString digitsOf(QRandomGenerator &random, int count)
{
    QString text;
    for (int i = 0; i < count; ++i)
        text += QChar(u'0' + random.bounded(10));
    return text;
}

} // namespace

class TestIsoTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Whatever the text, the answer is QDateTime::fromString()'s: the direct reading of
    // the servers' form must agree with Qt on every value it takes.
    void readsWhatQtReads()
    {
        QStringList texts { QStringLiteral("2026-12-06T14:05:43Z"),
            QStringLiteral("2026-12-06T14:05:43.123Z"), QStringLiteral("2026-12-06T14:05:43.1Z"),
            QStringLiteral("2026-12-06T14:05:43.12Z"),
            QStringLiteral("2026-12-06T14:05:43.123456Z"),
            QStringLiteral("2026-12-06T14:05:43.123456789Z"),
            QStringLiteral("2026-12-06T14:05:43.1234567891Z"),
            QStringLiteral("2026-12-31T23:59:59.9996Z"),
            QStringLiteral("2026-12-31T23:59:59.9995Z"),
            QStringLiteral("2026-12-31T23:59:59.9994Z"),
            QStringLiteral("2026-06-30T12:00:59.99951Z"),
            QStringLiteral("2026-01-01T00:00:00.0005Z"),
            QStringLiteral("2026-01-01T00:00:00.00049Z"), QStringLiteral("2024-02-29T10:00:00Z"),
            QStringLiteral("2026-02-29T10:00:00Z"), QStringLiteral("2026-04-31T10:00:00Z"),
            QStringLiteral("2026-13-01T10:00:00Z"), QStringLiteral("2026-00-10T10:00:00Z"),
            QStringLiteral("0000-01-01T00:00:00Z"), QStringLiteral("0001-01-01T00:00:00Z"),
            QStringLiteral("9999-12-31T23:59:59.999Z"), QStringLiteral("2026-12-06T24:00:00Z"),
            QStringLiteral("2026-12-06T23:60:00Z"), QStringLiteral("2026-12-06T23:00:60Z"),
            QStringLiteral("2026-12-06T14:05:43+02:00"),
            QStringLiteral("2026-12-06T14:05:43.5-05:30"), QStringLiteral("2026-12-06T14:05:43"),
            QStringLiteral("2026-12-06 14:05:43Z"), QStringLiteral("2026-12-06T14:05:43z"),
            QStringLiteral("2026-12-06T14:05:43.Z"), QStringLiteral("2026-12-06T14:05:43,5Z"),
            QStringLiteral("2026-12-06T14:05:43.1.2Z"), QStringLiteral("2026-12-06T14:05Z"),
            QStringLiteral("2026-12-06T1a:05:43Z"), QStringLiteral("２０２６-12-06T14:05:43Z"),
            QStringLiteral("-026-12-06T14:05:43Z"), QStringLiteral("2026-12-06T14:05:43.12a4Z"),
            QString(), QStringLiteral("Z"), QStringLiteral("not a time") };
        QRandomGenerator random(20261206);
        for (int i = 0; i < 20000; ++i) {
            const int year = 1 + random.bounded(9999);
            QString text = QStringLiteral("%1-%2-%3T%4:%5:%6")
                               .arg(year, 4, 10, QLatin1Char('0'))
                               .arg(random.bounded(14), 2, 10, QLatin1Char('0'))
                               .arg(random.bounded(33), 2, 10, QLatin1Char('0'))
                               .arg(random.bounded(26), 2, 10, QLatin1Char('0'))
                               .arg(random.bounded(61), 2, 10, QLatin1Char('0'))
                               .arg(random.bounded(61), 2, 10, QLatin1Char('0'));
            const int fraction = random.bounded(12);
            if (fraction > 0)
                text += QLatin1Char('.') + digitsOf(random, fraction);
            text += QLatin1Char('Z');
            texts << text;
        }
        for (const QString &text : std::as_const(texts)) {
            const QDateTime expected = QDateTime::fromString(text, Qt::ISODateWithMs);
            const QDateTime read = parseIsoTime(text);
            QVERIFY2(sameTime(read, expected),
                qPrintable(QStringLiteral("%1: read %2, Qt reads %3")
                               .arg(text, read.toString(Qt::ISODateWithMs),
                                   expected.toString(Qt::ISODateWithMs))));
            // The same text as the bytes of an answer.
            const QByteArray bytes = text.toLatin1();
            const QDateTime expectedFromBytes
                = QDateTime::fromString(QString::fromLatin1(bytes), Qt::ISODateWithMs);
            const QDateTime readFromBytes = parseIsoTime(QLatin1String(bytes));
            QVERIFY2(sameTime(readFromBytes, expectedFromBytes),
                qPrintable(QStringLiteral("%1 as bytes: read %2, Qt reads %3")
                               .arg(text, readFromBytes.toString(Qt::ISODateWithMs),
                                   expectedFromBytes.toString(Qt::ISODateWithMs))));
        }
    }

    // Written as QDateTime::toString() writes the time in UTC, whatever zone it is in.
    void writesWhatQtWrites()
    {
        QList<QDateTime> times { QDateTime(),
            QDateTime(QDate(2026, 12, 6), QTime(14, 5, 43, 7), Qt::UTC),
            QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC),
            QDateTime(QDate(10000, 1, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(-5, 3, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(2026, 1, 1), QTime(0, 30), QTimeZone(3600)),
            QDateTime(QDate(2026, 7, 1), QTime(12, 0), Qt::LocalTime) };
        QRandomGenerator random(612);
        for (const QDate date : { QDate(2000, 2, 29), QDate(1900, 2, 28), QDate(1900, 3, 1),
                 QDate(2100, 2, 28), QDate(2100, 3, 1), QDate(1969, 12, 31), QDate(1970, 1, 1),
                 QDate(1600, 2, 29), QDate(1, 12, 31), QDate(9999, 1, 1) })
            times << QDateTime(date, QTime(23, 59, 59, 999), Qt::UTC)
                  << QDateTime(date, QTime(0, 0), Qt::UTC);
        // From 0001-01-01 to 9999-12-31, before and after 1970.
        for (int i = 0; i < 20000; ++i)
            times << QDateTime::fromMSecsSinceEpoch(
                random.bounded(Q_INT64_C(-62135596800000), Q_INT64_C(253402300800000)), Qt::UTC);
        for (const QDateTime &time : std::as_const(times)) {
            for (const auto &[precision, format] :
                { std::pair { IsoPrecision::Seconds, Qt::ISODate },
                    std::pair { IsoPrecision::Milliseconds, Qt::ISODateWithMs } }) {
                const QString expected = time.isValid() ? time.toUTC().toString(format) : QString();
                QCOMPARE(isoTime(time, precision), expected);
                QByteArray appended("x");
                appendIsoTime(&appended, time, precision);
                QCOMPARE(appended, "x" + expected.toUtf8());
            }
        }
    }

    // What is written reads back as the same time.
    void roundTrips()
    {
        const QDateTime time(QDate(2026, 12, 6), QTime(14, 5, 43, 250), Qt::UTC);
        QVERIFY(sameTime(parseIsoTime(isoTime(time, IsoPrecision::Milliseconds)), time));
        QVERIFY(sameTime(parseIsoTime(isoTime(time, IsoPrecision::Seconds)), time.addMSecs(-250)));
    }
};

QTEST_GUILESS_MAIN(TestIsoTime)
#include "tst_isotime.moc"
