"""Reads RTTM files with pyannote's own loader, the way overtalk's read_throughput example does:
files in memory first, best of N passes on one thread. Prints one JSON line."""
import io
import json
import sys
import time

from pyannote.database.util import load_rttm


def main() -> None:
    args = sys.argv[1:]
    repeat = 5
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i : i + 2]
    files = [(p, open(p, encoding="utf-8").read()) for p in args]
    size = sum(len(t.encode("utf-8")) for _, t in files)
    best = float("inf")
    turns = 0
    for _ in range(repeat):
        start = time.perf_counter()
        turns = 0
        for _, text in files:
            for annotation in load_rttm(io.StringIO(text)).values():
                turns += len(annotation)
        best = min(best, time.perf_counter() - start)
    print(json.dumps({"tool": "pyannote.database.load_rttm", "files": len(files), "bytes": size,
                      "turns": turns, "seconds": round(best, 6), "mb_per_s": round(size / 1e6 / best, 1),
                      "turns_per_s": round(turns / best)}))


if __name__ == "__main__":
    main()
