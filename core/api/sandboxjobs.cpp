#include "sandboxjobs.h"

#include <QJsonArray>
#include <QLocale>
#include <QNetworkReply>

namespace sd {

namespace {
// The application/x-www-form-urlencoded serializer (what URLSearchParams does).
QByteArray formEncode(const QByteArray &in)
{
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(in.size() * 3);
    for (const char c : in) {
        const auto u = uchar(c);
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '*'
            || c == '-' || c == '.' || c == '_') {
            out += c;
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
    }
    return out;
}

// encodeURIComponent: leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) as they are.
QByteArray uriComponent(const QString &text)
{
    return QUrl::toPercentEncoding(text, QByteArrayLiteral("!*'()"));
}
} // namespace

QString encodeMetadataQuery(const Metadata &metadata)
{
    // Exactly what the official SDK sends: each key and value through
    // encodeURIComponent, the pairs through URLSearchParams; the caller encodes the
    // result once more as the parameter value. '&' or '=' in a value cannot split it.
    QByteArrayList pairs;
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        pairs << formEncode(uriComponent(it.key())) + '=' + formEncode(uriComponent(it.value()));
    return QString::fromLatin1(pairs.join('&'));
}

CreateSandboxJob::CreateSandboxJob(QNetworkAccessManager *network,
    const ConnectionSettings &settings, NewSandbox request, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_request(std::move(request))
{ }

ApiJob::Request CreateSandboxJob::buildRequest() const
{
    return { "POST", m_path, {}, QJsonDocument(m_request.toJson()) };
}

bool CreateSandboxJob::retryAfterError(const Error &error)
{
    if (error.httpStatus() != 404 || m_path != QLatin1String("/v2/sandboxes"))
        return false;
    m_path = QStringLiteral("/sandboxes");
    send(buildRequest());
    return true;
}

void CreateSandboxJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    if (!readCreatedSandbox(body, &m_sandbox, &problem))
        setError(Error::badResponse(tr("the created sandbox could not be read: %1").arg(problem)));
}

ListSandboxesJob::ListSandboxesJob(QNetworkAccessManager *network,
    const ConnectionSettings &settings, SandboxFilter filter, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_filter(std::move(filter))
    , m_nextToken(m_filter.pageToken)
{ }

ApiJob::Request ListSandboxesJob::buildRequest() const
{
    Request request { "GET", QStringLiteral("/v2/sandboxes"), {}, std::nullopt };
    // QUrlQuery keeps percent-escapes as given, so pre-encoded values go out as they
    // are: the metadata pairs end up URL-encoded as one parameter value.
    if (!m_filter.metadata.isEmpty())
        request.query.addQueryItem(QStringLiteral("metadata"),
            QString::fromLatin1(QUrl::toPercentEncoding(encodeMetadataQuery(m_filter.metadata))));
    QStringList states;
    for (SandboxState state : m_filter.states)
        states << toString(state);
    if (states.isEmpty())
        states = { QStringLiteral("running"), QStringLiteral("paused") };
    request.query.addQueryItem(QStringLiteral("state"), states.join(QLatin1Char(',')));
    if (!m_filter.templateId.isEmpty())
        request.query.addQueryItem(QStringLiteral("template"),
            QString::fromLatin1(QUrl::toPercentEncoding(m_filter.templateId)));
    if (m_filter.startedAfter.isValid())
        request.query.addQueryItem(QStringLiteral("startedAfter"),
            QString::fromLatin1(QUrl::toPercentEncoding(
                m_filter.startedAfter.toUTC().toString(Qt::ISODateWithMs))));
    if (m_filter.order != SandboxFilter::Order::ServerDefault)
        request.query.addQueryItem(QStringLiteral("order"),
            m_filter.order == SandboxFilter::Order::OldestFirst ? QStringLiteral("asc")
                                                                : QStringLiteral("desc"));
    request.query.addQueryItem(QStringLiteral("limit"), QString::number(m_filter.pageSize));
    if (!m_nextToken.isEmpty())
        request.query.addQueryItem(
            QStringLiteral("nextToken"), QString::fromLatin1(QUrl::toPercentEncoding(m_nextToken)));
    return request;
}

QDateTime ListSandboxesJob::serverDate() const
{
    // Parsed here, not with every list: most callers (a creation's duplicate check)
    // never ask, and the parse is a good part of a small list's CPU.
    // An HTTP-date: "Thu, 03 Dec 2026 09:08:30 GMT".
    QDateTime date = QLocale::c().toDateTime(
        QString::fromLatin1(m_serverDate), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
    date.setTimeSpec(Qt::UTC);
    return date;
}

void ListSandboxesJob::parseReply(int, const QByteArray &body, QNetworkReply *reply)
{
    if (m_pages == 0)
        m_serverDate = reply->rawHeader("Date");
    ++m_pages;
    bool totalOk = false;
    const int total = reply->rawHeader("X-Total-Running").toInt(&totalOk);
    if (totalOk)
        m_totalRunning = total;
    m_nextToken = QString::fromUtf8(reply->rawHeader("X-Next-Token"));
    m_unread.append(body);

    const bool lastPage = m_nextToken.isEmpty() || isCancelRequested() || !m_filter.followPages;
    if (lastPage || m_pages >= m_filter.maxPages) {
        if (const Error error = readUnread())
            setError(error);
        else if (!lastPage)
            setError(Error::badResponse(tr("the server kept paging after %1 pages").arg(m_pages)));
        return;
    }
    // The next page is asked for first and this one read afterwards, from the event
    // loop: a reply starts sending only from there (Qt's client and the loopback one
    // alike), so reading the page right away would hold the request back for as long
    // as the reading takes (at 100 sandboxes a page, about as long as the round trip).
    send(buildRequest());
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (isFinished())
                return;
            if (const Error error = readUnread())
                failWithRequestOut(error);
        },
        Qt::QueuedConnection);
}

Error ListSandboxesJob::readUnread()
{
    // In the order they arrived, whichever of the deferred read and the next answer
    // comes first; a slot that cancelled the job ends the reading.
    while (!m_unread.isEmpty() && !isFinished()) {
        const QByteArray body = m_unread.takeFirst();
        if (std::optional<QList<Sandbox>> page = readPlainListedPage(body)) {
            m_sandboxes += *page;
            Q_EMIT pageReceived(*page);
            continue;
        }
        QString problem;
        const auto array = parseJsonArray(body, &problem);
        if (!array)
            return Error::badResponse(tr("the sandbox list could not be read: %1").arg(problem));
        const auto page = parseEach<Sandbox>(*array, &Sandbox::fromListed, &problem);
        if (!page)
            return Error::badResponse(tr("a listed sandbox could not be read: %1").arg(problem));
        m_sandboxes += *page;
        Q_EMIT pageReceived(*page);
    }
    return {};
}

GetSandboxJob::GetSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
    QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{ }

ApiJob::Request GetSandboxJob::buildRequest() const
{
    return { "GET", sandboxPath(m_sandboxId), {}, std::nullopt };
}

void GetSandboxJob::parseReply(int, const QByteArray &body, QNetworkReply *)
{
    QString problem;
    std::optional<Sandbox> sandbox;
    if (const auto json = parseJsonObject(body, &problem))
        sandbox = Sandbox::fromListed(*json, &problem);
    if (!sandbox) {
        setError(Error::badResponse(tr("the sandbox details could not be read: %1").arg(problem)));
        return;
    }
    m_sandbox = *sandbox;
}

KillSandboxJob::KillSandboxJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
    QString sandboxId, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
{ }

ApiJob::Request KillSandboxJob::buildRequest() const
{
    return { "DELETE", sandboxPath(m_sandboxId), {}, std::nullopt };
}

void KillSandboxJob::parseReply(int status, const QByteArray &, QNetworkReply *)
{
    m_alreadyGone = status == 404;
}

SetTimeoutJob::SetTimeoutJob(QNetworkAccessManager *network, const ConnectionSettings &settings,
    QString sandboxId, int seconds, QObject *parent)
    : ApiJob(network, settings, parent)
    , m_sandboxId(std::move(sandboxId))
    , m_seconds(seconds)
{ }

ApiJob::Request SetTimeoutJob::buildRequest() const
{
    return { "POST", sandboxPath(m_sandboxId, QStringLiteral("/timeout")), {},
        QJsonDocument(QJsonObject { { QStringLiteral("timeout"), m_seconds } }) };
}

} // namespace sd
