#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sd::local {

/// A sandbox's own control group: every process of the sandbox (its jail, each
/// process envd starts) joins it before it runs anything, so what the sandbox may
/// take is bounded whatever it forks: `pids.max` tasks, the template's memory and
/// its CPU count as a quota.
///
/// Works where the backend may write the cgroup tree: cgroup v1 hierarchies (pids,
/// memory, cpu) or a cgroup v2 tree whose controllers it may enable under its own
/// group. The sandbox groups sit under one group of this backend, within the
/// backend's own. A group is removed with its sandbox and nothing in it outlives
/// that: what still runs there is killed, as it is in the groups of a backend that
/// ended without removing its own.
class SandboxCgroup
{
public:
    struct Limits
    {
        int maxTasks = 0; ///< processes and threads
        qint64 memoryBytes = 0; ///< 0: none
        int cpuCount = 0; ///< 0: none
    };

    /// Whether sandboxes get cgroups on this machine: empty when they do, else why
    /// not. Decided once, by making and removing a group (blocking; startup only).
    static QString unavailableReason();
    /// "v1" or "v2" when available, else empty.
    static QString version();

    SandboxCgroup() = default;
    ~SandboxCgroup();
    SandboxCgroup(const SandboxCgroup &) = delete;
    SandboxCgroup &operator=(const SandboxCgroup &) = delete;

    /// Makes the group of `sandboxId` with `limits`; false with a reason in `error`.
    bool create(const QString &sandboxId, const Limits &limits, QString *error);
    bool isActive() const { return !m_dirs.isEmpty(); }

    /// The files that move a process into the group (`tasks` with v1, `cgroup.procs`
    /// with v2), opened for one process start (empty without a group); nullopt when
    /// they cannot be opened, and then nothing may start.
    std::optional<QList<int>> openForJoining() const;
    /// In a child between fork and exec: moves the calling process into the group
    /// through `fds` (from openForJoining()), or ends it (exit code 127) when it
    /// cannot join. Only writes to descriptors, as a forked child may.
    static void joinFromChild(const QList<int> &fds);
    /// Closes what openForJoining() opened, once the child was forked.
    static void closeAfterJoining(const QList<int> &fds);
    /// The processes in the group now (pids of the backend's namespace), children
    /// included; nullopt without a group or when it cannot be read.
    std::optional<QList<qint64>> processes() const;
    /// Sets the group's `pids.max` to `maxTasks`; false when it cannot be written.
    bool setMaxTasks(int maxTasks, QString *error) const;
    /// Tasks in the group now (pids.current); -1 when unknown.
    int taskCount() const;
    /// Kills every process in the group now (SIGKILL), whatever state it is in.
    void killAll() const;

    /// Whether groups of removed sandboxes (or of backends no longer running) wait to
    /// be removed: their processes were killed but had not yet exited.
    static bool hasRetired();
    /// Kills whatever is still in those groups and removes the ones now empty.
    static void removeRetired();

private:
    QStringList m_dirs; ///< one per hierarchy (one with v2)
    QString m_pidsDir;
};

} // namespace sd::local
