#pragma once

// Small helpers shared by the benchmarks: wall-clock samples, medians, and the
// command-line knobs. Figures are printed, never asserted: the machine is shared.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLoggingCategory>
#include <QString>
#include <QStringList>
#include <QSysInfo>
#include <QThread>
#include <QTimer>

#include <malloc.h>
#include <unistd.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

namespace sd::bench {

/// Nanoseconds spent in `work`.
template<typename Work>
qint64 timeNs(Work &&work)
{
    QElapsedTimer timer;
    timer.start();
    work();
    return timer.nsecsElapsed();
}

/// CPU time this thread has used, in nanoseconds: unlike wall-clock time, it leaves
/// out the time other processes on a loaded machine took the core.
inline qint64 threadCpuNs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

struct Timing
{
    qint64 wallNs = 0;
    qint64 cpuNs = 0;
};

/// CPU time this process has used, every thread, in seconds.
inline double processCpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// A field of /proc/<pid>/status (this process's without a pid), in KiB.
inline qint64 statusKiB(const char *field, qint64 pid = 0)
{
    QFile status(
        pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid) : QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

/// Resets this process's VmHWM to its current resident size (Linux: "5" to clear_refs).
inline void resetPeak()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

/// Wall-clock and thread CPU time spent in `work`.
template<typename Work>
Timing timeBoth(Work &&work)
{
    const qint64 cpu0 = threadCpuNs();
    QElapsedTimer timer;
    timer.start();
    work();
    return { timer.nsecsElapsed(), threadCpuNs() - cpu0 };
}

/// Samples of one measured operation, in nanoseconds.
class Samples
{
public:
    void add(qint64 ns) { m_ns.push_back(ns); }
    void addAll(const Samples &other)
    {
        m_ns.insert(m_ns.end(), other.m_ns.begin(), other.m_ns.end());
    }
    size_t size() const { return m_ns.size(); }
    bool empty() const { return m_ns.empty(); }

    /// The q-quantile (0..1), nearest rank.
    double quantileNs(double q) const
    {
        if (m_ns.empty())
            return 0;
        std::vector<qint64> sorted = m_ns;
        std::sort(sorted.begin(), sorted.end());
        const size_t rank
            = std::min(sorted.size() - 1, size_t(q * double(sorted.size() - 1) + 0.5));
        return double(sorted[rank]);
    }
    double medianMs() const { return quantileNs(0.5) / 1e6; }
    double p95Ms() const { return quantileNs(0.95) / 1e6; }
    double medianUs() const { return quantileNs(0.5) / 1e3; }
    double p95Us() const { return quantileNs(0.95) / 1e3; }

private:
    std::vector<qint64> m_ns;
};

/// `--reps N` (or the default), and `--quick` for a smoke run with few repetitions.
inline int repetitions(const QStringList &args, int defaultReps)
{
    const qsizetype at = args.indexOf(QStringLiteral("--reps"));
    if (at >= 0 && at + 1 < args.size()) {
        bool ok = false;
        const int reps = args.at(at + 1).toInt(&ok);
        if (ok && reps > 0)
            return reps;
    }
    if (args.contains(QStringLiteral("--quick")))
        return std::max(3, defaultReps / 20);
    return defaultReps;
}

/// The value after `name` on the command line, or `fallback`.
inline QString optionValue(
    const QStringList &args, const QString &name, const QString &fallback = {})
{
    const qsizetype at = args.indexOf(name);
    return at >= 0 && at + 1 < args.size() ? args.at(at + 1) : fallback;
}

/// `name N` from the command line, else `quickDefault` with --quick, else `fullDefault`.
inline int countOption(
    const QStringList &args, const QString &name, int fullDefault, int quickDefault)
{
    const bool quick = args.contains(QStringLiteral("--quick"));
    return optionValue(args, name, QString::number(quick ? quickDefault : fullDefault)).toInt();
}

/// Waits `ms` milliseconds with the event loop running (a backend's log pipe is read
/// there), for a quiet moment between measured steps; nothing when `ms` is 0.
inline void quietFor(int ms)
{
    if (ms <= 0)
        return;
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Widgets laid out and painted into an offscreen backing store, as on a screen,
/// without a display server; unless QT_QPA_PLATFORM names another. Before QApplication.
inline void paintOffscreenUnlessSet()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

/// The 1-minute load average now.
inline double loadAverage()
{
    double load = 0;
    std::ifstream loadavg("/proc/loadavg");
    loadavg >> load;
    return load;
}

/// One line about the machine, so a figure is never read without its context.
inline void printMachine()
{
    std::string cpu;
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            cpu = line.substr(line.find(':') + 2);
            break;
        }
    }
    std::printf("machine: %s, %d logical CPUs, %s, load average %.2f at start\n",
        cpu.empty() ? "unknown CPU" : cpu.c_str(), QThread::idealThreadCount(),
        qPrintable(QSysInfo::prettyProductName()), loadAverage());
}

/// The machine, then the command line that reproduces the run.
inline void printHeader(const QStringList &args)
{
    printMachine();
    std::printf("command: %s\n", qPrintable(args.join(QLatin1Char(' '))));
}

/// The command line of a benchmark that talks to a backend, after printHeader(), with
/// info and debug logs off: a line per sandbox would be much of what is measured.
inline QStringList backendBenchmarkArgs()
{
    QLoggingCategory::setFilterRules(QStringLiteral("*.info=false\n*.debug=false"));
    const QStringList args = QCoreApplication::arguments();
    printHeader(args);
    return args;
}

/// Heap bytes in use (glibc mallinfo2); the same before and after when the allocator
/// does not report them (a sanitizer build).
inline qint64 heapInUse()
{
    const struct mallinfo2 info = mallinfo2();
    return qint64(info.uordblks) + qint64(info.hblkhd);
}

/// Resident set size of this process (/proc/self/statm).
inline qint64 rssBytes()
{
    std::ifstream statm("/proc/self/statm");
    qint64 size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

inline double ratio(double a, double b) { return b > 0 ? a / b : 0; }

} // namespace sd::bench
