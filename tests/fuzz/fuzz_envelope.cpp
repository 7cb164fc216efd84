// Feeds the Connect envelope decoder arbitrary bytes in arbitrary pieces, as a
// network delivers them. The first byte picks the piece sizes.

#include "envd/envelope.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned seed = data[0];
    ++data;
    --size;
    sd::envd::EnvelopeDecoder decoder;
    size_t at = 0;
    unsigned step = seed;
    while (at < size) {
        step = step * 1103515245u + 12345u;
        const size_t piece = 1 + (step >> 16) % 64;
        const size_t n = piece < size - at ? piece : size - at;
        if (!decoder.feed(QByteArray(reinterpret_cast<const char *>(data + at), qsizetype(n))))
            break;
        for (const sd::envd::Envelope &envelope : decoder.takeAll())
            (void)envelope.isEndStream();
        at += n;
    }
    decoder.finish();
    return 0;
}
