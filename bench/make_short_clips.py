#!/usr/bin/env python3
"""Short clips, the kind a journalist has: 15-40 s with two or three people.

(a) espeak-ng conversations of two or three voices (different and same gender), turns of 1-6 s
    with pauses of 0.2-0.8 s, written as 16-bit PCM at 16 kHz, 16-bit PCM at 44.1 kHz, mu-law
    at 8 kHz and MP3 (lame, 64 kbit/s); the reference RTTM comes from the script (each
    utterance's audible extent, split at pauses of 0.3 s or more, as the shared generator does).
(b) windows of 20-40 s cut from the real recordings in shared/data/real-audio (ES2004a mixture,
    the gecko call, the four AMI 30 s clips), with their references cropped to the window.

The reference count of a clip is the number of speakers with at least 2 s of speech in it.
Split, fixed before any run: every synthetic clip is a tuning clip; the real windows, in the
order this script lists them, alternate tuning (even index) and check (odd index).

Outputs under bench/out/short_clips/ (not committed): <id>.<enc>.{wav,mp3}, <id>.rttm, and
list.tsv (id, file, rttm, reference count, duration, set). Pure standard library; needs
espeak-ng, sox and lame on PATH (and ffmpeg for the MP3 gecko call).

Usage:
  python3 bench/make_short_clips.py [--out DIR] [--data ../shared/data/real-audio]
  python3 bench/make_short_clips.py --eval target/release/overtalk [--tag NAME] [--extra "ARGS"]
      # overtalk detect + overtalk score (collar 0.25 and 0) on every clip of list.tsv; prints
      # the per-clip rows and, per set, counts right and pooled DER; the model from
      # `overtalk models install` or $OVERTALK_MODEL_DIR
"""

import argparse
import array
import os
import random
import subprocess
import sys
import wave

SR = 16000
HERE = os.path.dirname(os.path.abspath(__file__))

MALE = [("en-us+m3", 35, 165), ("en-gb-scotland+m7", 55, 145), ("en-029+m1", 45, 155)]
FEMALE = [("en-gb+f4", 75, 180), ("en-us+f2", 90, 170), ("en-us+f4", 60, 160)]

SENTENCES = [
    "I think we should look at the numbers again before we decide anything.",
    "That is a fair point, but the schedule is already very tight.",
    "Could you say a little more about how the test was set up?",
    "We tried that last spring and it did not go the way we hoped.",
    "The customer asked for a simpler report with fewer charts.",
    "If we split the work in two, both parts could ship next month.",
    "The weather was terrible, so the meeting moved online.",
    "My main worry is that nobody will read a forty page document.",
    "So the plan is to test it on real calls first, right?",
    "Hold on, that is not what I said in the last meeting.",
    "The dress was designed in Paris and took three months to make.",
    "Tonight is about the people who made this film happen.",
]
SHORT = [
    "Absolutely, yes.", "No, not at all.", "Thank you so much.", "Really? Since when?",
    "That is right.", "I love it.", "Of course, go on.", "Which one do you mean?",
]

# id, voices (list of (voice, pitch, speed)), seed, target seconds
CLIPS = [
    ("mf2_a", [MALE[0], FEMALE[0]], 1, 21),
    ("mf2_b", [MALE[1], FEMALE[1]], 2, 30),
    ("mf2_c", [FEMALE[2], MALE[2]], 3, 38),
    ("mm2_a", [MALE[0], MALE[1]], 4, 18),
    ("mm2_b", [MALE[2], MALE[0]], 5, 30),
    ("ff2_a", [FEMALE[0], FEMALE[1]], 6, 22),
    ("ff2_b", [FEMALE[2], FEMALE[0]], 7, 34),
    ("mfm3_a", [MALE[0], FEMALE[0], MALE[1]], 8, 25),
    ("mff3_b", [FEMALE[1], MALE[2], FEMALE[2]], 9, 36),
    ("mmm3_a", [MALE[0], MALE[1], MALE[2]], 10, 32),
    ("fff3_a", [FEMALE[0], FEMALE[1], FEMALE[2]], 11, 28),
    ("mf2_d", [MALE[2], FEMALE[1]], 12, 15),
]

ENCODINGS = [
    ("pcm16k", "wav", ["-r", "16000", "-e", "signed", "-b", "16"]),
    ("pcm44k", "wav", ["-r", "44100", "-e", "signed", "-b", "16"]),
    ("ulaw8k", "wav", ["-r", "8000", "-e", "u-law", "-b", "8"]),
]


def synth(voice, pitch, speed, text):
    esp = subprocess.run(
        ["espeak-ng", "-v", voice, "-p", str(pitch), "-s", str(speed), "--stdout", text],
        check=True, capture_output=True).stdout
    raw = subprocess.run(
        ["sox", "-D", "-R", "-t", "wav", "-", "-t", "raw", "-r", str(SR), "-e", "signed", "-b",
         "16", "-c", "1", "-"], input=esp, check=True, capture_output=True).stdout
    x = array.array("h")
    x.frombytes(raw)
    y = [v / 32768.0 for v in x]
    on = [i for i, v in enumerate(y) if abs(v) > 0.01]
    return y[on[0]:on[-1] + 1] if on else []


