#include "jsonstring.h"

namespace sd {

void appendJsonString(QByteArray *out, QStringView text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out->append('"');
    const QByteArray utf8 = text.toUtf8();
    for (const char c : utf8) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out->append("\\\"");
            break;
        case '\\':
            out->append("\\\\");
            break;
        case '\b':
            out->append("\\b");
            break;
        case '\f':
            out->append("\\f");
            break;
        case '\n':
            out->append("\\n");
            break;
        case '\r':
            out->append("\\r");
            break;
        case '\t':
            out->append("\\t");
            break;
        default:
            if (u < 0x20) {
                out->append("\\u00");
                out->append(kHex[u >> 4]);
                out->append(kHex[u & 0xf]);
            } else {
                out->append(c);
            }
        }
    }
    out->append('"');
}

} // namespace sd
