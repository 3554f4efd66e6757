#!/usr/bin/env python3
"""Where Ray Data's 2-worker speed-up goes (BENCHMARKS.md, Python, run 14): the corpus helper's
Ray recipe (`analyze_batch_arrow` on whole blocks, per-operator reservation off) on 1 and then 2
worker processes, with its rows kept three ways:

  materialize  the rows into Ray's object store (the bench's figure, bench/python_bench.py);
  parquet      the rows written to Parquet files by the workers (`write_parquet`);
  nojson       the rows without their JSON column, into the object store.

Also prints, for one 2-worker run, the CPU each process took (from /proc): the workers', the
driver's and Ray's own processes'.

Usage: python bench/ray_variants.py [--copies K] [--blocks B] [--repeat N]
       (a venv with the package and ray[data], e.g. scripts/python/setup_venv.sh)
Reads ../shared/data (or OVERTALK_SHARED_DATA).
"""

import glob
import os
import shutil
import sys
import tempfile
import time

SHARED = os.environ.get("OVERTALK_SHARED_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
AMI = os.path.join(SHARED, "corpora", "ami", "only_words", "rttms")


def _option(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def cpu_by_process():
    """CPU seconds (user + system) of every process, by pid: (command, seconds)."""
    out, tick = {}, os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()[:60]
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            out[pid] = (cmd, (int(fields[11]) + int(fields[12])) / tick)
        except OSError:
            pass
    return out


def main():
    import ray

    import overtalk.corpus as oc

    copies, blocks, repeat = _option("--copies", 8), _option("--blocks", 24), _option("--repeat", 3)
    files = sorted(glob.glob(os.path.join(AMI, "*", "*.rttm")))
    assert len(files) == 170, f"expected 170 AMI RTTMs under {AMI}"
    inputs = [str(f) for f in files] * copies

    def run_with(workers, mode, profile=False):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.op_resource_reservation_enabled = False
        ds = ray.data.from_items([{"path": p} for p in inputs], override_num_blocks=blocks)

        def once():
            fn = oc.analyze_batch_arrow
            if mode == "nojson":
                fn = lambda b: oc.analyze_batch_arrow(b).drop_columns(["json"])  # noqa: E731
            job = ds.map_batches(fn, batch_size=None, batch_format="pyarrow")
            if mode != "parquet":
                return job.materialize().count()
            out = tempfile.mkdtemp()
            try:
                job.write_parquet(out)
                return len(os.listdir(out))
            finally:
                shutil.rmtree(out)

        try:
            once()  # start and warm the workers
            if profile:
                before = cpu_by_process()
                t0 = time.perf_counter()
                once()
                wall = time.perf_counter() - t0
                after = cpu_by_process()
                rows = sorted(((after[p][1] - before.get(p, ("", 0))[1], after[p][0]) for p in after), reverse=True)
                print(f"  one {workers}-worker run, {wall:.2f} s wall; CPU by process:")
                for secs, cmd in rows[:6]:
                    print(f"    {secs:5.2f} s  {cmd}")
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                once()
                best = min(best, time.perf_counter() - t0)
            return best
        finally:
            ray.shutdown()

    print(f"{len(inputs)} inputs, {blocks} blocks, load average {os.getloadavg()[0]:.2f}")
    for mode in ["materialize", "parquet", "nojson"]:
        t1 = run_with(1, mode)
        t2 = run_with(2, mode, profile=(mode == "materialize"))
        print(f"{mode:12s} 1 worker {t1:.2f} s, 2 workers {t2:.2f} s: {t1 / t2:.2f}x")


if __name__ == "__main__":
    main()
