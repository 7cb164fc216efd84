#include "local/router.h"

namespace sd::local {

namespace {

QStringList splitPath(const QString &path)
{
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

bool matchSegments(const QStringList &pattern, const QStringList &path, RouteParams *params)
{
    if (pattern.size() != path.size())
        return false;
    RouteParams found;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QString &segment = pattern.at(i);
        if (segment.startsWith(QLatin1Char('{')) && segment.endsWith(QLatin1Char('}')))
            found.insert(segment.mid(1, segment.size() - 2), path.at(i));
        else if (segment != path.at(i))
            return false;
    }
    *params = std::move(found);
    return true;
}

} // namespace

void Router::add(const QByteArray &method, const QString &pattern, Handler handler)
{
    m_routes.append({method, splitPath(pattern), std::move(handler)});
}

void Router::prepend(const QByteArray &method, const QString &pattern, Handler handler)
{
    m_routes.prepend({method, splitPath(pattern), std::move(handler)});
}

Router::Match Router::match(const QByteArray &method, const QString &path) const
{
    Match result;
    const QStringList segments = splitPath(path);
    for (const Route &route : m_routes) {
        RouteParams params;
        if (!matchSegments(route.segments, segments, &params))
            continue;
        if (route.method != method) {
            result.pathKnown = true;
            continue;
        }
        result.handler = &route.handler;
        result.params = std::move(params);
        return result;
    }
    return result;
}

} // namespace sd::local
