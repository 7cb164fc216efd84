#include "envd/envelope.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>
#include <QtEndian>

using namespace sd::envd;

namespace {
QByteArray rawEnvelope(quint8 flags, const QByteArray &payload, qint64 announced = -1)
{
    QByteArray out(1, char(flags));
    char length[4];
    qToBigEndian(quint32(announced < 0 ? payload.size() : announced), length);
    out.append(length, 4);
    return out + payload;
}

QByteArray goodStream()
{
    return encodeEnvelope(processStartEvent(42))
           + encodeEnvelope(processDataEvent(false, "hello\n"))
           + encodeEnvelope(processKeepAliveEvent())
           + encodeEnvelope(processDataEvent(true, QByteArray("\0\xff err", 6)))
           + encodeEnvelope(processEndEvent(3, true, QStringLiteral("exit status 3")))
           + encodeEndStream();
}

// Feeds `bytes` in pieces chosen by `split` and returns the decoder.
EnvelopeDecoder feedSplit(const QByteArray &bytes, int split, QList<Envelope> *out)
{
    EnvelopeDecoder decoder;
    QRandomGenerator rng(quint32(split) * 7919u + 1);
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        qsizetype n = split > 0 ? split : 1 + rng.bounded(23);
        n = qMin(n, bytes.size() - pos);
        decoder.feed(bytes.mid(pos, n));
        out->append(decoder.takeAll());
        pos += n;
    }
    return decoder;
}
} // namespace

