#pragma once

// Small helpers shared by the benchmarks: wall-clock samples, medians, and the
// command-line knobs. Figures are printed, never asserted: the machine is shared.

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QSysInfo>
#include <QThread>

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
    double load = 0;
    std::ifstream loadavg("/proc/loadavg");
    loadavg >> load;
    std::printf("machine: %s, %d logical CPUs, %s, load average %.2f at start\n",
        cpu.empty() ? "unknown CPU" : cpu.c_str(), QThread::idealThreadCount(),
        qPrintable(QSysInfo::prettyProductName()), load);
}

inline double ratio(double a, double b) { return b > 0 ? a / b : 0; }

} // namespace sd::bench
