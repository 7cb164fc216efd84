#!/usr/bin/env bash
# Inside a private D-Bus session: start gnome-keyring's Secret Service with an
# unlocked login keyring, then run the given command.
set -u
export XDG_DATA_HOME=${XDG_DATA_HOME:-$(mktemp -d)}
echo -n sandbox-desk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || true
exec "$@"
