#pragma once

#include "api/sandbox.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace sd {

// The control plane's answers read into value types, with no job and no network:
// what a server sends is untrusted input, and these are fuzzed on their own.

/// E2B's `Error` body message, or the body itself (shortened) when it is not one.
QString serverMessageFromBody(const QByteArray &body);

/// Parses `body` as a JSON object; on failure returns nullopt and says why in `problem`.
std::optional<QJsonObject> parseJsonObject(const QByteArray &body, QString *problem);
/// Parses `body` as a JSON array; on failure returns nullopt and says why in `problem`.
std::optional<QJsonArray> parseJsonArray(const QByteArray &body, QString *problem);

/// Reads every element of `array` with `parse` (a `fromJson` of a value type); stops
/// at the first that fails, whose `problem` is kept.
template <typename T>
std::optional<QList<T>> parseEach(const QJsonArray &array,
    std::optional<T> (*parse)(const QJsonObject &, QString *), QString *problem)
{
    QList<T> values;
    values.reserve(array.size());
    for (const QJsonValue &value : array) {
        std::optional<T> parsed = parse(value.toObject(), problem);
        if (!parsed)
            return std::nullopt;
        values.append(std::move(*parsed));
    }
    return values;
}

/// A page of the sandbox list (`ListedSandbox` objects) read straight from its bytes,
/// in the form servers write it: printable ASCII strings without escapes, integers,
/// no repeated field. Anything else gives nullopt, and the caller reads the page with
/// parseJsonArray() and Sandbox::fromListed(), which say what is wrong with it; a
/// page read here is exactly what those give. QJsonDocument and the QJsonObject
/// lookups were most of what listing 10,000 sandboxes cost (docs/benchmarks.md).
std::optional<QList<Sandbox>> readPlainListedPage(const QByteArray &body);

/// Reads a `Sandbox` answer (create, resume, connect) into `out`, or says in
/// `problem` why it could not.
bool readCreatedSandbox(const QByteArray &body, Sandbox *out, QString *problem);

} // namespace sd
