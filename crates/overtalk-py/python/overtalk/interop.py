"""Conversations to and from pyannote.core, pympi (ELAN) and pandas.

Each package is imported only when its function is called; the extras bring them:
``pip install 'overtalk[pyannote]'``, ``'overtalk[pympi]'``, ``'overtalk[pandas]'``.

Times: overtalk holds integer microseconds. A float in seconds is rounded to the nearest
microsecond on the way in and written as ``microseconds / 1e6`` on the way out.

pyannote's ``Annotation`` compares segment times as floats, exactly. An RTTM loaded by
``pyannote.database.util.load_rttm`` has ends computed as ``start + duration``, which in about
12 % of the AMI times differ from the nearest float of their microsecond in the last bit; with
``pyannote.core.Segment.set_precision(6)`` (pyannote's setting for consistent times) both
sides are on the microsecond grid and ``to_pyannote(from_pyannote(a)) == a`` holds for all
170 AMI meetings (tests/test_pyannote.py).

Tracks: a pyannote track is the name of one segment of one speaker. ``from_pyannote`` keeps
the names and ``to_pyannote`` gives them back; a conversation from elsewhere gets the tracks
``0, 1, 2, …`` in time order, so two speakers on the very same segment stay two tracks.
(``annotation[segment] = label`` writes track ``"_"``: a second speaker on the same segment
then replaces the first, a collapse that happens in pyannote before overtalk sees it; AMI's
only_words RTTMs have one segment listed twice.)
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from . import Conversation, _native

_MICRO = 1_000_000


class _TrackedConversation(Conversation):
    """A conversation from pyannote that remembers the track names of its segments."""

    __slots__ = ("_tracks",)

    def __init__(self, native: _native.Conversation, tracks: Optional[list] = None) -> None:
        super().__init__(native)
        self._tracks = tracks

    def __reduce__(self) -> tuple:
        return (_TrackedConversation, (self._native, self._tracks))


def from_pyannote(annotation: Any, recording_id: Optional[str] = None, *, strict: bool = False) -> Conversation:
    """A conversation from a ``pyannote.core.Annotation`` (its ``uri`` is the recording id)."""
    rows = []
    tracks: dict[tuple, list] = {}
    speakers = []
    for segment, track, label in annotation.itertracks(yield_label=True):
        speaker = str(label)
        rows.append((segment.start, segment.end, speaker, None))
        # A negative start is clipped to 0 (with a warning) by the constructor: keyed as held.
        key = (max(0, round(segment.start * _MICRO)), round(segment.end * _MICRO), speaker)
        tracks.setdefault(key, []).append(track)
    for label in annotation.labels():
        speakers.append(str(label))
    rid = recording_id or annotation.uri or "recording"
    native = _native.Conversation.from_segments(rid, rows, speakers, strict=bool(strict))
    ordered = []
    for start, end, speaker in native.segments_micros():
        queue = tracks.get((start, end, speaker))
        ordered.append(queue.pop(0) if queue else None)
    return _TrackedConversation(native, ordered)


def to_pyannote(conversation: Conversation) -> Any:
    """The conversation as a ``pyannote.core.Annotation`` (``uri`` the recording id)."""
    from pyannote.core import Annotation, Segment

    names = getattr(conversation, "_tracks", None)
    a = Annotation(uri=conversation.recording_id)
    for i, (start, end, speaker) in enumerate(conversation._native.segments_micros()):
        track = names[i] if names is not None and i < len(names) and names[i] is not None else i
        a[Segment(start / _MICRO, end / _MICRO), track] = speaker
    return a


def from_pympi(eaf: Any, tiers: Optional[Iterable[str]] = None, recording_id: Optional[str] = None) -> Conversation:
    """A conversation from a ``pympi.Elan.Eaf``: each tier in ``tiers`` (default: every tier
    with annotations) is a speaker, each annotation a segment with its value as text."""
    names = list(tiers) if tiers is not None else list(eaf.get_tier_names())
    rows = []
    speakers = []
    for tier in names:
        if tier not in eaf.get_tier_names():
            raise KeyError(f"the EAF has no tier {tier!r} (tiers: {sorted(eaf.get_tier_names())})")
        data = eaf.get_annotation_data_for_tier(tier)
        if tiers is None and not data:
            continue
        speakers.append(tier)
        for d in data:
            start, end, value = d[0], d[1], d[2]
            rows.append((start / 1000.0, end / 1000.0, tier, value if value != "" else None))
    rid = recording_id or "recording"
    return Conversation(_native.Conversation.from_segments(rid, rows, speakers))


def to_pympi(conversation: Conversation) -> Any:
    """The conversation as a ``pympi.Elan.Eaf``: one tier per speaker, times in ms."""
    from pympi.Elan import Eaf

    eaf = Eaf(author="overtalk")
    for speaker in conversation.speakers:
        eaf.add_tier(speaker)
    for s in conversation.segments():
        eaf.add_annotation(s.speaker, round(s.start * 1000), round(s.end * 1000), s.text or "")
    if "default" not in conversation.speakers:
        eaf.remove_tier("default")
    return eaf


def from_pandas(
    df: Any,
    recording_id: Optional[str] = None,
    start: str = "start",
    end: str = "end",
    speaker: str = "speaker",
    text: Optional[str] = "text",
    *,
    strict: bool = False,
) -> Conversation:
    """A conversation from a DataFrame (or anything with those columns): ``start`` and ``end``
    in seconds, ``speaker``, and ``text`` when that column exists. A row without a speaker
    (``None``, ``NaN``) is an error naming the row: it is no speaker called "nan". Text that is
    not a string (a number) is kept as its string; a missing text is none."""
    for c in (start, end, speaker):
        if c not in df.columns:
            raise KeyError(f"the DataFrame has no column {c!r} (columns: {list(df.columns)})")
    has_text = text is not None and text in df.columns
    starts = df[start].tolist()
    ends = df[end].tolist()

    def missing(v: Any) -> bool:
        return v is None or (isinstance(v, float) and v != v)

    spk = []
    for i, s in enumerate(df[speaker].tolist()):
        if missing(s):
            raise ValueError(f"row {i}: the speaker is missing ({s!r}); give every row a speaker, or drop the row")
        spk.append(str(s))
    texts = [None if missing(t) else str(t) for t in df[text].tolist()] if has_text else [None] * len(starts)
    rows = [
        (float(a), float(b), s, t if isinstance(t, str) else None)
        for a, b, s, t in zip(starts, ends, spk, texts)
    ]
    return Conversation(_native.Conversation.from_segments(recording_id or "recording", rows, None, strict=bool(strict)))
