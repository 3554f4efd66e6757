#!/usr/bin/env python3
"""Music heard as speech: how often `overtalk detect` names a music "speaker", and never a voice.

Music: the soundtracks of four games in Debian (Wesnoth, Hedgewars, Planet Blupi, Extreme Tux
Racer; orchestral, rock, electronic, chiptune-like), fetched with `apt-get download` into
WORK (GPL and similar licences: used here, never committed). Speech: the real recordings and
the synthetic suites beside the repository (../shared/data/real-audio, bench/out/synth*).

Podcast-like clips: 20 s of one track as an intro (3 dB under the speech), the speech with 12 s
of the same track under its start (12 dB under), 15 s of another track as an outro. Each
speaker `overtalk detect` finds is scored by how much of its speech lies in the intro or the
outro (music) and whether the music warning names it. Speech-only recordings are detected as
they are, and the first 2 minutes of the call under a bed of every other track (12 and 18 dB
down, start to end): no speaker of theirs should be named.

    python3 bench/music_eval.py target/release/overtalk ../shared/data/real-audio WORK

Needs ffmpeg and numpy.
"""

import glob
import json
import os
import re
import subprocess
import sys
import wave

import numpy as np

RATE = 16_000
PACKAGES = ["wesnoth-1.16-music", "hedgewars-data", "planetblupi-music-ogg", "extremetuxracer-data"]


