#!/usr/bin/env python3
"""The candidate-recall ceiling of the calibrated classifier (docs/agreement.md): how many gold
events of each class have a candidate of overtalk's that check_mrda.py could match (same
speaker, onset within ±500 ms, one-to-one), whatever the classifier decides.

  backchannel     candidates: every talkspurt start (the classifier tags talkspurts)
  interruption    candidates: every onset with a floor holder (the classifier relabels onsets)
  failed attempt  the same onsets

and, for comparison, every input segment start (an utterance start, which the 200 ms bridge
of S2 may merge into a longer talkspurt). Reads the rows of examples/calibration_rows (the same
analysis as `overtalk analyze`); the train split by default (never the held-out test split).

  python3 scripts/calibrate/ceiling.py [--split train] [--input nomarks|rttm] [--classifier rules|calibrated|joint]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402  (paths, the example's rows, the gold loader)

check_mrda = train.check_mrda


def segment_starts(m, mode):
    """(speaker, start ms) of every input segment: RTTM lines or VTT cues (the input)."""
    path = os.path.join(train.DATA, m + train.MODES[mode])
    out = []
    with open(path, encoding="utf-8") as f:
        if mode == "timing":
            for line in f:
                p = line.split()
                if len(p) >= 8 and p[0] == "SPEAKER":
                    out.append((p[7], int(round(float(p[3]) * 1000))))
        else:
            text = f.read().split("\n\n")
            for block in text:
                lines = block.strip().splitlines()
                at = next((k for k, l in enumerate(lines) if "-->" in l), None)
                if at is None or at + 1 >= len(lines):
                    continue
                a = lines[at].split("-->")[0].strip()
                h, mi, s = a.split(":")
                t = int(round((int(h) * 3600 + int(mi) * 60 + float(s)) * 1000))
                v = lines[at + 1]
                if v.startswith("<v "):
                    out.append((v[3:v.index(">")], t))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="train", choices=("train", "val"))
    ap.add_argument("--input", default="nomarks", choices=("nomarks", "rttm"))
    ap.add_argument("--classifier", default="rules", choices=("rules", "calibrated", "joint"),
                    help="whose backchannel decisions leave the onsets (default: the rules')")
    a = ap.parse_args()
    mode = "text" if a.input == "nomarks" else "timing"
    meetings = train.split(a.split)
    dump = train.rows(meetings, mode, None, a.classifier)
    tot = {}
    for m in meetings:
        events, ex = train.gold(m)
        d = dump[m]
        spk = d["speakers"]
        spurts = [{"speaker": spk[s[0]], "t": s[1]} for s in d["spurts"]]
        onsets = [{"speaker": spk[o[0]], "t": o[1]} for o in d["onsets"] if o[5]]
        segs = [{"speaker": s, "t": t} for s, t in segment_starts(m, mode)]
        for name, typ, key in (("backchannel", "backchannel", "start"),
                               ("interruption", "interruption", "time"),
                               ("failed_attempt", "failed_attempt", "time")):
            g = [{"speaker": e["speaker"], "t": e[key]} for e in events if e["type"] == typ]
            c = tot.setdefault(name, {"gold": 0, "talkspurts": 0, "onsets": 0, "segments": 0})
            c["gold"] += len(g)
            c["talkspurts"] += len(check_mrda.match_events(g, spurts, train.TOL)[0])
            c["onsets"] += len(check_mrda.match_events(g, onsets, train.TOL)[0])
            c["segments"] += len(check_mrda.match_events(g, segs, train.TOL)[0])
    print("| class | gold | talkspurt starts | onsets with a holder | input segment starts |")
    print("| --- | ---: | --- | --- | --- |")
    for name, c in tot.items():
        n = max(1, c["gold"])
        print("| %s | %d | %d (%.3f) | %d (%.3f) | %d (%.3f) |" % (
            name, c["gold"], c["talkspurts"], c["talkspurts"] / n, c["onsets"], c["onsets"] / n,
            c["segments"], c["segments"] / n))


if __name__ == "__main__":
    main()
