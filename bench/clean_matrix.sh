#!/usr/bin/env bash
# The clean-track matrix of one-mic-per-speaker recordings: every combination of
#   noise floor  digital zero (no noise), -90, -70, -55, -40 dBFS
#   bleed        none, -30, -12, -6 dB
#   noise gate   off, on (samples under the track's noise + 10 dB zeroed, 150 ms hold)
# 40 cells of 45 s (30 min), 2, 3 or 4 speakers in turn; in every fourth cell one more track
# that is silent (its noise only, gated to digital zero with the gate), and in the next one the
# last track 0.7 s shorter than the others. Each cell is detected with `overtalk detect
# --track …` and scored with `overtalk score --collar 0` (overlap scored); a table of DER per
# cell goes to bench/out/clean_matrix/table.md.
# Needs espeak-ng, sox and numpy (bench/.venv, as bench/make_synth.sh) and a release build.
# Usage: bash bench/clean_matrix.sh            (CELLS="37 38" runs only those cells; OT=… another binary)
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c 'import numpy' 2>/dev/null || .venv/bin/pip install -q numpy
SYNTH="${OVERTALK_SYNTH_TOOL:-../../shared/tools/synth_conversation.py}"
OT="${OT:-../target/release/overtalk}"
OUT=out/clean_matrix
mkdir -p "$OUT"
echo "| cell | speakers | noise | bleed | gate | extra | DER c=0 | miss / FA / conf (s) | warnings |" >"$OUT/table.md"
echo "|---|---|---|---|---|---|---|---|---|" >>"$OUT/table.md"
cell=0
for noise in none -90 -70 -55 -40; do
  for bleed in none -30 -12 -6; do
    for gate in off on; do
      spk=$((2 + cell % 3))
      extra=none
      case $((cell % 4)) in 0) extra=silent ;; 1) extra=short ;; esac
      name=c$(printf %02d $cell)
      if [ -n "${CELLS:-}" ] && ! [[ " $CELLS " == *" $cell "* ]]; then cell=$((cell + 1)); continue; fi
      nd=$noise; [ "$noise" = none ] && nd=-200
      bd=$bleed; [ "$bleed" = none ] && bd=-200
      if [ ! -f "$OUT/$name.rttm" ]; then
        .venv/bin/python "$SYNTH" --out "$OUT" --name "$name" --speakers "$spk" --minutes 0.75 \
          --seed $((500 + cell)) --bleed-db "$bd" --noise-db "$nd" >/dev/null
        .venv/bin/python - "$OUT" "$name" "$gate" "$extra" "$nd" <<'PY'
import glob, sys, wave
import numpy as np
out, name, gate, extra, noise_db = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
def read(p):
    with wave.open(p) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32) / 32767.0
def write(p, x):
    pcm = (np.clip(x, -1, 1) * 32767.0).astype("<i2")
    with wave.open(p, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000); w.writeframes(pcm.tobytes())
mics = sorted(glob.glob(f"{out}/{name}.mic*.wav"))
n = len(read(mics[0]))
if extra == "silent":
    rng = np.random.default_rng(7)
    x = (10 ** (noise_db / 20)) * rng.standard_normal(n).astype(np.float32)
    write(f"{out}/{name}.mic9_Z.wav", x)
    mics.append(f"{out}/{name}.mic9_Z.wav")
if gate == "on":
    # Open while the 10 ms RMS is 10 dB over the noise (-60 dBFS at least), held 150 ms.
    thr = 10 ** ((max(noise_db, -70) + 10) / 20)
    for p in mics:
        x = read(p)
        f = len(x) // 160
        rms = np.sqrt(np.mean(x[: f * 160].reshape(f, 160) ** 2, axis=1))
        open_ = rms > thr
        hold = np.zeros(f, bool)
        last = -1000
        for i in range(f):
            if open_[i]:
                last = i
            hold[i] = i - last <= 15
        g = np.repeat(hold, 160)
        y = np.zeros_like(x); y[: f * 160] = x[: f * 160] * g
        write(p, y)
if extra == "short":
    p = mics[-1] if not mics[-1].endswith("_Z.wav") else mics[-2]
    x = read(p); write(p, x[: len(x) - int(0.7 * 16000)])
PY
      fi
      tracks=()
      for m in "$OUT/$name".mic*.wav; do
        s=${m##*_}; s=${s%.wav}; tracks+=(--track "$s=$m")
      done
      "$OT" detect "${tracks[@]}" --recording-id "$name" -o "$OUT/$name.hyp.rttm" 2>"$OUT/$name.stderr"
      sed "s/^SPEAKER [^ ]*/SPEAKER $name/" "$OUT/$name.rttm" >"$OUT/$name.ref.rttm"
      "$OT" score -r "$OUT/$name.ref.rttm" -s "$OUT/$name.hyp.rttm" --collar 0 --format json \
        >"$OUT/$name.score.json" 2>/dev/null || true
      python3 - "$OUT/$name.score.json" "$name" "$spk" "$noise" "$bleed" "$gate" "$extra" \
        "$(grep -c warning "$OUT/$name.stderr" || true)" >>"$OUT/table.md" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
t = j["total"]
der = t["der"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {sys.argv[6]} | {sys.argv[7]} | {100*der:.2f} % | "
      f"{t['miss_s']:.2f} / {t['false_alarm_s']:.2f} / {t['confusion_s']:.2f} | {sys.argv[8]} |")
PY
      cell=$((cell + 1))
    done
  done
done
cat "$OUT/table.md"
