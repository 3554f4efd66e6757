#!/usr/bin/env bash
# Speed of `overtalk cut` rendering on the synthetic multitrack suite (bench/make_synth.sh:
# eight 4-minute conversations, 2-4 tracks at 16 kHz): each conversation's last speaker removed
# (`--without`, reference RTTM as who-spoke-when, 10 ms crossfades, -40 dB duck, 25 fps).
#   whole command   `overtalk -q cut RTTM --track …  --without S -o OUT.wav`, wall clock per
#                   run (read, analyse, decode every track, render, write), best of 3
#   render stage    the mix, duck and cut alone on tracks decoded once
#                   (crates/overtalk-audio/examples/render_bench.rs), repeated for >= 1 s
# Both as seconds of source audio per wall second; prints the load average beside them.
# Builds the release binary and the example (cargo build --release).
# usage: scripts/cut/render_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q --release -p overtalk-cli
cargo build -q --release -p overtalk-audio --example render_bench
BIN=target/release/overtalk
STAGE=target/release/examples/render_bench
SYN=bench/out/synth
[ -f "$SYN/s2_b6_l12.rttm" ] || bench/make_synth.sh suite >/dev/null
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %8s %12s %10s %12s %10s\n' conversation audio_s command_s command_x stage_s stage_x
tot_audio=0 tot_cmd=0 tot_stage_audio=0 tot_stage=0
for rttm in "$SYN"/*.rttm; do
  name=$(basename "$rttm" .rttm)
  mics=("$SYN/$name".mic*.wav)
  tracks=()
  for m in "${mics[@]}"; do
    spk=${m##*_}; spk=${spk%.wav}
    tracks+=(--track "$spk=$m")
  done
  last=${mics[-1]##*_}; last=${last%.wav}
  dur=$(soxi -D "${mics[0]}")
  best=""
  for _ in 1 2 3; do
    s=$(date +%s.%N)
    "$BIN" -q cut "$rttm" "${tracks[@]}" --without "$last" -o "$T/out.wav"
    e=$(date +%s.%N)
    best=$(python3 -c "b='$best'; t=$e-$s; print(t if not b or t < float(b) else b)")
  done
  read -r s_audio s_wall _ < <("$STAGE" "$rttm" "$last" 25 10 "${mics[@]}")
  python3 -c "print(f'{\"$name\":<16} {$dur:8.1f} {$best:12.3f} {$dur / $best:10.0f} {$s_wall:12.3f} {$s_audio / $s_wall:10.0f}')"
  tot_audio=$(python3 -c "print($tot_audio + $dur)")
  tot_cmd=$(python3 -c "print($tot_cmd + $best)")
  tot_stage_audio=$(python3 -c "print($tot_stage_audio + $s_audio)")
  tot_stage=$(python3 -c "print($tot_stage + $s_wall)")
done
python3 -c "print(f'all: whole command {$tot_audio / $tot_cmd:.0f}x real time ({$tot_audio:.0f} s in {$tot_cmd:.2f} s); render stage {$tot_stage_audio / $tot_stage:.0f}x real time')"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
