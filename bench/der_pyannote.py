#!/usr/bin/env python3
"""Independent cross-check of the diarize_eval frame DER with pyannote.metrics (not frame-based:
exact segment boundaries). pyannote's collar is the total width, so 0.5 = 0.25 s on each side.

  bench/.venv/bin/pip install pyannote.metrics
  cargo run --release -p overtalk-audio --example diarize_eval -- MODEL DATA --hyp /tmp/hyp
  bench/.venv/bin/python bench/der_pyannote.py DATA /tmp/hyp
"""
import os
import sys

from pyannote.core import Annotation, Segment
from pyannote.metrics.diarization import DiarizationErrorRate

FILES = {
    "ES2004a": "ami-es2004a-multitrack/mixture.ref.rttm",
    "tst00": "ami-30s-excerpts/tst00.but.rttm",
    "tst01": "ami-30s-excerpts/tst01.but.rttm",
    "dev00": "ami-30s-excerpts/dev00.but.rttm",
    "trn08": "ami-30s-excerpts/trn08.but.rttm",
    "gecko": "gecko-demo-call/demo.rttm",
}


def load(path):
    a = Annotation()
    for i, line in enumerate(open(path)):
        f = line.split()
        if f and f[0] == "SPEAKER":
            s, d = float(f[3]), float(f[4])
            a[Segment(s, s + d), i] = f[7]
    return a


data, hyp = sys.argv[1], sys.argv[2]
for collar in (0.5, 0.0):
    metric = DiarizationErrorRate(collar=collar, skip_overlap=False)
    for fid, ref in FILES.items():
        h = os.path.join(hyp, fid + ".rttm")
        if os.path.exists(h):
            print(f"collar {collar / 2:.2f}/side {fid:8s} DER {100 * metric(load(os.path.join(data, ref)), load(h)):6.1f}%")
    print(f"collar {collar / 2:.2f}/side pooled   DER {100 * abs(metric):6.1f}%")
