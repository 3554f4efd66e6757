#!/usr/bin/env bash
# The whole AMI corpus (only_words RTTMs, train + dev + test: 170 meetings) read and analysed
# with default parameters on one core: segments per second (best of N passes over files held in
# memory) and peak memory (max RSS from /usr/bin/time -v), for the example binary and for
# `overtalk analyze` writing JSON of every meeting.
#   bench/analyze_bench.sh [SHARED_DATA]        REPEAT=N to change the number of passes (10)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-${OVERTALK_SHARED_DATA:-$(cd .. && pwd)/shared/data}}"
repeat="${REPEAT:-10}"
mapfile -t files < <(find "$data/corpora/ami/only_words/rttms" -name '*.rttm' | sort)
[ "${#files[@]}" -eq 170 ] || { echo "expected 170 AMI RTTMs, found ${#files[@]}" >&2; exit 1; }
cargo build --quiet --release --example analyze_throughput --example analyze_throughput_mimalloc \
  -p overtalk
cargo build --quiet --release --bin overtalk
mkdir -p bench/out
rss() { sed -n 's/^\tMaximum resident set size (kbytes): //p' "$1"; }

# Throughput: best of N passes, one core; with the system allocator (glibc), then with mimalloc
# (the same example with mimalloc as global allocator; the library sets none).
taskset -c 0 target/release/examples/analyze_throughput --repeat "$repeat" "${files[@]}" \
  | tee bench/out/analyze_throughput.json
taskset -c 0 target/release/examples/analyze_throughput_mimalloc --repeat "$repeat" "${files[@]}" \
  | tee bench/out/analyze_throughput_mimalloc.json
# Peak memory of one pass of the example (all files in memory, one analysis alive at a time).
/usr/bin/time -v -o bench/out/analyze_example.time taskset -c 0 \
  target/release/examples/analyze_throughput --repeat 1 "${files[@]}" >/dev/null
# Peak memory and wall time of the command line: every meeting to JSON.
/usr/bin/time -v -o bench/out/analyze_cli.time taskset -c 0 \
  target/release/overtalk analyze -q --format json "$data/corpora/ami/only_words/rttms" \
  >bench/out/analyze_ami.json
python3 - bench/out/analyze_throughput.json bench/out/analyze_example.time bench/out/analyze_cli.time \
  bench/out/analyze_throughput_mimalloc.json <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[4]))
def field(path, name):
    m = re.search(r"^\s*" + re.escape(name) + r": (.*)$", open(path).read(), re.M)
    return m.group(1) if m else "?"
ex_rss = int(field(sys.argv[2], "Maximum resident set size (kbytes)"))
cli_rss = int(field(sys.argv[3], "Maximum resident set size (kbytes)"))
cli_wall = field(sys.argv[3], "Elapsed (wall clock) time (h:mm:ss or m:ss)")
print(f"segments {r['segments']} in {r['recordings']} meetings: best pass {r['seconds']:.4f} s "
      f"= {r['segments_per_s'] / 1e6:.2f} M segments/s read + analysed "
      f"({r['analyse_segments_per_s'] / 1e6:.2f} M/s in analyze alone; target 2 M/s)")
print(f"with mimalloc: best pass {m['seconds']:.4f} s = {m['segments_per_s'] / 1e6:.2f} M segments/s "
      f"read + analysed ({m['analyse_segments_per_s'] / 1e6:.2f} M/s in analyze alone)")
print(f"peak memory: example {ex_rss / 1024:.1f} MiB; overtalk analyze --format json of all 170 "
      f"meetings {cli_rss / 1024:.1f} MiB (wall {cli_wall})")
PY
