#!/usr/bin/env bash
# Installs the Debian packages a fresh Debian 12 machine lacks to build, run and test
# Sandbox Desk. Only missing packages are installed; through sudo when not root.
set -euo pipefail

packages=(
    cmake make g++ pkg-config curl
    qt6-base-dev qt6-httpserver-dev qt6-websockets-dev qtkeychain-qt6-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev
    qt6-tools-dev qt6-translations-l10n
    libgl-dev qt6-qpa-plugins
    bubblewrap slirp4netns
    clang-14 libclang-rt-14-dev
    gnome-keyring dbus dbus-daemon libsecret-1-0 util-linux
    xvfb xauth
    dpkg-dev librsvg2-bin help2man desktop-file-utils appstream
)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "Installing Debian packages: ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
