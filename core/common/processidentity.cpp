#include "processidentity.h"

#include <QFile>

namespace sd {

QString currentBootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readAll().trimmed());
}

namespace {

/// The fields of /proc/PID/stat after "pid (comm)", the first being the state; empty
/// when the process is gone. comm may hold spaces and parentheses, so they are
/// counted from the last ')'.
QList<QByteArray> statFieldsAfterName(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray stat = file.readAll();
    const qsizetype paren = stat.lastIndexOf(')');
    if (paren < 0)
        return {};
    return stat.mid(paren + 2).split(' ');
}

} // namespace

qint64 processStartTicks(qint64 pid)
{
    // The start time is field 22, the 20th after the name.
    const QList<QByteArray> fields = statFieldsAfterName(pid);
    bool ok = false;
    const qint64 ticks = fields.size() > 19 ? fields.at(19).toLongLong(&ok) : -1;
    return ok ? ticks : -1;
}

QString processName(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/comm").arg(pid));
    if (pid <= 0 || !file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll().trimmed());
}

bool processIsStopped(qint64 pid)
{
    const QList<QByteArray> fields = statFieldsAfterName(pid);
    return !fields.isEmpty() && (fields.constFirst() == "T" || fields.constFirst() == "t");
}

} // namespace sd