def regions(x, split_pause=0.3):
    hop = SR // 100
    n = len(x) // hop
    out, start, silent, last = [], None, 0, 0
    for i in range(n):
        seg = x[i * hop:(i + 1) * hop]
        e = (sum(v * v for v in seg) / hop) ** 0.5
        if e > 0.005:
            if start is None:
                start = i
            silent, last = 0, i
        elif start is not None:
            silent += 1
            if silent >= int(split_pause * 100):
                out.append((start * hop, (last + 1) * hop))
                start = None
    if start is not None:
        out.append((start * hop, min(len(x), (last + 1) * hop)))
    return out or [(0, len(x))]


def write_wav16(path, x):
    pcm = array.array("h", (int(max(-1.0, min(1.0, v)) * 32767.0) for v in x))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(pcm.tobytes())


def count(ref, min_speech=2.0):
    tot = {}
    for spk, s, e in ref:
        tot[spk] = tot.get(spk, 0.0) + e - s
    return sum(1 for v in tot.values() if v >= min_speech)


def write_rttm(path, rid, ref):
    with open(path, "w") as f:
        for spk, s, e in sorted(ref, key=lambda r: r[1]):
            f.write(f"SPEAKER {rid} 1 {s:.3f} {e - s:.3f} <NA> <NA> {spk} <NA> <NA>\n")


def conversation(cid, voices, seed, target, out, cache):
    rng = random.Random(seed)
    names = "ABC"[: len(voices)]

    def utter(k, text):
        key = (voices[k], text)
        if key not in cache:
            cache[key] = synth(*voices[k], text)
        return cache[key]

    events, t, cur = [], int(0.4 * SR), rng.randrange(len(voices))
    while t < (target - 1.0) * SR:
        r = rng.random()
        if r < 0.3:
            x = utter(cur, rng.choice(SHORT))
        elif r < 0.85:
            x = utter(cur, rng.choice(SENTENCES))
        else:  # a longer turn: two sentences with a 0.35 s breath, capped at 6 s
            a, b = rng.sample(SENTENCES, 2)
            x = utter(cur, a) + [0.0] * int(0.35 * SR) + utter(cur, b)
            x = x[: 6 * SR]
        if t + len(x) > target * SR:
            break
        events.append((cur, t, x))
        t += len(x) + int(rng.uniform(0.2, 0.8) * SR)
        cur = rng.choice([j for j in range(len(voices)) if j != cur])
    total = max(s + len(x) for _, s, x in events) + int(0.4 * SR)
    mix = [0.0] * total
    for _, s, x in events:
        for i, v in enumerate(x):
            mix[s + i] += v
    noise = 10 ** (-55 / 20.0)
    mix = [v + noise * rng.gauss(0.0, 1.0) for v in mix]
    peak = max(abs(v) for v in mix)
    g = 0.7 / peak
    mix = [v * g for v in mix]
    ref = []
    for k, s, x in events:
        for a, b in regions(x):
            ref.append((names[k], (s + a) / SR, (s + b) / SR))
    base = os.path.join(out, cid)
    src = base + ".src.wav"
    write_wav16(src, mix)
    rows = []
    for enc, ext, fmt in ENCODINGS:
        rid = f"{cid}.{enc}"
        path = f"{base}.{enc}.{ext}"
        subprocess.run(["sox", "-D", src] + fmt + [path], check=True)
        write_rttm(f"{base}.{enc}.rttm", rid, ref)
        rows.append((rid, path, f"{base}.{enc}.rttm", count(ref), total / SR, "synth"))
    rid = f"{cid}.mp3"
    path = f"{base}.mp3.mp3"
    subprocess.run(["lame", "--quiet", "-b", "64", src, path], check=True)
    write_rttm(f"{base}.mp3.rttm", rid, ref)
    rows.append((rid, path, f"{base}.mp3.rttm", count(ref), total / SR, "synth"))
    os.remove(src)
    return rows


def read_rttm(path):
    ref = []
    for line in open(path):
        p = line.split()
        if len(p) >= 8 and p[0] == "SPEAKER":
            s = float(p[3])
            ref.append((p[7], s, s + float(p[4])))
    return ref


