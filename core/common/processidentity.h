#pragma once

#include <QString>

namespace sd {

// What tells a process apart from a later one given the same pid (pids are reused,
// from the bottom again after a reboot). Linux /proc; unknown elsewhere.

/// This boot's id (/proc/sys/kernel/random/boot_id); empty when unknown.
QString currentBootId();

/// When process `pid` started, in clock ticks after boot (/proc/PID/stat); -1 when it
/// is gone or cannot be read.
qint64 processStartTicks(qint64 pid);

/// The short name of process `pid` (/proc/PID/comm); empty when it is gone.
QString processName(qint64 pid);

/// True when process `pid` is stopped, e.g. by Ctrl+Z (state T in /proc/PID/stat).
bool processIsStopped(qint64 pid);

} // namespace sd
