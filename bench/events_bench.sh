#!/usr/bin/env bash
# Whole-process wall time of `overtalk score --events` (release) on the AMI test set: the 16
# only_words references against the VBx Mix-Headset and beamformed outputs, and against
# perturbed references (jitter 0.2 s, swaps 5 %, drops and false alarms 2 %). Prints the
# minimum and the median of REPEAT runs per input (wall, and the median CPU time: on a loaded
# machine the wall time is mostly waiting for a core), beside `score --der-only` on the same
# files, and the load average. Target: ≤ 0.2 s.
#
#   bench/events_bench.sh            # needs ../shared/data (or $OVERTALK_SHARED_DATA)
#   REPEAT=21 bench/events_bench.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
data="${OVERTALK_SHARED_DATA:-$root/../shared/data}"
out="$here/out"
repeat="${REPEAT:-11}"
mkdir -p "$out"
# OVERTALK=path/to/overtalk times that binary instead of building the release one.
[ -n "${OVERTALK:-}" ] || (cd "$root" && cargo build -q --release -p overtalk-cli)
ot="${OVERTALK:-$root/target/release/overtalk}"
ref="$data/corpora/ami/only_words/rttms/test"
python3 "$root/scripts/perturb.py" "$ref" -o "$out/ami_events_sys.rttm" \
  --jitter 0.2 --swap 0.05 --drop 0.02 --false-alarm 0.02 --rename --seed 1 2>/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for hyp in "$data/system-outputs/vbx-ami/AMI_Mix-Headset/test" \
           "$data/system-outputs/vbx-ami/AMI_beamformed/test" \
           "$out/ami_events_sys.rttm"; do
  # `score --der-only` on the same files in the same run: the floor of reading and mapping.
  for mode in events der-only; do
    times=()
    cpus=()
    for _ in $(seq "$repeat"); do
      t0=$(date +%s%N)
      /usr/bin/time -f '%U %S' -o "$out/cpu.txt" \
        "$ot" --quiet score --"$mode" --format json -r "$ref" -s "$hyp" > "$out/events.json"
      t1=$(date +%s%N)
      times+=($(( (t1 - t0) / 1000 )))
      cpus+=("$(awk '{printf "%d", ($1 + $2) * 1000000}' "$out/cpu.txt")")
    done
    sorted=($(printf '%s\n' "${times[@]}" | sort -n))
    csorted=($(printf '%s\n' "${cpus[@]}" | sort -n))
    min=${sorted[0]}
    med=${sorted[$(( ${#sorted[@]} / 2 ))]}
    cmed=${csorted[$(( ${#csorted[@]} / 2 ))]}
    printf '%-52s %-9s wall min %.3f s  median %.3f s  CPU median %.3f s  (%d runs)\n' \
      "${hyp#"$data"/}" "$mode" "$(echo "$min / 1000000" | bc -l)" \
      "$(echo "$med / 1000000" | bc -l)" "$(echo "$cmed / 1000000" | bc -l)" "$repeat"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
