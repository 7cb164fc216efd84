#pragma once

#include "api/apijob.h"
#include "api/sandbox.h"

#include <QList>

namespace sd {

/// POST /v2/sandboxes, falling back to POST /sandboxes when the server answers 404
/// (older deployments). A 404 there too is reported as it came (unknown template).
class CreateSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    CreateSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        NewSandbox request, QObject *parent = nullptr);

    /// Valid after a successful finish.
    const Sandbox &sandbox() const { return m_sandbox; }
    /// The path the sandbox was created through ("/v2/sandboxes" or "/sandboxes").
    QString usedPath() const { return m_path; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;
    bool retryAfterError(const Error &error) override;

private:
    NewSandbox m_request;
    QString m_path = QStringLiteral("/v2/sandboxes");
    Sandbox m_sandbox;
};

/// What GET /v2/sandboxes should return.
struct SandboxFilter
{
    enum class Order
    {
        ServerDefault,
        NewestFirst,
        OldestFirst
    };

    Metadata metadata; ///< all must match
    QList<SandboxState> states; ///< empty: running and paused
    QString templateId; ///< template ID or alias; empty: any
    QDateTime startedAfter; ///< invalid: no lower bound
    Order order = Order::ServerDefault;
    int pageSize = 100; ///< 1..100
    bool followPages = true; ///< false: only the first page (e.g. a key check)
    QString pageToken; ///< start at this page (a previous nextToken())
    int maxPages = 1000; ///< guards against a server that never stops paging
};

/// The metadata filter as the official SDK builds it before the outer URL encoding:
/// `k=v&k2=v2` with each key and value through encodeURIComponent, then the pairs
/// form-encoded (URLSearchParams). Servers decode the parameter, the form, then
/// each key and value.
QString encodeMetadataQuery(const Metadata &metadata);

/// GET /v2/sandboxes, following X-Next-Token until the last page. Each page is
/// announced by pageReceived() as it is read; sandboxes() holds them all at the end.
class ListSandboxesJob : public ApiJob
{
    Q_OBJECT

public:
    ListSandboxesJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        SandboxFilter filter = {}, QObject *parent = nullptr);

    const QList<Sandbox> &sandboxes() const { return m_sandboxes; }
    int pages() const { return m_pages; }
    /// The server's X-Total-Running of the last page, -1 if it sent none.
    int totalRunning() const { return m_totalRunning; }
    /// The token of the page after the last one received (empty: that was the last).
    QString nextToken() const { return m_nextToken; }
    /// The server's time (its `Date` header) when it answered the first page; invalid
    /// when it sent none. Ages of listed sandboxes are measured against it, so a local
    /// clock that is off does not matter.
    QDateTime serverDate() const;

Q_SIGNALS:
    /// Emitted for each page, in order, once it is read. The next page is being asked
    /// for by then: cancelling from here stops the list after that one.
    void pageReceived(const QList<sd::Sandbox> &page);

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    /// Reads the pages received and not yet read into sandboxes(), announcing each.
    Error readUnread();

    SandboxFilter m_filter;
    QString m_nextToken;
    QList<Sandbox> m_sandboxes;
    QList<QByteArray> m_unread; ///< pages received, read once the next one is asked for
    int m_pages = 0;
    int m_totalRunning = -1;
    QByteArray m_serverDate; ///< the `Date` header; read only when asked for
};

/// GET /sandboxes/{id}: the SandboxDetail.
class GetSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    GetSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        QString sandboxId, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    const Sandbox &sandbox() const { return m_sandbox; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;

private:
    QString m_sandboxId;
    Sandbox m_sandbox;
};

/// DELETE /sandboxes/{id}. 404 is success: the sandbox is gone either way
/// (wasAlreadyGone() tells which).
class KillSandboxJob : public ApiJob
{
    Q_OBJECT

public:
    KillSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        QString sandboxId, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    bool wasAlreadyGone() const { return m_alreadyGone; }

protected:
    Request buildRequest() const override;
    void parseReply(int status, const QByteArray &body, QNetworkReply *reply) override;
    bool isSuccess(int status) const override { return ApiJob::isSuccess(status) || status == 404; }

private:
    QString m_sandboxId;
    bool m_alreadyGone = false;
};

/// POST /sandboxes/{id}/timeout: the sandbox now ends `seconds` from now.
class SetTimeoutJob : public ApiJob
{
    Q_OBJECT

public:
    SetTimeoutJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
        QString sandboxId, int seconds, QObject *parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    int seconds() const { return m_seconds; }

protected:
    Request buildRequest() const override;
    void parseReply(int, const QByteArray &, QNetworkReply *) override { }

private:
    QString m_sandboxId;
    int m_seconds;
};

} // namespace sd
