#!/usr/bin/env python3
"""What separates the human labels from the rules' classes, on saved outputs of
`overtalk analyze --classifier rules --format json` (one DIR/<meeting>.json per meeting):

  diagnose.py DIR --split train

For the rules' `interruption` onsets: the holder's remaining talk after the onset
(`holder_remaining`) when a human marked the holder cut off (tp) and when not (fp). For the
talkspurts of at most 1 s that start in another speaker's talk: how many are gold `b`, by
whether the rules call them backchannels. Medians and quartiles in ms. Standard library only.
"""
import argparse
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("OVERTALK_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
DATA = os.path.join(SHARED, "human-labels", "mrda")
sys.path.insert(0, os.path.join(os.path.dirname(SHARED.rstrip("/")), "tools"))
import check_mrda  # noqa: E402


def q(v):
    if not v:
        return "n 0"
    v = sorted(v)
    return "n %d, median %d, quartiles %d–%d" % (len(v), statistics.median(v), v[len(v) // 4], v[3 * len(v) // 4])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--split", default="train")
    a = ap.parse_args()
    with open(os.path.join(DATA, "splits", a.split + ".txt")) as f:
        meetings = f.read().split()
    rem = {"tp": [], "fp": []}
    short = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    dur_b = {"rules bc": [], "rules not bc": []}
    for m in meetings:
        meta, events, _ = check_mrda.load_gold(DATA, m)
        with open(os.path.join(a.dir, m + ".json")) as f:
            rep = check_mrda.parse_output(f.read())
        ints = [o for o in rep["onsets"] if o["class"] == "interruption"]
        g = [{"speaker": e["speaker"], "t": e["time"]} for e in events if e["type"] == "interruption"]
        pairs, _, _ = check_mrda.match_events(g, [{"speaker": o["speaker"], "t": o["time"]} for o in ints], 500)
        hit = {j for _, j in pairs}
        for j, o in enumerate(ints):
            if o["holder_remaining"] is not None:
                rem["tp" if j in hit else "fp"].append(o["holder_remaining"])
        sp = rep["talkspurts"]
        gb = [{"speaker": e["speaker"], "t": e["start"]} for e in events if e["type"] == "backchannel"]
        pairs, _, _ = check_mrda.match_events(gb, [{"speaker": s["speaker"], "t": s["start"]} for s in sp], 500)
        isb = {j for _, j in pairs}
        for j, s in enumerate(sp):
            if j in isb:
                dur_b["rules bc" if s["is_backchannel"] else "rules not bc"].append(s["end"] - s["start"])
            if s["end"] - s["start"] <= 1000:
                short[(j in isb, bool(s["is_backchannel"]))] += 1
    print("rules' interruption onsets, holder's remaining talk after the onset (ms):")
    print("  holder cut off per the humans (tp): " + q(rem["tp"]))
    print("  not cut off (fp):                   " + q(rem["fp"]))
    print("talkspurts matched to a gold b, duration (ms):")
    for k, v in dur_b.items():
        print("  %-13s %s" % (k + ":", q(v)))
    print("talkspurts <= 1 s: gold b & rules bc %d, gold b & not %d, not b & rules bc %d, neither %d"
          % (short[(True, True)], short[(True, False)], short[(False, True)], short[(False, False)]))


if __name__ == "__main__":
    main()
