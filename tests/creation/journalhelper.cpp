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
//   journalhelper create <journal> <url> <api-key> <state> <bytes>
//       runs a CreationJob; once it entered <state> (allocating: the intent is
//       written), the file may grow by only <bytes> more (RLIMIT_FSIZE, with SIGXFSZ
//       ignored, as a full disk). Prints the result as JSON.
//   journalhelper swap <journal> <a> <b> <rounds>
//       replaces the journal <rounds> times, with a copy of <a> and of <b> in turn, the
//       way a compaction does (under the lock, a new file renamed over it), keeping the
//       lock a few milliseconds after each rename. Prints "swapped" when done.
//   journalhelper hold-lock <lock-file>
//       takes the flock() a journal's writers take, prints "locked", and keeps it
//       until stdin is closed (a writer that stops while holding it, when stopped).

#include "creation/creationjob.h"
#include "journal/creationjournal.h"
#include "network/networkaccessmanager.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QThread>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace sd;

namespace {

/// Writes `record` the way the window and the command line do (on the journal's
/// writer thread, which waits for another process's lock) and waits for it.
bool write(CreationJournal &journal, const QJsonObject &record)
{
    QEventLoop loop;
    bool written = false;
    journal.appendQueued(record, &loop, [&](bool ok) {
        written = ok;
        loop.quit();
    });
    loop.exec();
    return written;
}

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
        ok = write(journal, CreationJournal::intentRecord(intent)) && ok;
        QThread::usleep(random.bounded(300));
        const bool unresolved = random.bounded(3) == 0;
        if (unresolved) {
            ok = write(journal,
                     CreationJournal::sandboxIdRecord(
                         intent.creationId, QStringLiteral("sbx-") + intent.creationId))
                && ok;
            ok = write(journal,
                     CreationJournal::stateRecord(intent.creationId, CreationState::StartingGateway))
                && ok;
        } else {
            ok = write(journal,
                     CreationJournal::outcomeRecord(intent.creationId,
                         { CreationState::Ready, {}, std::nullopt, std::nullopt }))
                && ok;
        }
        say((unresolved ? "unresolved " : "finished ") + intent.creationId.toUtf8());
        const quint32 roll = random.bounded(10);
        if (roll == 0) {
            // compact() does not wait for another writer: try until it had the file.
            bool compacted = journal.compact(3);
            for (int tries = 0; !compacted && tries < 2000; ++tries) {
                QThread::usleep(1000);
                compacted = journal.compact(3);
            }
            ok = compacted && ok;
        }
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
    const bool ok = write(journal, CreationJournal::intentRecord(intent));
    say("appended");
    return ok ? 0 : 1;
}

int swap(const QString &path, const QStringList &contents, int rounds)
{
    QByteArrayList data;
    for (const QString &source : contents) {
        QFile file(source);
        if (!file.open(QIODevice::ReadOnly))
            return 1;
        data << file.readAll();
    }
    const QByteArray lockPath = QFile::encodeName(path + QStringLiteral(".lock"));
    const QByteArray target = QFile::encodeName(path);
    const QByteArray next = QFile::encodeName(path + QStringLiteral(".next"));
    for (int round = 0; round < rounds; ++round) {
        const int lock = ::open(lockPath.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (lock < 0 || ::flock(lock, LOCK_EX) != 0)
            return 1;
        QFile file(QFile::decodeName(next));
        const QByteArray &content = data.at(round % data.size());
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            return 1;
        file.close();
        if (::rename(next.constData(), target.constData()) != 0)
            return 1;
        QThread::usleep(4000);
        ::close(lock);
        QThread::usleep(200);
    }
    say("swapped");
    return 0;
}

int holdLock(const QString &lockPath)
{
    const int fd
        = ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0)
        return 1;
    say("locked");
    char line[16];
    while (std::fgets(line, sizeof line, stdin)) { }
    ::close(fd);
    return 0;
}

int create(const QString &path, const QString &url, const QString &apiKey, const QString &limitFrom,
    int bytes)
{
    std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead
    CreationJournal journal(path);
    if (!journal.open())
        return 1;
    sd::NetworkAccessManager network;
    CreationContext context;
    context.network = &network;
    context.connection.apiUrl = QUrl(url);
    context.connection.sandboxUrl = QUrl(url);
    context.connection.apiKey = apiKey;
    context.journal = &journal;
    context.installId = QStringLiteral("11111111-2222-3333-4444-555555555555");
    context.rollback.backoff = { std::chrono::milliseconds(50), std::chrono::milliseconds(100),
        std::chrono::milliseconds(200) };
    const auto owner = std::make_unique<CreationJob>(context, CreationRequest {});
    CreationJob *job = owner.get();
    job->setAutoDelete(false);
    qint64 sizeAtLimit = -1;
    QObject::connect(job, &CreationJob::stateChanged, job, [&](CreationState state) {
        if (toString(state) != limitFrom || sizeAtLimit >= 0)
            return;
        sizeAtLimit = QFileInfo(path).size();
        const rlimit limit { rlim_t(sizeAtLimit + bytes), RLIM_INFINITY };
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    QObject::connect(job, &Job::finished, job, [&] {
        const rlimit none { RLIM_INFINITY, RLIM_INFINITY };
        setrlimit(RLIMIT_FSIZE, &none);
        say(QJsonDocument(
            QJsonObject {
                { QStringLiteral("creation"), job->creationId() },
                { QStringLiteral("state"), toString(job->state()) },
                { QStringLiteral("kind"), int(job->error().kind()) },
                { QStringLiteral("error"), job->errorMessage() },
                { QStringLiteral("sandbox"), job->sandboxId() },
                { QStringLiteral("rollback"),
                    job->rollback() ? toString(job->rollback()->outcome) : QString() },
                { QStringLiteral("sizeAtLimit"), sizeAtLimit },
            })
                .toJson(QJsonDocument::Compact));
        QCoreApplication::quit();
    });
    job->start();
    return QCoreApplication::exec();
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
    if (mode == QLatin1String("swap") && args.size() == 6)
        return swap(args.at(2), { args.at(3), args.at(4) }, args.at(5).toInt());
    if (mode == QLatin1String("hold-lock") && args.size() == 3)
        return holdLock(args.at(2));
    if (mode == QLatin1String("create") && args.size() == 7)
        return create(args.at(2), args.at(3), args.at(4), args.at(5), args.at(6).toInt());
    std::fprintf(stderr, "usage: see journalhelper.cpp\n");
    return 2;
}
