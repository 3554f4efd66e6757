#!/usr/bin/env python3
"""What the joins of an `overtalk cut` render add to the signal, apart from the signal itself.

usage: join_quality.py RTTM REMOVED CUT.csv RENDER.wav CROSSFADE_MS FPS MIC.wav...

The render is rebuilt here, independently of overtalk, from the documented rule
(docs/cut.md, crates/overtalk-audio/src/render.rs): the kept microphones (every MIC but the
REMOVED speaker's) summed and multiplied by the ducking gain (-40 dB during REMOVED's solo
speech, raised-cosine ramps of the crossfade's length centred on its edges), each clip of the
cut list copied from its source frames to its record frames, joined clips crossfaded with
w(k) = 1/2 - 1/2 cos(pi (k + 1/2) / n) centred on the join, edges next to gaps faded inside
the clip. Around each cut edge the output is y(p) = sum_c W_c(p) x(p - r_c + s_c) over the
clips c that play there (weight W_c, record start r_c, source start s_c, x the ducked mix).

Two figures per edge, over the crossfade and one sample either side:

  artefact   max |render - ideal|: what the render does that the ideal raised-cosine blend
             of the same source stretches does not (misplaced samples, a wrong ramp, DC).
  added      max |dy(p) - sum_c W_c(p+1) dx_c(p)|: the part of the render's sample-to-sample
             step that neither source's own step explains -- the discontinuity of the join.
             For the ideal blend it is sum_c dW_c(p) x_c(p); a hard cut from a to b adds
             |b - a|; a raised-cosine crossfade of n samples adds at most pi/(2n) |b - a|.

Prints one JSON object: the worst edge of each figure (dBFS), the number of edges, and the
body error (max |render - ideal| outside the edges: the clip bodies are plain copies).
"""

import csv
import json
import math
import struct
import sys

import numpy as np


