#!/usr/bin/env bash
# Runs every benchmark in the build tree, one after the other (never in parallel:
# they compare figures measured side by side in one run).
set -euo pipefail
build=${1:-build}
status=0
for bench in "$build"/bin/bench_*; do
    [ -x "$bench" ] || continue
    echo "== $(basename "$bench")"
    "$bench" || status=1
done
exit $status
