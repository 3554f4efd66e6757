#!/usr/bin/env python3
"""DER with spy-der's Python API on RTTM files, printed with 4 decimals.

usage: spyder_score.py REF.rttm HYP.rttm [--uem U] [--collar SECONDS_PER_SIDE] [--skip-overlap]
"""
import argparse
from collections import defaultdict

import spyder


def load(path):
    out = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            f = line.split()
            if len(f) < 9 or f[0] != "SPEAKER":
                continue
            on = float(f[3])
            out[f[1]].append((f[7], on, on + float(f[4])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("hyp")
    ap.add_argument("--uem")
    ap.add_argument("--collar", type=float, default=0.0)
    ap.add_argument("--skip-overlap", action="store_true")
    a = ap.parse_args()
    ref, hyp = load(a.ref), load(a.hyp)
    uem = None
    if a.uem:
        uem = defaultdict(list)
        with open(a.uem, encoding="utf-8") as fh:
            for line in fh:
                f = line.split()
                if len(f) >= 4:
                    uem[f[0]].append((float(f[2]), float(f[3])))
    regions = "nonoverlap" if a.skip_overlap else "all"
    m = spyder.DER(ref, hyp, uem=uem, regions=regions, collar=a.collar, per_file=False)["Overall"]
    total = m.duration
    print("DER=%.4f%% scored=%.3f miss=%.3f fa=%.3f conf=%.3f" % (
        100 * m.der, total, m.miss * total, m.falarm * total, m.conf * total))


if __name__ == "__main__":
    main()
