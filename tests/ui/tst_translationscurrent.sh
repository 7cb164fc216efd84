#!/usr/bin/env bash
# The .ts files hold every string the sources translate, and nothing more: lupdate,
# run as `update_translations` runs it, would leave them unchanged. When this fails,
# run `cmake --build build --target update_translations`, translate what is new and
# commit the .ts files.
# Usage: tst_translationscurrent.sh LUPDATE SOURCE_LIST TRANSLATIONS_DIR LUPDATE_OPTIONS...
set -uo pipefail
lupdate=$1
list=$2
dir=$3
options=("${@:4}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
check() { # FILE, then lupdate's extra options
    local file=$1; shift
    cp "$dir/$file" "$scratch/$file"
    "$lupdate" -silent "${options[@]}" "$@" "@$list" -ts "$scratch/$file" || { echo "FAIL: lupdate"; failed=1; return; }
    if diff -u "$dir/$file" "$scratch/$file"; then
        echo "PASS: $file is current"
    else
        echo "FAIL: $file is out of date (cmake --build build --target update_translations)"
        failed=1
    fi
}
check sandbox-desk_de.ts
check sandbox-desk_en.ts -pluralonly
exit $failed
