#!/usr/bin/env bash
# The conversation picture of the longest AMI meeting (EN2005a, 88 minutes, only_words RTTM):
# read, analyse, draw the SVG and rasterise it to PNG with resvg (what `overtalk report -o
# clip.png` does), timeline and card layouts, best of N in-process runs per stage on one core
# (release example `render_png`), beside matplotlib drawing the same RTTM's lanes to a PNG of
# the same width (bench/card_plot.py: segments only, no analysis; best of N process runs,
# interpreter start-up and imports included), in the same run.
#   bench/card_bench.sh [SHARED_DATA]        REPEAT=N to change the number of runs (5)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-${OVERTALK_SHARED_DATA:-$(cd .. && pwd)/shared/data}}"
repeat="${REPEAT:-5}"
rttm="$data/corpora/ami/only_words/rttms/train/EN2005a.rttm"
[ -f "$rttm" ] || { echo "not found: $rttm" >&2; exit 1; }
cargo build --quiet --release -p overtalk --example render_png
mkdir -p bench/out
set -x
taskset -c 0 target/release/examples/render_png --repeat "$repeat" "$rttm" bench/out/EN2005a.png \
  | tee bench/out/card_timeline.json
taskset -c 0 target/release/examples/render_png --repeat "$repeat" --card "$rttm" \
  bench/out/EN2005a-card.png | tee bench/out/card_card.json
set +x
if python3 -c "import matplotlib" 2>/dev/null; then
  best=
  for _ in $(seq "$repeat"); do
    t0=$(date +%s.%N)
    taskset -c 0 python3 bench/card_plot.py "$rttm" bench/out/EN2005a-matplotlib.png
    t1=$(date +%s.%N)
    best=$(python3 -c "t=$t1-$t0; b='$best'; print(t if not b else min(t, float(b)))")
  done
  echo "+ python3 bench/card_plot.py $rttm bench/out/EN2005a-matplotlib.png: best ${best} s"
  python3 - "$best" bench/out/card_timeline.json <<'PY'
import json, sys
peer = float(sys.argv[1])
ours = json.load(open(sys.argv[2]))["total_s"]
print(f"overtalk (read + analyse + SVG + PNG) {ours:.3f} s, matplotlib lanes {peer:.3f} s: "
      f"{peer / ours:.1f}x")
PY
else
  echo "matplotlib not installed (pip install matplotlib): no peer figure"
fi
