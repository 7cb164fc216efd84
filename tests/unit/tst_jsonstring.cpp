#include "common/jsonstring.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <limits>

using namespace sd;

class TestJsonString : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The bytes QJsonDocument writes for the same string, for plain text, every
    // escape, any character of the BMP and beyond, and broken surrogates.
    void writesWhatQtWrites()
    {
        QStringList texts { QString(), QStringLiteral("sbx-1"), QStringLiteral("say \"hi\""),
            QStringLiteral("C:\\path"), QStringLiteral("tab\tnew\nline\rform\fback\b"),
            QStringLiteral("\x01\x1f\x7f"), QStringLiteral("café ✓ 😀"),
            QString(QChar(0x2028)) + QChar(0x2029), QString(QChar(0xd800)),
            QString(QChar(0xdc00)) + QLatin1Char('x') };
        QRandomGenerator random(2026);
        for (int i = 0; i < 2000; ++i) {
            QString text;
            const int length = random.bounded(12);
            for (int c = 0; c < length; ++c) {
                // Mostly ASCII, including control characters, some of anything else.
                text += QChar(
                    char16_t(random.bounded(4) ? random.bounded(0x80) : random.bounded(0x10000)));
            }
            texts << text;
        }
        for (const QString &text : std::as_const(texts)) {
            // [<string>] minus the brackets.
            const QByteArray expected = QJsonDocument(QJsonArray { text })
                                            .toJson(QJsonDocument::Compact)
                                            .chopped(1)
                                            .sliced(1);
            QByteArray written("prefix,");
            appendJsonString(&written, text);
            QCOMPARE(written, "prefix," + expected);
        }
    }

    // Integers as QJsonDocument writes them, pieces as they are, appended to what is there.
    void appendsIntegersAndPieces()
    {
        QList<qint64> values { 0, 1, -1, 9, 10, 512, 1024, -2147483648LL, 2147483647LL,
            999999999999999LL, -999999999999999LL, std::numeric_limits<qint64>::max(),
            std::numeric_limits<qint64>::min() };
        QRandomGenerator random(7);
        for (int i = 0; i < 1000; ++i)
            values << qint64(random.generate64()) / (qint64(1) << random.bounded(63));
        QByteArray written("[");
        QByteArray expected("[");
        for (const qint64 value : std::as_const(values)) {
            appendJsonInteger(&written, value);
            appendJsonPiece(&written, ",\"k\":");
            expected += QByteArray::number(value) + ",\"k\":";
        }
        QCOMPARE(written, expected);
        // The numbers QJsonDocument writes for those that are exact as a double.
        for (const qint64 value : { qint64(0), qint64(-7), qint64(2147483647), qint64(1) << 52 }) {
            QByteArray one;
            appendJsonInteger(&one, value);
            QCOMPARE(one,
                QJsonDocument(QJsonArray { value })
                    .toJson(QJsonDocument::Compact)
                    .chopped(1)
                    .sliced(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonString)
#include "tst_jsonstring.moc"
