#!/usr/bin/env python3
"""The Python package beside its peers, in one run (figures in BENCHMARKS.md, "Python").

1. `import overtalk` in a fresh interpreter (best of N, the interpreter's own start excluded);
2. read + analyse all 170 AMI RTTMs from Python (`overtalk.read` + `overtalk.analyze` per file,
   one thread) beside pyannote.database's loading alone (`load_rttm` per file);
3. Heldner & Edlund intervals of the 93 speaker pairs of the AMI test meetings:
   `overtalk.gaps_and_overlaps` beside pympi-ling's `Eaf.get_gaps_and_overlaps2`, both on
   objects built before the clock starts from the same integer-ms turns (as
   bench/pympi_agreement.py --timing does for pympi);
4. the same on 1 and 2 threads (the GIL released in the calls), and the corpus helper on 1 and 2 workers of Ray Data and of a Dask bag (processes) over the 170
   files, four times over (680 inputs): the speed-up.

Usage: scripts/python/setup_venv.sh && scripts/python/.venv/bin/python bench/python_bench.py [--repeat N] [--no-engines]
Reads ../shared/data (or OVERTALK_SHARED_DATA). Prints one JSON line per figure.
"""

import glob
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
SHARED = os.environ.get("OVERTALK_SHARED_DATA") or os.path.join(HERE, "..", "..", "shared", "data")
AMI = os.path.join(SHARED, "corpora", "ami", "only_words", "rttms")


def best(f, repeat):
    t = float("inf")
    out = None
    for _ in range(repeat):
        s = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - s)
    return t, out


def emit(**kv):
    print(json.dumps(kv), flush=True)


def import_time(repeat):
    code = "import time; s = time.perf_counter(); import overtalk; print(time.perf_counter() - s)"
    times = [float(subprocess.check_output([sys.executable, "-c", code])) for _ in range(repeat)]
    emit(what="import overtalk", seconds=min(times), median=sorted(times)[len(times) // 2])


def read_analyse(files, repeat):
    import overtalk

    def ours():
        n = 0
        for f in files:
            c = overtalk.read(f)
            for rid in c.ids():
                overtalk.analyze(c[rid])
                n += 1
        return n

    def read_only():
        return sum(len(overtalk.read(f)) for f in files)

    def threads(workers):
        from concurrent.futures import ThreadPoolExecutor

        def one(f):
            c = overtalk.read(f)
            return [overtalk.analyze(c[r]) for r in c.ids()]

        with ThreadPoolExecutor(workers) as pool:
            return sum(len(x) for x in pool.map(one, files))

    t1, _ = best(lambda: threads(1), repeat)
    t2, _ = best(lambda: threads(2), repeat)
    emit(what="read + analyse 170 AMI RTTMs on threads (GIL released)", one_thread=t1, two_threads=t2, speedup=t1 / t2)
    t_ours, n = best(ours, repeat)
    t_read, _ = best(read_only, repeat)
    from pyannote.database.util import load_rttm

    t_peer, m = best(lambda: sum(len(load_rttm(f)) for f in files), max(1, min(repeat, 2)))
    assert n == m == 170, (n, m)
    emit(what="read + analyse 170 AMI RTTMs", overtalk_read_analyse=t_ours, overtalk_read=t_read,
         pyannote_database_load_rttm=t_peer, ratio_load_vs_read_analyse=t_peer / t_ours)


def he_pairs(repeat):
    import overtalk
    import pympi
    from pympi_agreement import pairs_of

    eafs, convs = [], []
    for _, _, _, a, b in pairs_of(os.path.join(AMI, "test")):
        eaf = pympi.Elan.Eaf()
        eaf.add_tier("t1")
        eaf.add_tier("t2")
        rows = []
        for s, e in a:
            eaf.add_annotation("t1", s, e)
            rows.append((s / 1000, e / 1000, "t1"))
        for s, e in b:
            eaf.add_annotation("t2", s, e)
            rows.append((s / 1000, e / 1000, "t2"))
        eafs.append(eaf)
        convs.append(overtalk.Conversation.from_segments(rows, "pair", speakers=["t1", "t2"]))
    t_peer, n_peer = best(lambda: sum(len(list(e.get_gaps_and_overlaps2("t1", "t2"))) for e in eafs), repeat)
    classes = {"pause", "gap", "overlap_between", "overlap_within"}
    t_ours, n_ours = best(
        lambda: sum(sum(1 for i in overtalk.gaps_and_overlaps(c, latch_tolerance=0) if i.kind in classes) for c in convs),
        repeat * 10,
    )
    emit(what="H&E intervals of 93 AMI test pairs", pairs=len(eafs), pympi_intervals=n_peer,
         overtalk_intervals=n_ours, pympi=t_peer, overtalk=t_ours, ratio=t_peer / t_ours)


def engines(files):
    import overtalk.corpus as oc

    inputs = [str(f) for f in files] * 4

    def dask_run(workers):
        import dask
        import dask.bag as db

        bag = db.from_sequence(inputs, npartitions=8)
        with dask.config.set(scheduler="processes", num_workers=workers):
            bag.map(oc.analyze_item).flatten().compute()  # warm the worker pool
            s = time.perf_counter()
            rows = bag.map(oc.analyze_item).flatten().compute()
            return time.perf_counter() - s, len(rows)

    def ray_run(workers):
        import ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            ds = ray.data.from_items([{"path": p} for p in inputs], override_num_blocks=8)
            ds.map_batches(oc.analyze_batch, batch_size=85).take_all()  # warm the workers
            s = time.perf_counter()
            rows = ds.map_batches(oc.analyze_batch, batch_size=85).take_all()
            return time.perf_counter() - s, len(rows)
        finally:
            ray.shutdown()

    for name, run in [("dask bag (processes)", dask_run), ("ray data", ray_run)]:
        t1, n1 = run(1)
        t2, n2 = run(2)
        assert n1 == n2 == len(inputs)
        emit(what=f"{name}, 680 inputs", one_worker=t1, two_workers=t2, speedup=t1 / t2)


def main():
    repeat = 5
    if "--repeat" in sys.argv:
        repeat = int(sys.argv[sys.argv.index("--repeat") + 1])
    files = sorted(glob.glob(os.path.join(AMI, "*", "*.rttm")))
    assert len(files) == 170, f"expected 170 AMI RTTMs under {AMI}"
    emit(what="machine", load_average=os.getloadavg(), cpus=os.cpu_count())
    import_time(max(repeat, 10))
    read_analyse(files, repeat)
    he_pairs(repeat)
    if "--no-engines" not in sys.argv:
        engines(files)


if __name__ == "__main__":
    main()
