#include "common/jsonstring.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestJsonString)
#include "tst_jsonstring.moc"
