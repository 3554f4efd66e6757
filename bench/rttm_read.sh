#!/usr/bin/env bash
# Reading every AMI reference RTTM (train, dev, test: 170 meetings): overtalk beside pyannote's
# own RTTM loader, same files, same machine, one run. Prints both JSON lines and the ratio.
#   bench/rttm_read.sh [SHARED_DATA]
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-${OVERTALK_SHARED_DATA:-$(cd .. && pwd)/shared/data}}"
venv=bench/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "pyannote.database==5.1.3" "pyannote.core==5.0.0"
fi
mapfile -t files < <(find "$data/corpora/ami/only_words/rttms" -name '*.rttm' | sort)
cargo build --quiet --release --example read_throughput -p overtalk
ours=$(taskset -c 0 target/release/examples/read_throughput --repeat 10 "${files[@]}")
peer=$(taskset -c 0 "$venv/bin/python" bench/rttm_read.py --repeat 3 "${files[@]}")
echo "$ours"
echo "$peer"
python3 - "$ours" "$peer" <<'PY'
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
note = "" if a["turns"] == b["turns"] else f" (pyannote counts {b['turns']}: its Annotation keeps one of two identical segments of different speakers, AMI IB4011 at 2384.1 s)"
print(f"turns: {a['turns']}{note}; overtalk is {b['seconds'] / a['seconds']:.0f}x faster")
PY
