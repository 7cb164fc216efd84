#pragma once

#include "local/httpmessage.h"
#include "local/router.h"
#include "local/sandboxlimits.h"
#include "local/sandboxregistry.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>

namespace sd::local {

/// The E2B REST endpoints (the control plane) over a SandboxRegistry: request
/// validation, the JSON shapes of openapi.yml, list filters and pagination.
/// Registers its routes on a Router; every handler answers synchronously.
/// Authentication and fault injection happen before, in LocalServer.
class ControlPlane
{
public:
    struct Info
    {
        QString version; ///< reported by /health
        QString isolation; ///< "bwrap" or "none", reported by /health
        SandboxLimits limits;
    };

    ControlPlane(SandboxRegistry *registry, Info info);

    void registerRoutes(Router *router);

    // JSON shapes (public so the data plane can reuse them).
    static QJsonObject sandboxJson(const SandboxRecord &record); ///< Sandbox
    static QJsonObject listedSandboxJson(const SandboxRecord &record); ///< ListedSandbox
    /// Appends listedSandboxJson(record) as compact JSON, byte for byte what
    /// QJsonDocument writes, without building the object: the list endpoint's hot path.
    static void appendListedSandboxJson(QByteArray *out, const SandboxRecord &record);
    static QJsonObject sandboxDetailJson(const SandboxRecord &record); ///< SandboxDetail
    static QJsonObject logEntryJson(const SandboxEvent &event); ///< SandboxLogEntry

    /// Parses E2B's metadata filter: the query value is `k=v&k2=v2` with each key and
    /// value URL-encoded once more (as the official SDK sends it). False on a bad pair.
    static bool parseMetadataQuery(const QString &value, QMap<QString, QString> *out);

private:
    HttpResponse health(const HttpRequest &request);
    /// What /health says of the sandboxes' limits and whether cgroups enforce them.
    QJsonObject resourcesJson() const;
    HttpResponse createSandbox(const HttpRequest &request);
    HttpResponse listSandboxes(const HttpRequest &request, bool v2);
    HttpResponse getSandbox(const QString &id);
    HttpResponse killSandbox(const QString &id);
    HttpResponse setTimeout(const HttpRequest &request, const QString &id);
    HttpResponse pauseSandbox(const QString &id);
    HttpResponse resumeSandbox(const HttpRequest &request, const QString &id);
    HttpResponse connectSandbox(const HttpRequest &request, const QString &id);
    HttpResponse logs(const HttpRequest &request, const QString &id, bool v2);
    HttpResponse listTemplates();

    /// The filters and paging of a list request.
    struct ListQuery
    {
        QMap<QString, QString> metadata; ///< all must match
        bool running = true;
        bool paused = false;
        QString templateId; ///< ID or alias; empty: any
        QDateTime startedAfter;
        bool ascending = false;
        int limit = -1; ///< -1: no limit
        std::optional<ListKey> cursor; ///< resume strictly after this sandbox

        bool matches(const SandboxRecord &record) const;
        /// True when only the state is filtered, so the registry's counts answer
        /// X-Total-Running without looking at every sandbox.
        bool onlyStateFiltered() const
        {
            return metadata.isEmpty() && templateId.isEmpty() && !startedAfter.isValid();
        }
    };
    /// Fills `out`; an error response naming the bad parameter otherwise.
    std::optional<HttpResponse> parseListQuery(
        const HttpRequest &request, bool v2, ListQuery *out) const;
    /// A page token is the last listed sandbox's ListKey, signed with m_tokenKey so
    /// that only tokens this server issued are taken, with no table of issued tokens.
    QString pageToken(const ListKey &last) const;
    std::optional<ListKey> parsePageToken(const QString &token) const;

    SandboxRegistry *m_registry;
    Info m_info;
    QByteArray m_tokenKey; ///< random per server run
};

} // namespace sd::local
