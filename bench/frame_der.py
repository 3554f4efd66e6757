#!/usr/bin/env python3
"""Independent cross-check of the frame-level DER printed by the detect_eval example.

Frame DER at 10 ms, collar 0, overlap scored, speakers matched by label (one mic per speaker):
per frame miss = max(0, r - h), false alarm = max(0, h - r), confusion = min(r, h) - correct.

  python3 bench/frame_der.py REF_DIR HYP_DIR      # pairs <name>.rttm in both folders
"""
import os
import sys

import numpy as np


def load(path):
    segs = []
    for line in open(path):
        f = line.split()
        if f and f[0] == "SPEAKER":
            segs.append((f[7], float(f[3]), float(f[3]) + float(f[4])))
    return segs


def frames(segs, names, n):
    m = np.zeros((len(names), n), dtype=bool)
    for s, a, b in segs:
        m[names.index(s), int(round(a * 100)):int(round(b * 100))] = True
    return m


def main():
    ref_dir, hyp_dir = sys.argv[1], sys.argv[2]
    tot = miss = fa = conf = 0
    ro_all = ho_all = both_all = 0
    for name in sorted(os.listdir(hyp_dir)):
        if not name.endswith(".rttm") or not os.path.exists(os.path.join(ref_dir, name)):
            continue
        ref, hyp = load(os.path.join(ref_dir, name)), load(os.path.join(hyp_dir, name))
        names = sorted({s for s, _, _ in ref + hyp})
        n = int(round(max(b for _, _, b in ref + hyp) * 100)) + 1
        r, h = frames(ref, names, n), frames(hyp, names, n)
        nr, nh, nc = r.sum(0), h.sum(0), (r & h).sum(0)
        tot += nr.sum(); miss += np.maximum(0, nr - nh).sum(); fa += np.maximum(0, nh - nr).sum()
        conf += (np.minimum(nr, nh) - nc).sum()
        ro, ho = nr >= 2, nh >= 2
        ro_all += ro.sum(); ho_all += ho.sum(); both_all += (ro & ho).sum()
        print(f"{name:<24} DER {100 * (np.maximum(0, nr - nh).sum() + np.maximum(0, nh - nr).sum() + (np.minimum(nr, nh) - nc).sum()) / nr.sum():6.2f} %")
    print(f"OVERALL DER {100 * (miss + fa + conf) / tot:.2f} % (miss {100 * miss / tot:.2f}, fa {100 * fa / tot:.2f}, "
          f"conf {100 * conf / tot:.2f}); overlap recall {both_all / max(1, ro_all):.3f} precision {both_all / max(1, ho_all):.3f}")


if __name__ == "__main__":
    main()
