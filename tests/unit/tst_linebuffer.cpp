#include "common/linebuffer.h"

#include <QTest>

using namespace sd;

class TestLineBuffer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Lines come out whole, however the pieces were cut.
    void givesWholeLinesOnly()
    {
        LineBuffer lines;
        QCOMPARE(lines.take("MCP gate"), QByteArray());
        QCOMPARE(lines.take("way started\nserv"), QByteArray("MCP gateway started\n"));
        QCOMPARE(lines.take("er 1\nserver 2\nrest"), QByteArray("server 1\nserver 2\n"));
        QCOMPARE(lines.takeRest(), QByteArray("rest"));
        QCOMPARE(lines.takeRest(), QByteArray());
    }

    // A character split over two pieces decodes once both are in.
    void neverSplitsACharacter()
    {
        const QByteArray text = QStringLiteral("café ✓ 😀\n").toUtf8();
        for (qsizetype cut = 1; cut < text.size(); ++cut) {
            LineBuffer lines;
            QByteArray shown = lines.take(text.left(cut));
            shown += lines.take(text.mid(cut));
            QCOMPARE(QString::fromUtf8(shown), QStringLiteral("café ✓ 😀\n"));
        }
    }

    // A stream that never ends its line is given out in parts, each on a character
    // boundary, so the buffer stays bounded.
    void givesOutOverlongLinesInParts()
    {
        LineBuffer lines;
        QByteArray line(LineBuffer::maxLineBytes, 'x');
        line += "\xe2\x9c"; // the first two bytes of ✓
        const QByteArray first = lines.take(line);
        QCOMPARE(first.size(), LineBuffer::maxLineBytes);
        QVERIFY(!first.contains('\xe2'));
        QCOMPARE(lines.take("\x93 and more"), QByteArray());
        QCOMPARE(QString::fromUtf8(lines.takeRest()), QStringLiteral("✓ and more"));
    }
};

QTEST_GUILESS_MAIN(TestLineBuffer)
#include "tst_linebuffer.moc"
