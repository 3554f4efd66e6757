#!/usr/bin/env python3
"""DER with pyannote.metrics on RTTM files (whole-process timing peer of `overtalk score`).

usage: pyannote_score.py REF.rttm HYP.rttm [--uem U] [--collar SECONDS_PER_SIDE] [--skip-overlap] [--jer]

pyannote's `collar` is the total width, so the per-side collar is doubled here.
Prints the corpus components and DER with 4 decimals.
"""
import argparse
import warnings

from pyannote.core import Annotation, Segment, Timeline
from pyannote.metrics.diarization import DiarizationErrorRate, JaccardErrorRate


def load_rttm(path):
    out = {}
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            f = line.split()
            if len(f) < 9 or f[0] != "SPEAKER":
                continue
            on, dur = float(f[3]), float(f[4])
            ann = out.setdefault(f[1], Annotation(uri=f[1]))
            ann[Segment(on, on + dur), str(i)] = f[7]
    return out


def load_uem(path):
    out = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            f = line.split()
            if len(f) >= 4 and not f[0].startswith((";", "#")):
                out.setdefault(f[0], []).append(Segment(float(f[2]), float(f[3])))
    return {k: Timeline(v, uri=k) for k, v in out.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("hyp")
    ap.add_argument("--uem")
    ap.add_argument("--collar", type=float, default=0.0)
    ap.add_argument("--skip-overlap", action="store_true")
    ap.add_argument("--jer", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    ref, hyp = load_rttm(a.ref), load_rttm(a.hyp)
    uem = load_uem(a.uem) if a.uem else {}
    der = DiarizationErrorRate(collar=2 * a.collar, skip_overlap=a.skip_overlap)
    jer = JaccardErrorRate(collar=2 * a.collar, skip_overlap=a.skip_overlap) if a.jer else None
    for uri in sorted(ref):
        h = hyp.get(uri, Annotation(uri=uri))
        der(ref[uri], h, uem=uem.get(uri))
        if jer is not None:
            jer(ref[uri], h, uem=uem.get(uri))
    c = der.accumulated_
    line = "DER=%.4f%% scored=%.3f miss=%.3f fa=%.3f conf=%.3f" % (
        100 * abs(der), c["total"], c["missed detection"], c["false alarm"], c["confusion"])
    if jer is not None:
        line += " JER=%.4f%%" % (100 * abs(jer))
    print(line)


if __name__ == "__main__":
    main()
