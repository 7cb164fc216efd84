#!/usr/bin/env bash
# Fails when tools/install-deps.sh would leave a fresh Debian 12 machine short of
# something the build or the tests use, whatever this machine happens to have:
#   - every Debian package owning a CMake package the configure step found
#     (the *_DIR entries of CMakeCache.txt) is in the install list or its dependency
#     closure (no recommends: the script installs with --no-install-recommends);
#   - so is the package of every program the tests run;
#   - every npm package the conformance tests install is pinned to one version.
# Usage: check-deps.sh BUILD_DIR [INSTALL_SCRIPT] [PACKAGE_JSON]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: check-deps.sh BUILD_DIR [INSTALL_SCRIPT] [PACKAGE_JSON]}
script=${2:-$here/install-deps.sh}
package_json=${3:-$here/../tests/conformance/package.json}

# The programs the build and the test suite start, directly or through their scripts.
programs=(bwrap nsenter dbus-run-session dbus-daemon gnome-keyring-daemon xvfb-run Xvfb xauth
          node npm curl gcc slirp4netns clang++-14
          cpack dpkg dpkg-deb dpkg-shlibdeps strings rsvg-convert help2man
          desktop-file-validate appstreamcli)
# Installed by the script only where the machine has none (a Node.js of another origin
# may be there, and Debian's npm would conflict with it).
fallback_programs=(node npm)

listed=$(sed -n '/^packages=(/,/^)/p' "$script" | sed 's/#.*//' | tr ' ()' '\n\n\n' \
    | grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -v '^packages=$')
[ -n "$listed" ] || { echo "FAIL: no packages=( ... ) list in $script"; exit 1; }
# shellcheck disable=SC2086
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances $listed 2>/dev/null | grep -v '^ ' \
    | sed 's/:amd64$//' | sort -u)
problems=()

# The package that installed PATH (dpkg knows /bin paths as such on a merged /usr).
owner_of() {
    local path=$1 owner
    for candidate in "$path" "$(readlink -f "$path")" "${path#/usr}"; do
        owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1)
        [ -n "$owner" ] && { echo "$owner"; return; }
    done
}

[ -f "$build/CMakeCache.txt" ] || { echo "FAIL: no $build/CMakeCache.txt (configure first)"; exit 1; }
for dir in $(grep -E '_DIR:PATH=/usr/' "$build/CMakeCache.txt" | cut -d= -f2 | sort -u); do
    # The package file find_package() read, not the folder (several packages share one).
    name=$(basename "$dir")
    config=$dir/${name}Config.cmake
    [ -f "$config" ] || config=$dir/$(tr '[:upper:]' '[:lower:]' <<<"$name")-config.cmake
    [ -f "$config" ] || config=$dir
    owner=$(owner_of "$config")
    [ -n "$owner" ] || continue
    grep -qx "$owner" <<<"$closure" || problems+=("$owner (owns the CMake package $name)")
done

for program in "${programs[@]}"; do
    path=$(command -v "$program") || { problems+=("$program (a program the tests run; not on PATH)"); continue; }
    owner=$(owner_of "$path")
    grep -qx "${owner:-none}" <<<"$closure" && continue
    if printf '%s\n' "${fallback_programs[@]}" | grep -qx "$program" \
        && grep -q 'packages+=(nodejs npm)' "$script"; then
        continue
    fi
    problems+=("${owner:-no Debian package} (for the program $program the tests run)")
done

# Files outside PATH the build and the tests use: Qt's translation tools (the
# LinguistTools CMake package names them but another package holds them) and Qt's own
# German translation, which the translation test expects the window to show.
qt_bins=$(qtpaths6 --query QT_HOST_BINS 2>/dev/null || echo /usr/lib/qt6/bin)
qt_translations=$(qtpaths6 --query QT_INSTALL_TRANSLATIONS 2>/dev/null || echo /usr/share/qt6/translations)
for file in "$qt_bins/lupdate" "$qt_bins/lrelease" "$qt_translations/qtbase_de.qm"; do
    [ -e "$file" ] || { problems+=("$file (used by the build or the tests; missing)"); continue; }
    owner=$(owner_of "$file")
    grep -qx "${owner:-none}" <<<"$closure" || problems+=("${owner:-no Debian package} (for $file)")
done

# Exact versions only: "1.2.3" or "npm:name@1.2.3".
while read -r name version; do
    [[ $version =~ ^(npm:[@a-z0-9/._-]+@)?[0-9]+\.[0-9]+\.[0-9]+$ ]] \
        || problems+=("npm package $name is not pinned to one version ($version)")
done < <(node -e 'const d=require(process.argv[1]).dependencies||{};
for (const [n,v] of Object.entries(d)) console.log(n, v)' "$(readlink -f "$package_json")")

if [ ${#problems[@]} -gt 0 ]; then
    echo "FAIL: $script does not install what a fresh machine needs:"
    printf '  %s\n' "${problems[@]}"
    exit 1
fi
echo "deps ok: $(wc -w <<<"$listed") listed packages cover the build's CMake packages and the tests' programs"
