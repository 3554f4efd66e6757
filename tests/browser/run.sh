#!/usr/bin/env bash
# Browser test of the HTML report: headless Debian Chromium driven by playwright-core (no
# browser download). Fails loudly when anything it needs is missing.
#
#   tests/browser/run.sh            # from the repository root, or anywhere
#
# Needs: cargo, node + npm, chromium (installed with apt-get when missing and root), and the
# shared data ($OVERTALK_SHARED_DATA, default ../shared/data beside the repository).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "tests/browser: $*" >&2; exit 1; }

export OVERTALK_SHARED_DATA="${OVERTALK_SHARED_DATA:-$(cd "$repo/.." && pwd)/shared/data}"
test -d "$OVERTALK_SHARED_DATA" || die "shared data missing: $OVERTALK_SHARED_DATA"

chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tests/browser: installing Debian chromium"
    apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; } \
      || die "apt-get install -y chromium failed"
  fi
  [ -x "$chromium_bin" ] || die "chromium not found at $chromium_bin (apt-get install -y chromium)"
fi
export CHROMIUM="$chromium_bin"

command -v node >/dev/null || die "node not found"
command -v npm >/dev/null || die "npm not found"

echo "tests/browser: building overtalk"
(cd "$repo" && cargo build -p overtalk-cli --locked --quiet) || die "cargo build failed"
export OVERTALK_BIN="$repo/target/debug/overtalk"
(cd "$repo" && cargo build -p overtalk-live --example live_demo --locked --quiet) || die "cargo build of the live demo failed"
export OVERTALK_LIVE_DEMO="$repo/target/debug/examples/live_demo"
[ -x "$OVERTALK_BIN" ] || die "no binary at $OVERTALK_BIN"

cd "$here"
npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
node report.test.mjs
node report_offsets.test.mjs
node live.test.mjs
