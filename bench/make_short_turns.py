#!/usr/bin/env python3
"""Synthetic conversations whose floor changes hands through short replies: the set that
measures whether a diarizer keeps a turn of 0.3-0.7 s ("Yes.", "Why?", "Go on.") that takes the
floor between two longer turns, which the main synthetic suite (bench/make_synth.sh) does not
contain (its short utterances are backchannels inside another speaker's turn).

Each conversation: a speaker says one sentence (2-4 s), the next speaker answers after a gap
of 0.15-0.9 s; with probability --p-short that answer is a short reply, after which one of the
others (most often the speaker before it) takes the floor again after another such gap. A
share of the changes (--p-overlap) start up to 0.3 s before the previous turn ends. Voices,
sentences and the speech extent of each utterance come from the shared generator
(synth_conversation.py: espeak-ng, leading and trailing silence trimmed; the reference splits an
utterance at its pauses of 0.3 s or more), so the references are exact. Output per
conversation, as make_synth.sh writes it: <out>/<name>.mix.wav (mono, white noise at
--noise-db), <out>/<name>.mic<k>_<spk>.wav (own voice, the others at --bleed-db) and
<out>/<name>.rttm.

`--heldout` makes a second set of eight with other seeds (bench/out/synth_short_heldout), never
used to choose a setting.

Usage: bench/.venv/bin/python bench/make_short_turns.py [--heldout] [--out DIR]
Then: diarize_eval $M ../shared/data/real-audio --turns --set synth --synth $PWD/bench/out/synth_short
"""

import argparse
import importlib.util
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get(
    "OVERTALK_SYNTH_TOOL", os.path.join(HERE, "..", "..", "shared", "tools", "synth_conversation.py")
)

# Replies that take the floor; espeak-ng says each in about 0.25-0.8 s depending on the voice.
REPLIES = [
    "Yes.", "No.", "Sure.", "Why?", "Really?", "Go on.", "Not really.", "Of course.",
    "I agree.", "Which one?", "Since when?", "Fair enough.", "Okay, and then?", "Tell me more.",
]

# name, speakers, seed, bleed dB, noise dBFS
SET = [
    ("t2_a", 2, 201, -20, -50),
    ("t2_b", 2, 202, -12, -45),
    ("t2_c", 2, 203, -20, -42),
    ("t3_a", 3, 204, -18, -50),
    ("t3_b", 3, 205, -10, -45),
    ("t3_c", 3, 206, -20, -40),
    ("t2_d", 2, 207, -15, -48),
    ("t3_d", 3, 208, -14, -44),
]


def load_tool():
    spec = importlib.util.spec_from_file_location("synth_conversation", TOOL)
    if spec is None or spec.loader is None:
        sys.exit(f"cannot load the generator {TOOL} (set OVERTALK_SYNTH_TOOL)")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def conversation(tool, name, speakers, seed, bleed_db, noise_db, minutes, p_short, p_overlap, out):
    sr = tool.SR
    rng = np.random.default_rng(seed)
    voices = tool.VOICES[:speakers]
    names = [v[0] for v in voices]
    cache = {}

    def utter(k, text):
        if (k, text) not in cache:
            _, v, p, s = voices[k]
            cache[(k, text)] = tool.synth(v, p, s, text)
        return cache[(k, text)]

    events = []  # (speaker, start sample, audio)
    t = int(0.5 * sr)
    cur = int(rng.integers(speakers))
    before = None
    short_next = False
    while t / sr < minutes * 60.0:
        if short_next:
            x = utter(cur, REPLIES[int(rng.integers(len(REPLIES)))])
        else:
            x = utter(cur, tool.SENTENCES[int(rng.integers(len(tool.SENTENCES)))])
        events.append((cur, t, x))
        end = t + len(x)
        if rng.random() < p_overlap and not short_next:
            t = end - int(rng.uniform(0.05, 0.3) * sr)
        else:
            t = end + int(rng.uniform(0.15, 0.9) * sr)
        others = [j for j in range(speakers) if j != cur]
        if short_next and before is not None and rng.random() < 0.7:
            nxt = before  # the floor goes back to the speaker who asked
        else:
            nxt = int(rng.choice(others))
        short_next = (not short_next) and rng.random() < p_short
        before, cur = cur, nxt

    total = max(s + len(x) for _, s, x in events) + int(0.5 * sr)
    clean = np.zeros((speakers, total), dtype=np.float32)
    for k, s, x in events:
        clean[k, s : s + len(x)] += x
    noise = 10 ** (noise_db / 20.0)
    bleed = 10 ** (bleed_db / 20.0)
    mix = clean.sum(axis=0) + noise * rng.standard_normal(total).astype(np.float32)
    gain = min(1.0, 0.89 / max(1e-9, float(np.max(np.abs(mix)))))
    base = os.path.join(out, name)
    tool.write_wav(base + ".mix.wav", mix * gain)
    for i in range(speakers):
        mic = clean[i].copy()
        for j in range(speakers):
            if j != i:
                d = int(sr * 0.001 * (1 + abs(i - j)))
                mic[d:] += bleed * clean[j, : total - d]
        mic += noise * rng.standard_normal(total).astype(np.float32)
        tool.write_wav(f"{base}.mic{i}_{names[i]}.wav", mic * gain)
    lines = []
    for k, s, x in events:
        for rs, re_ in tool.speech_regions(x, 0.3):
            st, du = (s + rs) / sr, (re_ - rs) / sr
            lines.append((st, f"SPEAKER {name} 1 {st:.3f} {du:.3f} <NA> <NA> {names[k]} <NA> <NA>"))
    with open(base + ".rttm", "w") as f:
        f.write("\n".join(line for _, line in sorted(lines)) + "\n")
    short = sum(1 for _, _, x in events if 0.3 * sr <= len(x) <= 0.7 * sr)
    print(f"{base}: {total / sr:.1f} s, {len(events)} turns, {short} of 0.3-0.7 s", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--heldout", action="store_true", help="the held-out set: seeds + 100")
    ap.add_argument("--minutes", type=float, default=4.0)
    ap.add_argument("--p-short", type=float, default=0.35)
    ap.add_argument("--p-overlap", type=float, default=0.1)
    a = ap.parse_args()
    out = a.out or os.path.join(HERE, "out", "synth_short_heldout" if a.heldout else "synth_short")
    tool = load_tool()
    os.makedirs(out, exist_ok=True)
    for name, speakers, seed, bleed, noise in SET:
        if a.heldout:
            name, seed = "h" + name, seed + 100
        if os.path.exists(os.path.join(out, name + ".rttm")):
            continue
        conversation(tool, name, speakers, seed, bleed, noise, a.minutes, a.p_short, a.p_overlap, out)


if __name__ == "__main__":
    main()
