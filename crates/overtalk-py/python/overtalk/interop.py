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

import os
import re
from typing import Any, Iterable, Optional

from . import Conversation, OvertalkError, _flag, _missing, _names, _native, _short, _speaker, _text, _warn

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
    if not (hasattr(annotation, "itertracks") and hasattr(annotation, "labels")):
        raise TypeError(f"annotation: expected a pyannote.core.Annotation, got {type(annotation).__name__}")
    rows = []
    tracks: dict[tuple, list] = {}
    speakers = []
    for segment, track, label in annotation.itertracks(yield_label=True):
        speaker = str(label)
        rows.append((segment.start, segment.end, speaker, None))
        try:
            # A negative start is clipped to 0 (with a warning) by the constructor: keyed as held.
            # A label with control characters is held as the readers show it (a repair, warned).
            key = (max(0, round(segment.start * _MICRO)), round(segment.end * _MICRO), _native._shown_label(speaker))
        except (OverflowError, ValueError):
            continue  # an infinite or NaN time, which the constructor refuses naming the segment
        tracks.setdefault(key, []).append(track)
    for label in annotation.labels():
        speakers.append(str(label))
    rid = _text(recording_id, "recording_id") or annotation.uri or "recording"
    native = _native.Conversation.from_segments(rid, rows, speakers, strict=_flag(strict, "strict"))
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


def from_pympi(
    eaf: Any, tiers: Optional[Iterable[str]] = None, recording_id: Optional[str] = None, *, strict: bool = False
) -> Conversation:
    """A conversation from a ``pympi.Elan.Eaf``, read by overtalk's EAF reader as
    ``overtalk.read`` reads the same file: a speaker is a top-level tier, named by its
    ``PARTICIPANT`` (else its tier id); child tiers (words, chunks, translations: a
    ``PARENT_REF``) are not speakers, and a subdivision child gives the words of its parent;
    what is left out is said in an ``OvertalkWarning``. ``tiers`` (a tier id, or several; glob
    patterns as ``--tiers`` takes them) reads those top-level tiers only."""
    if not (hasattr(eaf, "get_tier_names") and hasattr(eaf, "tiers") and hasattr(eaf, "timeslots")):
        raise TypeError(f"eaf: expected a pympi.Elan.Eaf, got {type(eaf).__name__}")
    only = _names(tiers, "tiers")  # a string is one tier, not the characters of its name
    if only is not None:
        names = {n.lower() for n in eaf.get_tier_names()}
        for t in only:
            if not any(c in t for c in "*?") and t.lower() not in names:
                raise KeyError(f"the EAF has no tier {t!r} (tiers: {sorted(eaf.get_tier_names())})")
    rid = _text(recording_id, "recording_id") or "recording"
    native = _native.read_bytes(_eaf_xml(eaf), "eaf", None, _flag(strict, "strict"), rid, tiers=only)
    # The positions are those of the XML pympi wrote, not of any file: said without them.
    _warn(re.sub(r"^<text>: (line \d+(, column \d+)?: )?", "eaf: ", w) for w in native.warnings)
    return Conversation(native[rid])


def _eaf_xml(eaf: Any) -> bytes:
    """The document pympi holds, as pympi writes it (UTF-8 XML)."""
    from pympi import Elan

    try:
        if hasattr(Elan, "to_string"):
            return Elan.to_string(eaf, pretty=False, encoding="UTF-8")
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "document.eaf")
            Elan.to_eaf(path, eaf, pretty=False)
            with open(path, "rb") as f:
                return f.read()
    except Exception as e:  # pympi's own failure to write what it holds
        raise OvertalkError(f"eaf: pympi cannot write this Eaf as XML ({type(e).__name__}: {e})") from e


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
    """A conversation from a DataFrame (or anything with those columns: a polars DataFrame, a
    dict of columns): ``start`` and ``end`` in seconds, ``speaker``, and ``text`` when that
    column exists. A row without a speaker (``None``, ``NaN``) is an error naming the row: it
    is no speaker called "nan". Text that is not a string (a number) is kept as its string; a
    missing text is none."""
    if hasattr(df, "columns") and hasattr(df, "__getitem__"):
        names = list(df.columns)
    elif hasattr(df, "keys") and hasattr(df, "__getitem__"):  # a dict of columns
        names = list(df.keys())
    else:
        raise TypeError(f"df: expected a DataFrame or a dict of columns, got {type(df).__name__}")
    for c in (start, end, speaker):
        if c not in names:
            raise KeyError(f"the DataFrame has no column {c!r} (columns: {names})")
    has_text = text is not None and text in names
    for c in (start, end, speaker) + ((text,) if has_text else ()):
        if names.count(c) > 1:
            raise ValueError(f"the DataFrame has {names.count(c)} columns named {c!r}; rename all but one")
    rid = _text(recording_id, "recording_id") or "recording"
    strict = _flag(strict, "strict")

    def column(name: str) -> list:
        values = df[name]
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError(f"column {name!r}: expected a column of values (a list, an array, a Series), got {type(values).__name__}")
        return values.tolist() if hasattr(values, "tolist") else list(values)

    starts = column(start)
    ends = column(end)
    if len(ends) != len(starts):
        raise ValueError(f"the columns {start!r} and {end!r} differ in length ({len(starts)} and {len(ends)})")

    spk = []
    for i, s in enumerate(column(speaker)):
        spk.append(_speaker(s, f"row {i}", "give every row a speaker, or drop the row"))
    texts = [None if _missing(t) else str(t) for t in column(text)] if has_text else [None] * len(starts)
    if not len(starts) == len(spk) == len(texts):
        raise ValueError(f"the columns differ in length ({len(starts)} times, {len(spk)} speakers, {len(texts)} texts)")
    rows = []
    for i, (a, b, s, t) in enumerate(zip(starts, ends, spk, texts)):
        if _missing(a) or _missing(b):
            raise OvertalkError(f"row {i}: the start or end is missing ({a!r} and {b!r}); give every row its times, or drop the row")
        try:
            rows.append((float(a), float(b), s, t))
        except (TypeError, ValueError):
            raise TypeError(f"row {i}: start and end are numbers of seconds, got {a!r} and {b!r}") from None
        except OverflowError:
            raise OvertalkError(f"row {i}: time out of range: {_short(a)} to {_short(b)} s") from None
    # Errors name the DataFrame's row, as the checks above do.
    return Conversation(_native.Conversation.from_segments(rid, rows, None, strict=strict, item="row"))
