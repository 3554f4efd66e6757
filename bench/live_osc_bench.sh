#!/usr/bin/env bash
# Event -> OSC datagram latency of the live monitor on loopback (p50, p99, max), beside the
# floor of the measurement in the same run (one rosc datagram encoded and sent directly).
#   bench/live_osc_bench.sh [EVENTS]        # release build (the figure to track)
#   PROFILE=debug bench/live_osc_bench.sh   # the test build, when a release build is not at hand
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-2000}"
profile="${PROFILE:-release}"
if [ "$profile" = release ]; then
  cargo build --quiet --release -p overtalk-live --example osc_latency
else
  cargo build --quiet -p overtalk-live --example osc_latency
fi
echo "+ target/$profile/examples/osc_latency $n   (load: $(cut -d' ' -f1-3 /proc/loadavg))"
"target/$profile/examples/osc_latency" "$n"