def fetch_music(work):
    """The packages' .ogg tracks over 300 kB (the short sound effects left out)."""
    root = os.path.join(work, "music")
    os.makedirs(root, exist_ok=True)
    for p in PACKAGES:
        if not glob.glob(os.path.join(root, p + "_*.deb")):
            subprocess.run(["apt-get", "download", p], cwd=root, check=True, capture_output=True)
        deb = glob.glob(os.path.join(root, p + "_*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(root, "x")], check=True)
    tracks = [
        f
        for f in glob.glob(os.path.join(root, "x", "**", "*.ogg"), recursive=True)
        if os.path.getsize(f) > 300_000
    ]
    return sorted(tracks, key=lambda f: (os.path.basename(os.path.dirname(f)), os.path.basename(f)))


def decode(path, seconds=None):
    cmd = ["ffmpeg", "-loglevel", "error", "-i", path]
    if seconds:
        cmd += ["-t", str(seconds)]
    cmd += ["-ac", "1", "-ar", str(RATE), "-f", "s16le", "-"]
    raw = subprocess.run(cmd, check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.int16).astype(np.float32) / 32768


def save(path, x):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes((np.clip(x, -1, 1) * 32767).astype(np.int16).tobytes())


def rms(x):
    return float(np.sqrt((x**2).mean() + 1e-12))


def detect(overtalk, wav, out):
    run = subprocess.run([overtalk, "detect", wav, "-o", out], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr)
    named = set(re.findall(r"speaker (\S+) \([0-9.]+ s\) sounds like music", run.stderr))
    speakers = {}
    with open(out) as rttm:
        for line in rttm:
            f = line.split()
            if f and f[0] == "SPEAKER":
                s = float(f[3])
                speakers.setdefault(f[7], []).append((s, s + float(f[4])))
    return speakers, named


def main():
    overtalk, real, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    tracks = fetch_music(work)
    gecko = decode(os.path.join(real, "gecko-demo-call", "demo.mp3"))
    ami = decode(os.path.join(real, "ami-es2004a-multitrack", "mixture.wav"))
    speech = [
        ("gecko0", gecko[: 90 * RATE]),
        ("gecko200", gecko[200 * RATE : 290 * RATE]),
        ("gecko400", gecko[400 * RATE : 490 * RATE]),
        ("es2004a", ami[: 60 * RATE]),
    ] + [
        ("ami-" + os.path.basename(f)[:-4], decode(f))
        for f in sorted(glob.glob(os.path.join(real, "ami-30s-excerpts", "*.wav")))
    ]
    clips = os.path.join(work, "clips")
    os.makedirs(clips, exist_ok=True)
    music_speakers = named_music = voice_speakers = named_voice = 0
    rows = []
    k = 0
    for name, s in speech:
        if len(s) < 12 * RATE:
            sys.exit(f"{name}: {len(s) / RATE:.1f} s of speech, under the 12 s the bed covers")
        for j in range(3):
            # Tracks of 60 s or more (looped when shorter), so the intro and bed hold music.
            m1 = np.resize(decode(tracks[(2 * k) % len(tracks)], 60), 60 * RATE)
            m2 = np.resize(decode(tracks[(2 * k + 1) % len(tracks)], 60), 60 * RATE)
            k += 1
            ref = rms(s)
            intro = m1[10 * RATE : 30 * RATE]
            intro = intro * ref / rms(intro) * 10 ** (-3 / 20)
            bed = m1[30 * RATE : 42 * RATE]
            bed = bed * ref / rms(bed) * 10 ** (-12 / 20)
            talk = s.copy()
            talk[: len(bed)] += bed
            outro = m2[5 * RATE : 20 * RATE]
            outro = outro * ref / rms(outro) * 10 ** (-3 / 20)
            x = np.concatenate([intro, talk, outro])
            a, b, end = len(intro) / RATE, (len(intro) + len(talk)) / RATE, len(x) / RATE
            clip = os.path.join(clips, f"{name}_{j}.wav")
            save(clip, x)
            speakers, named = detect(overtalk, clip, clip[:-4] + ".rttm")
            for spk, spans in sorted(speakers.items()):
                total = sum(e - s0 for s0, e in spans)
                music = sum(
                    max(0, min(e, a) - max(s0, 0)) + max(0, min(e, end) - max(s0, b))
                    for s0, e in spans
                )
                share = music / total
                if share >= 0.5:
                    music_speakers += 1
                    named_music += spk in named
                else:
                    voice_speakers += 1
                    named_voice += spk in named
                rows.append((os.path.basename(clip), spk, round(total, 1), round(share, 2), spk in named))
    only = [
        os.path.join(real, "gecko-demo-call", "demo.mp3"),
        os.path.join(real, "ami-es2004a-multitrack", "mixture.wav"),
    ] + sorted(glob.glob(os.path.join(real, "ami-30s-excerpts", "*.wav")))
    for suite in ("bench/out/synth", "bench/out/synth_heldout"):
        only += sorted(glob.glob(os.path.join(suite, "*.mix.wav")))
    plain_speakers = plain_named = 0
    for f in only:
        speakers, named = detect(overtalk, f, os.path.join(work, "plain.rttm"))
        plain_speakers += len(speakers)
        plain_named += len(named)
    # Voices over a music bed from start to end, 12 and 18 dB under the speech (every other
    # track): a speaker named here is a voice taken for music.
    bed_speakers = bed_named = 0
    talk = gecko[: 120 * RATE]
    for t in tracks[::2]:
        m = np.resize(decode(t, 120), len(talk))
        for db in (-18, -12):
            x = talk + m * rms(talk) / rms(m) * 10 ** (db / 20)
            bed = os.path.join(clips, "bed.wav")
            save(bed, x)
            speakers, named = detect(overtalk, bed, bed[:-4] + ".rttm")
            bed_speakers += len(speakers)
            bed_named += len(named)
    for r in rows:
        print("\t".join(map(str, r)))
    print(
        json.dumps(
            {
                "music_tracks": len(tracks),
                "clips": k,
                "music_speakers_named": [named_music, music_speakers],
                "voice_speakers_named_in_clips": [named_voice, voice_speakers],
                "speech_only_recordings": len(only),
                "speech_only_speakers_named": [plain_named, plain_speakers],
                "speakers_over_a_bed_named": [bed_named, bed_speakers],
            }
        )
    )


if __name__ == "__main__":
    main()
