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

/// Appends a fixed piece of such JSON, copied in place: for the short pieces between
/// values QByteArray::append() costs several times more, and a listed sandbox has
/// about fifteen of them.
template<qsizetype N>
inline void appendJsonPiece(QByteArray *out, const char (&piece)[N])
{
    const qsizetype at = out->size();
    out->resize(at + N - 1);
    std::memcpy(out->data() + at, piece, N - 1);
}

/// Appends an integer as JSON writes it, without QByteArray::number()'s allocation.
inline void appendJsonInteger(QByteArray *out, qint64 value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const qsizetype at = out->size();
    out->resize(at + (end - digits));
    std::memcpy(out->data() + at, digits, size_t(end - digits));
}

} // namespace sd
