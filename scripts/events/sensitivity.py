#!/usr/bin/env python3
"""Sensitivity of the dynamics to diarization error (docs/events.md).

Perturbs a reference set with scripts/perturb.py one kind of error at a time (boundary jitter,
missed turns, false-alarm turns, label swaps; speakers renamed, seed 1), scores each perturbed
set with `overtalk score --events` (no UEM, collar 0: the full DER), and prints a Markdown
table per set: DER, event F1 over all classes, interruption-attempt F1 and count error (with
its bootstrap interval), backchannel and transfer F1, talk-share error and FTO Wasserstein-1.

Two reference sets (--set):

  ami        the 16 AMI test meetings (only_words references), plus the VBx outputs of the
             same meetings scored the same way;
  synthetic  six 8-minute conversations with exact truth, 2 to 4 speakers, made by the
             shared generator (../shared/tools/synth_conversation.py, seeds 101-106,
             deliberate interruptions, overlaps and backchannels); the audio it also writes is
             deleted, only the RTTM truth is kept (in --work, reused when present).

With --svg DIR the curves go to DIR/events-f1-vs-der.svg and
DIR/events-interruption-count-vs-der.svg: one line per perturbation kind and set (colour =
kind, solid = AMI, dashed = synthetic; VBx as points), written as plain SVG. The SVG of a set
not run this time keeps its numbers from the JSON cache DIR/events-sensitivity.json.

  scripts/events/sensitivity.py --set ami|synthetic|both [--bin target/release/overtalk]
      [--shared ../shared/data] [--svg docs/img] [--work /tmp/overtalk-events-synth]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GRID = [("jitter", v) for v in (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)]
GRID += [("drop", v) for v in (0.02, 0.05, 0.1, 0.2)]
GRID += [("false-alarm", v) for v in (0.02, 0.05, 0.1, 0.2)]
GRID += [("swap", v) for v in (0.02, 0.05, 0.1, 0.2)]
# The synthetic set: (name, speakers, seed). 8 minutes each, the generator's default mix of
# interruptions (0.15), overlaps (0.10) and backchannels (0.15).
SYNTHETIC = [("ev%02d_s%d" % (i, 2 + i % 3), 2 + i % 3, 100 + i) for i in range(1, 7)]
SYNTH_MINUTES = 8


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


def figures(rep):
    """The figures of one scored set, as plain numbers (None when not measurable)."""
    cl = rep["classes"]
    intr = [c["class"] for c in cl if c["class"].startswith("interruption:")]
    d = rep["distortion"]
    ie = d["interruption_count_error"]
    return {
        "der": rep["der"],
        "f1": rep["total"]["f1"],
        "interruption_f1": f1(cl, intr),
        "interruption_count_error": [ie["value"], ie["low"], ie["high"]],
        "backchannel_f1": f1(cl, ["backchannel"]),
        "transfer_f1": f1(cl, ["transfer"]),
        "talk_share_pp": d["talk_share_pp"]["value"],
        "fto_w1_ms": d["fto_w1_ms"]["value"],
        "reference_attempts": sum(c["reference"] for c in cl if c["class"] in intr),
    }


def row(label, f):
    v, lo, hi = f["interruption_count_error"]
    if v is None:
        ci = "n/a"
    elif lo is None:
        ci = "%+.1f" % (100 * v)
    else:
        ci = "%+.1f [%+.1f, %+.1f]" % (100 * v, 100 * lo, 100 * hi)
    pct = lambda x: "n/a" if x is None else "%.1f" % (100 * x)
    num = lambda x, fmt: "n/a" if x is None else fmt % x
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        label, pct(f["der"]), pct(f["f1"]), pct(f["interruption_f1"]), ci,
        pct(f["backchannel_f1"]), pct(f["transfer_f1"]),
        num(f["talk_share_pp"], "%.2f"), num(f["fto_w1_ms"], "%.0f"),
    )


HEAD = ("| perturbation | DER % | event F1 % | interruption F1 % | interruption count error % [95 % CI] "
        "| backchannel F1 % | transfer F1 % | talk share pp | FTO W1 ms |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")


def make_synthetic(work, tool):
    """The synthetic references (RTTM truth only) in work/rttm/, made once."""
    rttm_dir = os.path.join(work, "rttm")
    os.makedirs(rttm_dir, exist_ok=True)
    for name, speakers, seed in SYNTHETIC:
        dest = os.path.join(rttm_dir, name + ".rttm")
        if os.path.exists(dest):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [sys.executable, tool, "--out", tmp, "--name", name, "--speakers", str(speakers),
                 "--minutes", str(SYNTH_MINUTES), "--seed", str(seed)],
                check=True, capture_output=True,
            )
            shutil.copy(os.path.join(tmp, name + ".rttm"), dest)
    return rttm_dir


def run_set(bin_, ref, systems):
    """Figures of every perturbation of `ref`, then of each (label, hypothesis) in systems."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, v in GRID:
            hyp = os.path.join(tmp, "%s-%s" % (kind, v)) + "/"
            amounts = {"jitter": 0.0, "swap": 0.0, "drop": 0.0, "false-alarm": 0.0, kind: v}
            args = [x for k, a in amounts.items() for x in ("--" + k, str(a))]
            subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts/perturb.py"), ref, "-o", hyp]
                + args + ["--rename", "--seed", "1"],
                check=True, capture_output=True,
            )
            f = figures(score(bin_, ref, hyp))
            out.append({"label": "%s %g" % (kind, v), "kind": kind, "amount": v, **f})
            print(row(out[-1]["label"], f), flush=True)
    for label, hyp in systems:
        f = figures(score(bin_, ref, hyp))
        out.append({"label": label, "kind": "system", "amount": None, **f})
        print(row(label, f), flush=True)
    return out