def read_wav(path):
    with open(path, "rb") as f:
        data = f.read()
    i, fmt = 12, None
    while i + 8 <= len(data):
        cid, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        body = data[i + 8:i + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif cid == b"data":
            tag, ch, rate, _, _, bits = fmt
            flt = tag == 3 or (tag == 0xFFFE and bits == 32)
            x = np.frombuffer(body, np.float32 if flt else np.int16).astype(np.float64)
            if not flt:
                x /= 32768.0
            return rate, x.reshape(-1, ch).mean(axis=1)
        i += 8 + size + (size & 1)
    raise ValueError(f"{path}: no data chunk")


def micros(s):
    """Seconds as written in the RTTM to integer microseconds (as overtalk reads them)."""
    whole, _, frac = s.partition(".")
    sign = -1 if whole.startswith("-") else 1
    return sign * (abs(int(whole or "0")) * 1_000_000 + int((frac + "000000")[:6]))


def union(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def difference(x, y):
    out = []
    for a, b in x:
        cur = a
        for c, d in y:
            if d <= cur or c >= b:
                continue
            if c > cur:
                out.append([cur, c])
            cur = max(cur, d)
        if cur < b:
            out.append([cur, b])
    return out


def fade(k, n):
    return 0.5 - 0.5 * math.cos(math.pi * (k + 0.5) / n)


def main():
    rttm, removed, cut_csv, render, cf_ms, fps, *mics = sys.argv[1:]
    num, den = {"23.976": (24000, 1001), "29.97": (30000, 1001), "59.94": (60000, 1001)}.get(
        fps, (int(fps), 1))
    rate = None
    kept = None
    for m in mics:
        r, x = read_wav(m)
        rate = rate or r
        if m.rsplit("_", 1)[1][:-4] == removed:
            continue
        kept = x.copy() if kept is None else _add(kept, x)
    n = max(rate * int(cf_ms) // 1000, 1)
    half = n // 2

    # The ducking gain over the removed speaker's solo speech.
    speech = {}
    for line in open(rttm):
        f = line.split()
        if f and f[0] == "SPEAKER":
            a = micros(f[3])
            speech.setdefault(f[7], []).append((a, a + micros(f[4])))
    others = union([iv for s, v in speech.items() if s != removed for iv in v])
    solo = difference(union(speech[removed]), others)
    duck = 10 ** (-40 / 20)
    g = np.ones(len(kept))
    samp = lambda t: (t * rate + 500_000) // 1_000_000
    w = np.array([fade(k, n) for k in range(n)])
    for a, b in solo:
        a, b = samp(a), min(samp(b), len(kept) + n)
        for k in range(n):
            for i, v in ((a - half + k, 1 - w[k] * (1 - duck)), (b - half + k, duck + w[k] * (1 - duck))):
                if 0 <= i < len(g):
                    g[i] = min(g[i], v)
        lo, hi = max(a - half + n, 0), min(b - half, len(g))
        if lo < hi:
            g[lo:hi] = np.minimum(g[lo:hi], duck)
    x = (kept * g).astype(np.float32).astype(np.float64)

    def src(i):
        return x[i] if 0 <= i < len(x) else 0.0

    sample = lambda f: max((2 * f * den * rate + num) // (2 * num), 0)
    rows = list(csv.DictReader(open(cut_csv)))
    clips = []
    for r in rows:
        s0, d, r0 = int(r["source_in_frame"]), int(r["duration_frames"]), int(r["record_in_frame"])
        clips.append((sample(s0), sample(r0), sample(r0 + d) - sample(r0), r0, r0 + d))
    _, y = read_wav(render)
    total = len(y)

    # The ideal output: bodies and fades first, crossfades over both bodies after (as documented).
    ideal = np.zeros(total)
    edges = []  # (lo, hi, [(weights over [lo, hi), source offset)])
    for i, (s0, r0, length, f0, f1) in enumerate(clips):
        joined_before = i > 0 and clips[i - 1][4] == f0
        joined_after = i + 1 < len(clips) and clips[i + 1][3] == f1
        for p in range(max(r0, 0), min(r0 + length, total)):
            ideal[p] = src(s0 + p - r0)
        m = min(n, length)
        if not joined_before and f0 > 0:
            ideal[r0:r0 + m] *= w_of(m)[:len(ideal[r0:r0 + m])]
            edges.append((r0, r0 + m, [(w_of(m), s0 - r0)]))
        r1 = r0 + length
        if not joined_after and r1 < total:
            ideal[r1 - m:r1] *= 1 - w_of(m)
            edges.append((r1 - m, r1, [(1 - w_of(m), s0 - r0)]))
    for i, (s0, r0, length, f0, f1) in enumerate(clips):
        if i + 1 < len(clips) and clips[i + 1][3] == f1:
            t0, r1, s1 = clips[i + 1][0], r0 + length, s0 + length
            for k in range(n):
                p = r1 - half + k
                if 0 <= p < total:
                    ideal[p] = src(s1 + p - r1) * (1 - w[k]) + src(t0 + p - r1) * w[k]
            edges.append((r1 - half, r1 - half + n, [(1 - w, s1 - r1), (w, t0 - r1)]))
    worst_art, worst_add = 0.0, 0.0
    inside = np.zeros(total, bool)
    for lo, hi, parts in edges:
        inside[max(lo - 1, 0):max(min(hi + 1, total), 0)] = True
        # Each weight over [lo - 1, hi + 1): a falling curve is 1 before its window and 0
        # after, a rising one the reverse.
        ext = []
        for wv, off in parts:
            before = 1.0 if wv[0] > wv[-1] else 0.0
            ext.append((np.concatenate([[before], wv, [1.0 - before]]), off))
        for p in range(lo - 1, hi):
            if p < 0 or p + 1 >= total:
                continue
            worst_art = max(worst_art, abs(y[p] - ideal[p]), abs(y[p + 1] - ideal[p + 1]))
            own = sum(we[p + 1 - (lo - 1)] * (src(p + 1 + off) - src(p + off)) for we, off in ext)
            worst_add = max(worst_add, abs((y[p + 1] - y[p]) - own))
    body = np.abs(y - ideal)[~inside]
    db = lambda v: round(20 * math.log10(v), 1) if v > 0 else None
    print(json.dumps({
        "edges": len(edges),
        "artefact_dbfs": db(worst_art),
        "added_step_dbfs": db(worst_add),
        "body_error_dbfs": db(body.max() if len(body) else 0.0),
        "crossfade_samples": n,
        "rate": rate,
    }))


def _add(a, b):
    n = max(len(a), len(b))
    out = np.zeros(n)
    out[:len(a)] += a
    out[:len(b)] += b
    return out


def w_of(m):
    return np.array([fade(k, m) for k in range(m)])


if __name__ == "__main__":
    main()
