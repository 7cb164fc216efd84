// Reads arbitrary bytes as each answer of the control plane: a created sandbox, a
// list, a detail, logs, metrics, templates and an error body, into core/api types;
// a list page read directly must be what Qt's parser gives.

#include "api/replydecoding.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace sd;
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    QString problem;
    (void)serverMessageFromBody(body);
    Sandbox created;
    (void)readCreatedSandbox(body, &created, &problem);
    if (const auto object = parseJsonObject(body, &problem)) {
        (void)Sandbox::fromListed(*object, &problem);
        (void)SandboxLogEntry::fromJson(*object, &problem);
        const QJsonValue logs = object->value(QLatin1String("logs"));
        (void)parseEach<SandboxLogEntry>(logs.toArray(), &SandboxLogEntry::fromJson, &problem);
    }
    const auto plainPage = readPlainListedPage(body);
    if (const auto array = parseJsonArray(body, &problem)) {
        const auto page = parseEach<Sandbox>(*array, &Sandbox::fromListed, &problem);
        // A page read directly is exactly what Qt's parser makes of it.
        if (plainPage && (!page || *page != *plainPage))
            __builtin_trap();
        if (const auto metrics = parseEach<SandboxMetric>(*array, &SandboxMetric::fromJson, &problem)) {
            for (const SandboxMetric &metric : *metrics)
                (void)metric.toJson();
        }
        (void)parseEach<SandboxTemplate>(*array, &SandboxTemplate::fromJson, &problem);
    }
    if (plainPage && !parseJsonArray(body, &problem))
        __builtin_trap();
    return 0;
}
