#!/usr/bin/env python3
"""Does a richer model family help on the calibrated classifier's features? Compares, per mode
(timing: `.rttm`; text: `.nomarks.vtt`) and task (backchannel: every talkspurt; onset: every
onset with a holder, classes interruption / failed attempt), the shipped family (logistic
regression, C = 1) with gradient-boosted trees (scikit-learn HistGradientBoostingClassifier,
random_state 0) on the same feature rows (examples/calibration_rows, unbounded horizon, the
fitted backchannel model deciding the floor, as `--classifier calibrated` does). Both are
fitted on train, the per-class thresholds chosen on train (train.py's rule); the printed
figures are val row-level F1 (rows matched to gold events as train.py labels them).

  cargo build --release --example calibration_rows -p overtalk
  python3 scripts/calibrate/compare_models.py          # needs scikit-learn; writes nothing

Row-level F1 is close to, not equal to, check_mrda.py's (which matches events one-to-one).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402


def main():
    tr, va = T.split("train"), T.split("val")
    for mode in ("timing", "text"):
        dtr, dva = T.rows(tr, mode, None, "calibrated"), T.rows(va, mode, None, "calibrated")
        words = mode == "text"
        for task in ("backchannel", "onset"):
            if task == "backchannel":
                (Xtr, ytr), (Xva, yva), k = T.labelled_spurts(tr, dtr, words), T.labelled_spurts(va, dva, words), 2
            else:
                (Xtr, ytr), (Xva, yva), k = T.labelled_onsets(tr, dtr, words), T.labelled_onsets(va, dva, words), 3
            m = T.fit(Xtr, ytr, 1.0, k)
            pv = T.decide(T.probs(m, Xva), T.thresholds(T.probs(m, Xtr), ytr, k))
            out = ["logistic " + "/".join("%.3f" % T.f1(yva, pv, c) for c in range(1, k))]
            for it, depth in ((100, 3), (200, 4)):
                g = HistGradientBoostingClassifier(max_iter=it, max_depth=depth, learning_rate=0.1, random_state=0)
                g.fit(Xtr, ytr)
                pv = T.decide(g.predict_proba(Xva), T.thresholds(g.predict_proba(Xtr), ytr, k))
                out.append("trees %d×depth %d " % (it, depth) + "/".join("%.3f" % T.f1(yva, pv, c) for c in range(1, k)))
            print("%-6s %-11s train rows %6d  val F1: %s" % (mode, task, len(ytr), "; ".join(out)), flush=True)


if __name__ == "__main__":
    main()
