#!/usr/bin/env python3
"""Heldner & Edlund intervals: overtalk's acoustic layer against pympi-ling.

For every two-speaker pair of the AMI test meetings (only_words RTTMs), compare the counts and
summed durations of the eight classes pympi's `Eaf.get_gaps_and_overlaps2` reports (P1/P2
pauses, G12/G21 gaps, O12/O21 between-speaker overlaps, W12/W21 within-speaker overlaps) with
the intervals of `overtalk analyze --preset he2010 --latch-tolerance 0` on the same pair
(acoustic layer; overtalk's zero-length NGNO events and unbounded runs have no pympi class and
are left out). The run is repeated with `--bridge-pause 0` (no same-speaker bridging, which is
how pympi treats turns; conversation-metrics.md §8 invariant 11).

Usage: bench/pympi_agreement.py OVERTALK_BINARY RTTM_DIR [PEER_TSV]
Prints per-configuration agreement counts; writes per-pair rows to bench/out/pympi_agreement.tsv.

       bench/pympi_agreement.py --timing [--repeat N] [--v1] RTTM_DIR
Times pympi alone on the same pairs: every pair's Eaf is built first, then the timed part is
`get_gaps_and_overlaps2` over all pairs (best of N passes, default 3). Prints one JSON line
(pairs, intervals, seconds); `crates/overtalk/examples/he_pairs.rs` is overtalk's counterpart.
With --v1 it also times pympi's original `get_gaps_and_overlaps` (which visits every
millisecond and scans all turns of both tiers at each) on the pair with the shortest span only,
beside `get_gaps_and_overlaps2` on that pair: a second JSON line.
"""

import csv
import io
import itertools
import os
import subprocess
import sys
import time
from collections import defaultdict

import pympi

CLASSES = ["P1", "P2", "G12", "G21", "O12", "O21", "W12", "W21"]


def read_rttm(path):
    """meeting -> speaker -> sorted [(start_ms, end_ms)]; lines as (meeting, speaker, line)."""
    turns = defaultdict(lambda: defaultdict(list))
    lines = defaultdict(list)
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p or p[0] != "SPEAKER":
                continue
            meeting, start, dur, spk = p[1], float(p[3]), float(p[4]), p[7]
            # integer ms, as the peer results were computed
            s = int(round(start * 1000))
            e = int(round((start + dur) * 1000))
            if e > s:
                turns[meeting][spk].append((s, e))
                lines[(meeting, spk)].append(line)
    for m in turns:
        for s in turns[m]:
            turns[m][s].sort()
    return turns, lines


def eaf_of(a, b):
    """A pympi `Eaf` holding turns `a` on tier t1 and `b` on tier t2 (integer ms)."""
    eaf = pympi.Elan.Eaf()
    eaf.add_tier("t1")
    eaf.add_tier("t2")
    for s, e in a:
        eaf.add_annotation("t1", s, e)
    for s, e in b:
        eaf.add_annotation("t2", s, e)
    return eaf


def pympi_classes(a, b):
    eaf = eaf_of(a, b)
    out = {c: [0, 0] for c in CLASSES}
    intervals = set()
    for s, e, ty in eaf.get_gaps_and_overlaps2("t1", "t2"):
        out[ty][0] += 1
        out[ty][1] += e - s
        intervals.add((s, e, ty))
    return out, intervals


def overtalk_classes(binary, rttm_text, t1, t2, extra):
    cmd = [binary, "analyze", "-", "--from", "rttm", "-q", "--preset", "he2010",
           "--latch-tolerance", "0", "--format", "csv", "--events", "intervals"] + extra
    res = subprocess.run(cmd, input=rttm_text.encode(), capture_output=True, check=True)
    out = {c: [0, 0] for c in CLASSES}
    intervals = set()
    num = {t1: "1", t2: "2"}
    for row in csv.DictReader(io.StringIO(res.stdout.decode())):
        if row["layer"] != "acoustic":
            continue
        kind, prev, nxt = row["kind"], row["prev"], row["next"]
        dur = int(row["end"]) - int(row["start"])
        if kind == "pause":
            c = "P" + num[prev]
        elif kind == "gap":
            c = "G" + num[prev] + num[nxt]
        elif kind == "overlap_between":
            c = "O" + num[prev] + num[nxt]
        elif kind == "overlap_within":
            # W12: tier2 inside tier1's solo speech
            other = t2 if prev == t1 else t1
            c = "W" + num[prev] + num[other]
        else:  # ngno, unbounded_*: no pympi class
            continue
        out[c][0] += 1
        out[c][1] += dur
        intervals.add((int(row["start"]), int(row["end"]), c))
    return out, intervals


def pairs_of(rttm_dir):
    """Every two-speaker pair of every meeting: (meeting, tier1, tier2, turns1, turns2)."""
    for name in sorted(os.listdir(rttm_dir)):
        if not name.endswith(".rttm"):
            continue
        turns, _ = read_rttm(os.path.join(rttm_dir, name))
        for meeting in sorted(turns):
            for t1, t2 in itertools.combinations(sorted(turns[meeting]), 2):
                yield meeting, t1, t2, turns[meeting][t1], turns[meeting][t2]


