#!/usr/bin/env bash
# The live monitor measured: replays of the synthetic suite (exact truth) and of the AMI
# ES2004a headsets through `overtalk live`'s session — speech start/stop latency after the
# true edge (audio clock; wall clock at real-time speed), commit latency of interruptions and
# backchannels, agreement of the committed labels with the offline analysis, live vs offline
# DER (`overtalk score`), and the CPU of 32 channels at 48 kHz.
# Needs the synthetic suite (bench/make_synth.sh: espeak-ng, sox) and ../shared/data.
#   bench/live_bench.sh [SPEED] [DETECTORS]
#     SPEED: replay speed of the latency runs (default 1 = real time)
#     DETECTORS: which of causal, windowed, hybrid, lookahead (default "causal windowed")
# The classes are committed by the calibrated classifier at a 250 ms decision horizon (the
# default of `overtalk live`); `live_eval ... --decision-horizon 500|1000` or
# `--classifier rules` for the others. The speed-1 run of the synthetic suite in BENCHMARKS.md
# replays two conversations (s2_b20_eq, s3_b12_l6_12: 298 true edges) with --no-offline.
set -euo pipefail
cd "$(dirname "$0")/.."
SPEED="${1:-1}"
DETECTORS="${2:-causal windowed}"
OUT=bench/out/live
DATA="${OVERTALK_SHARED_DATA:-../shared/data}"
AMI="$DATA/real-audio/ami-es2004a-multitrack"
cargo build --release -q -p overtalk-cli --features live
cargo build --release -q -p overtalk-live --example live_eval
BIN=target/release/overtalk
EVAL=target/release/examples/live_eval
bench/make_synth.sh >/dev/null
mkdir -p "$OUT"

for det in $DETECTORS; do
for set in synth ami; do
  case $set in
    synth) dir=bench/out/synth; ref=$OUT/synth.ref.rttm; cat "$dir"/*.rttm > "$ref" ;;
    ami) dir=$AMI; ref=$AMI/mixture.ref.rttm ;;
  esac
  res=$OUT/$det/$set
  echo "## $set, --detector $det, replayed at speed $SPEED: $EVAL $set $dir $res --speed $SPEED --detector $det"
  "$EVAL" "$set" "$dir" "$res" --speed "$SPEED" --detector "$det"
  cat "$res"/live/*.rttm > "$res.live.rttm"
  cat "$res"/offline/*.rttm > "$res.offline.rttm"
  for h in offline live; do
    printf '%s DER %-8s ' "$set" "$h"
    "$BIN" score -r "$ref" -s "$res.$h.rttm" | grep '^TOTAL'
  done
done
done

echo
echo "## CPU: 32 channels at 48 kHz (the AMI headsets upsampled, 8 copies), replayed unpaced"
mkdir -p "$OUT/ch32"
args=()
for copy in 0 1 2 3 4 5 6 7; do
  for i in 0 1 2 3; do
    f="$OUT/ch32/s${copy}_$i.wav"
    [ -f "$f" ] || sox -D "$AMI/source$i.wav" -r 48000 "$f"
    args+=(--track "S${copy}_$i=$f")
  done
done
for det in $DETECTORS; do
  echo "--detector $det: $EVAL ch32 $OUT/ch32 $OUT/ch32/$det --no-offline --detector $det"
  "$EVAL" ch32 "$OUT/ch32" "$OUT/ch32/$det" --no-offline --detector "$det" | grep 'session CPU'
done