def real_windows(data, out):
    """(source wav, reference, window start, window length) in a fixed order."""
    es = ("ami-es2004a-multitrack/mixture.wav", "ami-es2004a-multitrack/mixture.ref.rttm")
    gk = ("gecko-demo-call/demo.mp3", "gecko-demo-call/demo.rttm")
    wins = [("es", es, s, 25.0) for s in (0.0, 17.5, 35.0)]
    wins += [("es", es, s, 40.0) for s in (0.0, 20.0)]
    wins += [("gecko", gk, s, 30.0) for s in range(0, 540, 45)]
    wins += [("gecko", gk, s, 20.0) for s in (500.0, 540.0)]
    for n in ("tst00", "tst01", "dev00", "trn08"):
        a = (f"ami-30s-excerpts/{n}.wav", f"ami-30s-excerpts/{n}.but.rttm")
        wins += [(n, a, 0.0, 30.0), (n, a, 0.0, 20.0), (n, a, 10.0, 20.0)]
    rows = []
    for i, (tag, (wav, rttm), start, length) in enumerate(wins):
        rid = f"{tag}@{int(start)}+{int(length)}"
        path = os.path.join(out, rid + ".wav")
        src = os.path.join(data, wav)
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-ss", str(start), "-t",
                        str(length), "-i", src, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le",
                        path], check=True)
        ref = []
        for spk, s, e in read_rttm(os.path.join(data, rttm)):
            s, e = max(s, start) - start, min(e, start + length) - start
            if e > s:
                ref.append((spk, s, e))
        write_rttm(os.path.join(out, rid + ".rttm"), rid, ref)
        rows.append((rid, path, os.path.join(out, rid + ".rttm"), count(ref), length,
                     "real-tune" if i % 2 == 0 else "real-check"))
    return rows


def score(binary, ref, hyp, collar):
    out = subprocess.run([binary, "score", "-q", "-r", ref, "-s", hyp, "--collar", str(collar),
                          "--format", "tsv"], check=True, capture_output=True, text=True).stdout
    row = [ln.split("\t") for ln in out.splitlines() if ln.startswith("TOTAL")][0]
    scored, miss, fa, conf = (float(row[i]) for i in (2, 4, 5, 6))
    return scored, miss + fa + conf


def evaluate(a):
    hyp_dir = os.path.join(a.out, "hyp-" + a.tag)
    os.makedirs(hyp_dir, exist_ok=True)
    rows = [ln.rstrip("\n").split("\t") for ln in open(os.path.join(a.out, "list.tsv"))]
    sets = {}
    for rid, path, ref, n_ref, dur, group in rows:
        hyp = os.path.join(hyp_dir, rid + ".rttm")
        subprocess.run([a.eval, "detect", "-q", path, "--recording-id", rid, "-o", hyp]
                       + a.extra.split(), check=True)
        found = len({ln.split()[7] for ln in open(hyp) if ln.startswith("SPEAKER")})
        s25, e25 = score(a.eval, ref, hyp, 0.25)
        s0, e0 = score(a.eval, ref, hyp, 0.0)
        print(f"{rid}\t{group}\t{float(dur):.1f}\tref {n_ref}\tfound {found}\t"
              f"{100 * e25 / max(s25, 1e-9):.1f} / {100 * e0 / max(s0, 1e-9):.1f} %", flush=True)
        g = "synth-" + rid.split(".")[1] if group == "synth" else group
        for key in (g, group) if g != group else (g,):
            t = sets.setdefault(key, [0, 0, 0.0, 0.0, 0.0, 0.0])
            t[0] += 1
            t[1] += int(found == int(n_ref))
            t[2] += s25
            t[3] += e25
            t[4] += s0
            t[5] += e0
    print("| set | clips | counts right | DER c=0.25 / c=0 |")
    print("|---|---:|---:|---|")
    for k in sorted(sets):
        n, r, s25, e25, s0, e0 = sets[k]
        print(f"| {k} | {n} | {r}/{n} | {100 * e25 / s25:.1f} / {100 * e0 / s0:.1f} % |")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "out", "short_clips"))
    ap.add_argument("--data", default=os.path.join(HERE, "..", "..", "shared", "data", "real-audio"))
    ap.add_argument("--eval", metavar="OVERTALK", help="score the clips with this binary")
    ap.add_argument("--tag", default="run", help="hypotheses go to <out>/hyp-<tag>/")
    ap.add_argument("--extra", default="", help="more `overtalk detect` arguments")
    a = ap.parse_args()
    if a.eval:
        evaluate(a)
        return
    os.makedirs(a.out, exist_ok=True)
    rows, cache = [], {}
    for cid, voices, seed, target in CLIPS:
        rows += conversation(cid, voices, seed, target, a.out, cache)
        print(f"{cid}: {rows[-1][4]:.1f} s, {rows[-1][3]} speakers", file=sys.stderr)
    rows += real_windows(a.data, a.out)
    with open(os.path.join(a.out, "list.tsv"), "w") as f:
        for r in rows:
            f.write("\t".join(str(v) for v in r) + "\n")
    print(f"{len(rows)} clips in {a.out}/list.tsv", file=sys.stderr)


if __name__ == "__main__":
    main()
