#!/usr/bin/env bash
# Silero VAD (feature `onnx`) beside earshot and no VAD on the same files: the multitrack
# detect path's DER and its speed in × real time of track audio per core (CPU time, one core).
# Needs the Silero model (`overtalk models install silero`), espeak-ng + sox for the synthetic
# suite (bench/make_synth.sh) and ../shared (AMI excerpt). Not a test: it prints figures.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${OVERTALK_SHARED_DATA:-$(pwd)/../shared/data}"
AMI="$SHARED/real-audio/ami-es2004a-multitrack"
cargo build --release -q -p overtalk-audio --features onnx --example detect_eval
EVAL=target/release/examples/detect_eval
bench/make_synth.sh >/dev/null
run() { # label args...
  local label=$1; shift
  local t; t=$(mktemp)
  /usr/bin/time -f "%U %S" -o "$t" taskset -c 0 "$EVAL" "$@" | tail -1 | sed "s/^/$label  /"
  echo "    CPU s (user sys): $(cat "$t")"
  rm -f "$t"
}
for vad in silero earshot none; do run "synth16 $vad" synth bench/out/synth --vad "$vad"; done
for vad in silero earshot none; do run "ami $vad" ami "$AMI" --vad "$vad"; done
