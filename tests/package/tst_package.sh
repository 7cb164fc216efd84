#!/usr/bin/env bash
# The installed layout works on its own, with nothing from the build tree:
#   deb      builds the .deb with the project's CPack configuration, checks its
#            Depends, extracts it with dpkg -x;
#   install  installs with `cmake --install --strip` (the sanitizer build: its
#            binaries embed source paths by design, and are not meant to be packaged).
# Then, from the scratch root: the files are in place; both programs answer
# --version; the installed backend puts the installed mcp-gateway on the template's
# PATH; the installed app checks a config against its catalog and creates a sandbox
# whose gateway starts, through the installed backend; no installed file names the
# build or source tree (binaries too, in deb mode).
# Usage: tst_package.sh SOURCE_DIR BUILD_DIR deb|install VERSION
set -uo pipefail
src=$(realpath "$1") build=$(realpath "$2") mode=$3 version=$4
scratch=$(realpath "$(mktemp -d "${TMPDIR:-/tmp}/tst_package.XXXXXX")")
root=$scratch/root
backend_pid=
window_pid=
cleanup() {
    for pid in $window_pid $backend_pid; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    # A backend the window started runs detached, from the scratch root.
    pkill -f "^$root/usr/bin/sandbox-desk-local " 2>/dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = deb ]; then
    # The package's own CPack configuration (name, Depends, dpkg-shlibdeps), fed the
    # same install rules through a stripped staging tree: `make package` would first
    # rebuild every target of the build, tests included, from inside the test run.
    cmake --install "$build" --prefix "$scratch/stage" --strip >"$scratch/install.log" 2>&1 \
        || { cat "$scratch/install.log"; fail "cmake --install"; }
    cpack --config "$build/CPackConfig.cmake" -B "$scratch/cpack" -D CPACK_INSTALL_CMAKE_PROJECTS= \
        -D "CPACK_INSTALLED_DIRECTORIES=$scratch/stage;usr" >"$scratch/cpack.log" 2>&1 \
        || { cat "$scratch/cpack.log"; fail "cpack could not build the package"; }
    deb=$(ls "$scratch"/cpack/sandbox-desk_"$version"_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || fail "no sandbox-desk_${version}_*.deb in $(ls "$scratch/cpack")"
    depends=$(dpkg-deb --field "$deb" Depends)
    echo "Depends: $depends"
    # From dpkg-shlibdeps (Qt, libc) and the run-time needs named by hand.
    for needed in libqt6core6 libqt6widgets6 libc6 bubblewrap gnome-keyring dbus-session-bus \
        qt6-qpa-plugins; do
        grep -Eq "(^|[ ,|])$needed( |,|$)" <<<"$depends" || fail "Depends lacks $needed"
    done
    dpkg -x "$deb" "$root" || fail "dpkg -x $deb"
else
    cmake --install "$build" --prefix "$root/usr" --strip >"$scratch/install.log" 2>&1 \
        || { cat "$scratch/install.log"; fail "cmake --install"; }
fi

for file in usr/bin/sandbox-desk usr/bin/sandbox-desk-local usr/lib/sandbox-desk/mcp-gateway \
    usr/lib/sandbox-desk/sandbox-desk-window \
    usr/share/applications/sandbox-desk.desktop \
    usr/share/metainfo/io.github.sandboxdesk.SandboxDesk.metainfo.xml \
    usr/share/icons/hicolor/scalable/apps/sandbox-desk.svg \
    usr/share/man/man1/sandbox-desk.1.gz usr/share/man/man1/sandbox-desk-local.1.gz \
    usr/share/sandbox-desk/mcp-catalog.json; do
    [ -s "$root/$file" ] || fail "$file is not installed"
done
for size in 16 22 24 32 48 64 128 256; do
    png=$root/usr/share/icons/hicolor/${size}x${size}/apps/sandbox-desk.png
    [ -s "$png" ] || fail "no ${size}x${size} icon"
    # Width and height: the first two fields of the PNG header chunk (IHDR).
    read -r width height < <(od -An -j16 -N8 -tu4 --endian=big "$png")
    [ "$width x $height" = "$size x $size" ] || fail "the ${size}x${size} icon is $width x $height"
done
[ ! -e "$root/usr/bin/mcp-gateway" ] || fail "mcp-gateway is on the PATH; it belongs to sandboxes"
[ ! -e "$root/usr/bin/sandbox-desk-window" ] || fail "sandbox-desk-window is on the PATH; sandbox-desk starts it"

# Nothing installed may point into the build: text files in both modes, binaries
# (stripped) when packaged.
if [ "$mode" = deb ]; then
    scanned=$(find "$root" -type f)
else
    scanned=$(find "$root" -type f ! -path '*/bin/*' ! -path '*/lib/sandbox-desk/*')
fi
while read -r path; do
    if strings "$path" | grep -Fq -e "$build" -e "$src"; then
        fail "${path#"$root"/} names the build or source tree: $(strings "$path" | grep -F -e "$build" -e "$src" | head -3)"
    fi
done <<<"$scanned"

for program in sandbox-desk sandbox-desk-local; do
    out=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/$program" --version 2>&1) \
        || fail "$program --version failed: $out"
    grep -q "$version" <<<"$out" || fail "$program --version printed: $out"
done
# The command line loads no display library: they are the window's.
loaded=$(LD_DEBUG=libs "$root/usr/bin/sandbox-desk" --version 2>&1 >/dev/null | grep -o 'lib[A-Za-z0-9_]*Qt6[A-Za-z]*\.so' | sort -u)
grep -q Qt6Core <<<"$loaded" || fail "LD_DEBUG=libs shows no Qt library at all: $loaded"
if grep -E 'Qt6(Gui|Widgets|OpenGL|Charts|Svg)' <<<"$loaded"; then
    fail "sandbox-desk --version loads display libraries"
fi
# The translations are compiled in: the installed program speaks German under a German
# locale, with nothing installed beside it.
out=$(env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 "$root/usr/bin/sandbox-desk" --help 2>&1) \
    || fail "sandbox-desk --help under LANG=de_DE.UTF-8 failed: $out"
grep -q 'Alle Sandboxes auflisten' <<<"$out" || fail "sandbox-desk --help under LANG=de_DE.UTF-8 printed: $out"
page=$(zcat "$root/usr/share/man/man1/sandbox-desk.1.gz")
grep -qF 'kill\-orphans' <<<"$page" || fail "the sandbox-desk manual page lacks the command-line options"
for program in sandbox-desk sandbox-desk-local; do
    zcat "$root/usr/share/man/man1/$program.1.gz" | grep -qF 'verbose' \
        || fail "the $program manual page lacks --verbose"
done

# The installed backend, on a free port, with its own state and key.
unset E2B_API_KEY E2B_DOMAIN E2B_API_URL E2B_SANDBOX_URL
key=tst-package-key
"$root/usr/bin/sandbox-desk-local" --port 0 --state-dir "$scratch/state" --api-key "$key" \
    >"$scratch/backend.out" 2>"$scratch/backend.err" &
backend_pid=$!
url=
for _ in $(seq 200); do
    url=$(sed -n 's/^listening //p' "$scratch/backend.out" 2>/dev/null)
    [ -n "$url" ] && break
    kill -0 "$backend_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$url" ] || { cat "$scratch/backend.err"; fail "the installed backend did not start"; }

