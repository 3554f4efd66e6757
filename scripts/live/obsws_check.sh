#!/usr/bin/env bash
# Checks the mock obs-websocket v5 server used by the live monitor's tests against the real
# Python client library obsws-python (PyPI), so the mock speaks the protocol OBS speaks.
#
#   scripts/live/obsws_check.sh
#
# Needs cargo and python3 (makes scripts/live/.venv with obsws-python).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q 'obsws-python==1.8.0'
(cd "$repo" && cargo build -p overtalk-live --example mock_obs --locked --quiet)
mock="${CARGO_TARGET_DIR:-$repo/target}/debug/examples/mock_obs"
port=$((20000 + RANDOM % 20000))
log="$(mktemp)"
"$mock" "127.0.0.1:$port" s3cret >"$log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q listening "$log" && break; sleep 0.05; done
grep -q listening "$log" || { echo "obsws_check: the mock did not start"; exit 1; }
.venv/bin/python obsws_check.py 127.0.0.1 "$port" s3cret
echo "obsws_check: the mock agrees with obsws-python"
