#!/bin/sh
# Creates bench/.venv with pympi-ling and compares overtalk's H&E intervals with pympi on every
# two-speaker pair of the AMI test meetings, then times both on the same pairs in one run:
# pympi's get_gaps_and_overlaps2 against overtalk's acoustic H&E computation (the he_pairs
# example: analysis::dyad's two-speaker sweep, and the general stages S1-S4 beside it), the
# interval computation alone (best of N, one core) and whole processes (interpreter or binary
# start, reading, pairing, computing); and pympi's original get_gaps_and_overlaps, too slow for
# all pairs, on the shortest pair. Run from the repository root.
#
# What each timer covers. pympi: get_gaps_and_overlaps2 over every pair's Eaf, built before the
# clock starts from the pair's turns in integer ms (so it includes reading the two tiers out of
# the Eaf, sorting them and the sweep; not parsing the RTTM). overtalk: from every pair's
# Transcript, built before the clock starts from the parsed RTTM (µs), to the acoustic
# intervals (so it includes µs -> ms rounding, S1's drops, S2's bridging and the sweep; not
# parsing the RTTM). Neither timer includes parsing; the whole-process figures include it.
set -eu
DATA="${OVERTALK_SHARED_DATA:-../shared/data}"
DIR="$DATA/corpora/ami/only_words/rttms/test"
if [ ! -x bench/.venv/bin/python ]; then
    python3 -m venv bench/.venv
fi
bench/.venv/bin/pip install -q pympi-ling
cargo build -q --bin overtalk
bench/.venv/bin/python bench/pympi_agreement.py target/debug/overtalk \
    "$DIR" "$DATA/peer-results/pympi-ami-test.tsv"

echo "timing on the same pairs (one core):"
cargo build -q --release --example he_pairs -p overtalk
exec python3 - "$DIR" <<'PY'
import glob, json, subprocess, sys, time
d = sys.argv[1]
files = sorted(glob.glob(d + "/*.rttm"))
def run(cmd):
    out = subprocess.run(["taskset", "-c", "0"] + cmd, capture_output=True, check=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
def whole(cmd, n=3):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(["taskset", "-c", "0"] + cmd, capture_output=True, check=True)
        best = min(best, time.perf_counter() - t)
    return best
peer_cmd = ["bench/.venv/bin/python", "bench/pympi_agreement.py", "--timing"]
ours_cmd = ["target/release/examples/he_pairs"]
peer = run(peer_cmd + ["--repeat", "5", d])
ours = run(ours_cmd + ["--repeat", "50"] + files)
print(json.dumps(peer))
print(json.dumps(ours))
assert peer["pairs"] == ours["pairs"] and peer["intervals"] == ours["intervals"], "different work"
print(f"{ours['pairs']} pairs, {ours['intervals']} intervals: interval computation "
      f"pympi {peer['seconds'] * 1000:.2f} ms, overtalk {ours['seconds'] * 1000:.3f} ms "
      f"(two-speaker sweep): overtalk {peer['seconds'] / ours['seconds']:.1f}x faster; "
      f"overtalk's general stages S1-S4 {ours['general_seconds'] * 1000:.2f} ms "
      f"({peer['seconds'] / ours['general_seconds']:.1f}x)")
wp = whole(peer_cmd + ["--repeat", "1", d])
wo = whole(ours_cmd + ["--repeat", "1"] + files)
print(f"whole process (best of 3): pympi {wp * 1000:.0f} ms, overtalk {wo * 1000:.1f} ms: "
      f"overtalk {wp / wo:.1f}x faster")
v1 = run(peer_cmd + ["--repeat", "1", "--v1", d])
print(json.dumps(v1))
print(f"pympi's original get_gaps_and_overlaps on the shortest pair alone ({v1['turns']} turns, "
      f"{v1['span_ms'] / 60000:.1f} min): {v1['seconds_v1']:.2f} s "
      f"({v1['seconds_v1'] / v1['seconds_v2']:.0f}x get_gaps_and_overlaps2 on that pair)")
PY
