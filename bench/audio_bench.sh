#!/usr/bin/env bash
# Audio benchmark: real-time factor per core of the whole detect path (decode + resample +
# frame energy + VAD + multitrack detection) on 16 kHz and 48 kHz multitrack WAVs, each VAD
# backend's speed beside its accuracy on the same files, accuracy on the held-out synthetic set,
# interruptions counted by `overtalk analyze` on detected vs reference tracks, accuracy on a
# conversation repeated 40 times against the one copy, and peak memory on a 10-hour two-track
# recording. One core (taskset -c 0). Not a test: it prints figures for
# BENCHMARKS.md.
#
#   bench/audio_bench.sh            # needs espeak-ng, sox (apt) and ../shared (synthetic tool, AMI)
#   HOURS=1 bench/audio_bench.sh    # a shorter long-file run
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
HOURS="${HOURS:-10}"
SHARED="${OVERTALK_SHARED_DATA:-$ROOT/../shared/data}"
AMI="$SHARED/real-audio/ami-es2004a-multitrack"
OUT=bench/out
cargo build --release -q -p overtalk-cli --bin overtalk
cargo build --release -q -p overtalk-audio --example detect_eval
BIN=target/release/overtalk
EVAL=target/release/examples/detect_eval
bench/make_synth.sh >/dev/null
bench/make_synth.sh heldout >/dev/null

# 48 kHz copies of the synthetic suite.
mkdir -p "$OUT/synth48"
for f in "$OUT"/synth/*.wav "$OUT"/synth/*.rttm; do
  b=$(basename "$f")
  [ -f "$OUT/synth48/$b" ] && continue
  case "$b" in
    *.rttm) cp "$f" "$OUT/synth48/$b" ;;
    *.mix.wav) ;;
    *) sox -D "$f" -r 48000 "$OUT/synth48/$b" ;;
  esac
done

echo "## speed and accuracy per VAD backend (one core; synthetic suite: 8 conversations, 32 min, 2-4 tracks)"
for rate in synth synth48; do
  for vad in earshot energy none; do
    printf '%-8s %-8s ' "$rate" "$vad"
    taskset -c 0 "$EVAL" synth "$OUT/$rate" --vad "$vad" | tail -1
  done
done
echo
echo "## held-out synthetic set (bench/make_synth.sh heldout: 8 conversations, other seeds), 16 kHz"
for vad in earshot energy none; do
  printf '%-8s ' "$vad"
  taskset -c 0 "$EVAL" synth "$OUT/synth_heldout" --vad "$vad" | tail -1
done

echo
echo "## a long recording: s2_b6_l12 (4 min) repeated 40 times (2 h 43 min), against the one copy"
bench/make_synth.sh long s2_b6_l12 40 >/dev/null
printf '%-8s ' "one copy"
"$EVAL" synth "$OUT/synth" | grep '^s2_b6_l12 '
printf '%-8s ' "x40"
taskset -c 0 "$EVAL" synth "$OUT/synth_long_s2_b6_l12_x40" | tail -1

echo
echo "## interruptions found by overtalk analyze: reference RTTM vs detected tracks (earshot)"
count() { "$BIN" analyze --format json "$1" 2>/dev/null | python3 -c \
  'import json,sys; c=json.load(sys.stdin)["conversation"]["counts"]; print(c["interruptions"], c["successful"], c["talk_over_events"])'; }
for set in synth synth_heldout; do
  "$EVAL" synth "$OUT/$set" --hyp "$OUT/hyp_$set" >/dev/null
  tr=(0 0 0); th=(0 0 0)
  for r in "$OUT/$set"/*.rttm; do
    n=$(basename "$r" .rttm)
    read -r a b c < <(count "$r"); read -r d e f < <(count "$OUT/hyp_$set/$n.rttm")
    printf '%-18s interruptions (successful, talk-over) reference %3d (%3d, %3d)  detected %3d (%3d, %3d)\n' "$n" "$a" "$b" "$c" "$d" "$e" "$f"
    tr=($((tr[0]+a)) $((tr[1]+b)) $((tr[2]+c))); th=($((th[0]+d)) $((th[1]+e)) $((th[2]+f)))
  done
  printf '%-18s interruptions (successful, talk-over) reference %3d (%3d, %3d)  detected %3d (%3d, %3d)\n' "TOTAL $set" "${tr[@]}" "${th[@]}"
done

echo
echo "## AMI ES2004a 750-810 s, four headsets, against mixture.ref.rttm"
for vad in earshot energy none; do
  printf '%-8s ' "$vad"
  taskset -c 0 "$EVAL" ami "$AMI" --vad "$vad" | tail -1
done

echo
echo "## overtalk detect on one conversation, wall clock, one core"
for rate in synth synth48; do
  args=()
  for m in "$OUT/$rate"/s4_b6_eq.mic*.wav; do
    n=$(basename "$m" .wav); args+=(--track "${n##*_}=$m")
  done
  s=$(date +%s.%N)
  taskset -c 0 "$BIN" detect "${args[@]}" -o "$OUT/bench-$rate.rttm" -q
  e=$(date +%s.%N)
  python3 -c "import sys; t=float(sys.argv[2])-float(sys.argv[1]); print(f'{sys.argv[3]}: 4 tracks x 241.8 s in {t:.2f} s = {4*241.8/t:.0f}x real time per core')" "$s" "$e" "$rate"
done

echo
echo "## peak memory on a ${HOURS}-hour two-track recording"
# Past 4 MiB per track the band energies go to an anonymous temporary file in $TMPDIR (24 bytes
# per 10 ms frame per track: about 170 MB for this run); "File system outputs" counts them.
LONG="$OUT/long"
mkdir -p "$LONG"
if [ ! -f "$LONG/A_${HOURS}h.wav" ]; then
  reps=$(( HOURS * 15 ))   # 4-minute conversation repeated
  a=(); b=()
  for _ in $(seq "$reps"); do a+=("$OUT/synth/s2_b6_l12.mic0_A.wav"); b+=("$OUT/synth/s2_b6_l12.mic1_B.wav"); done
  sox -D "${a[@]}" "$LONG/A_${HOURS}h.wav"
  sox -D "${b[@]}" "$LONG/B_${HOURS}h.wav"
fi
ls -l "$LONG"/*_"${HOURS}"h.wav
for vad in earshot none; do
  /usr/bin/time -f "vad=$vad: %e s wall, %U s user, %S s sys, peak RSS %M KB, %O file system outputs" taskset -c 0 "$BIN" detect \
    --track A="$LONG/A_${HOURS}h.wav" --track B="$LONG/B_${HOURS}h.wav" --vad "$vad" \
    -o "$LONG/out-$vad.rttm" -q
  wc -l < "$LONG/out-$vad.rttm"
done
