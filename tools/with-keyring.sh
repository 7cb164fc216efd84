#!/usr/bin/env bash
# Inside a private D-Bus session: start gnome-keyring's Secret Service with an
# unlocked login keyring, then run the given command. A keyring folder made here is
# removed afterwards, with the test keys in it.
set -u
made=
if [ -z "${XDG_DATA_HOME:-}" ]; then
    XDG_DATA_HOME=$(mktemp -d)
    made=$XDG_DATA_HOME
fi
export XDG_DATA_HOME
echo -n sandbox-desk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || true
if [ -z "$made" ]; then
    exec "$@"
fi
"$@"
status=$?
rm -rf "$made"
exit $status
