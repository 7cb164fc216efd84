#include "jsonstring.h"

namespace sd {

namespace {

/// Printable ASCII other than the quote and the backslash goes out as it is.
constexpr bool isPlain(char16_t c) { return c >= 0x20 && c < 0x7f && c != u'"' && c != u'\\'; }

/// QJsonDocument's escaping, character by character: the short escapes, \u00XX for
/// other control characters, \uXXXX for a surrogate without its pair, UTF-8 for the rest
/// (written here: this runs for every string that is not plain ASCII).
void appendEscaped(QByteArray *out, QStringView text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    const auto appendHex = [out](char16_t c) {
        out->append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4)
            out->append(kHex[(c >> shift) & 0xf]);
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (isPlain(c) || c == 0x7f) {
            out->append(char(c));
            continue;
        }
        switch (c) {
        case u'"':
            out->append("\\\"");
            continue;
        case u'\\':
            out->append("\\\\");
            continue;
        case u'\b':
            out->append("\\b");
            continue;
        case u'\f':
            out->append("\\f");
            continue;
        case u'\n':
            out->append("\\n");
            continue;
        case u'\r':
            out->append("\\r");
            continue;
        case u'\t':
            out->append("\\t");
            continue;
        default:
            break;
        }
        if (c < 0x20) {
            appendHex(c);
        } else if (c < 0x800) {
            out->append(char(0xc0 | (c >> 6))).append(char(0x80 | (c & 0x3f)));
        } else if (!QChar::isSurrogate(c)) {
            out->append(char(0xe0 | (c >> 12)))
                .append(char(0x80 | ((c >> 6) & 0x3f)))
                .append(char(0x80 | (c & 0x3f)));
        } else if (QChar::isHighSurrogate(c) && i + 1 < text.size()
            && QChar::isLowSurrogate(text[i + 1].unicode())) {
            const char32_t u = QChar::surrogateToUcs4(c, text[++i].unicode());
            out->append(char(0xf0 | (u >> 18)))
                .append(char(0x80 | ((u >> 12) & 0x3f)))
                .append(char(0x80 | ((u >> 6) & 0x3f)))
                .append(char(0x80 | (u & 0x3f)));
        } else {
            appendHex(c);
        }
    }
}

} // namespace

void appendJsonString(QByteArray *out, QStringView text)
{
    // Written in place when every character is plain, which ids, times and most
    // metadata are; anything else is escaped from its UTF-8.
    const qsizetype start = out->size();
    out->resize(start + text.size() + 2);
    char *to = out->data() + start;
    *to++ = '"';
    for (const QChar c : text) {
        if (!isPlain(c.unicode())) {
            out->resize(start + 1);
            appendEscaped(out, text);
            out->append('"');
            return;
        }
        *to++ = char(c.unicode());
    }
    *to = '"';
}

} // namespace sd
