#!/usr/bin/env python3
"""Cross-check overtalk's TextGrid, EAF and CHAT writers against independent readers.

For every sample file (TextGrid, EAF, CHAT fixtures), overtalk converts it to each of the three
formats; the written file is then read by a peer library (praatio for TextGrid, pympi-ling for
EAF, pylangacq for CHAT) and its tracks are compared with overtalk's own reading of the sample
(through RTTM): same speakers, same times (TextGrid to the microsecond, EAF and CHAT to the
millisecond). Prints one line per check and exits 1 on any mismatch.

Setup (once):
    python3 -m venv bench/.venv
    bench/.venv/bin/pip install praatio pympi-ling pylangacq
    cargo build -p overtalk-cli
Run:
    bench/.venv/bin/python scripts/check_struct_formats.py
"""

import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "debug" / "overtalk"
DATA = ROOT / "crates" / "overtalk" / "tests" / "data"


def run(*args):
    return subprocess.run([str(BIN), "-q", *map(str, args)], check=True, capture_output=True, text=True).stdout


def reference(path):
    """speaker -> sorted [(start µs, end µs)] from overtalk's RTTM output."""
    tracks = defaultdict(list)
    for line in run("convert", path, "--to", "rttm", "-o", "-").splitlines():
        f = line.split()
        start = round(float(f[3]) * 1e6)
        dur = round(float(f[4]) * 1e6)
        tracks[f[7]].append((start, start + dur))
    return {k: sorted(v) for k, v in tracks.items()}


def round_ms(us):
    # Half away from zero, as overtalk rounds.
    return (us + 500) // 1000 * 1000


def peer_textgrid(path):
    from praatio import textgrid

    tg = textgrid.openTextgrid(str(path), includeEmptyIntervals=False)
    tracks = defaultdict(list)
    for name in tg.tierNames:
        tier = tg.getTier(name)
        if not isinstance(tier, textgrid.IntervalTier):
            continue
        for e in tier.entries:
            if not e.label.strip():
                continue
            tracks[name].append((round(e.start * 1e6), round(e.end * 1e6)))
    return {k: sorted(v) for k, v in tracks.items()}


def peer_eaf(path):
    import pympi

    eaf = pympi.Elan.Eaf(str(path))
    tracks = defaultdict(list)
    for tier in eaf.get_tier_names():
        params = eaf.get_parameters_for_tier(tier)
        if params.get("PARENT_REF"):
            continue  # child tiers are not speech (overtalk's rule, applied to the peer too)
        who = params.get("PARTICIPANT") or tier
        for a in eaf.get_annotation_data_for_tier(tier):
            tracks[who].append((a[0] * 1000, a[1] * 1000))
    return {k: sorted(v) for k, v in tracks.items()}


def peer_chat(path):
    import pylangacq

    reader = pylangacq.read_chat(str(path))
    tracks = defaultdict(list)
    for u in reader.utterances():
        if u.time_marks:
            s, e = u.time_marks
            tracks[u.participant].append((s * 1000, e * 1000))
    return {k: sorted(v) for k, v in tracks.items()}


PEERS = {"textgrid": (peer_textgrid, "TextGrid", False), "eaf": (peer_eaf, "eaf", True), "chat": (peer_chat, "cha", True)}
NATIVE = {".TextGrid": peer_textgrid, ".eaf": peer_eaf, ".cha": peer_chat}


def main():
    failures = 0
    samples = sorted(p for sub in ("textgrid", "eaf", "chat") for p in (DATA / sub).iterdir() if p.suffix != ".md" and not p.name.startswith("."))
    with tempfile.TemporaryDirectory() as tmp:
        # A synthetic diarization: self-overlap, microsecond times, labels with spaces.
        synthetic = Path(tmp) / "synthetic.rttm"
        synthetic.write_text(
            "SPEAKER syn 1 0.000001 2.5 <NA> <NA> spk_a <NA> <NA>\n"
            "SPEAKER syn 1 1.000 1.0 <NA> <NA> spk_a <NA> <NA>\n"
            "SPEAKER syn 1 1.2 0.3 <NA> <NA> spk_a <NA> <NA>\n"
            "SPEAKER syn 1 2.0004 3.1 <NA> <NA> B <NA> <NA>\n"
        )
        for fmt, (peer, ext, ms) in PEERS.items():
            out = Path(tmp) / f"synthetic.{ext}"
            run("convert", synthetic, "--to", fmt, "-o", out)
            got = peer(out)
            if fmt == "textgrid":
                # A speaker who overlaps themselves is split into tiers "X", "X (2)", ...
                merged = defaultdict(list)
                for k, v in got.items():
                    merged[k.split(" (")[0]].extend(v)
                got = {k: sorted(v) for k, v in merged.items()}
            want = reference(synthetic)
            want = {k: sorted((round_ms(s), round_ms(e)) for s, e in v) if ms else v for k, v in want.items()}
            ok = sorted(sum(got.values(), [])) == sorted(sum(want.values(), [])) if fmt == "chat" else got == want
            print(f"{'ok  ' if ok else 'FAIL'} synthetic self-overlap -> {fmt}: {sum(len(v) for v in got.values())} tracks")
            if not ok:
                failures += 1
                print(f"     overtalk: {want}\n     peer:     {got}")
        for sample in samples:
            ref = reference(sample)
            # The peer reads the sample itself: overtalk's reading must agree.
            native = NATIVE[sample.suffix](sample)
            want = {k: v for k, v in ref.items()}
            ok = {k: v for k, v in native.items() if v} == want
            print(f"{'ok  ' if ok else 'FAIL'} {sample.name} read by the peer: {sum(len(v) for v in native.values())} tracks")
            if not ok:
                failures += 1
                print(f"     overtalk: {want}\n     peer:     {native}")
            for fmt, (peer, ext, ms) in PEERS.items():
                out = Path(tmp) / f"{sample.stem}.{ext}"
                run("convert", sample, "--to", fmt, "-o", out)
                got = peer(out)
                want = {k: sorted((round_ms(s), round_ms(e)) for s, e in v) if ms else v for k, v in ref.items()}
                if fmt == "chat":
                    # Labels that are not CHAT codes are renamed; compare the tracks only.
                    ok = sorted(sum(got.values(), [])) == sorted(sum(want.values(), []))
                else:
                    ok = got == want
                n = sum(len(v) for v in got.values())
                print(f"{'ok  ' if ok else 'FAIL'} {sample.name} -> {fmt}: {n} tracks, {len(got)} speakers")
                if not ok:
                    failures += 1
                    print(f"     overtalk: {want}\n     peer:     {got}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
