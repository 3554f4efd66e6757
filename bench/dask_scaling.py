#!/usr/bin/env python3
"""Where the 2-worker speed-up of the corpus helper under a Dask bag goes: the machine, Dask's
per-task work, or the helper itself (BENCHMARKS.md, "Python").

Over the same inputs (the 170 AMI RTTMs repeated `--copies` times, as bench/python_bench.py):

1. `plain`: `overtalk.corpus.analyze_item` over every input in one process pinned to CPU 0,
   then over half the inputs in each of two processes pinned to CPU 0 and CPU 1 at once (each
   times its own loop): the helper's speed-up with no engine at all;
2. `dask`: the bag of bench/python_bench.py (`map(analyze_item)`, `--partitions` partitions,
   a warm pool of 1 then 2 spawned processes, `chunksize=1`), each task logging when it started
   and ended in its worker: the wall time, the time the workers spent inside the tasks, and
   what is left (Dask's scheduling, pickling and the pool's hand-offs). Printed beside the
   speed-up: `work_inflation`, the time inside the tasks on 2 workers (summed) over that on 1
   (above 1: each task runs slower while the other worker runs, which is the machine), and
   `overhead_*`, the wall time over the time inside the tasks per worker (above 1: Dask's
   scheduling, the gaps between tasks, a worker idle at the end while the other finishes);
3. the machine's own ceiling in the same run: bench/machine_ceiling.py's C integer loop.

The pinned processes of 1. and the ceiling of 3. are bench/machine_ceiling.py's own
(`run_pinned`, `measure`), imported, so that both measure the machine the same way.

Rounds alternate 1 and 2 workers; each figure is the best of `--repeat`.
Usage: taskset -c 0,1 VENV/bin/python bench/dask_scaling.py [--copies 8] [--partitions 16]
         [--repeat 3] [--rounds 2]
"""

import glob
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from machine_ceiling import _option, measure, run_pinned  # noqa: E402

SHARED = os.environ.get("OVERTALK_SHARED_DATA") or os.path.join(HERE, "..", "..", "shared", "data")
AMI = os.path.join(SHARED, "corpora", "ami", "only_words", "rttms")

CHILD = (
    "import sys, time, json\n"
    "import overtalk.corpus as oc\n"
    "inputs = json.load(open(sys.argv[1]))[int(sys.argv[2])::int(sys.argv[3])]\n"
    "oc.analyze_item(inputs[0])\n"
    "best = float('inf')\n"
    "for _ in range(int(sys.argv[4])):\n"
    "    s = time.perf_counter(); n = sum(len(oc.analyze_item(p)) for p in inputs)\n"
    "    best = min(best, time.perf_counter() - s)\n"
    "print(best, n)\n"
)


def plain(list_file, repeat):
    """The helper over all inputs on CPU 0, then over halves on CPUs 0 and 1 at once."""

    def run(parts):
        # Process i on CPU i, over inputs i, i + parts, …; each prints its best pass first.
        return run_pinned([
            [sys.executable, "-c", CHILD, list_file, str(i), str(parts), str(repeat)]
            for i in range(parts)
        ])

    one = run(1)[0]
    two = run(2)
    return one, two


def _task(paths):
    """One partition: the helper over its inputs, with the worker's pid and the task's clock."""
    import overtalk.corpus as oc

    start = time.time()
    n = sum(len(oc.analyze_item(p)) for p in paths)
    return [(os.getpid(), start, time.time(), n)]


def dask_run(inputs, partitions, workers, repeat):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import dask
    import dask.bag as db

    bag = db.from_sequence(inputs, npartitions=partitions)
    job = bag.map_partitions(_task)
    spawn = multiprocessing.get_context("spawn")
    best = None
    with ProcessPoolExecutor(workers, mp_context=spawn) as pool, dask.config.set(
        scheduler="processes", pool=pool, chunksize=1
    ):
        job.compute()  # start and warm the workers
        for _ in range(repeat):
            s = time.time()
            tasks = job.compute()
            e = time.time()
            if best is None or e - s < best[0]:
                best = (e - s, s, e, tasks)
    wall, s, e, tasks = best
    assert sum(t[3] for t in tasks) == len(inputs)
    busy = {}
    for pid, ts, te, _ in tasks:
        busy.setdefault(pid, []).append((ts, te))
    per_worker = []
    for pid, spans in busy.items():
        spans.sort()
        inside = sum(te - ts for ts, te in spans)
        gaps = [b[0] - a[1] for a, b in zip(spans, spans[1:])]
        per_worker.append({
            "tasks": len(spans), "inside_s": round(inside, 4),
            "first_start_after_s": round(spans[0][0] - s, 4), "last_end_before_s": round(e - spans[-1][1], 4),
            "gap_between_tasks_ms": round(1000 * sum(gaps) / max(1, len(gaps)), 2),
        })
    return wall, per_worker


def ceiling(rounds):
    """bench/machine_ceiling.py's C integer loop, `rounds` rounds of its default 0.5 s."""
    return measure(["c-int"], rounds, 0.5)[0]


def main():
    import tempfile

    copies = int(_option("--copies", 8))
    partitions = int(_option("--partitions", 16))
    repeat = int(_option("--repeat", 3))
    rounds = int(_option("--rounds", 2))
    files = sorted(glob.glob(os.path.join(AMI, "*", "*.rttm")))
    assert len(files) == 170, f"expected 170 AMI RTTMs under {AMI}"
    inputs = files * copies
    fd, list_file = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(inputs, f)
    try:
        print(json.dumps({"what": "machine", "load_average": os.getloadavg(), "inputs": len(inputs),
                          "partitions": partitions}), flush=True)
        for r in range(rounds):
            one, two = plain(list_file, repeat)
            print(json.dumps({"what": "plain processes, helper loop", "round": r, "one_s": round(one, 4),
                              "two_s": [round(t, 4) for t in two], "speedup": round(one / max(two), 3)}), flush=True)
            w1, pw1 = dask_run(inputs, partitions, 1, repeat)
            w2, pw2 = dask_run(inputs, partitions, 2, repeat)
            inside1 = sum(w["inside_s"] for w in pw1)
            inside2 = sum(w["inside_s"] for w in pw2)
            # speedup = 2 / (inflation x overhead2) x overhead1: the work done inside the tasks
            # grows by `inflation` when two run at once (the machine), and each wall time is its
            # work per worker times what Dask and the split add (`overhead`).
            print(json.dumps({"what": "dask bag", "round": r, "one_worker_s": round(w1, 4),
                              "two_workers_s": round(w2, 4), "speedup": round(w1 / w2, 3),
                              "work_inflation": round(inside2 / inside1, 3),
                              "overhead_one_worker": round(w1 / inside1, 3),
                              "overhead_two_workers": round(w2 / (inside2 / 2), 3),
                              "one_worker_tasks": pw1, "two_worker_tasks": pw2}), flush=True)
        c = ceiling(5)
        if "skipped" in c:
            # No C compiler: the ceiling is not measured, and the line says why.
            print(json.dumps({"what": "machine ceiling, C integer loop", "skipped": c["skipped"]}),
                  flush=True)
        else:
            print(json.dumps({"what": "machine ceiling, C integer loop", "speedups": c["speedups"],
                              "median": c["median"]}), flush=True)
        print(json.dumps({"what": "machine after", "load_average": os.getloadavg()}), flush=True)
    finally:
        os.unlink(list_file)


if __name__ == "__main__":
    main()
