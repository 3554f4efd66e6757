#!/usr/bin/env bash
# Diarization of one mixed recording with `overtalk detect --diarize`: speed, peak memory and
# DER (via `overtalk score`, collar 0.25 s and 0, overlap scored) on
#   - a 1-hour mix: the eight synthetic conversations of bench/make_synth.sh concatenated
#     twice (3875 s), with its reference RTTM shifted to match;
#   - the real recordings of ../shared/data/real-audio (ES2004a mixture, four 30 s AMI clips
#     scored against the BUT references, the gecko call).
# Needs sox, /usr/bin/time, a release build of overtalk and a converted model
# (`overtalk models install`, or OVERTALK_MODEL_DIR pointing at one).
#   - the synthetic suite (`synth`: the eight 4-minute mixes of bench/make_synth.sh, 32 min,
#     2-4 voices with noise; `synth-heldout`: the held-out eight), each detected and scored
#     against its own reference, pooled by `overtalk score`.
# Usage: bash bench/diar_bench.sh [hour|real|synth|synth-heldout|all]   (default all).
# Output in bench/out/diar/.
# VAD=earshot|silero|energy passes --vad (default: none given, so the diarizer picks: the
# earshot + Silero profile in a build with the `onnx` feature and Silero installed, else earshot).
set -euo pipefail
cd "$(dirname "$0")/.."
OT=${OT:-target/release/overtalk}
DATA=${OVERTALK_SHARED_DATA:-../shared/data}/real-audio
OUT=bench/out/diar
mkdir -p "$OUT/hyp" "$OUT/ref"
what=${1:-all}
vad=()
if [ -n "${VAD:-}" ]; then vad=(--vad "$VAD"); fi

if [ "$what" = hour ] || [ "$what" = all ]; then
  bash bench/make_synth.sh >/dev/null
  S=bench/out/synth
  files=$(ls $S/*.mix.wav | sort)
  if [ ! -f "$OUT/hour.wav" ]; then
    # shellcheck disable=SC2086
    sox $files $files "$OUT/hour.wav"
  fi
  # The reference: each conversation's RTTM shifted by the duration of what precedes it.
  off=0
  : > "$OUT/ref/hour.rttm"
  for f in $files $files; do
    r=${f%.mix.wav}.rttm
    awk -v o="$off" -v c="$(basename "${f%.mix.wav}")" \
      '$1=="SPEAKER"{printf "SPEAKER hour 1 %.3f %s <NA> <NA> %s_%s <NA> <NA>\n", $4+o, $5, c, $8}' \
      "$r" >> "$OUT/ref/hour.rttm"
    off=$(echo "$off + $(soxi -D "$f")" | bc -l)
  done
  # Speakers are labelled per conversation (the second copy repeats the same speakers). The
  # synthesis may reuse an espeak voice in several conversations; the reference cannot know,
  # so the DER of this file is a speed-run sanity check, not an accuracy figure.
  /usr/bin/time -v "$OT" detect "$OUT/hour.wav" --diarize "${vad[@]}" -o "$OUT/hyp/hour.rttm" 2> "$OUT/hour.time"
  grep -E "overtalk:|Elapsed|Maximum resident|User time|System time" "$OUT/hour.time"
  for c in 0.25 0; do
    "$OT" score -r "$OUT/ref/hour.rttm" -s "$OUT/hyp/hour.rttm" --collar $c | head -3
  done
fi

if [ "$what" = real ] || [ "$what" = all ]; then
  run() { # id wav ref
    /usr/bin/time -v "$OT" detect "$2" --diarize "${vad[@]}" --recording-id "$1" -o "$OUT/hyp/$1.rttm" 2> "$OUT/$1.time"
    sed "s/^\(SPEAKER\) [^ ]*/\1 $1/" "$3" > "$OUT/ref/$1.rttm"
    grep -E "overtalk:" "$OUT/$1.time" | cut -c1-40 || true
  }
  run ES2004a "$DATA/ami-es2004a-multitrack/mixture.wav" "$DATA/ami-es2004a-multitrack/mixture.ref.rttm"
  for id in tst00 tst01 dev00 trn08; do
    run "$id" "$DATA/ami-30s-excerpts/$id.wav" "$DATA/ami-30s-excerpts/$id.but.rttm"
  done
  run gecko "$DATA/gecko-demo-call/demo.mp3" "$DATA/gecko-demo-call/demo.rttm"
  for c in 0.25 0; do
    echo "collar $c"
    "$OT" score -r "$OUT"/ref/{ES2004a,tst00,tst01,dev00,trn08,gecko}.rttm \
      -s "$OUT"/hyp/{ES2004a,tst00,tst01,dev00,trn08,gecko}.rttm --collar $c
  done
fi

if [ "$what" = synth ] || [ "$what" = synth-heldout ] || [ "$what" = all ]; then
  sets=()
  if [ "$what" != synth-heldout ]; then sets+=(suite); fi
  if [ "$what" != synth ]; then sets+=(heldout); fi
  for set in "${sets[@]}"; do
    bash bench/make_synth.sh "$set" >/dev/null
    if [ "$set" = suite ]; then S=bench/out/synth; else S=bench/out/synth_heldout; fi
    refs=() hyps=()
    for f in $(ls $S/*.mix.wav | sort); do
      id=$(basename "${f%.mix.wav}")
      "$OT" detect "$f" --diarize "${vad[@]}" --recording-id "$id" -o "$OUT/hyp/$id.rttm"
      refs+=("${f%.mix.wav}.rttm") hyps+=("$OUT/hyp/$id.rttm")
      # Speakers found against speakers in the reference.
      echo "$id: $(awk '{print $8}' "$OUT/hyp/$id.rttm" | sort -u | wc -l) found, $(awk '{print $8}' "${f%.mix.wav}.rttm" | sort -u | wc -l) in the reference"
    done
    for c in 0.25 0; do
      echo "$set, collar $c"
      "$OT" score -r "${refs[@]}" -s "${hyps[@]}" --collar $c | sed -n '1,/^MACRO/p'
    done
  done
fi
