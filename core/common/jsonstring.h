#pragma once

#include <QByteArray>
#include <QStringView>

namespace sd {

/// Appends `text` as a JSON string, escaped byte for byte as QJsonDocument escapes it.
/// For JSON written straight out, where building QJsonObjects would cost more than
/// the answer itself (the local backend's list pages, the command line's list).
void appendJsonString(QByteArray *out, QStringView text);

} // namespace sd