gateway=$(readlink "$scratch/state/gateway-bin/mcp-gateway")
[ "$gateway" = "$root/usr/lib/sandbox-desk/mcp-gateway" ] \
    || { cat "$scratch/backend.err"; fail "the backend's gateway is '$gateway', not the installed one"; }

# The installed app, with a home of its own (settings, journal) and the API by URL.
app() {
    HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config XDG_DATA_HOME=$scratch/home/.local/share \
        XDG_CACHE_HOME=$scratch/home/.cache QT_QPA_PLATFORM=offscreen E2B_API_KEY=$key \
        "$root/usr/bin/sandbox-desk" --api-url "$url" --sandbox-url "$url" "$@"
}
mkdir -p "$scratch/home"
# A known server without its required options: refused by the catalog, nothing allocated.
echo '{"airtable": {}}' >"$scratch/incomplete.json"
out=$(app --create --mcp "$scratch/incomplete.json" 2>&1)
status=$?
[ $status -eq 2 ] || fail "a config missing required options gave exit $status: $out"
grep -q airtableApiKey <<<"$out" || fail "the catalog's check did not name the missing option: $out"

echo '{"duckduckgo": {}}' >"$scratch/config.json"
out=$(app --create --mcp "$scratch/config.json" --json 2>&1)
status=$?
[ $status -eq 0 ] || { cat "$scratch/backend.err"; fail "creating a sandbox with a gateway gave exit $status: $out"; }
echo "created: $out"

# The window, through the installed command: sandbox-desk runs the installed
# sandbox-desk-window, which starts the installed backend on a port where nothing
# answers. The test's own backend stops first, so its port is known to be free.
port=${url##*:}
kill "$backend_pid"
wait "$backend_pid" 2>/dev/null
backend_pid=
HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config XDG_DATA_HOME=$scratch/home/.local/share \
    XDG_CACHE_HOME=$scratch/home/.cache QT_QPA_PLATFORM=offscreen \
    "$root/usr/bin/sandbox-desk" --local-port "$port" >"$scratch/window.out" 2>&1 &
window_pid=$!
started=
for _ in $(seq 300); do
    started=$(pgrep -f "^$root/usr/bin/sandbox-desk-local --port $port ")
    [ -n "$started" ] && curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$window_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$started" ] || { cat "$scratch/window.out"; fail "the installed window did not start the installed backend on port $port"; }
program=$(readlink "/proc/$window_pid/exe")
[ "$program" = "$root/usr/lib/sandbox-desk/sandbox-desk-window" ] \
    || fail "sandbox-desk without an action runs '$program', not the installed window"
kill -TERM "$window_pid"
wait "$window_pid"
status=$?
window_pid=
[ $status -eq 0 ] || { cat "$scratch/window.out"; fail "the window quit with exit $status on SIGTERM"; }
echo "PASS ($mode): installed files in place; the installed backend runs the installed gateway;" \
    "the installed window starts the installed backend"
