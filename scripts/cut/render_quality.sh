#!/usr/bin/env bash
# Rendering quality of `overtalk cut` on the synthetic multitrack suite (bench/make_synth.sh):
# for each conversation, its last speaker is removed from the one-mic-per-speaker tracks with
# the reference RTTM as who-spoke-when.
#   residual   --mute: output energy over the removed speaker's solo 10 ms frames relative to
#              their own microphone there (dB; target <= -30)
#   kept       --mute: share of the other speakers' speech frames whose output energy is at
#              least half (-3 dB) that of the other microphones' sum (target >= 99 %)
#   added      --without and --mute: the discontinuity the joins add, worst edge of the
#              conversation (scripts/cut/join_quality.py: the part of the render's
#              sample-to-sample step that neither joined source's own step explains; dBFS;
#              target <= -40); "hard" is the same for a 1-sample crossfade (a plain cut), to
#              show what the measure sees when a join does click
#   artefact   the render against the ideal raised-cosine blend of the same source stretches
#              (rebuilt in Python from the documented rule), worst sample at any edge (dBFS)
# Also prints the speed of the whole command (audio seconds per wall second, both renders);
# scripts/cut/render_bench.sh measures the render stage alone.
# usage: scripts/cut/render_quality.sh [OVERTALK]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-target/release/overtalk}"
SYN=bench/out/synth
[ -f "$SYN/s2_b6_l12.rttm" ] || bench/make_synth.sh suite >/dev/null
PY=bench/.venv/bin/python
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
total_audio=0
total_wall=0
printf '%-16s %-4s %10s %8s %9s %9s %9s %9s %6s\n' conversation cut residual kept added-wo added-mu hard artefact edges
for rttm in "$SYN"/*.rttm; do
  name=$(basename "$rttm" .rttm)
  mics=("$SYN/$name".mic*.wav)
  tracks=()
  for m in "${mics[@]}"; do
    spk=${m##*_}; spk=${spk%.wav}
    tracks+=(--track "$spk=$m")
  done
  last=${mics[-1]##*_}; last=${last%.wav}
  start=$(date +%s.%N)
  "$BIN" -q cut "$rttm" "${tracks[@]}" --mute "$last" -o "$T/$name.mute.wav"
  "$BIN" -q cut "$rttm" "${tracks[@]}" --without "$last" -o "$T/$name.without.wav"
  end=$(date +%s.%N)
  "$BIN" -q cut "$rttm" "${tracks[@]}" --without "$last" --media x.wav -o "$T/$name.without.csv"
  "$BIN" -q cut "$rttm" "${tracks[@]}" --mute "$last" --media x.wav -o "$T/$name.mute.csv"
  "$BIN" -q cut "$rttm" "${tracks[@]}" --without "$last" --crossfade 0 -o "$T/$name.hard.wav"
  jq() { "$PY" scripts/cut/join_quality.py "$rttm" "$last" "$T/$name.$1.csv" "$T/$name.$2.wav" "$3" 25 "${mics[@]}"; }
  jq without without 10 >"$T/$name.j.without.json"
  jq mute mute 10 >"$T/$name.j.mute.json"
  jq without hard 0 >"$T/$name.j.hard.json"
  dur=$(soxi -D "${mics[0]}")
  total_audio=$(python3 -c "print($total_audio + 2 * $dur)")
  total_wall=$(python3 -c "print($total_wall + $end - $start)")
  "$PY" - "$rttm" "$last" "$T/$name" "$name" "${mics[@]}" <<'PY'
import sys, wave
import numpy as np
rttm, last, base, name, *mics = sys.argv[1:]
def read(p):
    import struct
    with open(p, "rb") as f:
        data = f.read()
    # RIFF chunks: fmt then data (float32 from overtalk, int16 from the synth tool).
    i = 12; fmt = None
    while i < len(data):
        cid, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        body = data[i + 8:i + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif cid == b"data":
            tag, ch, rate, _, _, bits = fmt
            flt = tag == 3 or (tag == 0xFFFE and bits == 32)
            x = np.frombuffer(body, np.float32 if flt else np.int16).astype(np.float64)
            if not flt:
                x /= 32768.0
            return rate, x.reshape(-1, ch).mean(axis=1)
        i += 8 + size + (size & 1)
    raise ValueError(p)
rate, _ = read(mics[0])
spk_of = lambda m: m.rsplit("_", 1)[1][:-4]
sig = {spk_of(m): read(m)[1] for m in mics}
n = min(len(v) for v in sig.values())
hop = rate // 100
nf = n // hop
act = {s: np.zeros(nf, bool) for s in sig}
for line in open(rttm):
    f = line.split()
    if f and f[0] == "SPEAKER":
        a, d, s = float(f[3]), float(f[4]), f[7]
        act[s][int(a * 100):int((a + d) * 100) + 1] = True
others = [s for s in sig if s != last]
other_act = np.any([act[s] for s in others], axis=0)
solo = act[last] & ~other_act
def frames(x):
    x = x[: nf * hop]
    return (x.reshape(nf, hop) ** 2).sum(axis=1)
_, mute = read(base + ".mute.wav")
mute = np.pad(mute, (0, max(0, n - len(mute))))[:n]
e_out = frames(mute)
res = 10 * np.log10(e_out[solo].sum() / frames(sig[last])[solo].sum())
ref = frames(sum(sig[s] for s in others))
kept = (e_out[other_act] >= 0.5 * ref[other_act]).mean()
import json
j = {k: json.load(open(f"{base}.j.{k}.json")) for k in ("without", "mute", "hard")}
fmt = lambda v: "-inf" if v is None else f"{v:.1f}"
art = max((j[k]["artefact_dbfs"] for k in ("without", "mute") if j[k]["artefact_dbfs"] is not None), default=None)
edges = j["without"]["edges"] + j["mute"]["edges"]
print(f"{name:<16} -{last:<3} {res:8.1f} dB {100 * kept:6.2f} % {fmt(j['without']['added_step_dbfs']):>9} "
      f"{fmt(j['mute']['added_step_dbfs']):>9} {fmt(j['hard']['added_step_dbfs']):>9} {fmt(art):>9} {edges:6d}")
PY
done
python3 -c "print(f'speed: {$total_audio:.0f} s of audio rendered in {$total_wall:.2f} s wall: {$total_audio / $total_wall:.0f}x real time (whole command: read, analyse, decode, render, write)')"
