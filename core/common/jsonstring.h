#pragma once

#include <QByteArray>
#include <QStringView>

#include <charconv>
#include <cstring>

namespace sd {

/// Appends `text` as a JSON string, escaped byte for byte as QJsonDocument escapes it.
/// For JSON written straight out, where building QJsonObjects would cost more than
/// the answer itself (the local backend's list pages, the command line's list).
void appendJsonString(QByteArray *out, QStringView text);

/// Appends `size` bytes, copied in place: for the short pieces such JSON is made of,
/// QByteArray::append() costs several times more (a listed sandbox has about
/// fifteen fixed pieces, two times and three numbers).
inline void appendBytesInPlace(QByteArray *out, const char *bytes, qsizetype size)
{
    const qsizetype at = out->size();
    out->resize(at + size);
    std::memcpy(out->data() + at, bytes, size_t(size));
}

/// Appends a fixed piece of such JSON.
template<qsizetype N>
inline void appendJsonPiece(QByteArray *out, const char (&piece)[N])
{
    appendBytesInPlace(out, piece, N - 1);
}

/// Appends an integer as JSON writes it, without QByteArray::number()'s allocation.
inline void appendJsonInteger(QByteArray *out, qint64 value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    appendBytesInPlace(out, digits, end - digits);
}

} // namespace sd
