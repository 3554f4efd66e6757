#!/usr/bin/env python3
"""Agreement of overtalk with human labels (ICSI MRDA), with 95 % bootstrap confidence
intervals over meetings, for docs/agreement.md.

  agreement.py BIN_OR_EXAMPLE --split val --input nomarks --classifier calibrated [--horizon MS]

Runs `check_mrda.py` (the shared held-out check) on the split through saved outputs written by
`target/release/examples/calibration_rows --analysis-out` (the same analysis as
`overtalk analyze --classifier …`), then resamples the meetings with replacement (2000 draws,
seed 13) and prints P, R and F1 with their 2.5 and 97.5 percentiles for every class, plus the
recall of `fg` floor grabs as turn-taking onsets (our onset at the grab is a smooth switch, a
silent interruption, an interruption, a terminal overlap or a simultaneous start) and the
confusion tables check_mrda.py prints. Standard library only.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("OVERTALK_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
DATA = os.path.join(SHARED, "human-labels", "mrda")
TOOL = os.path.join(os.path.dirname(SHARED.rstrip("/")), "tools", "check_mrda.py")
EXT = {"nomarks": ".nomarks.vtt", "rttm": ".rttm"}
CLASSES = ("backchannel", "interruption", "failed_attempt")
TURN_TAKING = ("smooth_switch", "silent_interruption", "interruption", "terminal_overlap", "simultaneous_start")


def prf(tp, gold, pred):
    p = tp / pred if pred else 0.0
    r = tp / gold if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def fg_recall(conf):
    c = conf.get("gold fg onset -> our onset class", {})
    n = sum(c.values())
    return sum(c.get(k, 0) for k in TURN_TAKING), n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("example", help="target/release/examples/calibration_rows")
    ap.add_argument("--split", default="val")
    ap.add_argument("--input", choices=sorted(EXT), default="nomarks")
    ap.add_argument("--classifier", choices=("rules", "calibrated", "joint"), default="calibrated")
    ap.add_argument("--horizon", default="unbounded")
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--tables", action="store_true", help="also print check_mrda.py's report")
    ap.add_argument("--scores", help="a check_mrda.py --json-out file to read instead of running")
    a = ap.parse_args()
    if a.scores:
        with open(a.scores) as f:
            report(json.load(f), a, None)
        return
    with open(os.path.join(DATA, "splits", a.split + ".txt")) as f:
        meetings = f.read().split()
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([a.example, "--analysis-out", d, "--classifier", a.classifier, "--horizon", a.horizon]
                       + [os.path.join(DATA, m + EXT[a.input]) for m in meetings], check=True)
        jout = os.path.join(d, "scores.json")
        shown = subprocess.run([sys.executable, TOOL, "--from-json", d, DATA, "--meetings", "split:" + a.split,
                                "--json-out", jout, "--show", "6"], check=True, capture_output=True, text=True)
        with open(jout) as f:
            out = json.load(f)
    report(out, a, shown.stdout)


def report(out, a, shown):
    per = out["per_meeting"]
    rng = random.Random(13)
    names = sorted(per)
    print("%s, %s, %s, horizon %s: %d meetings; 95 %% bootstrap intervals over meetings (%d draws)"
          % (a.split, a.input, a.classifier, a.horizon, len(names), a.draws))
    print("%-15s %6s %6s %6s  %-21s %-21s %-21s" % ("class", "gold", "ours", "tp", "P", "R", "F1"))
    for k in CLASSES:
        tot = [sum(per[m][k][x] for m in names) for x in ("tp", "gold", "pred")]
        p, r, f = prf(*tot)
        draws = []
        for _ in range(a.draws):
            s = [rng.choice(names) for _ in names]
            draws.append(prf(*[sum(per[m][k][x] for m in s) for x in ("tp", "gold", "pred")]))
        ci = []
        for j in range(3):
            v = sorted(x[j] for x in draws)
            ci.append((v[int(0.025 * len(v))], v[int(0.975 * len(v)) - 1]))
        print("%-15s %6d %6d %6d  %.3f [%.3f, %.3f]  %.3f [%.3f, %.3f]  %.3f [%.3f, %.3f]"
              % (k, tot[1], tot[2], tot[0], p, *ci[0], r, *ci[1], f, *ci[2]))
    hit, n = fg_recall(out["confusion"])
    print("fg floor grabs as turn-taking onsets: %d/%d = %.3f" % (hit, n, hit / n if n else 0.0))
    if a.tables and shown:
        print()
        print(shown)


if __name__ == "__main__":
    main()
