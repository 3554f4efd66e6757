#!/usr/bin/env bash
# Generates the synthetic multitrack suite used by the audio accuracy checks and benchmarks:
# eight 4-minute conversations (32 minutes), 2–4 speakers, bleed −20 to −6 dB, speaker levels
# up to 12 dB apart, noise −50 to −40 dBFS. Output: bench/out/synth/<name>.{mic*,rttm,mix}.wav.
# `bench/make_synth.sh heldout` makes a second set of eight with other seeds and other mixes of
# the same ranges (bench/out/synth_heldout), never used to choose thresholds.
# `bench/make_synth.sh long [NAME] [REPS]` repeats one conversation of the suite REPS times
# (default s2_b6_l12, 40 times: 2 h 43 min) into bench/out/synth_long_<NAME>_x<REPS>/, with its
# reference shifted by the exact length of each copy (about 0.6 GB per 40 copies of 2 tracks).
# Needs espeak-ng and sox (apt-get install -y espeak-ng sox); numpy goes into bench/.venv.
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c 'import numpy' 2>/dev/null || .venv/bin/pip install -q numpy
SYNTH="${OVERTALK_SYNTH_TOOL:-../../shared/tools/synth_conversation.py}"
SET="${1:-suite}"
case "$SET" in
  suite) OUT=out/synth ;;
  heldout) OUT=out/synth_heldout ;;
  long) OUT=out/synth ;;
  *) echo "usage: $0 [suite|heldout|long [NAME] [REPS]]" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
gen() { # name speakers seed bleed noise gains...
  local name=$1 spk=$2 seed=$3 bleed=$4 noise=$5; shift 5
  [ -f "$OUT/$name.rttm" ] && return 0
  .venv/bin/python "$SYNTH" --out "$OUT" --name "$name" --speakers "$spk" --minutes 4 \
    --seed "$seed" --bleed-db "$bleed" --noise-db "$noise" --gains-db "$@" >/dev/null
}
if [ "$SET" = heldout ]; then
  gen h2_b10_l9        2 101 -10 -45 0 -9
  gen h2_b6_l12n       2 102  -6 -40 -12 0
  gen h3_b8_l3_12      3 103  -8 -50 0 -3 -12
  gen h3_b14_l12_6n    3 104 -14 -42 -12 0 -6
  gen h3_b6_eq         3 105  -6 -48 0 0 0
  gen h4_b10_l6_12_3n  4 106 -10 -40 0 -6 -12 -3
  gen h4_b18_l12_9_6   4 107 -18 -50 -12 0 -9 -6
  gen h4_b7_l3_6_9n    4 108  -7 -44 0 -3 -6 -9
  ls "$OUT"/*.rttm
  exit 0
fi
if [ "$SET" = long ]; then
  NAME="${2:-s2_b6_l12}" REPS="${3:-40}"
  [ -f "$OUT/$NAME.rttm" ] || ./make_synth.sh suite >/dev/null
  LONG="out/synth_long_${NAME}_x$REPS"
  mkdir -p "$LONG"
  for mic in "$OUT/$NAME".mic*.wav; do
    dst="$LONG/rep$REPS.${mic##*/$NAME.}"
    [ -f "$dst" ] && continue
    src=(); for _ in $(seq "$REPS"); do src+=("$mic"); done
    sox "${src[@]}" "$dst"
  done
  # Every copy starts at an exact multiple of the track's length in samples.
  SAMPLES=$(soxi -s "$(ls "$OUT/$NAME".mic*.wav | head -1)")
  RATE=$(soxi -r "$(ls "$OUT/$NAME".mic*.wav | head -1)")
  python3 - "$OUT/$NAME.rttm" "$REPS" "$SAMPLES" "$RATE" "rep$REPS" >"$LONG/rep$REPS.rttm" <<'PY'
import sys
from fractions import Fraction
path, reps, samples, rate, name = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rows = [l.split() for l in open(path) if l.startswith("SPEAKER")]
fmt = lambda x: f"{float(x):.7f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))
for r in range(reps):
    off = Fraction(samples * r, rate)
    for f in rows:
        start = Fraction(f[3]) + off
        f2 = f[:]
        f2[1], f2[3] = name, fmt(start)
        print(" ".join(f2))
PY
  ls "$LONG"
  exit 0
fi
gen s2_b20_eq        2 11 -20 -50 0 0
gen s2_b6_l12        2 12  -6 -50 0 -12
gen s2_b8_l12n       2 13  -8 -45 -12 0
gen s3_b12_l6_12     3 14 -12 -50 0 -6 -12
gen s3_b10_l6_12n    3 15 -10 -40 0 -6 -12
gen s3_b20_l12_6     3 16 -20 -50 0 -12 -6
gen s4_b15_l3_9_12n  4 17 -15 -40 0 -3 -9 -12
gen s4_b6_eq         4 18  -6 -50 0 0 0 0
ls "$OUT"/*.rttm