# ------------------------------------------------------------------ SVG (no plotting library)
COLOURS = {"jitter": "#0072B2", "drop": "#D55E00", "false-alarm": "#009E73", "swap": "#CC79A7"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def nice_max(x, steps=(1, 2, 2.5, 5, 10)):
    import math
    if x <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(x))
    for s in steps:
        if s * e >= x:
            return s * e
    return 10 * e


def svg_chart(path, title, ylabel, results, value, y_range, ydiv=5, band=None):
    """A line chart of value(point) against DER % per (set, kind); VBx as points."""
    W, H, L, R, T, B = 720, 430, 64, 190, 40, 52
    pw, ph = W - L - R, H - T - B
    ders = [100 * p["der"] for s in results.values() for p in s if p["der"] is not None]
    xmax = nice_max(max(ders + [1.0]))
    ylo, yhi = y_range
    X = lambda d: L + pw * d / xmax
    Y = lambda v: T + ph * (1 - (v - ylo) / (yhi - ylo))
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="#fff"/>',
         '<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>' % (L, esc(title))]
    if band is not None:
        o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#000" fill-opacity="0.06"/>'
                 % (L, Y(band[1]), pw, Y(band[0]) - Y(band[1])))
        o.append('<text x="%.1f" y="%.1f" fill="#555" font-size="11">±10 %%</text>' % (L + 4, Y(band[1]) + 12))
    # grid and axes
    for i in range(6):
        d = xmax * i / 5
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(d), T, X(d), T + ph))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (X(d), T + ph + 16, round(d, 2)))
    for i in range(ydiv + 1):
        v = ylo + (yhi - ylo) * i / ydiv
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(v), L + pw, Y(v)))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 6, Y(v) + 4, round(v, 2)))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>' % (L, T, pw, ph))
    o.append('<text x="%.1f" y="%d" text-anchor="middle">DER %% (collar 0, overlap scored)</text>' % (L + pw / 2, H - 12))
    o.append('<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">%s</text>' % (T + ph / 2, esc(ylabel)))
    clip = lambda v: max(ylo, min(yhi, v))
    legend_y = T + 4
    for set_name, dash in (("ami", ""), ("synthetic", ' stroke-dasharray="6 4"')):
        pts = results.get(set_name)
        if not pts:
            continue
        base = next((p for p in pts if p["kind"] == "jitter" and p["amount"] == 0), None)
        for kind, colour in COLOURS.items():
            line = ([base] if base else []) + [p for p in pts if p["kind"] == kind and not (kind == "jitter" and p["amount"] == 0)]
            line = [p for p in line if p["der"] is not None and value(p) is not None]
            if not line:
                continue
            d = " ".join("%s%.1f,%.1f" % ("M" if i == 0 else "L", X(100 * p["der"]), Y(clip(value(p)))) for i, p in enumerate(line))
            o.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"%s/>' % (d, colour, dash))
            for p in line:
                o.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s %s: DER %.1f %%, %.1f</title></circle>'
                         % (X(100 * p["der"]), Y(clip(value(p))), colour, set_name, esc(p["label"]), 100 * p["der"], value(p)))
            o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                     % (L + pw + 12, legend_y, L + pw + 40, legend_y, colour, dash))
            o.append('<text x="%d" y="%d">%s, %s</text>' % (L + pw + 46, legend_y + 4, kind, "AMI" if set_name == "ami" else "synthetic"))
            legend_y += 18
        for p in pts:
            if p["kind"] == "system" and p["der"] is not None and value(p) is not None:
                x, y = X(100 * p["der"]), Y(clip(value(p)))
                o.append('<path d="M%.1f,%.1f l5,5 l-5,5 l-5,-5 z" fill="#000"><title>%s: DER %.1f %%, %.1f</title></path>'
                         % (x, y - 5, esc(p["label"]), 100 * p["der"], value(p)))
    if any(p["kind"] == "system" for s in results.values() for p in s):
        o.append('<path d="M%d,%d l5,5 l-5,5 l-5,-5 z" fill="#000"/>' % (L + pw + 26, legend_y - 5))
        o.append('<text x="%d" y="%d">VBx on AMI</text>' % (L + pw + 46, legend_y + 4))
    o.append("</svg>\n")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(o))
    os.replace(tmp, path)


