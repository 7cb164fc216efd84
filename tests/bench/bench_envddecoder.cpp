// Throughput of the incremental Connect envelope decoder (envd::EnvelopeDecoder) on
// a process's 5 MiB stdout stream, fed in the piece sizes a network reply delivers
// (1, 16, 64 KiB) versus all at once, measured side by side in one process. Also
// the longest single feed(): how long one piece holds the event loop.
//
//   build/bin/bench_envddecoder [--reps N] [--quick]

#include "benchutil.h"

#include "envd/envelope.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <cstdio>

using namespace sd;
using namespace sd::bench;

namespace {

constexpr qsizetype kOutputBytes = 5 * 1024 * 1024;

// start, stdout data events of `eventBytes` of output each, end, end-of-stream:
// what envd's Start stream carries for a command that prints 5 MiB.
QByteArray makeStream(qsizetype eventBytes)
{
    QRandomGenerator rng(5);
    QByteArray output(kOutputBytes, Qt::Uninitialized);
    // Printable text with newlines, like a log.
    for (qsizetype i = 0; i < output.size(); ++i)
        output[i] = (i % 100 == 99) ? '\n' : char(' ' + rng.bounded(95));

    QByteArray stream = envd::encodeEnvelope(envd::processStartEvent(4242));
    for (qsizetype at = 0; at < output.size(); at += eventBytes)
        stream += envd::encodeEnvelope(envd::processDataEvent(false, output.mid(at, eventBytes)));
    stream += envd::encodeEnvelope(envd::processEndEvent(0, true, QStringLiteral("exit status 0")));
    stream += envd::encodeEndStream();
    return stream;
}

struct Result
{
    qint64 totalNs = 0;
    qint64 cpuNs = 0;
    qint64 longestFeedNs = 0; ///< wall-clock: includes being preempted
    qint64 longestFeedCpuNs = 0; ///< what the decoder itself held the thread for
};

// Feeds `stream` in pieces of `piece` bytes (0: all at once), taking the envelopes
// after each piece as ProcessStreamJob does; with `parseEvents`, also turns each into
// a ProcessEvent (base64 decode included), which is what the client really pays.
// With `timePieces`, each piece is timed too; that pass is kept apart from the
// throughput pass, since two clock reads per 1 KiB piece would weigh on its total.
Result decode(const QByteArray &stream, qsizetype piece, bool parseEvents, bool timePieces,
    qsizetype *outputBytes)
{
    // The pieces exist before the clock starts: a reply hands over ready buffers.
    QList<QByteArray> pieces;
    if (piece <= 0) {
        pieces.append(stream);
    } else {
        for (qsizetype at = 0; at < stream.size(); at += piece)
            pieces.append(stream.mid(at, piece));
    }
    Result result;
    qsizetype bytes = 0;
    const qint64 cpu0 = threadCpuNs();
    QElapsedTimer total;
    total.start();
    envd::EnvelopeDecoder decoder;
    for (const QByteArray &bytesIn : pieces) {
        const qint64 oneCpu0 = timePieces ? threadCpuNs() : 0;
        QElapsedTimer one;
        if (timePieces)
            one.start();
        decoder.feed(bytesIn);
        const QList<envd::Envelope> envelopes = decoder.takeAll();
        if (parseEvents) {
            for (const envd::Envelope &envelope : envelopes) {
                if (envelope.isEndStream())
                    continue;
                envd::ProcessEvent event;
                QString error;
                if (envd::parseProcessEvent(envelope.json, &event, &error))
                    bytes += event.data.size();
            }
        }
        if (timePieces) {
            result.longestFeedNs = std::max(result.longestFeedNs, one.nsecsElapsed());
            result.longestFeedCpuNs = std::max(result.longestFeedCpuNs, threadCpuNs() - oneCpu0);
        }
    }
    const bool complete = decoder.finish();
    result.totalNs = total.nsecsElapsed();
    result.cpuNs = threadCpuNs() - cpu0;
    if (!complete)
        std::fprintf(stderr, "decoder error: %s\n", qPrintable(decoder.errorString()));
    if (outputBytes)
        *outputBytes = bytes;
    return result;
}

void compare(qsizetype eventBytes, bool parseEvents, int reps)
{
    const QByteArray stream = makeStream(eventBytes);
    const qsizetype pieceSizes[] = { 1024, 16 * 1024, 64 * 1024, 0 };
    constexpr int kModes = 4;
    Samples total[kModes], cpu[kModes], longest[kModes], longestCpu[kModes];
    qsizetype outputBytes = 0;
    for (int rep = 0; rep < reps + 1; ++rep) {
        // Rotate the order so drift on a shared machine hits every mode alike.
        for (int k = 0; k < kModes; ++k) {
            const int mode = (k + rep) % kModes;
            const Result r = decode(stream, pieceSizes[mode], parseEvents, false, &outputBytes);
            const Result timed = decode(stream, pieceSizes[mode], parseEvents, true, nullptr);
            if (rep > 0) {
                total[mode].add(r.totalNs);
                cpu[mode].add(r.cpuNs);
                longest[mode].add(timed.longestFeedNs);
                longestCpu[mode].add(timed.longestFeedCpuNs);
            }
        }
    }
    if (parseEvents && outputBytes != kOutputBytes)
        std::fprintf(stderr, "decoded %lld output bytes, expected %lld\n",
            static_cast<long long>(outputBytes), static_cast<long long>(kOutputBytes));

    const double wireMiB = double(stream.size()) / (1024.0 * 1024.0);
    const double wholeMs = total[3].medianMs();
    std::printf("\n%s, %lld KiB of output per event (%lld events, %.2f MiB on the wire for 5 MiB "
                "of output)\n",
        parseEvents ? "decoder + ProcessEvent parsing (base64)" : "decoder alone (feed + takeAll)",
        static_cast<long long>(eventBytes / 1024),
        static_cast<long long>((kOutputBytes + eventBytes - 1) / eventBytes), wireMiB);
    for (int mode = 0; mode < kModes; ++mode) {
        const double ms = total[mode].medianMs();
        const QString label = pieceSizes[mode] > 0
            ? QStringLiteral("%1 KiB pieces").arg(pieceSizes[mode] / 1024)
            : QStringLiteral("all at once");
        const double cpuMs = cpu[mode].medianMs();
        std::printf("  %-14s %7.2f ms (p95 %7.2f, cpu %7.2f)  wire %6.1f MiB/s (cpu: %6.1f)  "
                    "longest feed %6.3f ms cpu (%6.2f wall)",
            qPrintable(label), ms, total[mode].p95Ms(), cpuMs, wireMiB / (ms / 1000.0),
            wireMiB / (cpuMs / 1000.0), longestCpu[mode].medianMs(), longest[mode].medianMs());
        if (pieceSizes[mode] > 0)
            std::printf("  time vs all at once %4.2fx (cpu %4.2fx)", ratio(ms, wholeMs),
                ratio(cpuMs, cpu[kModes - 1].medianMs()));
        std::printf("\n");
    }
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int reps = repetitions(app.arguments(), 11);
    printMachine();
    std::printf("bench_envddecoder: 5 MiB of stdout through envd::EnvelopeDecoder, %d repetitions "
                "per figure,"
                " medians (p95)\n",
        reps);
    for (qsizetype eventBytes : { qsizetype(4 * 1024), qsizetype(32 * 1024) }) {
        compare(eventBytes, false, reps);
        compare(eventBytes, true, reps);
    }
    return 0;
}
