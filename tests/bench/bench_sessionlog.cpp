// Help > Session log while messages keep coming (a --verbose session): the real
// SessionLogView, shown, over a full log of 5,000 messages (its capacity), in process.
//
// Each repetition shows a new view and then appends 200 messages, one per turn of the
// event loop, as a busy session logs them; per message it measures the GUI thread's
// time to take it in: the append, the model's update and the view's layout and paint.
// Two row modes take turns: the view as built (one fixed row height, every message
// being one line), and the same view with its rows sized to their contents, the mode
// it had before, for the side-by-side ratio.
//
// QT_QPA_PLATFORM=offscreen unless set. Figures are printed, never asserted.

#include "benchutil.h"

#include "common/sessionlog.h"
#include "sessionlogview.h"

#include <QApplication>
#include <QHeaderView>
#include <QTableView>

using namespace sd::bench;

namespace {

constexpr int kMessages = 200;

sd::LogEntry message(qint64 i)
{
    return { QDateTime::currentDateTimeUtc(), QStringLiteral("sd.api"), QtDebugMsg,
        QStringLiteral("POST /v2/sandboxes answered 201 in 3 ms (message %1)").arg(i) };
}

/// One repetition: per-message wall times into `wall`, thread CPU into `cpu`.
void run(bool sizedToContents, Samples *wall, Samples *cpu)
{
    sd::SessionLog log(sd::SessionLog::defaultCapacity);
    qint64 next = 0;
    while (next < log.capacity())
        log.append(message(next++));
    sd::SessionLogView view(&log);
    if (sizedToContents) {
        view.findChild<QTableView *>()->verticalHeader()->setSectionResizeMode(
            QHeaderView::ResizeToContents);
    }
    view.show();
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents(); // shown, laid out and painted once
    for (int i = 0; i < kMessages; ++i) {
        const qint64 cpu0 = threadCpuNs();
        wall->add(timeNs([&] {
            log.append(message(next++));
            // The queued changed(), then the view's update request.
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
        }));
        cpu->add(threadCpuNs() - cpu0);
    }
}

} // namespace

int main(int argc, char **argv)
{
    paintOffscreenUnlessSet();
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int reps = std::max(5, repetitions(args, 5));
    printHeader(args);
    std::printf("bench_sessionlog: the Session log view over %d messages, %d more per "
                "repetition, one per event-loop turn, QT_QPA_PLATFORM=%s, %d repetitions\n",
        sd::SessionLog::defaultCapacity, kMessages, qgetenv("QT_QPA_PLATFORM").constData(), reps);

    Samples fixedWall, fixedCpu, contentsWall, contentsCpu;
    for (int rep = 0; rep < reps; ++rep) {
        // The order turns each repetition, so neither mode always runs warm.
        for (const bool sizedToContents : { rep % 2 == 1, rep % 2 == 0 }) {
            Samples wall, cpu;
            run(sizedToContents, &wall, &cpu);
            std::printf("rep %d %s: %.3f ms per message\n", rep + 1,
                sizedToContents ? "sized to contents" : "fixed rows", wall.medianMs());
            (sizedToContents ? contentsWall : fixedWall).addAll(wall);
            (sizedToContents ? contentsCpu : fixedCpu).addAll(cpu);
        }
    }

    std::printf("\n== A new message with the Session log open over %d messages; medians (p95)\n"
                "| rows | GUI time per message | of it CPU |\n| --- | --- | --- |\n",
        sd::SessionLog::defaultCapacity);
    std::printf("| one fixed height (as built) | %.3f ms (%.3f) | %.3f ms |\n",
        fixedWall.medianMs(), fixedWall.p95Ms(), fixedCpu.medianMs());
    std::printf("| sized to their contents (before) | %.3f ms (%.3f) | %.3f ms |\n",
        contentsWall.medianMs(), contentsWall.p95Ms(), contentsCpu.medianMs());
    std::printf("before / as built: %.1f×\n", ratio(contentsWall.medianMs(), fixedWall.medianMs()));
    std::printf("load average at end: %.2f\n", loadAverage());
    return 0;
}