def timing(argv):
    repeat = 3
    if "--repeat" in argv:
        i = argv.index("--repeat")
        repeat = int(argv[i + 1])
        del argv[i:i + 2]
    v1 = "--v1" in argv
    if v1:
        argv.remove("--v1")
    rttm_dir = argv[0]
    eafs = []
    spans = []
    for _, _, _, a, b in pairs_of(rttm_dir):
        spans.append(max(a[-1][1], b[-1][1]) - min(a[0][0], b[0][0]))
        eafs.append(eaf_of(a, b))
    best = float("inf")
    intervals = 0
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        intervals = sum(len(list(eaf.get_gaps_and_overlaps2("t1", "t2"))) for eaf in eafs)
        best = min(best, time.perf_counter() - start)
    print(f'{{"tool": "pympi-ling get_gaps_and_overlaps2", "pairs": {len(eafs)}, '
          f'"intervals": {intervals}, "seconds": {best:.6f}}}')
    if v1:
        i = spans.index(min(spans))
        start = time.perf_counter()
        n1 = len(list(eafs[i].get_gaps_and_overlaps("t1", "t2")))
        t1 = time.perf_counter() - start
        start = time.perf_counter()
        n2 = len(list(eafs[i].get_gaps_and_overlaps2("t1", "t2")))
        t2 = time.perf_counter() - start
        turns = sum(len(eafs[i].tiers[t][0]) for t in ("t1", "t2"))
        print(f'{{"tool": "pympi-ling get_gaps_and_overlaps (v1), shortest pair", '
              f'"span_ms": {spans[i]}, "turns": {turns}, "intervals_v1": {n1}, '
              f'"seconds_v1": {t1:.6f}, "intervals_v2": {n2}, "seconds_v2": {t2:.6f}}}')


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--timing":
        return timing(sys.argv[2:])
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, rttm_dir = sys.argv[1], sys.argv[2]
    peer_tsv = sys.argv[3] if len(sys.argv) > 3 else None
    peer = {}
    if peer_tsv and os.path.exists(peer_tsv):
        with open(peer_tsv) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                peer[(row["meeting"], row["tier1"], row["tier2"])] = {
                    c: [int(row[c]), int(row["ms_" + c])] for c in CLASSES}
    configs = {"he2010 (bridge 20 ms)": [], "bridge 0": ["--bridge-pause", "0"]}
    rows = []
    pairs = 0
    agree_counts = defaultdict(int)
    agree_all = defaultdict(int)
    class_agree = defaultdict(lambda: defaultdict(int))
    totals = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    live_vs_tsv = 0
    diff_total = defaultdict(int)
    diff_tie = defaultdict(int)
    for name in sorted(os.listdir(rttm_dir)):
        if not name.endswith(".rttm"):
            continue
        turns, lines = read_rttm(os.path.join(rttm_dir, name))
        for meeting in sorted(turns):
            for t1, t2 in itertools.combinations(sorted(turns[meeting]), 2):
                pairs += 1
                pm, pm_set = pympi_classes(turns[meeting][t1], turns[meeting][t2])
                a, b = turns[meeting][t1], turns[meeting][t2]
                shared = ({s for s, _ in a} & {s for s, _ in b}) | ({e for _, e in a} & {e for _, e in b})
                key = (meeting, t1, t2)
                if key in peer and peer[key] == pm:
                    live_vs_tsv += 1
                text = "".join(lines[(meeting, t1)] + lines[(meeting, t2)])
                for c in CLASSES:
                    totals["pympi"][c][0] += pm[c][0]
                    totals["pympi"][c][1] += pm[c][1]
                for label, extra in configs.items():
                    ot, ot_set = overtalk_classes(binary, text, t1, t2, extra)
                    for s, e, _ in pm_set ^ ot_set:
                        diff_total[label] += 1
                        diff_tie[label] += s in shared or e in shared
                    same_counts = all(ot[c][0] == pm[c][0] for c in CLASSES)
                    same_all = all(ot[c] == pm[c] for c in CLASSES)
                    agree_counts[label] += same_counts
                    agree_all[label] += same_all
                    for c in CLASSES:
                        class_agree[label][c] += ot[c][0] == pm[c][0]
                        totals[label][c][0] += ot[c][0]
                        totals[label][c][1] += ot[c][1]
                    rows.append([meeting, t1, t2, label] + [f"{ot[c][0]}/{pm[c][0]}" for c in CLASSES])
    os.makedirs("bench/out", exist_ok=True)
    with open("bench/out/pympi_agreement.tsv", "w") as f:
        f.write("\t".join(["meeting", "tier1", "tier2", "config"] + [c + " overtalk/pympi" for c in CLASSES]) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"pairs: {pairs}")
    if peer:
        print(f"live pympi {pympi.__version__ if hasattr(pympi, '__version__') else ''} equals the precomputed TSV on {live_vs_tsv}/{pairs} pairs")
    for label in configs:
        print(f"[{label}] all eight class counts equal on {agree_counts[label]}/{pairs} pairs; "
              f"counts and summed durations equal on {agree_all[label]}/{pairs}")
        print(f"   intervals in only one of the two outputs: {diff_total[label]}, of which "
              f"{diff_tie[label]} start or end where both speakers start or end at the same ms")
        print("   per class, pairs with equal count: " +
              ", ".join(f"{c} {class_agree[label][c]}" for c in CLASSES))
    print("totals over all pairs (count / seconds):")
    print("   class  " + "  ".join(f"{k:>22}" for k in ["pympi"] + list(configs)))
    for c in CLASSES:
        cells = [f"{totals[k][c][0]:>8} / {totals[k][c][1] / 1000:>10.2f}" for k in ["pympi"] + list(configs)]
        print(f"   {c:5}  " + "  ".join(f"{x:>22}" for x in cells))


if __name__ == "__main__":
    main()
