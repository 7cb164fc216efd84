#pragma once

// QTest finds sd::toString() (returning QString) through ADL and cannot print our
// enums with it; the tests compare their names instead.

#include "creation/creationstate.h"

#include <QList>
#include <QStringList>

#include <optional>

inline QString str(sd::CreationState s) { return sd::toString(s); }
inline QString str(sd::RollbackOutcome o) { return sd::toString(o); }
inline QString str(sd::OrphanReason r) { return sd::toString(r); }
template<typename T>
QString str(const std::optional<T> &value)
{
    return value ? str(*value) : QStringLiteral("(none)");
}
inline QString str(const QList<sd::CreationState> &states)
{
    QStringList names;
    for (sd::CreationState s : states)
        names << sd::toString(s);
    return names.join(QLatin1Char(','));
}
