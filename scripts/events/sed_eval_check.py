#!/usr/bin/env python3
"""Compare `overtalk score --events` matching counts with sed_eval 0.2.1.

Reads the JSON of `overtalk score --events --format json` (a file, or - for stdin). The
reference and hypothesis event lists of every recording are rebuilt from its `matched` pairs
and `unmatched` events; each class is then evaluated by sed_eval's EventBasedMetrics with
evaluate_onset=True, evaluate_offset=False, t_collar = the report's tolerance and the default
optimal (maximum bipartite) matching. The speakers an event names are its sed_eval label
(`speaker|other`), so two events can only match when class and speakers agree, as in overtalk.

Per class, TP is the sum of sed_eval's class-wise Ntp over the labels of the class, FP is
Nsys - Ntp and FN is Nref - Ntp. Prints one line per class and exits 1 on any difference.
"""
import collections
import json
import sys

import dcase_util
import sed_eval


def lists(rec):
    ref = collections.defaultdict(list)
    hyp = collections.defaultdict(list)
    for m in rec["matched"]:
        label = "%s|%s" % (m["speaker"], m["other"])
        ref[m["class"]].append((m["reference"], label))
        hyp[m["class"]].append((m["hypothesis"], label))
    for u in rec["unmatched"]:
        label = "%s|%s" % (u["speaker"], u["other"])
        side = ref if u["side"] == "reference" else hyp
        side[u["class"]].append((u["time"], label))
    return ref, hyp


def container(rec_id, events):
    # Offsets are not evaluated; one millisecond keeps every event non-empty.
    return dcase_util.containers.MetaDataContainer(
        [
            {
                "filename": rec_id,
                "event_label": label,
                "onset": t / 1000.0,
                "offset": t / 1000.0 + 0.001,
            }
            for t, label in events
        ]
    )


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "-"
    report = json.load(sys.stdin if path == "-" else open(path, encoding="utf-8"))
    tol = report["options"]["tolerance"] / 1000.0
    ours = {c["class"]: c for c in report["classes"]}
    theirs = collections.defaultdict(lambda: [0, 0, 0])
    for rec in report["recordings"]:
        ref, hyp = lists(rec)
        for cls in set(ref) | set(hyp):
            r, h = ref.get(cls, []), hyp.get(cls, [])
            labels = sorted({l for _, l in r} | {l for _, l in h})
            m = sed_eval.sound_event.EventBasedMetrics(
                event_label_list=labels,
                evaluate_onset=True,
                evaluate_offset=False,
                t_collar=tol,
            )
            m.evaluate(container(rec["id"], r), container(rec["id"], h))
            for l in labels:
                cw = m.class_wise[l]
                tp = int(cw["Ntp"])
                theirs[cls][0] += tp
                theirs[cls][1] += int(cw["Nsys"]) - tp
                theirs[cls][2] += int(cw["Nref"]) - tp
    bad = 0
    print("%-28s %17s %17s" % ("class", "overtalk TP/FP/FN", "sed_eval TP/FP/FN"))
    for cls, c in ours.items():
        a = (c["tp"], c["fp"], c["fn"])
        b = tuple(theirs[cls])
        flag = "" if a == b else "   DIFFERENT"
        bad += a != b
        print("%-28s %17s %17s%s" % (cls, "%d/%d/%d" % a, "%d/%d/%d" % b, flag))
    print("sed_eval %s: %s" % (sed_eval.__version__, "identical" if not bad else "%d class(es) differ" % bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
