#!/usr/bin/env bash
# Opens Sandbox Desk on the local backend, starting sandbox-desk-local on PORT
# unless one already answers there.
set -euo pipefail
bin=$1
port=$2
if ! curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
    echo "Starting the local backend on port $port"
    nohup "$bin/sandbox-desk-local" --port "$port" >"${TMPDIR:-/tmp}/sandbox-desk-local.$port.log" 2>&1 &
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
        sleep 0.1
    done
fi
exec "$bin/sandbox-desk" --local-port "$port"
