#!/usr/bin/env python3
"""Reads overtalk's cut lists back with OpenTimelineIO and its adapters and compares them
with what overtalk meant, frame by frame.

usage: otio_check.py DIR          DIR holds cases written by crates/overtalk/tests/cut_otio.rs:
                                  NAME.expected.json plus NAME.otio, NAME.edl, NAME.xml,
                                  NAME.fcpxml (any present are checked)
       otio_check.py --timecode RATE STEP [COUNT]
                                  prints the SHA-256 of OTIO's timecode of every STEP-th frame
                                  of 24 hours (or of the first COUNT frames) at RATE (e.g.
                                  29.97df), one label and a newline per frame

Every clip's source range (start frame, duration) and record position must be equal, as whole
frames at the case's rate, to the expected ones; a case whose expected.json lists "media" (a
multicam cut) also needs each clip's source media to be that file (the media reference's URL,
or the clip name where an EDL gives only `* FROM CLIP NAME:`); prints one line per file and
exits 1 on any difference.
"""
import hashlib
import json
from fractions import Fraction
import pathlib
import sys
import urllib.parse

import opentimelineio as otio

RATES = {
    "23.976": (24000 / 1001, False), "24": (24.0, False), "25": (25.0, False),
    "29.97": (30000 / 1001, False), "29.97df": (30000 / 1001, True), "30": (30.0, False),
    "50": (50.0, False), "59.94": (60000 / 1001, False), "59.94df": (60000 / 1001, True),
    "60": (60.0, False),
}


def frames(rt, rate):
    v = rt.rescaled_to(rate).value
    if abs(v - round(v)) > 1e-6:
        raise ValueError(f"not a whole frame: {v}")
    return int(round(v))


def timelines(obj):
    if isinstance(obj, otio.schema.Timeline):
        yield obj
    elif isinstance(obj, otio.schema.SerializableCollection):
        for c in obj:
            yield from timelines(c)


def source_names(timeline):
    """The file name of every clip's source on the first track."""
    tracks = [t for t in timeline.tracks if isinstance(t, otio.schema.Track)]
    out = []
    for child in tracks[0] if tracks else []:
        if not isinstance(child, otio.schema.Clip):
            continue
        url = getattr(child.media_reference, "target_url", None)
        if url:
            out.append(urllib.parse.unquote(url.rsplit("/", 1)[-1]))
        else:
            out.append(child.name)
    return out


def clips_of(timeline, rate):
    """[(track index, source_in, duration, record_in)] of every clip, by track."""
    out = []
    tracks = [t for t in timeline.tracks if isinstance(t, otio.schema.Track)]
    for i, track in enumerate(tracks):
        for child in track:
            if not isinstance(child, otio.schema.Clip):
                continue
            sr = child.source_range
            rec = track.range_of_child(child)
            out.append((i, frames(sr.start_time, rate), frames(sr.duration, rate),
                        frames(rec.start_time, rate)))
    return out


def exact_fcpx():
    """Replaces the FCPX adapter's float arithmetic by exact fractions.

    As published (1.0.0) the adapter truncates the frame rate to an integer (29.97 becomes 29)
    and converts rational seconds to frames with `int(float(a) / float(b) * fps)`, which drops
    a frame whenever the float product lands just below a whole number. The check reads
    overtalk's files both ways: as published (reported) and exact (the gate).
    """
    # The module OpenTimelineIO's plugin system loaded (not a second import of it).
    fx = otio.adapters.from_name("fcpx_xml").module()

    def exact_rate(self, format_id):
        total, rate = self._format_frame_duration(format_id)
        return Fraction(int(rate), int(total))

    def frame_rate(self, format_id):
        return float(exact_rate(self, format_id))

    def frames_of(value, fps):
        if value in ("0s", None):
            return Fraction(0)
        fps = Fraction(fps).limit_denominator(1001)
        f = Fraction(value.replace("s", "")) * fps
        if f.denominator != 1:
            raise ValueError(f"{value} is not a whole frame at {fps}")
        return f

    def to_rt(value, fps):
        return otio.opentime.RationalTime(int(frames_of(value, fps)), float(fps))

    def number_of_frames(self, value, format_id):
        return int(frames_of(value, exact_rate(self, format_id)))

    fx.FcpxXml._format_frame_rate = frame_rate
    fx.FcpxXml._number_of_frames = number_of_frames
    fx.to_rational_time = to_rt


