#!/usr/bin/env bash
# Speed and peak memory of `overtalk detect --diarizer pyannote` (speakrs, native CPU) with the
# test model directory of `pyannote_test_model` (every tensor at its shape, deterministic
# values: the compute does not depend on the values, so no trained weights are needed).
# Usage: bash bench/pyannote_bench.sh [SECONDS | FILE]   (default 3875: the 1-hour mix of
# bench/diar_bench.sh hour; a shorter SECONDS takes the start of it; FILE: that recording).
# Needs sox, /usr/bin/time, espeak-ng (bench/make_synth.sh) and a release build with the
# feature: cargo build --release -p overtalk-cli --features pyannote
set -euo pipefail
cd "$(dirname "$0")/.."
OT=${OT:-target/release/overtalk}
OUT=bench/out/pyannote
mkdir -p "$OUT"
secs=${1:-3875}
if [ -f "$secs" ]; then
  sox "$secs" -r 16000 -c 1 "$OUT/in.wav"
else
if [ ! -f bench/out/diar/hour.wav ]; then
  bash bench/make_synth.sh >/dev/null
  mkdir -p bench/out/diar
  # shellcheck disable=SC2046
  sox $(ls bench/out/synth/*.mix.wav | sort) $(ls bench/out/synth/*.mix.wav | sort) bench/out/diar/hour.wav
fi
sox bench/out/diar/hour.wav "$OUT/in.wav" trim 0 "$secs"
fi
rm -rf "$OUT/files" "$OUT/models"
cargo run -q -p overtalk-audio --example pyannote_test_model -- "$OUT/files"
OVERTALK_MODEL_DIR="$OUT/models" "$OT" models install pyannote --from "$OUT/files" >/dev/null
echo "input: $(soxi -D "$OUT/in.wav") s"
OVERTALK_MODEL_DIR="$OUT/models" /usr/bin/time -v "$OT" detect "$OUT/in.wav" --diarizer pyannote \
  -o "$OUT/hyp.rttm" 2> "$OUT/time.txt"
grep -E "Elapsed|Maximum resident|User time|System time|Percent of CPU" "$OUT/time.txt"
