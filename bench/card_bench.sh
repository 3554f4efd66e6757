#!/usr/bin/env bash
# The conversation picture of the longest AMI meeting (EN2005a, 88 minutes, only_words RTTM):
# `overtalk report -o clip.png` (read, analyse, draw the SVG, rasterise with resvg) and the card
# layout, best of N runs each on one core, beside matplotlib drawing the same RTTM's lanes to a
# PNG of the same width (bench/card_plot.py; segments only, no analysis), in the same run.
#   bench/card_bench.sh [SHARED_DATA]        REPEAT=N to change the number of runs (5)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-${OVERTALK_SHARED_DATA:-$(cd .. && pwd)/shared/data}}"
repeat="${REPEAT:-5}"
rttm="$data/corpora/ami/only_words/rttms/train/EN2005a.rttm"
[ -f "$rttm" ] || { echo "not found: $rttm" >&2; exit 1; }
cargo build --quiet --release --bin overtalk
mkdir -p bench/out
best() { # best wall time (s) of $repeat runs of "$@"
  local b=
  for _ in $(seq "$repeat"); do
    local t0 t1
    t0=$(date +%s.%N); taskset -c 0 "$@" >/dev/null; t1=$(date +%s.%N)
    b=$(python3 -c "import sys; t=$t1-$t0; b='$b'; print(t if not b else min(t, float(b)))")
  done
  echo "$b"
}
echo "+ target/release/overtalk report -q $rttm -o bench/out/EN2005a.png" >&2
timeline=$(best target/release/overtalk report -q "$rttm" -o bench/out/EN2005a.png)
echo "+ target/release/overtalk report -q $rttm --layout card -o bench/out/EN2005a-card.png" >&2
card=$(best target/release/overtalk report -q "$rttm" --layout card -o bench/out/EN2005a-card.png)
echo "+ target/release/overtalk analyze -q $rttm --format json -o bench/out/EN2005a.json" >&2
analyze=$(best target/release/overtalk analyze -q "$rttm" --format json -o bench/out/EN2005a.json)
peer=
if python3 -c "import matplotlib" 2>/dev/null; then
  echo "+ python3 bench/card_plot.py $rttm bench/out/EN2005a-matplotlib.png" >&2
  peer=$(best python3 bench/card_plot.py "$rttm" bench/out/EN2005a-matplotlib.png)
fi
python3 - "$timeline" "$card" "$analyze" "$peer" <<'PY'
import sys
t, c, a, p = sys.argv[1:5]
print(f"EN2005a (88 min), best of runs, one core")
print(f"  overtalk report -o EN2005a.png (timeline):  {float(t):.3f} s")
print(f"  overtalk report --layout card -o card.png:  {float(c):.3f} s")
print(f"  overtalk analyze --format json (no image): {float(a):.3f} s")
if p:
    print(f"  matplotlib lanes to PNG (peer):            {float(p):.3f} s  (overtalk timeline {float(p)/float(t):.1f}x faster)")
PY
