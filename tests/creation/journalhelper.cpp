// A second process for the journal tests: it opens a journal on a path it is given
// and writes to it the way the window or a command-line run would, so the tests can
// race real processes against each other (flock() only excludes other descriptions,
// and a rename only matters to another process's view of the file).
//
//   journalhelper append <journal> <writer> <count> <seed>
//       writes <count> creations, each either unresolved (intent, sandbox, state) or
//       finished (intent, outcome), with short random pauses, compacting down to 3
//       and reopening (replay, repair, compaction at open) now and then. Prints one
//       line per creation: "unresolved <id>" or "finished <id>". Exit 1 if any
//       record reported failure.
//   journalhelper append-one <journal> <id>
//       opens the journal, prints "ready", waits for a line on stdin, appends one
//       intent, prints "appended".

#include "journal/creationjournal.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QThread>

#include <cstdio>

using namespace sd;

namespace {

void say(const QByteArray &line)
{
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

int append(const QString &path, const QString &writer, int count, quint32 seed)
{
    CreationJournal journal(path);
    if (!journal.open()) {
        say("open failed: " + journal.errorString().toUtf8());
        return 1;
    }
    QRandomGenerator random(seed);
    bool ok = true;
    for (int i = 0; i < count; ++i) {
        CreationIntent intent;
        intent.creationId = QStringLiteral("%1-%2").arg(writer).arg(i);
        intent.templateId = QStringLiteral("base");
        ok = journal.recordIntent(intent) && ok;
        QThread::usleep(random.bounded(300));
        const bool unresolved = random.bounded(3) == 0;
        if (unresolved) {
            ok = journal.recordSandboxId(
                     intent.creationId, QStringLiteral("sbx-") + intent.creationId)
                && ok;
            ok = journal.recordState(intent.creationId, CreationState::StartingGateway) && ok;
        } else {
            ok = journal.recordOutcome(
                     intent.creationId, { CreationState::Ready, {}, std::nullopt, std::nullopt })
                && ok;
        }
        say((unresolved ? "unresolved " : "finished ") + intent.creationId.toUtf8());
        const quint32 roll = random.bounded(10);
        if (roll == 0)
            ok = journal.compact(3) && ok;
        else if (roll == 1)
            ok = journal.open() && ok;
    }
    return ok ? 0 : 1;
}

int appendOne(const QString &path, const QString &id)
{
    CreationJournal journal(path);
    if (!journal.open())
        return 1;
    say("ready");
    char go[16];
    if (!std::fgets(go, sizeof go, stdin))
        return 1;
    CreationIntent intent;
    intent.creationId = id;
    intent.templateId = QStringLiteral("base");
    const bool ok = journal.recordIntent(intent);
    say("appended");
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString mode = args.value(1);
    if (mode == QLatin1String("append") && args.size() == 6)
        return append(args.at(2), args.at(3), args.at(4).toInt(), args.at(5).toUInt());
    if (mode == QLatin1String("append-one") && args.size() == 4)
        return appendOne(args.at(2), args.at(3));
    std::fprintf(stderr, "usage: see journalhelper.cpp\n");
    return 2;
}
