#!/usr/bin/env python3
"""Fits overtalk's calibrated classifier (conversation-metrics.md §5.8) on human labels: the
ICSI MRDA train split written by tools/mrda_to_eval.py (OVERTALK_SHARED_DATA/human-labels/mrda).

The features are computed by overtalk itself (examples/calibration_rows.rs), so training and
inference see the same numbers. Every model is a logistic regression (scikit-learn, lbfgs,
deterministic): one per task (backchannel: every talkspurt; onset: every onset with a holder,
classes other / interruption / failed attempt), per mode (timing: `.rttm`; text: `.nomarks.vtt`,
never the `.vtt` whose trailing em dash encodes the cut-off gold) and per decision horizon.
Weights and decision thresholds are fitted on train; the regularisation strength is chosen on
val (row-level F1). The test split is never read.

Four steps (the model file is compiled into overtalk; the example is handed the file just
written with `--model`, so no rebuild is needed between the steps):
  cargo build --release --example calibration_rows -p overtalk
  train.py words    fit the cut-off lexicon the text features read (the smoothed log-odds that
                    an utterance ending in a word is labelled cut off, `%-`, on train); drops
                    the text-mode models, whose features it changes
  train.py bc       fit the backchannel models, write crates/overtalk/src/analysis/calibrated_model.json
  train.py onset    fit the onset models on the onsets the calibrated backchannels leave
  train.py record   score train and val with check_mrda.py (every classifier, both modes, every
                    horizon) and record the figures in the model file

With --joint the same steps fit the joint classifier (`--classifier joint`, §5.8): its
talkspurt model has three classes, other (floor talk) / backchannel / attempt (the talkspurt
starts a gold interruption or failed attempt), so a short attempt is not taken for a
backchannel; its onset model is fitted on the onsets that model leaves. The two-way models in
the file are kept. `record --classifiers joint` scores only the named classifiers.

Run from the repository root with a Python that has scikit-learn (e.g. bench/.venv).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "crates/overtalk/src/analysis/calibrated_model.json")
EXAMPLE = os.environ.get("CALIBRATION_ROWS", os.path.join(ROOT, "target/release/examples/calibration_rows"))
SHARED = os.environ.get("OVERTALK_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
DATA = os.path.join(SHARED, "human-labels", "mrda")
TOOLS = os.path.join(os.path.dirname(SHARED.rstrip("/")), "tools")
sys.path.insert(0, TOOLS)
import check_mrda  # noqa: E402  (matching and scoring, the same as the held-out check)

HORIZONS = [250, 500, 1000, None]
MODES = {"timing": ".rttm", "text": ".nomarks.vtt"}
C_GRID = [0.01, 0.1, 1.0, 10.0]
TOL = 500


def split(name):
    with open(os.path.join(DATA, "splits", name + ".txt")) as f:
        return f.read().split()


def data_hash(meetings):
    h = hashlib.sha256()
    for m in sorted(meetings):
        for ext in (".gold.jsonl", ".rttm", ".nomarks.vtt", ".utts.jsonl"):
            with open(os.path.join(DATA, m + ext), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def rows(meetings, mode, horizon, classifier):
    """The example's rows; `classifier` (rules, calibrated, joint) decides the backchannels
    with the talkspurt model already in the model file (onsets keep the rule classes)."""
    args = [EXAMPLE, "--model", MODEL, "--horizon", "unbounded" if horizon is None else str(horizon),
            "--classifier", classifier]
    args += [os.path.join(DATA, m + MODES[mode]) for m in meetings]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return {os.path.basename(o["file"]).split(".")[0]: o for o in map(json.loads, out.splitlines())}


def gold(m):
    meta, events, _ = check_mrda.load_gold(DATA, m)
    return events, check_mrda.Excluded(events)


def labelled_spurts(meetings, dump, words, attempts=False):
    """X, y for the backchannel task: y = 1 when the talkspurt is matched to a gold `b`; with
    `attempts` (the joint task) y = 2 when it is matched to a gold interruption or failed
    attempt (the onset of a floor-taking attempt) and to no `b`."""
    X, y = [], []
    for m in meetings:
        events, ex = gold(m)
        d = dump[m]
        spk = d["speakers"]
        preds = [{"speaker": spk[s[0]], "t": s[1]} for s in d["spurts"]]
        g = [{"speaker": e["speaker"], "t": e["start"]} for e in events if e["type"] == "backchannel"]
        pairs, _, _ = check_mrda.match_events(g, preds, TOL)
        pos = {j for _, j in pairs}
        att = set()
        if attempts:
            ga = [{"speaker": e["speaker"], "t": e["time"]} for e in events
                  if e["type"] in ("interruption", "failed_attempt")]
            att = {j for _, j in check_mrda.match_events(ga, preds, TOL)[0]}
        for j, s in enumerate(d["spurts"]):
            if s[4] != words or ex.covers(spk[s[0]], s[1]):
                continue
            X.append(s[5])
            y.append(1 if j in pos else 2 if j in att else 0)
    return np.array(X, dtype=float), np.array(y)


def labelled_onsets(meetings, dump, words):
    """X, y for the onset task: 1 interruption (cut off the holder), 2 failed attempt, 0 other."""
    X, y = [], []
    for m in meetings:
        events, ex = gold(m)
        d = dump[m]
        spk = d["speakers"]
        keep = [j for j, o in enumerate(d["onsets"]) if o[5] and o[4] == words]
        preds = [{"speaker": spk[d["onsets"][j][0]], "t": d["onsets"][j][1]} for j in keep]
        lab = [0] * len(keep)
        for cls, typ in ((2, "failed_attempt"), (1, "interruption")):
            g = [{"speaker": e["speaker"], "t": e["time"]} for e in events if e["type"] == typ]
            for _, j in check_mrda.match_events(g, preds, TOL)[0]:
                lab[j] = cls
        for k, j in enumerate(keep):
            o = d["onsets"][j]
            if ex.covers(spk[o[0]], o[1]):
                continue
            X.append(o[5])
            y.append(lab[k])
    return np.array(X, dtype=float), np.array(y)


def normalise_token(raw):
    """analysis/normalise.rs `normalise_token`: lower case, letters, digits, `'` and `-`, with
    `'` and `-` trimmed at both ends."""
    raw = raw.replace("\u2019", "'").replace("\u2018", "'").replace("\u02bc", "'")
    kept = "".join(c.lower() for c in raw if c.isalnum() or c in "'-")
    return kept.strip("'-")


FRAGMENT = "-"  # calibrated.rs FRAGMENT: the lexicon key of a word broken off ("w-.")
CUT_SMOOTHING = 20  # pseudo-utterances at the base rate added to every word
CUT_MIN_COUNT = 20  # utterances a word must end to get its own entry


def cut_lexicon(meetings):
    """The cut-off lexicon: per last word of an utterance, the smoothed log-odds that the
    utterance is labelled interrupted (`%-`; abandoned `%--` is not: nobody stopped it), over
    the labelled utterances of `meetings` (unlabelled `z` talk left out). The cut-off mark
    (em dash) is removed before the word is read."""
    n, cut = {}, {}
    for m in meetings:
        with open(os.path.join(DATA, m + ".utts.jsonl")) as f:
            for line in f:
                u = json.loads(line)
                if u["label"] == "z":
                    continue
                raw = u["text"].replace("\u2014", "").split()
                if not raw:
                    continue
                # calibrated.rs `utterance_end`: a word broken off with a hyphen is FRAGMENT
                bare = raw[-1].rstrip(".?!")
                if bare.endswith("-") and len(bare) > 1 and bare[-2].isalnum():
                    w = FRAGMENT
                else:
                    words = [w for w in map(normalise_token, raw) if w]
                    if not words:
                        continue
                    w = words[-1]
                n[w] = n.get(w, 0) + 1
                cut[w] = cut.get(w, 0) + ("interrupted" in u["flags"])
    total, total_cut = sum(n.values()), sum(cut.values())
    p = total_cut / total
    prior = float(np.log(p / (1 - p)))
    a = CUT_SMOOTHING
    table = {w: round(float(np.log((cut[w] + a * p) / (n[w] - cut[w] + a * (1 - p)))), 4)
             for w in sorted(n) if n[w] >= CUT_MIN_COUNT}
    print("cut lexicon: %d utterances, %.3f cut off, %d words" % (total, p, len(table)), file=sys.stderr)
    return {"prior": round(prior, 4), "words": table,
            "fitted": {"utterances": total, "cut_off": total_cut, "smoothing": a, "min_count": CUT_MIN_COUNT}}


def words_step():
    """Fits the cut-off lexicon on train and drops the text-mode models (their features read it)."""
    doc = load_model()
    doc["cut_words"] = cut_lexicon(split("train"))
    doc["models"] = [m for m in doc.get("models", []) if m["mode"] != "text"]
    doc["check_mrda_f1"] = {k: v for k, v in doc.get("check_mrda_f1", {}).items()
                            if k.split("/")[1] != "nomarks" or k.startswith("rules/")}
    save_model(doc)


def f1(y, pred, cls):
    tp = int(np.sum((pred == cls) & (y == cls)))
    p, r = tp / max(1, int(np.sum(pred == cls))), tp / max(1, int(np.sum(y == cls)))
    return 2 * p * r / (p + r) if p + r else 0.0


def decide(P, thr):
    """The class rule of calibrated.rs: the most probable class after the first whose
    probability reaches its threshold, else 0."""
    out = np.zeros(len(P), dtype=int)
    best = np.zeros(len(P))
    for c, t in enumerate(thr, start=1):
        ok = (P[:, c] >= t) & (P[:, c] > best)
        out[ok] = c
        best[ok] = P[ok, c]
    return out


def fit(X, y, C, k):
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    lr = LogisticRegression(C=C, max_iter=5000)
    lr.fit((X - mean) / scale, y)
    coef, icpt = lr.coef_, lr.intercept_
    if k == 2:  # binary: softmax over (0, w) equals the sigmoid
        coef = np.vstack([np.zeros_like(coef[0]), coef[0]])
        icpt = np.array([0.0, icpt[0]])
    return mean, scale, coef, icpt


def probs(model, X):
    mean, scale, coef, icpt = model
    z = ((X - mean) / scale) @ coef.T + icpt
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def thresholds(P, y, k):
    """Per class, the threshold that maximises that class's F1 on the training rows (the other
    classes at their best so far, coordinate-wise, twice round)."""
    grid = np.round(np.arange(0.05, 0.951, 0.01), 2)
    thr = [0.5] * (k - 1)
    for _ in range(2):
        for c in range(1, k):
            best = (-1.0, 0.5)
            for t in grid:
                trial = list(thr)
                trial[c - 1] = float(t)
                score = f1(y, decide(P, trial), c)
                if score > best[0] + 1e-12:
                    best = (score, float(t))
            thr[c - 1] = best[1]
    return thr


def train_task(task, mode, horizon, names, Xtr, ytr, Xva, yva, classes):
    k = len(classes)
    best = None
    for C in C_GRID:
        model = fit(Xtr, ytr, C, k)
        thr = thresholds(probs(model, Xtr), ytr, k)
        pv = decide(probs(model, Xva), thr)
        score = np.mean([f1(yva, pv, c) for c in range(1, k)])
        if best is None or score > best[0] + 1e-12:
            best = (score, C, model, thr)
    score, C, (mean, scale, coef, icpt), thr = best
    pt = decide(probs((mean, scale, coef, icpt), Xtr), thr)
    pv = decide(probs((mean, scale, coef, icpt), Xva), thr)
    print("%-11s %-6s h=%-9s C=%-5g rows train %6d val %6d  row F1 train %s  val %s"
          % (task, mode, horizon, C, len(ytr), len(yva),
             "/".join("%.3f" % f1(ytr, pt, c) for c in range(1, k)),
             "/".join("%.3f" % f1(yva, pv, c) for c in range(1, k))), file=sys.stderr)
    return {"task": task, "mode": mode, "horizon_ms": horizon, "features": names, "C": C,
            "mean": [round(v, 9) for v in mean], "scale": [round(v, 9) for v in scale],
            "classes": classes, "coef": [[round(v, 9) for v in row] for row in coef],
            "intercept": [round(v, 9) for v in icpt], "thresholds": thr,
            "rows": {"train": len(ytr), "val": len(yva)},
            "row_f1": {"train": [round(f1(ytr, pt, c), 4) for c in range(1, k)],
                       "val": [round(f1(yva, pv, c), 4) for c in range(1, k)]}}


def load_model():
    with open(MODEL) as f:
        return json.load(f)


def save_model(doc):
    with open(MODEL, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def select(names, drop, *Xs):
    """The feature names and columns kept when the features named in `drop` are left out (a
    model may read any subset of the features the build computes, calibrated.rs `check`)."""
    keep = [i for i, n in enumerate(names) if n not in drop]
    return [names[i] for i in keep], [X[:, keep] for X in Xs]


def step(task, joint, horizons, drop=()):
    """Fits one task (bc or onset) of one classifier (calibrated, or joint with `joint`); the
    other classifier's models stay, and fitting a talkspurt model drops its onset models (they
    were fitted on the onsets the old one left)."""
    train, val = split("train"), split("val")
    doc = load_model() if os.path.exists(MODEL) else {}
    prefix = "joint_" if joint else ""
    name = prefix + ("backchannel" if task == "bc" else "onset")
    replaced = {name} | ({prefix + "onset"} if task == "bc" else set())
    models = [m for m in doc.get("models", [])
              if m["task"] not in replaced or m["horizon_ms"] not in horizons]
    classifier = "rules" if task == "bc" else "joint" if joint else "calibrated"
    for horizon in horizons:
        for mode in MODES:
            words = mode == "text"
            dtr = rows(train, mode, horizon, classifier)
            dva = rows(val, mode, horizon, classifier)
            feature_names = next(iter(dtr.values()))["feature_names"]
            if task == "bc":
                Xtr, ytr = labelled_spurts(train, dtr, words, joint)
                Xva, yva = labelled_spurts(val, dva, words, joint)
                classes = ["other", "backchannel"] + (["attempt"] if joint else [])
                names, (Xtr, Xva) = select(feature_names["backchannel/" + mode], drop, Xtr, Xva)
                models.append(train_task(name, mode, horizon, names, Xtr, ytr, Xva, yva, classes))
            else:
                Xtr, ytr = labelled_onsets(train, dtr, words)
                Xva, yva = labelled_onsets(val, dva, words)
                names, (Xtr, Xva) = select(feature_names["onset/" + mode], drop, Xtr, Xva)
                models.append(train_task(name, mode, horizon, names, Xtr, ytr, Xva, yva,
                                         ["other", "interruption", "failed_attempt"]))
    figures = doc.get("check_mrda_f1", {})
    old = doc
    doc = {
        "about": "overtalk calibrated classifier (conversation-metrics.md §5.8), fitted by "
                 "scripts/calibrate/train.py on the ICSI MRDA train split; C chosen on val",
        "data": {"source": "ICSI MRDA via tools/mrda_to_eval.py (NathanDuran/MRDA-Corpus 58006b32)",
                 "train_meetings": len(train), "val_meetings": len(val),
                 "sha256_train_val": data_hash(train + val)},
        "models": sorted(models, key=lambda m: (m["task"], m["mode"], m["horizon_ms"] or 10**9)),
    }
    if "cut_words" in old:
        doc["cut_words"] = old["cut_words"]
    # figures of a classifier whose models were refitted are stale until `record` (at the
    # refitted horizons only: the other horizons' models are unchanged)
    stale = "joint/" if joint else "calibrated/"
    refitted = {"unbounded" if h is None else str(h) for h in horizons}
    doc["check_mrda_f1"] = {k: v for k, v in figures.items()
                            if not (k.startswith(stale) and k.split("/")[2] in refitted)}
    save_model(doc)


def score(classifier, horizon, mode, sp, meetings):
    """check_mrda.py's figures for one classifier, horizon, mode and split (saved outputs)."""
    with tempfile.TemporaryDirectory() as d:
        args = [EXAMPLE, "--model", MODEL, "--analysis-out", d, "--classifier", classifier,
                "--horizon", "unbounded" if horizon is None else str(horizon)]
        subprocess.run(args + [os.path.join(DATA, m + MODES[mode]) for m in meetings], check=True)
        jout = os.path.join(d, "scores.json")
        subprocess.run([sys.executable, os.path.join(TOOLS, "check_mrda.py"), "--from-json", d,
                        DATA, "--meetings", "split:" + sp, "--json-out", jout],
                       check=True, capture_output=True)
        with open(jout) as f:
            return json.load(f)


