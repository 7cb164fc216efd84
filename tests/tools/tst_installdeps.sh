#!/usr/bin/env bash
# tools/install-deps.sh covers what this build found and what the tests run, and the
# check that says so catches a package taken out of the list.
# Usage: tst_installdeps.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1
build=$2
check=$src/tools/check-deps.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

expect() { # NAME, then the command; the command's status must be 0
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "PASS: $name"
    else failed=$((failed + 1)); echo "FAIL: $name"; fi
}

# Fails, naming WHAT, when PACKAGE is taken out of the install list.
catches_missing() {
    local package=$1 what=$2 out
    sed -E "/^packages=\(/,/^\)/ s/(^|[[:space:]])${package//./\\.}([[:space:]]|$)/\1\2/" \
        "$src/tools/install-deps.sh" >"$scratch/install-deps.sh"
    ! grep -qw -- "$package" <(sed -n '/^packages=(/,/^)/p' "$scratch/install-deps.sh") || return 1
    out=$("$check" "$build" "$scratch/install-deps.sh")
    [ $? -ne 0 ] && grep -q -- "$package.*$what" <<<"$out"
}

# Fails when a conformance dependency may float.
catches_floating_npm() {
    local out
    sed 's/"e2b": "\([0-9.]*\)"/"e2b": "^\1"/' "$src/tests/conformance/package.json" >"$scratch/package.json"
    grep -q '"e2b": "\^' "$scratch/package.json" || return 1
    out=$("$check" "$build" "$src/tools/install-deps.sh" "$scratch/package.json")
    [ $? -ne 0 ] && grep -q 'npm package e2b is not pinned' <<<"$out"
}

expect "the install list covers this build and the tests" "$check" "$build"
expect "libqt6opengl6-dev (Qt6OpenGL, needed by Qt6Charts)" catches_missing libqt6opengl6-dev Qt6OpenGL
expect "qtkeychain-qt6-dev" catches_missing qtkeychain-qt6-dev Qt6Keychain
expect "bubblewrap (bwrap)" catches_missing bubblewrap bwrap
expect "gnome-keyring (gnome-keyring-daemon)" catches_missing gnome-keyring gnome-keyring-daemon
expect "xvfb (xvfb-run)" catches_missing xvfb xvfb-run
expect "qt6-translations-l10n (qtbase_de.qm)" catches_missing qt6-translations-l10n qtbase_de.qm
expect "an npm version range" catches_floating_npm
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
