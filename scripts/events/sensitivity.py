#!/usr/bin/env python3
"""Sensitivity of the dynamics to diarization error (docs/events.md).

Perturbs the AMI test references with scripts/perturb.py one kind of error at a time
(boundary jitter, missed turns, false-alarm turns, label swaps; speakers renamed, seed 1),
scores each perturbed set and the VBx outputs with `overtalk score --events` (no UEM,
collar 0: the full DER), and prints a Markdown table: DER, event F1 over all classes,
interruption-attempt F1 and count error (with its bootstrap interval), backchannel and
transfer F1, talk-share error and FTO Wasserstein-1.

  scripts/events/sensitivity.py [--bin target/release/overtalk] [--shared ../shared/data]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def score(bin_, ref, hyp):
    out = subprocess.run(
        [bin_, "--quiet", "score", "--events", "--format", "json", "-r", ref, "-s", hyp],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def f1(classes, names):
    tp = sum(c["tp"] for c in classes if c["class"] in names)
    n = sum(c["reference"] + c["hypothesis"] for c in classes if c["class"] in names)
    return 2 * tp / n if n else None


def row(label, rep):
    cl = rep["classes"]
    intr = [c["class"] for c in cl if c["class"].startswith("interruption:")]
    d = rep["distortion"]
    ie = d["interruption_count_error"]
    ci = lambda a, k=100: "%+.1f [%+.1f, %+.1f]" % (a["value"] * k, a["low"] * k, a["high"] * k) if a["low"] is not None else "%+.1f" % (a["value"] * k)
    pct = lambda x: "n/a" if x is None else "%.1f" % (100 * x)
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        label,
        pct(rep["der"]),
        pct(rep["total"]["f1"]),
        pct(f1(cl, intr)),
        ci(ie),
        pct(f1(cl, ["backchannel"])),
        pct(f1(cl, ["transfer"])),
        "%.2f" % d["talk_share_pp"]["value"],
        "%.0f" % d["fto_w1_ms"]["value"],
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/overtalk"))
    ap.add_argument("--shared", default=os.environ.get("OVERTALK_SHARED_DATA", os.path.join(ROOT, "../shared/data")))
    a = ap.parse_args()
    ref = os.path.join(a.shared, "corpora/ami/only_words/rttms/test")
    grid = [("jitter", v) for v in (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)]
    grid += [("drop", v) for v in (0.02, 0.05, 0.1, 0.2)]
    grid += [("false-alarm", v) for v in (0.02, 0.05, 0.1, 0.2)]
    grid += [("swap", v) for v in (0.02, 0.05, 0.1, 0.2)]
    print("| perturbation | DER % | event F1 % | interruption F1 % | interruption count error % [95 % CI] | backchannel F1 % | transfer F1 % | talk share pp | FTO W1 ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, v in grid:
            out = os.path.join(tmp, "%s-%s" % (kind, v)) + "/"
            amounts = {"jitter": 0.0, "swap": 0.0, "drop": 0.0, "false-alarm": 0.0, kind: v}
            args = [x for k, a in amounts.items() for x in ("--" + k, str(a))]
            subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts/perturb.py"), ref, "-o", out]
                + args + ["--rename", "--seed", "1"],
                check=True, capture_output=True,
            )
            print(row("%s %g" % (kind, v), score(a.bin, ref, out)), flush=True)
    for system in ("AMI_Mix-Headset", "AMI_beamformed"):
        hyp = os.path.join(a.shared, "system-outputs/vbx-ami", system, "test")
        print(row("VBx %s test" % system, score(a.bin, ref, hyp)), flush=True)


if __name__ == "__main__":
    main()
