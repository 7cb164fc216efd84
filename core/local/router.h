#pragma once

#include "local/httpmessage.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <functional>

namespace sd::local {

/// Path parameters of a matched route, by name: "/sandboxes/{id}" gives {"id": "..."}.
using RouteParams = QHash<QString, QString>;

/// Maps (method, path pattern) to a synchronous handler returning a complete response.
/// Patterns are literal segments and `{name}` placeholders, one segment each.
/// Handlers answering a stream do not belong here: see EnvdHandler.
class Router
{
public:
    using Handler = std::function<HttpResponse(const HttpRequest &, const RouteParams &)>;

    void add(const QByteArray &method, const QString &pattern, Handler handler);
    /// Like add(), but matched before every route added so far.
    void prepend(const QByteArray &method, const QString &pattern, Handler handler);

    struct Match
    {
        const Handler *handler = nullptr; ///< null when nothing matched
        RouteParams params;
        bool pathKnown = false; ///< the path matched under another method (405)
    };
    Match match(const QByteArray &method, const QString &path) const;

private:
    struct Route
    {
        QByteArray method;
        QStringList segments;
        Handler handler;
    };
    QList<Route> m_routes;
};

} // namespace sd::local