def record(classifiers, horizons):
    """Scores train and val through check_mrda.py (saved outputs) and records the figures of
    `classifiers` (the others' recorded figures stay)."""
    doc = load_model()
    figures = doc.get("check_mrda_f1", {})
    keep = os.path.join(ROOT, "bench", "out", "agreement")
    os.makedirs(keep, exist_ok=True)
    for horizon in horizons:
        for classifier in classifiers:
            if classifier == "rules" and horizon is not None:
                continue
            for mode, inp in (("text", "nomarks"), ("timing", "rttm")):
                # train figures for the unbounded horizon (the train/val gap); val for all
                for sp in (("train", "val") if horizon is None else ("val",)):
                    meetings = split(sp)
                    key = "%s/%s/%s/%s" % (classifier, inp, "unbounded" if horizon is None else horizon, sp)
                    saved = os.path.join(keep, key.replace("/", "_") + ".json")
                    if classifier == "rules" and os.path.exists(saved):
                        # the rules do not depend on the fitted model
                        with open(saved) as f:
                            sc_all = json.load(f)
                        sc = sc_all["scores"]
                    else:
                        sc_all = score(classifier, horizon, mode, sp, meetings)
                        sc = sc_all["scores"]
                        with open(saved, "w") as f:
                            json.dump(sc_all, f)
                    figures[key] = {k: round(sc[k]["f1"], 4) for k in
                                    ("backchannel", "interruption", "failed_attempt")}
                    fg = sc_all["confusion"].get("gold fg onset -> our onset class", {})
                    turn_taking = ("smooth_switch", "silent_interruption", "interruption",
                                   "terminal_overlap", "simultaneous_start")
                    figures[key]["fg_turn_taking_recall"] = round(
                        sum(fg.get(c, 0) for c in turn_taking) / max(1, sum(fg.values())), 4)
                    print(key, figures[key], file=sys.stderr)
    doc["check_mrda_f1"] = dict(sorted(figures.items()))
    save_model(doc)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("words", "bc", "onset", "record"))
    ap.add_argument("--joint", action="store_true",
                    help="fit the joint classifier (three-way talkspurt model) instead of the two-way one")
    ap.add_argument("--classifiers", default="rules,calibrated,joint",
                    help="record: the classifiers to score (comma-separated)")
    ap.add_argument("--horizons", default="250,500,1000,unbounded",
                    help="the decision horizons to fit or score (ms, or unbounded)")
    ap.add_argument("--drop", default="",
                    help="bc, onset: features (comma-separated names) the fitted models leave out")
    a = ap.parse_args()
    horizons = [None if h == "unbounded" else int(h) for h in a.horizons.split(",")]
    if a.step == "words":
        words_step()
    elif a.step == "record":
        record(a.classifiers.split(","), horizons)
    else:
        step(a.step, a.joint, horizons, set(filter(None, a.drop.split(","))))
