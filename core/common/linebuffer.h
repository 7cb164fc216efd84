#pragma once

#include <QByteArray>

namespace sd {

/// Cuts a process's output into whole lines for showing it. Output arrives in pieces
/// that end anywhere, inside a line or inside a UTF-8 character: shown as it came, two
/// streams would interleave mid-line and a split character would show as two
/// replacement marks.
class LineBuffer
{
public:
    /// A line longer than this is given out in parts, so a stream without newlines
    /// cannot grow the buffer without end.
    static constexpr qsizetype maxLineBytes = 64 * 1024;

    /// `data` appended; returns the complete lines (with their newlines), or the
    /// overlong line's head cut on a character boundary. The rest waits.
    QByteArray take(const QByteArray &data);
    /// What waits, once the stream has ended; the buffer is empty after.
    QByteArray takeRest();

private:
    QByteArray m_pending;
};

} // namespace sd