def write_svgs(svg_dir, results):
    os.makedirs(svg_dir, exist_ok=True)
    cache = os.path.join(svg_dir, "events-sensitivity.json")
    old = {}
    if os.path.exists(cache):
        with open(cache) as fh:
            old = json.load(fh)
    old.update(results)
    tmp = cache + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(old, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, cache)
    svg_chart(os.path.join(svg_dir, "events-f1-vs-der.svg"),
              "Event F1 against DER (all classes, 200 ms tolerance)", "event F1 %", old,
              lambda p: None if p["f1"] is None else 100 * p["f1"], (0, 100))
    svg_chart(os.path.join(svg_dir, "events-interruption-count-vs-der.svg"),
              "Interruption count error against DER", "count error of interruption attempts %", old,
              lambda p: None if p["interruption_count_error"][0] is None else 100 * p["interruption_count_error"][0],
              (-100, 40), ydiv=7, band=(-10, 10))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", choices=["ami", "synthetic", "both"], default="ami")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/overtalk"))
    ap.add_argument("--shared", default=os.environ.get("OVERTALK_SHARED_DATA", os.path.join(ROOT, "../shared/data")))
    ap.add_argument("--synth-tool", default=None, help="the generator (default: SHARED/../tools/synth_conversation.py)")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "overtalk-events-synth"))
    ap.add_argument("--svg", default=None, help="write the curves (and their JSON) to this folder")
    a = ap.parse_args()
    results = {}
    if a.set in ("synthetic", "both"):
        tool = a.synth_tool or os.path.join(os.path.dirname(os.path.abspath(a.shared)), "tools/synth_conversation.py")
        ref = make_synthetic(a.work, tool)
        print("### synthetic: %d conversations of %d minutes (seeds %d-%d)\n" % (
            len(SYNTHETIC), SYNTH_MINUTES, SYNTHETIC[0][2], SYNTHETIC[-1][2]))
        print(HEAD)
        results["synthetic"] = run_set(a.bin, ref, [])
        print()
    if a.set in ("ami", "both"):
        ref = os.path.join(a.shared, "corpora/ami/only_words/rttms/test")
        systems = [("VBx %s test" % s, os.path.join(a.shared, "system-outputs/vbx-ami", s, "test"))
                   for s in ("AMI_Mix-Headset", "AMI_beamformed")]
        print("### AMI test (16 meetings)\n")
        print(HEAD)
        results["ami"] = run_set(a.bin, ref, systems)
        print()
    if a.svg:
        write_svgs(a.svg, results)


if __name__ == "__main__":
    main()