class TestEnvelope : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void encodesHeader()
    {
        const QByteArray bytes = encodeEnvelope(QJsonObject{{QStringLiteral("a"), 1}});
        QCOMPARE(bytes.at(0), char(0));
        QCOMPARE(qFromBigEndian<quint32>(bytes.constData() + 1), quint32(7));
        QCOMPARE(bytes.mid(5), QByteArray("{\"a\":1}"));
        const QByteArray end = encodeEndStream(QStringLiteral("not_found"), QStringLiteral("gone"));
        QCOMPARE(quint8(end.at(0)), quint8(0x02));
        QCOMPARE(end.mid(5), QByteArray(R"({"error":{"code":"not_found","message":"gone"}})"));
        QCOMPARE(encodeEndStream().mid(5), QByteArray("{}"));
    }

    void decodesAnySplit_data()
    {
        QTest::addColumn<int>("split");
        QTest::newRow("whole") << 0;
        for (int s : {1, 2, 3, 4, 5, 6, 7, 13, 64, 1000})
            QTest::newRow(qPrintable(QStringLiteral("pieces of %1").arg(s))) << s;
        for (int r = -1; r >= -8; --r)
            QTest::newRow(qPrintable(QStringLiteral("random pieces %1").arg(-r))) << r;
    }

    void decodesAnySplit()
    {
        QFETCH(int, split);
        const QByteArray bytes = goodStream();
        QList<Envelope> envelopes;
        EnvelopeDecoder decoder = feedSplit(bytes, split == 0 ? int(bytes.size()) : split, &envelopes);
        QVERIFY2(decoder.finish(), qPrintable(decoder.errorString()));
        QCOMPARE(envelopes.size(), 6);
        QVERIFY(envelopes.last().isEndStream());
        QVERIFY(!parseConnectError(envelopes.last().json).isError());

        QString error;
        ProcessEvent event;
        QVERIFY(parseProcessEvent(envelopes[0].json, &event, &error));
        QCOMPARE(event.type, ProcessEvent::Type::Start);
        QCOMPARE(event.pid, quint32(42));
        QVERIFY(parseProcessEvent(envelopes[1].json, &event, &error));
        QCOMPARE(event.type, ProcessEvent::Type::Stdout);
        QCOMPARE(event.data, QByteArray("hello\n"));
        QVERIFY(parseProcessEvent(envelopes[2].json, &event, &error));
        QCOMPARE(event.type, ProcessEvent::Type::KeepAlive);
        QVERIFY(parseProcessEvent(envelopes[3].json, &event, &error));
        QCOMPARE(event.type, ProcessEvent::Type::Stderr);
        QCOMPARE(event.data, QByteArray("\0\xff err", 6));
        QVERIFY(parseProcessEvent(envelopes[4].json, &event, &error));
        QCOMPARE(event.type, ProcessEvent::Type::End);
        QCOMPARE(event.exitCode, 3);
        QVERIFY(event.exited);
        QCOMPARE(event.status, QStringLiteral("exit status 3"));
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const QByteArray start = encodeEnvelope(processStartEvent(1));
        QTest::newRow("envelope over 16 MiB")
            << start + rawEnvelope(0, "{}", MaxEnvelopeSize + 1) << QStringLiteral("16 MiB");
        QTest::newRow("length past the end of the body")
            << start + rawEnvelope(0, "{\"event\":{}}", 100) << QStringLiteral("announced 100 bytes");
        QTest::newRow("no end-of-stream envelope")
            << start + encodeEnvelope(processEndEvent(0, true, QStringLiteral("exit status 0")))
            << QStringLiteral("closed the connection early");
        QTest::newRow("empty body") << QByteArray() << QStringLiteral("closed the connection early");
        QTest::newRow("cut inside a header") << start + QByteArray("\0\0", 2)
                                             << QStringLiteral("middle of a message header");
        QTest::newRow("invalid JSON") << start + rawEnvelope(0, "{\"event\":") + encodeEndStream()
                                      << QStringLiteral("not valid JSON");
        QTest::newRow("JSON array") << start + rawEnvelope(0, "[1]") + encodeEndStream()
                                    << QStringLiteral("not a JSON object");
        QTest::newRow("compressed") << start + rawEnvelope(1, "xx") + encodeEndStream()
                                    << QStringLiteral("compressed");
        QTest::newRow("data after end-of-stream")
            << start + encodeEndStream() + start << QStringLiteral("after the end of the stream");
    }

    void rejectsMalformed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        for (int split : {1, 3, 5, -1, -2, int(qMax<qsizetype>(1, bytes.size()))}) {
            QList<Envelope> envelopes;
            EnvelopeDecoder decoder = feedSplit(bytes, split, &envelopes);
            QVERIFY(!decoder.finish());
            QVERIFY2(decoder.errorString().contains(expected),
                     qPrintable(QStringLiteral("split %1: %2").arg(split).arg(decoder.errorString())));
            // Stays failed, and ignores what comes next.
            QVERIFY(!decoder.feed(encodeEndStream()));
            QVERIFY(decoder.takeAll().isEmpty());
        }
    }

    void rejectsInvalidBase64_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("bad character") << QStringLiteral("aGVsbG8*");
        QTest::newRow("space inside") << QStringLiteral("aGVs bG8=");
        QTest::newRow("dangling char") << QStringLiteral("aGVsbG8=a");
    }

    void rejectsInvalidBase64()
    {
        QFETCH(QString, text);
        const QJsonObject json{{QStringLiteral("event"),
                                QJsonObject{{QStringLiteral("data"),
                                             QJsonObject{{QStringLiteral("stdout"), text}}}}}};
        ProcessEvent event;
        QString error;
        QVERIFY(!parseProcessEvent(json, &event, &error));
        QVERIFY2(error.contains(QStringLiteral("base64")), qPrintable(error));
    }

    void acceptsBase64Variants()
    {
        QByteArray out;
        QVERIFY(decodeBase64(QStringLiteral("aGVsbG8="), &out));
        QCOMPARE(out, QByteArray("hello"));
        QVERIFY(decodeBase64(QStringLiteral("aGVsbG8"), &out));
        QCOMPARE(out, QByteArray("hello"));
        QVERIFY(decodeBase64(QStringLiteral("_-8"), &out));
        QCOMPARE(out, QByteArray("\xff\xef", 2));
        QVERIFY(decodeBase64(QString(), &out));
        QVERIFY(out.isEmpty());
    }

    void readsConnectErrors()
    {
        const ConnectError stream = parseConnectError(
            QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QStringLiteral("deadline_exceeded")},
                                                              {QStringLiteral("message"), QStringLiteral("late")}}}});
        QCOMPARE(stream.code, QStringLiteral("deadline_exceeded"));
        QCOMPARE(stream.message, QStringLiteral("late"));
        const ConnectError unary = parseConnectError(
            QJsonObject{{QStringLiteral("code"), QStringLiteral("not_found")}});
        QCOMPARE(unary.code, QStringLiteral("not_found"));
        QVERIFY(!parseConnectError(QJsonObject()).isError());
        QCOMPARE(httpStatusForConnectCode(QStringLiteral("unauthenticated")), 401);
    }
};

QTEST_GUILESS_MAIN(TestEnvelope)
#include "tst_envelope.moc"
