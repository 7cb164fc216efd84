#!/usr/bin/env bash
# Runs the whole suite with CTest in the normal build, then again in the
# sanitizer build. Key-storage tests need a D-Bus session with a Secret Service,
# so everything runs inside dbus-run-session with gnome-keyring unlocked.
set -uo pipefail
build=${1:-build}
asan=${2:-build-asan}
here=$(cd "$(dirname "$0")" && pwd)

run_suite() {
    local dir=$1
    dbus-run-session -- "$here/with-keyring.sh" \
        ctest --test-dir "$dir" --output-on-failure --timeout 600 -j 2
}

export SD_NPM_DIR=$(cd "$build" && pwd)/npm
status=0
echo "== Test suite ($build)"
run_suite "$build" || status=1
echo "== Test suite under AddressSanitizer + UBSan ($asan)"
# Leak detection is off for the suite (Qt's widget tests report leaks outside this
# project); tst_backendshutdown switches it on for the local backend it stops.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite "$asan" || status=1
exit $status
