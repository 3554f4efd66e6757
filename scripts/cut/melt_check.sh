#!/usr/bin/env bash
# MLT rendered headless by melt cuts at the same samples as overtalk's own render.
#
# A 40 s, 48 kHz ramp (each sample's value says where in the source it is) stands for the
# red-carpet recording; `overtalk cut --without Husband` writes the MLT project and renders the
# WAV itself; melt renders the project; both renders are read back and every join (a jump of
# the ramp) is located. Each join must be within one frame of the other render's, and of the
# cut list's record position. Needs melt (Debian: apt-get install -y melt) and sox.
#
# usage: scripts/cut/melt_check.sh [OVERTALK] [FPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-target/debug/overtalk}"
FPS="${2:-29.97df}"
command -v melt >/dev/null || { echo "melt not installed (apt-get install -y melt)"; exit 3; }
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
python3 - "$T/ramp.raw" <<'PY'
import array, sys
n = 40 * 48000
array.array("f", (0.9 * i / n for i in range(n))).tofile(open(sys.argv[1], "wb"))
PY
sox -t f32 -r 48000 -c 1 "$T/ramp.raw" -e floating-point -b 32 "$T/ramp.wav"
for ext in mlt csv wav; do
  "$BIN" -q cut examples/red-carpet/red-carpet.rttm --without Husband --audio "$T/ramp.wav" \
    --fps "$FPS" --crossfade 0 -o "$T/cut.$ext"
done
# real_time=0: every frame rendered, none dropped; terminate_on_pause=1: the file is finished.
melt -quiet "$T/cut.mlt" -consumer "avformat:$T/melt.wav" vn=1 ar=48000 ac=1 real_time=0 \
  terminate_on_pause=1 >/dev/null 2>&1
for w in cut melt; do sox "$T/$w.wav" -t f32 -c 1 "$T/$w.raw"; done
python3 - "$T" "$FPS" <<'PY'
import array, csv, sys
from fractions import Fraction
d, fps = sys.argv[1], sys.argv[2]
rates = {"23.976": Fraction(24000, 1001), "24": 24, "25": 25, "29.97": Fraction(30000, 1001),
         "29.97df": Fraction(30000, 1001), "30": 30, "50": 50, "59.94": Fraction(60000, 1001),
         "59.94df": Fraction(60000, 1001), "60": 60}
rate = Fraction(rates[fps])
frame = 48000 / rate
n = 40 * 48000
def joins(path):
    x = array.array("f"); x.frombytes(open(path, "rb").read())
    src = [v * n / 0.9 for v in x]
    hits = [k for k in range(1, len(src)) if abs(src[k] - src[k - 1] - 1) > 2 * frame]
    # A crossfade spreads one join over a few samples: one join per run of nearby jumps.
    runs = [h for i, h in enumerate(hits) if i == 0 or h - hits[i - 1] > 64]
    return runs, len(src)
ours, n_ours = joins(f"{d}/cut.raw")
theirs, n_melt = joins(f"{d}/melt.raw")
rows = list(csv.DictReader(open(f"{d}/cut.csv")))
want = [round(int(r["record_in_frame"]) * 48000 / rate) for r in rows[1:]]
print(f"{len(rows)} clips at {fps}; joins: cut list {len(want)}, overtalk render {len(ours)}, melt {len(theirs)}")
print(f"lengths: overtalk {n_ours} samples, melt {n_melt} samples ({(n_melt - n_ours) / float(frame):+.2f} frames)")
bad = 0
near = lambda xs, w: min(xs, key=lambda x: abs(x - w)) if xs else -10**9
for w in want:
    a, b = near(ours, w), near(theirs, w)
    da, db = (a - w) / float(frame), (b - w) / float(frame)
    flag = "" if abs(da) <= 1 and abs(db) <= 1 else "  <-- more than a frame"
    bad += bool(flag)
    print(f"  join at sample {w}: overtalk {a - w:+d} samples, melt {b - w:+d} samples ({db:+.2f} frames){flag}")
for label, xs in (("overtalk", ours), ("melt", theirs)):
    extra = [x for x in xs if min(abs(x - w) for w in want) > frame]
    if extra:
        print(f"  {label}: jumps away from any join at samples {extra}")
print("ok" if bad == 0 else f"{bad} joins differ by more than a frame")
sys.exit(1 if bad else 0)
PY
