"""The peer of `overtalk report -o clip.png`: the lanes of an RTTM drawn with matplotlib (the
way pyannote.core's notebook display draws an annotation: one broken_barh row per speaker),
saved as a 1200 px wide PNG. It draws segments only, no analysis.

    python3 bench/card_plot.py FILE.rttm OUT.png
"""
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

lanes = defaultdict(list)
with open(sys.argv[1]) as f:
    for line in f:
        p = line.split()
        if len(p) >= 8 and p[0] == "SPEAKER":
            lanes[p[7]].append((float(p[3]), float(p[4])))
names = sorted(lanes)
fig, ax = plt.subplots(figsize=(12, 1 + 0.4 * len(names)), dpi=100)
for i, n in enumerate(names):
    ax.broken_barh(lanes[n], (i - 0.35, 0.7), color=f"C{i % 10}")
ax.set_yticks(range(len(names)), names)
ax.set_xlabel("time (s)")
fig.savefig(sys.argv[2])
