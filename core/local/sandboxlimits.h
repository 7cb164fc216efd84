#pragma once

#include <QString>

namespace sd::local {

/// What sandboxes may take of the machine, beyond one request's cost (ConnectionLimits).
struct SandboxLimits
{
    /// Sandboxes that exist at once, running or paused (a paused one keeps its
    /// processes, stopped). A create past it gets 429.
    int maxSandboxes = 1000;
    /// Processes envd runs at once in one sandbox (a Start past it gets 429,
    /// `resource_exhausted`), and where the machine allows cgroups, the tasks
    /// (processes and threads) one sandbox may hold at all (`pids.max`).
    int maxProcessesPerSandbox = 1024;
    /// "v1" or "v2" when each sandbox gets a cgroup (tasks, memory, CPU held to its
    /// figures); empty when not, and `cgroupUnavailable` says why.
    QString cgroup;
    QString cgroupUnavailable;
};

} // namespace sd::local
