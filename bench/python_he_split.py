#!/usr/bin/env python3
"""Where a per-pair `overtalk.gaps_and_overlaps(pair, latch_tolerance=0).counts()` spends its
time: the same 93 AMI test pairs as bench/python_bench.py, each piece timed alone over all
pairs (best of N passes of `timeit`), in µs per pair.

- `whole`: the benchmark's expression, `gaps_and_overlaps(c, latch_tolerance=0).counts()`;
- `call`: `gaps_and_overlaps(c, latch_tolerance=0)` (no counts);
- `call_no_keywords`: `gaps_and_overlaps(c, "he2010")` (no keyword dict: the parameters'
  lookup of the preset alone);
- `native_resolved`: the extension's call with the parameters resolved before the clock
  (`_native.gaps_and_overlaps_with(c._native, params)`): the call, the sweep, the object;
- `native_empty`: the same on an empty conversation: the call and the object without a sweep;
- `counts`: `Intervals.counts()` alone, on results made before the clock;
- `sweep_many_one_thread`: `gaps_and_overlaps_many(pairs, threads=1)` per pair: the sweeps in
  one call, the Python call amortised.

The Rust sweep alone (`analysis::dyad::he_acoustic`) is timed by
`target/release/examples/he_pairs` (BENCHMARKS.md, "Heldner & Edlund intervals").

`--piece NAME --times K` runs one piece (or `pympi`, pympi-ling's `get_gaps_and_overlaps2`
per pair) K times after one warm-up pass and times nothing: the instructions of a piece per
pair, independent of the machine's load, are those of K = 10 minus those of K = 0 under
`valgrind --tool=callgrind` (with `PYTHONHASHSEED=0`), divided by 10 × 93.

Usage: python bench/python_he_split.py [--repeat N] [--piece NAME --times K]
"""

import json
import os
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from python_bench import AMI  # noqa: E402
from pympi_agreement import eaf_of, pairs_of  # noqa: E402


def main():
    import overtalk
    from overtalk import _native

    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 200
    convs = []
    for _, _, _, a, b in pairs_of(os.path.join(AMI, "test")):
        rows = [(s / 1000, e / 1000, "t1") for s, e in a] + [(s / 1000, e / 1000, "t2") for s, e in b]
        convs.append(overtalk.Conversation.from_segments(rows, "pair", speakers=["t1", "t2"]))
    n = len(convs)
    go = overtalk.gaps_and_overlaps
    params = _native.params("he2010", json.dumps({"latch_tolerance": 0}))
    natives = [c._native for c in convs]
    results = [go(c, latch_tolerance=0) for c in convs]
    empty = overtalk.Conversation.from_segments([], "empty", speakers=["t1", "t2"])._native
    with_params = getattr(_native, "gaps_and_overlaps_with", None) or _native.gaps_and_overlaps

    def counted(results):  # the benchmark's own sum, as bench/python_bench.py
        total = 0
        for c in results:
            total += c["pause"] + c["gap"] + c["overlap_between"] + c["overlap_within"]
        return total

    pieces = {
        "bench": lambda: counted(go(c, latch_tolerance=0).counts() for c in convs),
        "whole": lambda: [go(c, latch_tolerance=0).counts() for c in convs],
        "call": lambda: [go(c, latch_tolerance=0) for c in convs],
        "call_no_keywords": lambda: [go(c, "he2010") for c in convs],
        "native_resolved": lambda: [with_params(c, params) for c in natives],
        "native_empty": lambda: [with_params(empty, params) for _ in natives],
        "counts": lambda: [r.counts() for r in results],
        "sweep_many_one_thread": lambda: overtalk.gaps_and_overlaps_many(convs, threads=1, latch_tolerance=0),
    }
    if "--piece" in sys.argv:
        name = sys.argv[sys.argv.index("--piece") + 1]
        times = int(sys.argv[sys.argv.index("--times") + 1])
        if name == "pympi":
            f = _pympi_pass()
        else:
            f = pieces[name]
        for _ in range(times + 1):
            f()
        return
    out = {"pairs": n, "load_average": os.getloadavg()}
    for name, f in pieces.items():
        f()
        best = min(timeit.repeat(f, number=1, repeat=repeat))
        out[name + "_us_per_pair"] = round(best / n * 1e6, 3)
    print(json.dumps(out))


def _pympi_pass():
    """pympi-ling's `get_gaps_and_overlaps2` over the pairs, their `Eaf`s built first."""
    eafs = [eaf_of(a, b) for _, _, _, a, b in pairs_of(os.path.join(AMI, "test"))]
    return lambda: sum(len(list(e.get_gaps_and_overlaps2("t1", "t2"))) for e in eafs)


if __name__ == "__main__":
    main()
