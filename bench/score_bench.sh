#!/usr/bin/env bash
# Whole-process wall time of `overtalk score` (release) vs spy-der and pyannote.metrics on
# perturbed copies of AMI test (with UEM) and VoxConverse test (no UEM), checking that every
# tool prints the same DER under its own conventions.
#
#   bench/score_bench.sh            # needs ../shared/data (or $OVERTALK_SHARED_DATA)
#   REPEAT=5 bench/score_bench.sh
#
# overtalk is timed four ways per cell: every metric (DER, JER, clustering, purity/coverage,
# detection error: `--format json`) and the DER alone (`--der-only`, what the peers compute),
# each on all cores and on one core (`taskset -c 0`). Every overtalk run must print the peer's
# DER. The load average is printed before and after.
#
# Creates bench/.venv (pip install spy-der pyannote.metrics) and bench/out/ (gitignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
data="${OVERTALK_SHARED_DATA:-$root/../shared/data}"
out="$here/out"
repeat="${REPEAT:-3}"
mkdir -p "$out"

if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -c 'import spyder, pyannote.metrics' 2>/dev/null ||
  "$here/.venv/bin/pip" install -q spy-der pyannote.metrics
py="$here/.venv/bin/python"

(cd "$root" && cargo build -q --release -p overtalk-cli)
ot="$root/target/release/overtalk"

# Inputs: one reference file and one perturbed hypothesis file per corpus.
ami="$data/corpora/ami/only_words/rttms/test"
vox="$data/corpora/voxconverse/test"
cat "$ami"/*.rttm > "$out/ami_ref.rttm"
cat "$data"/corpora/ami/uems/test/*.uem > "$out/ami.uem"
cat "$vox"/*.rttm > "$out/vox_ref.rttm"
perturb=(--jitter 0.2 --swap 0.05 --drop 0.02 --false-alarm 0.02 --rename --seed 1)
python3 "$root/scripts/perturb.py" "$ami" -o "$out/ami_sys.rttm" "${perturb[@]}"
python3 "$root/scripts/perturb.py" "$vox" -o "$out/vox_sys.rttm" "${perturb[@]}"

# Median wall time of $repeat runs (seconds), and the last run's stdout in $out/last.txt.
wall() {
  local times=()
  for _ in $(seq "$repeat"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > "$out/last.txt"
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'
}

ot_der() {  # overtalk total DER with 4 decimals from JSON
  "$py" -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print("DER=%.4f%% scored=%.3f miss=%.3f fa=%.3f conf=%.3f" % (100*t["der"], t["scored_s"], t["miss_s"], t["false_alarm_s"], t["confusion_s"]))' "$out/last.txt"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
one=(); if command -v taskset >/dev/null; then one=(taskset -c 0); fi
printf '| corpus | protocol | tool | wall s (median of %s) | result |\n| --- | --- | --- | --- | --- |\n' "$repeat"
status=0
for corpus in ami vox; do
  uem_ot=(); uem_py=()
  if [ "$corpus" = ami ]; then uem_ot=(--uem "$out/ami.uem"); uem_py=(--uem "$out/ami.uem"); fi
  for protocol in full fair forgiving; do
    case $protocol in
      full) c=0; skip=() ;;
      fair) c=0.25; skip=() ;;
      forgiving) c=0.25; skip=(--skip-overlap) ;;
    esac
    ref="$out/${corpus}_ref.rttm"; sys="$out/${corpus}_sys.rttm"
    for preset in spyder pyannote; do
      ours=""
      for variant in "all metrics" "all metrics, 1 core" "--der-only" "--der-only, 1 core"; do
        pre=(); extra=()
        case $variant in *"1 core") pre=("${one[@]}") ;; esac
        case $variant in --der-only*) extra=(--der-only) ;; esac
        t=$(wall "${pre[@]}" "$ot" score -q -r "$ref" -s "$sys" "${uem_ot[@]}" --collar "$c" "${skip[@]}" --preset "$preset" --format json "${extra[@]}")
        this=$(ot_der)
        echo "| $corpus | $protocol | overtalk --preset $preset ($variant) | $t | $this |"
        if [ -n "$ours" ] && [ "$this" != "$ours" ]; then
          echo "MISMATCH: $corpus $protocol $preset $variant: $this vs $ours" >&2
          status=1
        fi
        ours=$this
      done
      if [ "$preset" = spyder ]; then
        t=$(wall "$py" "$here/spyder_score.py" "$ref" "$sys" "${uem_py[@]}" --collar "$c" "${skip[@]}")
      else
        t=$(wall "$py" "$here/pyannote_score.py" "$ref" "$sys" "${uem_py[@]}" --collar "$c" "${skip[@]}")
      fi
      theirs=$(cat "$out/last.txt")
      echo "| $corpus | $protocol | $preset | $t | $theirs |"
      # Same DER to 4 decimals; components to the millisecond (±0.001 s for float printing).
      if ! "$py" - "$ours" "$theirs" <<'PY'
import sys
a = dict(kv.split("=") for kv in sys.argv[1].split())
b = dict(kv.split("=") for kv in sys.argv[2].split())
ok = a["DER"] == b["DER"] and all(abs(float(a[k]) - float(b[k])) <= 0.0015 for k in ("scored", "miss", "fa", "conf"))
sys.exit(0 if ok else 1)
PY
      then
        echo "MISMATCH: $corpus $protocol $preset: overtalk $ours vs $theirs" >&2
        status=1
      fi
    done
  done
  # The plain spyder CLI (its own RTTM loading and printing), for whole-process time.
  if [ -x "$here/.venv/bin/spyder" ]; then
    t=$(wall "$here/.venv/bin/spyder" "$out/${corpus}_ref.rttm" "$out/${corpus}_sys.rttm" "${uem_py[@]}")
    echo "| $corpus | full | spyder CLI | $t | $(grep -o 'Overall.*' "$out/last.txt" | tr -s ' │' ' ' | head -1) |"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
