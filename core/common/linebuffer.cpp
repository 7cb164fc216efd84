#include "linebuffer.h"

#include <utility>

namespace sd {

namespace {
/// Where `text` ends once an unfinished UTF-8 sequence at its end is left out.
qsizetype completeCharactersEnd(const QByteArray &text)
{
    // A sequence is at most 4 bytes: look back over up to 3 continuation bytes.
    for (qsizetype i = text.size() - 1; i >= 0 && i >= text.size() - 4; --i) {
        const auto byte = uchar(text.at(i));
        if ((byte & 0xc0) == 0x80)
            continue; // a continuation byte
        const qsizetype length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
        return i + length > text.size() ? i : text.size();
    }
    return text.size(); // not UTF-8 there: the decoder marks it whatever we do
}
} // namespace

QByteArray LineBuffer::take(const QByteArray &data)
{
    m_pending.append(data);
    qsizetype end = m_pending.lastIndexOf('\n') + 1;
    if (end == 0 && m_pending.size() > maxLineBytes)
        end = completeCharactersEnd(m_pending);
    QByteArray lines = m_pending.left(end);
    m_pending.remove(0, end);
    return lines;
}

QByteArray LineBuffer::takeRest() { return std::exchange(m_pending, {}); }

} // namespace sd