def read(path, rate):
    ext = path.suffix
    if ext == ".otio":
        return otio.adapters.read_from_file(str(path))
    if ext == ".edl":
        return otio.adapters.read_from_file(str(path), adapter_name="cmx_3600", rate=rate)
    if ext == ".xml":
        return otio.adapters.read_from_file(str(path), adapter_name="fcp_xml")
    if ext in (".fcpxml", ".fcpxml-exact"):
        return otio.adapters.read_from_string(path.read_text(), adapter_name="fcpx_xml")
    raise ValueError(ext)


def check_dir(d):
    bad = 0
    checked = 0
    for exp_path in sorted(d.glob("*.expected.json")):
        exp = json.loads(exp_path.read_text())
        rate, _ = RATES[exp["fps"]]
        name = exp_path.name[: -len(".expected.json")]
        want = [tuple(c) for c in exp["clips"]]
        for ext in (".otio", ".edl", ".xml", ".fcpxml"):
            p = d / (name + ext)
            if not p.exists():
                continue
            if ext == ".fcpxml" and not EXACT:
                continue
            checked += 1
            try:
                tl = list(timelines(read(p, rate)))
                if len(tl) != 1:
                    raise ValueError(f"{len(tl)} timelines")
                got = clips_of(tl[0], rate)
                # EDL readers may add tracks for channels (AA = A1, A2): compare track 0 and
                # require every other track to repeat it.
                per_track = {}
                for t, *c in got:
                    per_track.setdefault(t, []).append(tuple(c))
                first = per_track.get(0, [])
                if first != want:
                    diff = next((i for i, (a, b) in enumerate(zip(first, want)) if a != b),
                                min(len(first), len(want)))
                    raise ValueError(f"clip {diff}: got {first[diff:diff + 1]} want {want[diff:diff + 1]} "
                                     f"({len(first)} vs {len(want)} clips)")
                if "media" in exp:
                    names = source_names(tl[0])
                    if names != exp["media"]:
                        diff = next((i for i, (a, b) in enumerate(zip(names, exp["media"])) if a != b),
                                    min(len(names), len(exp["media"])))
                        raise ValueError(f"clip {diff}: source {names[diff:diff + 1]} want "
                                         f"{exp['media'][diff:diff + 1]}")
                print(f"ok   {p.name}: {len(want)} clips")
            except Exception as e:  # noqa: BLE001 - every failure is reported per file
                bad += 1
                print(f"FAIL {p.name}: {e}")
    print(f"{checked} files checked, {bad} failed")
    return 1 if bad or checked == 0 else 0


EXACT = False


def check_all(d):
    """Every format, the FCPX adapter exact; then FCPXML through the adapter as published."""
    global EXACT
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        check_dir_fcpx_published(d)
    published = buf.getvalue().strip().splitlines()
    exact_fcpx()
    EXACT = True
    rc = check_dir(d)
    print("fcpx_xml adapter as published: " + (published[-1] if published else "nothing read"))
    return rc


def check_dir_fcpx_published(d):
    """The FCPXML files through the adapter as published (float arithmetic)."""
    bad = checked = 0
    for exp_path in sorted(d.glob("*.expected.json")):
        exp = json.loads(exp_path.read_text())
        rate, _ = RATES[exp["fps"]]
        p = d / (exp_path.name[: -len(".expected.json")] + ".fcpxml")
        if not p.exists():
            continue
        checked += 1
        try:
            tl = list(timelines(read(p, rate)))
            got = [tuple(c[1:]) for c in clips_of(tl[0], rate) if c[0] == 0]
            if got != [tuple(c) for c in exp["clips"]]:
                bad += 1
        except Exception:  # noqa: BLE001
            bad += 1
    print(f"{checked} FCPXML files, {bad} differ by a frame or more or do not read")


def timecode_hash(name, step, count=None):
    rate, drop = RATES[name]
    nominal = {23: 24, 24: 24, 25: 25, 29: 30, 30: 30, 50: 50, 59: 60, 60: 60}[int(rate)]
    if drop:
        per_day = 24 * 3600 * nominal - (nominal // 15) * (24 * 60 - 24 * 6)
    else:
        per_day = 24 * 3600 * nominal
    h = hashlib.sha256()
    to_tc = otio.opentime.to_timecode
    RT = otio.opentime.RationalTime
    for f in range(0, per_day if count is None else count, step):
        h.update(to_tc(RT(f, rate), rate, drop).encode())
        h.update(b"\n")
    print(h.hexdigest())
    return 0


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--timecode":
        count = int(sys.argv[4]) if len(sys.argv) == 5 else None
        sys.exit(timecode_hash(sys.argv[2], int(sys.argv[3]), count))
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(check_all(pathlib.Path(sys.argv[1])))
