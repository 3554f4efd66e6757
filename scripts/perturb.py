#!/usr/bin/env python3
"""Make perturbed hypotheses from reference RTTMs (standard library only).

Per recording, deterministically for a given --seed and input order:

  * turn boundaries are jittered (onset and offset independently, uniform in
    [-jitter, +jitter] seconds);
  * with probability --swap a turn is given to another speaker of the recording;
  * with probability --drop a turn is deleted;
  * with probability --false-alarm a short turn (--fa-min..--fa-max s) of a random
    speaker is inserted just after a turn;
  * with --rename, speaker labels become anonymous ids (spk0, spk1, ...) in a
    random order, so the scorer must find the mapping;
  * same-speaker turns that overlap or touch afterwards are merged (unless
    --keep-self-overlap), times are clipped at 0 and written with --decimals
    places; turns that become shorter than one unit are dropped.

Output: one RTTM file (-o file.rttm, or - for stdout) or, with -o DIR/, one
file per recording. A summary goes to stderr.

Example:
  scripts/perturb.py ami/only_words/rttms/test -o sys/ \\
      --jitter 0.2 --swap 0.05 --drop 0.02 --false-alarm 0.02 --rename --seed 1
"""
import argparse
import collections
import os
import random
import re
import sys


def rttm_paths(inputs):
    out = []
    for p in inputs:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".rttm"))
        else:
            out.append(p)
    return out


def read(inputs):
    recs = collections.OrderedDict()
    for path in rttm_paths(inputs):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                f = line.split()
                if len(f) < 9 or f[0] != "SPEAKER":
                    continue
                on, dur = float(f[3]), float(f[4])
                if dur <= 0:
                    continue
                recs.setdefault(f[1], []).append((f[7], on, on + dur))
    return recs


def merge(turns):
    per = collections.defaultdict(list)
    for t in turns:
        per[t[0]].append(list(t))
    out, merged = [], 0
    for spk in sorted(per):
        cur = None
        for t in sorted(per[spk], key=lambda x: (x[1], x[2])):
            if cur is not None and t[1] <= cur[2]:
                cur[2] = max(cur[2], t[2])
                merged += 1
            else:
                if cur is not None:
                    out.append(cur)
                cur = t
        if cur is not None:
            out.append(cur)
    return out, merged


def perturb(rid, turns, a, rng, stats):
    speakers = sorted({t[0] for t in turns})
    new = []
    for spk, on, off in sorted(turns, key=lambda t: (t[1], t[2], t[0])):
        stats["in"] += 1
        if rng.random() < a.drop:
            stats["dropped"] += 1
            continue
        on2 = max(0.0, on + rng.uniform(-a.jitter, a.jitter))
        off2 = max(0.0, off + rng.uniform(-a.jitter, a.jitter))
        if len(speakers) > 1 and rng.random() < a.swap:
            spk = rng.choice([s for s in speakers if s != spk])
            stats["swapped"] += 1
        if off2 > on2:
            new.append((spk, on2, off2))
        if rng.random() < a.false_alarm:
            start = off2 + rng.uniform(0.0, 1.0)
            new.append((rng.choice(speakers), start, start + rng.uniform(a.fa_min, a.fa_max)))
            stats["false_alarms"] += 1
    if not a.keep_self_overlap:
        new, m = merge(new)
        stats["merged"] += m
    if a.rename:
        order = speakers[:]
        rng.shuffle(order)
        names = {s: "spk%d" % i for i, s in enumerate(order)}
        new = [(names[s], on, off) for s, on, off in new]
    lines = []
    unit = 10 ** a.decimals
    for spk, on, off in sorted(new, key=lambda t: (t[1], t[2], t[0])):
        on_u, off_u = round(on * unit), round(off * unit)
        if off_u <= on_u:
            stats["too_short"] += 1
            continue
        lines.append("SPEAKER %s 1 %.*f %.*f <NA> <NA> %s <NA> <NA>\n" % (
            rid, a.decimals, on_u / unit, a.decimals, (off_u - on_u) / unit, spk))
        stats["out"] += 1
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="RTTM files or directories of *.rttm")
    ap.add_argument("-o", "--output", default="-", help="file, DIR/ (one file per recording) or - (stdout)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jitter", type=float, default=0.1, help="boundary jitter in seconds")
    ap.add_argument("--swap", type=float, default=0.05, help="probability of a speaker swap")
    ap.add_argument("--drop", type=float, default=0.0, help="probability of dropping a turn")
    ap.add_argument("--false-alarm", type=float, default=0.0, help="probability of inserting a false alarm")
    ap.add_argument("--fa-min", type=float, default=0.05)
    ap.add_argument("--fa-max", type=float, default=1.0)
    ap.add_argument("--rename", action="store_true", help="anonymous speaker labels")
    ap.add_argument("--keep-self-overlap", action="store_true", help="do not merge same-speaker overlaps")
    ap.add_argument("--decimals", type=int, default=3)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    stats = collections.Counter()
    recs = read(a.inputs)
    per_file = a.output.endswith("/") or os.path.isdir(a.output)
    if per_file:
        os.makedirs(a.output, exist_ok=True)
    everything = []
    for rid, turns in recs.items():
        lines = perturb(rid, turns, a, rng, stats)
        if per_file:
            # A recording id is data: one file name inside the output directory, never a path.
            name = re.sub(r"[/\\\x00-\x1f]", "_", rid)
            name = "_" + name[1:] if name.startswith(".") else name or "_"
            with open(os.path.join(a.output, name + ".rttm"), "w", encoding="utf-8") as fh:
                fh.writelines(lines)
        else:
            everything += lines
    if not per_file:
        out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="utf-8")
        out.writelines(everything)
        if out is not sys.stdout:
            out.close()
    print("perturb: recordings=%d %s" % (len(recs), " ".join("%s=%d" % kv for kv in sorted(stats.items()))),
          file=sys.stderr)


if __name__ == "__main__":
    main()
