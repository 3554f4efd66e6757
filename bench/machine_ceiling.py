#!/usr/bin/env python3
"""The speed-up this machine gives CPU-bound work on 2 cores against 1: the ceiling that no
engine's 2-worker speed-up (bench/python_bench.py, "Python" in BENCHMARKS.md) can pass.

Each kind of work is one fixed unit timed by the process that runs it (its own loop, not its
start): alone on CPU 0, then two copies at once, one pinned to CPU 0 and one to CPU 1
(`taskset`). The speed-up of one round is 2 x (time alone) / (the slower of the two copies):
two units of work done in the time both copies took, against one unit in the time one took.
Rounds alternate alone and together, so a change of the machine's load falls on both sides.

- `c-int`: a C loop of integer arithmetic (an xorshift generator, registers only), compiled
  with `cc -O2` into a temporary directory;
- `c-mem`: a C loop that walks 64 MB at random (the caches missed: what two cores share is
  the memory);
- `sha256`: hashlib over a 256 KB buffer again and again (OpenSSL's C, the buffer in L2);
- `python`: the pure-Python loop that bench/python_bench.py took as the ceiling before.

Usage: python3 bench/machine_ceiling.py [--rounds N] [--seconds S] [--kinds c-int,python,...]
Prints one JSON line per kind: the speed-ups of every round, their minimum, median and
maximum, and the load average before and after.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    long n = atol(argv[2]);
    uint64_t x = 88172645463325252ULL, acc = 0;
    double s = now();
    if (argv[1][0] == 'i') {
        for (long i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            acc += x;
        }
    } else {
        size_t len = (size_t)64 << 20;
        uint64_t *m = malloc(len);
        size_t words = len / 8;
        for (size_t i = 0; i < words; i++) m[i] = i * 2654435761u;
        s = now();
        for (long i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            acc += m[(x ^ acc) & (words - 1)];
        }
        free(m);
    }
    printf("%.9f %llu\n", now() - s, (unsigned long long)acc);
    return 0;
}
"""

PY_SHA = (
    "import hashlib, sys, time\n"
    "b = bytes(range(256)) * 1024\n"
    "n = int(sys.argv[1]); s = time.perf_counter()\n"
    "for _ in range(n): hashlib.sha256(b).digest()\n"
    "print(time.perf_counter() - s)\n"
)

PY_LOOP = (
    "import sys, time\n"
    "n = int(sys.argv[1]); s = time.perf_counter(); t = 0\n"
    "for i in range(n): t += i * i\n"
    "print(time.perf_counter() - s)\n"
)


def _option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def run_pinned(cmds):
    """Runs each command pinned to its CPU (0, 1, …), all at once; their own loop times."""
    procs = [
        subprocess.Popen(["taskset", "-c", str(cpu)] + cmd, stdout=subprocess.PIPE, text=True)
        for cpu, cmd in enumerate(cmds)
    ]
    out = []
    for p in procs:
        text, _ = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"{cmds} failed: {p.returncode}")
        out.append(float(text.split()[0]))
    return out


def calibrate(cmd_of, seconds):
    """The work size that takes about `seconds` alone on CPU 0."""
    n = 1000
    while True:
        t = run_pinned([cmd_of(n)])[0]
        if t >= seconds / 4:
            return max(1, int(n * seconds / t))
        n *= 4


def measure(kinds, rounds, seconds):
    """The speed-ups of each kind of work (one dict per kind, as printed by `main`)."""
    work = tempfile.mkdtemp(prefix="ceiling-")
    out = []
    try:
        cc = shutil.which("cc") or shutil.which("gcc")
        binary = os.path.join(work, "burn")
        if cc:
            with open(os.path.join(work, "burn.c"), "w") as f:
                f.write(C_SOURCE)
            subprocess.check_call([cc, "-O2", "-o", binary, os.path.join(work, "burn.c")])
        makers = {
            "c-int": lambda n: [binary, "i", str(n)],
            "c-mem": lambda n: [binary, "m", str(n)],
            "sha256": lambda n: [sys.executable, "-c", PY_SHA, str(n)],
            "python": lambda n: [sys.executable, "-c", PY_LOOP, str(n)],
        }
        for kind in kinds:
            if kind.startswith("c-") and not cc:
                out.append({"kind": kind, "skipped": "no C compiler"})
                continue
            make = makers[kind]
            load_before = os.getloadavg()
            n = calibrate(make, seconds)
            ratios, alone_times, both_times = [], [], []
            for _ in range(rounds):
                alone = run_pinned([make(n)])[0]
                both = run_pinned([make(n), make(n)])
                ratios.append(2 * alone / max(both))
                alone_times.append(alone)
                both_times.append(both)
            out.append({
                "kind": kind, "work": n, "rounds": rounds,
                "speedups": [round(r, 3) for r in ratios],
                "min": round(min(ratios), 3), "median": round(statistics.median(ratios), 3),
                "max": round(max(ratios), 3),
                "alone_s": [round(t, 4) for t in alone_times],
                "together_s": [[round(t, 4) for t in b] for b in both_times],
                "load_before": [round(x, 2) for x in load_before],
                "load_after": [round(x, 2) for x in os.getloadavg()],
            })
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def main():
    rounds = int(_option("--rounds", 5))
    seconds = float(_option("--seconds", 0.5))
    kinds = _option("--kinds", "c-int,c-mem,sha256,python").split(",")
    for kind in kinds:
        print(json.dumps(measure([kind], rounds, seconds)[0]), flush=True)


if __name__ == "__main__":
    main()
