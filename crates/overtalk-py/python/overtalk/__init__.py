"""overtalk: the floor of a conversation, measured.

Who spoke when in, the dynamics of the conversation out (turns, gaps and overlaps, the floor,
interruptions, backchannels), and diarization scoring (DER, JER) that agrees with md-eval,
dscore and pyannote.metrics. The work is done in Rust; the calls that take time release the
GIL, and every object pickles, so corpora run on Ray, Dask and Spark as they are
(:mod:`overtalk.corpus`).

>>> import overtalk
>>> corpus = overtalk.read("SPEAKER clip 1 0.00 4.00 <NA> <NA> Wife <NA> <NA>\\n"
...                        "SPEAKER clip 1 3.50 1.00 <NA> <NA> Husband <NA> <NA>\\n")
>>> a = overtalk.analyze(corpus["clip"])
>>> a.conversation["overlap"]
500
"""

from __future__ import annotations

import math as _math
import numbers as _numbers
import os as _os
import pathlib as _pathlib
from collections import namedtuple as _namedtuple
from collections.abc import Mapping as _Mapping

from . import _native
from ._native import OvertalkError, OvertalkWarning, __version__

# `typing` is for type checkers only: importing it (and the `re`, `functools`, `contextlib` it
# brings) would be most of the time `import overtalk` takes. The annotations are strings
# (`from __future__ import annotations`), never evaluated at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Optional, Sequence, Union

    import pandas
    import pyarrow

    PathLike = Union[str, _os.PathLike[str]]

__all__ = [
    "Analysis",
    "Conversation",
    "Corpus",
    "EventScore",
    "Interval",
    "Intervals",
    "OvertalkError",
    "OvertalkFileNotFoundError",
    "OvertalkWarning",
    "Score",
    "Segment",
    "analyze",
    "analyze_many",
    "detect",
    "gaps_and_overlaps",
    "gaps_and_overlaps_counts",
    "gaps_and_overlaps_many",
    "read",
    "score",
    "score_events",
    "turn_order",
    "write",
    "__version__",
]

if TYPE_CHECKING:  # pragma: no cover

    class Segment(NamedTuple):
        start: float
        end: float
        speaker: str
        text: Optional[str] = None

    class Interval(NamedTuple):
        kind: str
        start_ms: int
        end_ms: int
        before: Optional[str]
        after: Optional[str]

else:

    class Segment(_namedtuple("Segment", ["start", "end", "speaker", "text"], defaults=[None])):
        """One segment: start and end in seconds, the speaker, and the text when the format has it."""

        __slots__ = ()

    class Interval(_namedtuple("Interval", ["kind", "start_ms", "end_ms", "before", "after"])):
        """One acoustic Heldner & Edlund interval: its class, start and end (ms), and the solo
        speakers before and after it (``None`` where there is none)."""

        __slots__ = ()


class OvertalkFileNotFoundError(FileNotFoundError, OvertalkError):
    """A file or directory that does not exist: both a ``FileNotFoundError`` (an ``OSError``)
    and an :class:`OvertalkError`, so that either ``except`` catches it. Made as
    ``OvertalkFileNotFoundError(errno.ENOENT, message, path)``: ``errno`` is ``ENOENT``,
    ``filename`` the path, and the message the command line's (``PATH: no such file or
    directory``)."""

    def __str__(self) -> str:
        # The message as the command line says it, not OSError's "[Errno 2] …: 'PATH'".
        return self.strerror if self.errno is not None and self.strerror is not None else super().__str__()


def _not_found(path: str, what: Optional[str] = None, noun: str = "file or directory") -> OvertalkFileNotFoundError:
    """The error for ``path``, which does not exist, in the command line's words (``what``:
    the argument, when it is not the input itself)."""
    import errno

    message = f"{path}: no such {noun}" + (f" ({what})" if what else "")
    return OvertalkFileNotFoundError(errno.ENOENT, message, path)


#: The most worker threads a call may ask for (the extension's own bound).
_MAX_THREADS = _native.MAX_THREADS

#: The longest recording (seconds) :func:`detect` takes by default, the decoder's limit for a
#: file (``overtalk detect --max-duration``): samples beyond it are refused before they are copied.
_MAX_SECONDS = _native.MAX_DURATION


def _numpy_bool(value: Any) -> bool:
    """Whether ``value`` is a NumPy bool scalar (``np.True_``, ``np.False_``): its type is
    ``numpy.bool`` under NumPy 2 and ``numpy.bool_`` before, so it is told by its dtype (a
    0-dimensional array of bools is one too)."""
    dtype = getattr(value, "dtype", None)
    return (type(value).__module__ == "numpy" and getattr(dtype, "kind", None) == "b"
            and getattr(value, "ndim", None) == 0)


def _flag(value: Any, what: str) -> bool:
    """A yes/no argument: ``True`` or ``False`` (NumPy's bools too). Anything else is a
    ``TypeError`` naming the argument: the string ``"no"`` is not taken as true."""
    if isinstance(value, bool):
        return value
    if _numpy_bool(value):
        return bool(value)
    raise TypeError(f"{what}: expected True or False, got {type(value).__name__} {value!r}")


def _text(value: Any, what: str) -> Optional[str]:
    """An optional name (a recording id, a preset, a format…): ``None``, or a ``str`` that is not
    empty; a ``TypeError`` or an :class:`OvertalkError` naming the argument otherwise."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a str, got {type(value).__name__} {value!r}")
    if not value.strip():
        raise OvertalkError(f"{what} is empty; give a name or leave it unset")
    if not _utf8(value):
        raise OvertalkError(f"{what}: {value!r} holds a lone surrogate, which UTF-8 cannot encode")
    return str(value)


def _is_real(value: Any) -> bool:
    """Whether ``value`` is a real number: ``int``, ``float``, ``fractions.Fraction``,
    ``decimal.Decimal`` (which is no ``numbers.Real``), NumPy's numbers; not a bool (NumPy's
    neither), nor a string."""
    if isinstance(value, bool) or _numpy_bool(value):
        return False
    if isinstance(value, _numbers.Real):
        return True
    import decimal

    return isinstance(value, decimal.Decimal)


def _float(value: Any) -> float:
    """A real number (:func:`_is_real`) as a float: one beyond a float's range is infinite,
    a signalling ``Decimal('sNaN')`` NaN (both refused where a finite number is asked)."""
    try:
        return float(value)
    except OverflowError:
        return _math.inf
    except ValueError:
        return _math.nan


def _seconds(value: Any, what: str) -> float:
    """A number of seconds the caller gave (``collar``, ``tolerance``…): any real number but a
    bool (``int``, ``float``, ``Fraction``, ``Decimal``, NumPy's numbers), finite; a
    ``TypeError`` or an :class:`OvertalkError` naming the argument otherwise."""
    if not _is_real(value):
        raise TypeError(f"{what}: expected a number of seconds, got {type(value).__name__} {value!r}")
    seconds = _float(value)
    if not _math.isfinite(seconds):
        raise OvertalkError(f"{what}: expected a finite number of seconds, got {value!r}")
    return seconds


def _path(value: Any, what: str) -> str:
    """A path the caller gave: a ``str`` or an ``os.PathLike`` giving one, not empty."""
    if not isinstance(value, (str, _os.PathLike)):
        raise TypeError(f"{what}: expected a path (str or os.PathLike), got {type(value).__name__} {value!r}")
    p = _os.fspath(value)
    if not isinstance(p, str):
        raise TypeError(f"{what}: expected a path as str, got {type(p).__name__} {p!r}")
    if not p:
        raise OvertalkError(f"{what} is empty")
    return p


#: This package's directory: a warning is attributed to the first caller outside it.
_HERE = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep


def _warn(messages: Iterable[str]) -> None:
    """Each message as an :class:`OvertalkWarning`, as the command line prints
    ``overtalk: warning: …``: attributed to the line that called the package (the first frame
    outside it), so that the warnings filter and the message point at the user's code."""
    messages = list(messages)
    if not messages:
        return
    import sys
    import warnings

    level, frame = 2, sys._getframe(1)
    while frame is not None and _os.path.abspath(frame.f_code.co_filename).startswith(_HERE):
        frame = frame.f_back
        level += 1
    for m in messages:
        warnings.warn(m, OvertalkWarning, stacklevel=level)


def _items(x: Any, what: str) -> list:
    """The items of a collection the caller gave; a string, bytes or a non-iterable is a
    ``TypeError`` naming the argument (a string is never taken character by character)."""
    if isinstance(x, (str, bytes, bytearray, _Mapping)) or not hasattr(x, "__iter__"):
        raise TypeError(f"{what}: expected a list (or any iterable), got {type(x).__name__}")
    return list(x)


def _utf8(s: str) -> bool:
    """Whether ``s`` can be encoded as UTF-8 (no lone surrogates)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _short(x: Any) -> str:
    """``repr(x)``, cut to 40 characters (an integer of 400 digits in a message)."""
    r = repr(x)
    return r if len(r) <= 40 else r[:39] + "…"


def _missing(v: Any) -> bool:
    """A missing value: ``None``, a float NaN, pandas' ``NA`` and ``NaT``."""
    if v is None:
        return True
    if isinstance(v, float):
        return v != v
    return type(v).__name__ in ("NAType", "NaTType")


def _speaker(s: Any, where: str, remedy: str = "give every segment a speaker") -> str:
    """A speaker label: a ``str`` (a number is taken as its string); missing (``None``, NaN,
    pandas' ``NA``) or ``bytes`` is an error naming ``where``: it is no speaker called "None".
    (An empty name is a name: the writers say how they write it.)"""
    if _missing(s):
        raise OvertalkError(f"{where}: the speaker is missing ({s!r}); {remedy}")
    if isinstance(s, (bytes, bytearray)):
        raise TypeError(f"{where}: the speaker is a str, got {type(s).__name__} {s!r}")
    name = str(s)
    if not _utf8(name):
        raise OvertalkError(f"{where}: the speaker {name!r} holds a lone surrogate, which UTF-8 cannot encode")
    return name


def _segment_row(s: Any, i: int) -> tuple:
    """Segment ``i`` of :meth:`Conversation.from_segments` as the native row."""
    if isinstance(s, (str, bytes, _Mapping)) or not hasattr(s, "__len__") or len(s) not in (3, 4):
        raise TypeError(f"segments[{i}]: expected (start_s, end_s, speaker[, text]), got {s!r}")
    try:
        start, end = float(s[0]), float(s[1])
    except (TypeError, ValueError):
        raise TypeError(f"segments[{i}]: start and end are numbers of seconds, got {s[0]!r} and {s[1]!r}") from None
    except OverflowError:
        raise OvertalkError(f"segments[{i}]: time out of range: {_short(s[0])} to {_short(s[1])} s") from None
    text = s[3] if len(s) > 3 else None
    if text is not None and not isinstance(text, str):
        raise TypeError(f"segments[{i}]: the text is a str or None, got {type(text).__name__}")
    return (start, end, _speaker(s[2], f"segments[{i}]"), text)


def _count(value: Any, what: str, most: int = 2**32 - 1) -> Optional[int]:
    """A whole number the caller gave (``threads``, ``num_speakers``, ``sample_rate``…), or
    ``None``: ``TypeError`` when it is no whole number (a bool, NumPy's too, is none),
    :class:`OvertalkError` when it is below 1 or above ``most`` (each naming the argument)."""
    if value is None:
        return None
    is_bool = isinstance(value, bool) or _numpy_bool(value)
    if is_bool or not isinstance(value, int):
        try:
            import operator

            if is_bool:
                raise TypeError
            value = operator.index(value)  # NumPy integers
        except TypeError:
            raise TypeError(f"{what}: expected a whole number, got {type(value).__name__} {value!r}") from None
    if value < 1:
        raise OvertalkError(f"{what} must be at least 1, got {value}")
    if value > most:
        raise OvertalkError(f"{what} must be at most {most}, got {value}")
    return int(value)


class Conversation:
    """One recording: its id, speakers and segments (and text), immutable.

    Get one from a :class:`Corpus` (``corpus["EN2002a"]``), from :func:`detect`, or from other
    tools' objects: :meth:`from_pyannote`, :meth:`from_pympi`, :meth:`from_pandas`,
    :meth:`from_segments`.
    """

    __slots__ = ("_native",)

    def __init__(self, native: _native.Conversation) -> None:
        if not isinstance(native, _native.Conversation):
            raise TypeError(
                "Conversation is made by read(), detect() or Conversation.from_segments()/from_pandas()/"
                f"from_pyannote()/from_pympi(), not from {type(native).__name__}"
            )
        self._native = native

    @property
    def recording_id(self) -> str:
        """The recording id."""
        return self._native.recording_id

    @property
    def detection(self) -> Optional[str]:
        """How speech was detected (method and parameters), for a conversation from :func:`detect`."""
        return self._native.detection

    @property
    def warnings(self) -> list[str]:
        """What :func:`detect` noted about the recording (its audio starts late on the file's
        timeline, the file is truncated, a track's speech was mostly taken for bleed, a track has
        no speech…), each also given as an :class:`OvertalkWarning` when it was detected;
        :func:`analyze` carries each into :attr:`Analysis.warnings` as ``recording: …``, as
        ``overtalk analyze`` does. Empty for a conversation read from a file or built in memory."""
        return self._native.warnings

    @property
    def format(self) -> Optional[str]:
        """The format the conversation was read from (``rttm``, ``chat``…); ``None`` when it was
        built in memory or detected in recordings. For ``chat``, :func:`analyze` compares the
        transcriber's markers with the timing (:attr:`Analysis.chat_markers`)."""
        return self._native.format

    @property
    def speakers(self) -> list[str]:
        """The speakers, in the order of the model's speaker table (by label)."""
        return self._native.speakers()

    def segments(self) -> list[Segment]:
        """The segments in time order, times in seconds."""
        return [Segment(*s) for s in self._native.segments()]

    def write(self, path: Optional[PathLike] = None, format: Optional[str] = None) -> str:
        """The conversation as ``format`` (``rttm``, ``json``, ``eaf``, ``textgrid``, ``webvtt``…).

        With ``path``, also writes the file (atomically; the format defaults to the one its
        extension names). Returns the text.
        """
        return _write(self._native, path, format)

    @classmethod
    def from_segments(
        cls,
        segments: Iterable[Any],
        recording_id: str = "recording",
        speakers: Optional[Iterable[str]] = None,
        *,
        strict: bool = False,
    ) -> "Conversation":
        """A conversation from ``(start_s, end_s, speaker[, text])`` items (or :class:`Segment`).

        Segments are taken as :func:`read` takes a file's: a negative start is clipped to 0
        with an :class:`OvertalkWarning` (``strict=True`` refuses it), a speaker whose segments
        overlap each other is warned about; an empty or reversed segment is an error, and so is
        a speaker that is missing (``None``, NaN), each naming the segment by its index."""
        rows = [_segment_row(s, i) for i, s in enumerate(_items(segments, "segments"))]
        spk = None if speakers is None else [_speaker(s, f"speakers[{i}]") for i, s in enumerate(_items(speakers, "speakers"))]
        rid = _text(recording_id, "recording_id")
        if rid is None:
            raise TypeError("recording_id: expected a str, got NoneType None")
        strict = _flag(strict, "strict")
        try:
            return cls(_native.Conversation.from_segments(rid, rows, spk, strict=strict))
        except UnicodeEncodeError:
            for i, (_, _, speaker, text) in enumerate(rows):
                for what, value in (("speaker", speaker), ("text", text)):
                    if value is not None and not _utf8(value):
                        raise OvertalkError(f"segments[{i}]: the {what} {value!r} holds a lone surrogate, which UTF-8 cannot encode") from None
            raise

    # Interop (overtalk.interop holds the code; the extras bring the packages).
    @classmethod
    def from_pyannote(
        cls, annotation: Any, recording_id: Optional[str] = None, *, strict: bool = False
    ) -> "Conversation":
        """From a ``pyannote.core.Annotation`` (its ``uri`` is the recording id); segments are
        taken as :meth:`from_segments` takes them."""
        from .interop import from_pyannote

        return from_pyannote(annotation, recording_id, strict=strict)

    def to_pyannote(self) -> Any:
        """As a ``pyannote.core.Annotation`` (``uri`` the recording id; needs ``overtalk[pyannote]``)."""
        from .interop import to_pyannote

        return to_pyannote(self)

    @classmethod
    def from_pympi(
        cls,
        eaf: Any,
        tiers: Union[str, Iterable[str], None] = None,
        recording_id: Optional[str] = None,
        *,
        strict: bool = False,
    ) -> "Conversation":
        """From a ``pympi.Elan.Eaf``, with the tier rule of :func:`read` for EAF files: each
        top-level tier is a speaker, named by its ``PARTICIPANT`` when it has one; child tiers
        (translations, parts of speech, words) are not speakers; ``tiers`` (a tier id or a
        list of them, glob patterns allowed) reads only those."""
        from .interop import from_pympi

        return from_pympi(eaf, tiers, recording_id, strict=strict)

    def to_pympi(self) -> Any:
        """As a ``pympi.Elan.Eaf``: one tier per speaker (needs ``overtalk[pympi]``)."""
        from .interop import to_pympi

        return to_pympi(self)

    @classmethod
    def from_pandas(
        cls,
        df: Any,
        recording_id: Optional[str] = None,
        start: str = "start",
        end: str = "end",
        speaker: str = "speaker",
        text: Optional[str] = "text",
        *,
        strict: bool = False,
    ) -> "Conversation":
        """From a DataFrame with ``start``/``end`` (seconds), ``speaker`` and optional ``text``
        columns; rows are taken as :meth:`from_segments` takes segments."""
        from .interop import from_pandas

        return from_pandas(df, recording_id, start, end, speaker, text, strict=strict)

    def to_pandas(self) -> "pandas.DataFrame":
        """The segments as a DataFrame (``start``, ``end``, ``speaker``, ``text``)."""
        import pandas as pd

        return pd.DataFrame(self.segments(), columns=list(Segment._fields))

    def __len__(self) -> int:
        return len(self._native)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Conversation):
            return NotImplemented
        return self.recording_id == other.recording_id and self.write(format="json") == other.write(format="json")

    def __hash__(self) -> int:
        return hash((self.recording_id, len(self)))

    def __repr__(self) -> str:
        return repr(self._native)

    def __reduce__(self) -> tuple:
        return (Conversation, (self._native,))


class Corpus:
    """Recordings by id, as read by :func:`read`. ``corpus[id]`` is a :class:`Conversation`."""

    __slots__ = ("_native",)

    def __init__(self, native: _native.Corpus) -> None:
        if not isinstance(native, _native.Corpus):
            raise TypeError(f"Corpus is made by read() or Corpus.from_conversations(), not from {type(native).__name__}")
        self._native = native

    @classmethod
    def from_conversations(cls, conversations: Iterable[Conversation]) -> "Corpus":
        """A corpus of these conversations (their recording ids must differ)."""
        items = _items(conversations, "conversations")
        natives = []
        for i, c in enumerate(items):
            if isinstance(c, Conversation):
                natives.append(c._native)
            elif isinstance(c, _native.Conversation):
                natives.append(c)
            else:
                raise TypeError(f"conversations[{i}]: expected a Conversation, got {type(c).__name__}")
        return cls(_native.Corpus.from_conversations(natives))

    def ids(self) -> list[str]:
        """The recording ids, sorted."""
        return self._native.ids()

    @property
    def warnings(self) -> list[str]:
        """What the readers repaired or questioned while reading (file, line, column, message)."""
        return self._native.warnings

    def items(self) -> Iterator[tuple[str, Conversation]]:
        """``(recording id, conversation)`` pairs in id order."""
        for i in self.ids():
            yield i, self[i]

    def values(self) -> Iterator[Conversation]:
        """The conversations in id order."""
        for i in self.ids():
            yield self[i]

    def write(self, path: Optional[PathLike] = None, format: Optional[str] = None) -> str:
        """The corpus as ``format`` (``rttm`` and ``json`` hold many recordings); see :meth:`Conversation.write`."""
        return _write(self._native, path, format)

    def __getitem__(self, recording_id: str) -> Conversation:
        if not isinstance(recording_id, str):
            raise TypeError(f"a recording id is a str (corpus.ids() lists them), got {type(recording_id).__name__} {recording_id!r}")
        return Conversation(self._native[recording_id])

    def __contains__(self, recording_id: object) -> bool:
        return isinstance(recording_id, str) and recording_id in self._native

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())

    def __len__(self) -> int:
        return len(self._native)

    def __eq__(self, other: object) -> bool:
        # As Conversation compares: the same recordings, each the same conversation (so a
        # pickled corpus equals the original).
        if not isinstance(other, Corpus):
            return NotImplemented
        return self.ids() == other.ids() and all(self[i] == other[i] for i in self.ids())

    def __hash__(self) -> int:
        return hash(tuple(self.ids()))

    def __repr__(self) -> str:
        return repr(self._native)

    def __reduce__(self) -> tuple:
        return (Corpus, (self._native,))


def _write(native: Any, path: Optional[PathLike], format: Optional[str]) -> str:
    format = _text(format, "format")
    if path is not None:
        path = _path(path, "path")
    if format is None and path is not None:
        format = _native.output_format_for_name(path)
        if format is None:
            # As `overtalk convert`: an extension that names no format is no reason for JSON.
            raise OvertalkError(f"{path}: cannot tell the output format from the extension; pass format=")
    elif format is None:
        format = "json"
    text = native.write(format)
    if path is not None:
        # Atomically, as the command line writes: a temporary file beside it, synced, renamed.
        _native.write_file(path, text)
    return text


def _walk(directory: str) -> list[str]:
    """The transcript and diarization files under ``directory``, as ``overtalk`` lists them."""
    found = []
    for root, dirs, files in _os.walk(directory):
        # Hidden folders are passed over as hidden files are (``.ipynb_checkpoints``, ``.git``).
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.startswith("."):
                continue
            fmt = _native.format_for_name(name)
            if (fmt is not None and fmt != "uem") or name.lower().endswith(".json"):
                found.append(_os.path.join(root, name))
    found.sort(key=lambda p: p.split(_os.sep))
    if not found:
        raise OvertalkError(f"{directory}: no transcript or diarization files found in this directory")
    return found


def _looks_like_path(s: str) -> bool:
    return "\n" not in s and len(s) < 4096 and _os.path.exists(s)


def read(
    source: Union[PathLike, bytes, Iterable[PathLike]],
    format: Optional[str] = None,
    *,
    strict: bool = False,
    recording_id: Optional[str] = None,
    threads: Optional[int] = None,
    tiers: Union[str, Iterable[str], None] = None,
    ignore_tiers: Union[str, Iterable[str], None] = None,
    encoding: Optional[str] = None,
) -> Corpus:
    """Reads transcripts or diarizations into a :class:`Corpus`.

    ``source`` is a file, a directory (every transcript file under it), a list of files, or
    the text (``str``) or bytes of a file. The format is detected from the content and the
    extension unless ``format`` names it (``rttm``, ``webvtt``, ``eaf``, ``textgrid``, ``chat``,
    ``whisperx``, ``seglst``, ``pyannote-json``, ``aws-transcribe``, ``json``…).
    ``strict`` turns the first repair into an error. What a lenient read repaired or
    questioned is warned about (:class:`OvertalkWarning`, one per message the command line
    prints) and kept in :attr:`Corpus.warnings`. ``recording_id`` names the recording of
    formats that do not (default: the file name without its extension). Many files are read
    on ``threads`` worker threads (default: one per core) and merged in the order given.

    Which tiers of a TextGrid or EAF file are speakers: by default those the reader's rules
    find (no phone or word alignment tiers, no child tiers, no marker tier without a
    participant, each left out with a warning); ``tiers`` reads only the tiers matching these names or glob
    patterns (``*``, ``?``; case ignored), ``ignore_tiers`` never those (``--tiers``,
    ``--ignore-tiers``). ``encoding`` names the encoding of text without a byte-order mark
    (``windows-1252``, ``latin1``, ``gbk``…; default: UTF-8, else the most likely one, with a
    warning), as ``--encoding``.
    """
    options = dict(encoding=_text(encoding, "encoding"), tiers=_names(tiers, "tiers"),
                   ignore_tiers=_names(ignore_tiers, "ignore_tiers"))
    corpus = Corpus(_read(source, _text(format, "format"), _flag(strict, "strict"),
                          _text(recording_id, "recording_id"), threads, options))
    _warn(corpus.warnings)
    return corpus


def _names(names: Union[str, Iterable[str], None], what: str) -> Optional[list[str]]:
    """A name or names (tiers) as a list: a string is one name, not its characters."""
    if names is None:
        return None
    if isinstance(names, str):
        names = [names]
    if isinstance(names, bytes) or not hasattr(names, "__iter__"):
        raise TypeError(f"{what}: expected a name or a list of names, got {type(names).__name__}")
    out = list(names)
    for n in out:
        if not isinstance(n, str):
            raise TypeError(f"{what}: expected names (str), got {type(n).__name__} {n!r}")
        if not n.strip():
            raise OvertalkError(f"{what}: a name is empty")
    return out


def _read(
    source: Any,
    format: Optional[str],
    strict: bool,
    recording_id: Optional[str],
    threads: Optional[int],
    options: Optional[dict] = None,
    what: str = "source",
) -> _native.Corpus:
    """The native corpus :func:`read` gives (without warning); ``options`` the reading
    options of :func:`read` (tiers, encoding); ``what`` the argument its errors name."""
    options = options or {}
    if (source is None or isinstance(source, _Mapping)
            or not isinstance(source, (str, bytes, bytearray, memoryview, _os.PathLike)) and not hasattr(source, "__iter__")):
        raise TypeError(f"{what}: expected a path, a list of paths, text or bytes, got {type(source).__name__}")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if b"\n" not in data and 0 < len(data) < 4096 and b"\0" not in data and _os.path.exists(data):
            # A file's name as bytes (os.fsencode, a bytes path from os.listdir(b".")), not its
            # content: read as text, it would be an unknown format naming no file.
            raise TypeError(f"{what}: bytes are a file's content; {data!r} names a file: give its path as a str "
                            f"(os.fsdecode({data!r})) or a pathlib.Path")
        return _native.read_bytes(data, format, None, strict, recording_id, **options)
    if isinstance(source, str) and not _looks_like_path(source):
        # One line naming no file: a path with a typo, unless it reads as text (a JSON
        # document, a line of several fields) or the format is given.
        text_like = source.lstrip().startswith(("{", "[")) or len(source.split()) > 2
        if "\n" not in source and format is None and not text_like and (
            _os.sep in source or _native.format_for_name(source.strip()) is not None
        ):
            raise _not_found(source)
        try:
            data = source.encode("utf-8")
        except UnicodeEncodeError as e:
            raise OvertalkError(
                f"{what}: the text holds {source[e.start]!r} at character {e.start}, which UTF-8 cannot encode "
                "(a lone surrogate: text decoded with errors='surrogateescape'?)"
            ) from None
        try:
            return _native.read_bytes(data, format, None, strict, recording_id or "recording", **options)
        except OvertalkError:
            # One word that is neither a file nor text of any format: a file name that does
            # not exist (the command line's words for it), not a format to name.
            word = source.strip()
            if word and "\n" not in source and not any(c.isspace() for c in word) and not text_like:
                raise _not_found(source) from None
            raise
    if isinstance(source, (str, _os.PathLike)):
        path = _path(source, what)
        paths = _walk(path) if _os.path.isdir(path) else [path]
    else:
        paths = []
        for i, p in enumerate(source):
            p = _path(p, f"{what}[{i}]")
            paths.extend(_walk(p) if _os.path.isdir(p) else [p])
        if not paths:
            raise OvertalkError(f"{what}: the list names no file")
    return _native.read_paths(paths, format, strict, recording_id, _count(threads, "threads", _MAX_THREADS), **options)


def _conversation(x: Any, what: str) -> Conversation:
    if isinstance(x, Conversation):
        return x
    if isinstance(x, Corpus):
        corpus = x
    elif isinstance(x, (str, bytes, _os.PathLike)):
        corpus = read(x)
    elif type(x).__name__ == "Annotation":
        return Conversation.from_pyannote(x)
    else:
        raise TypeError(f"{what}: expected a Conversation, a Corpus, a path or text, got {type(x).__name__}")
    if len(corpus) != 1:
        raise OvertalkError(f"{what}: holds {len(corpus)} recordings; pick one with corpus[recording_id]")
    return corpus[corpus.ids()[0]]


def _arrow_table(columns: list) -> "pyarrow.Table":
    """A ``pyarrow.Table`` wrapping the Arrow buffers of ``columns`` (as the native
    ``_columns`` methods give them) without copying."""
    import pyarrow as pa

    arrays, names = [], []
    for name, kind, length, nulls, validity, buffers in columns:
        if kind == "null":
            arr = pa.nulls(length)
        else:
            typ = {"int64": pa.int64, "double": pa.float64, "bool": pa.bool_, "string": pa.string,
                   "large_string": pa.large_string}[kind]()
            bufs = [None if validity is None else pa.py_buffer(validity)] + [pa.py_buffer(b) for b in buffers]
            arr = pa.Array.from_buffers(typ, length, bufs, null_count=nulls)
        arrays.append(arr)
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names)


#: Resolved parameters by (preset, overrides): a loop of calls with the same keywords
#: resolves them once. Bounded; overrides that cannot be keys (lists) are resolved each time.
_PARAMS_CACHE: dict = {}


def _param_value(name: str, v: Any) -> Any:
    """An analysis parameter's value as JSON takes it: NumPy's numbers as Python's, lists and
    dicts item by item; a NaN or infinity, an integer beyond 64 bits or a value of no JSON type
    is an error naming the parameter (JSON would say ``expected value at line 1 column 21``)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if _numpy_bool(v):
        return bool(v)
    if isinstance(v, _numbers.Integral):
        v = int(v)
        if not -(2**63) <= v < 2**63:
            raise OvertalkError(f"parameter {name} = {v} is out of range")
        return v
    if isinstance(v, _numbers.Real):
        f = float(v)
        if not _math.isfinite(f):
            raise OvertalkError(f"parameter {name}: expected a finite number, got {v!r}")
        return f
    if isinstance(v, (list, tuple)):
        return [_param_value(name, x) for x in v]
    if isinstance(v, _Mapping):
        return {str(k): _param_value(name, x) for k, x in v.items()}
    raise TypeError(f"parameter {name}: cannot take a {type(v).__name__} ({v!r})")


def _preset(preset: Any) -> str:
    """An analysis preset's name: a ``str`` (which one, the extension checks), else a
    ``TypeError`` naming it."""
    if not isinstance(preset, str):
        raise TypeError(f"preset: expected a preset name (default, he2010 or pure-jf), got {type(preset).__name__} {preset!r}")
    return preset


def _params(preset: str, params: dict) -> Any:
    """The native parameters of ``preset`` with ``params`` over it."""
    _preset(preset)
    try:
        # The types in the key: True == 1 and 250.0 == 250, but a parameter may take one and
        # refuse the other. The keywords in the order given (the same keywords in another
        # order are another key, resolved to the same parameters): no sorting per call.
        key = (preset, *params.items(), *map(type, params.values())) if params else preset
        hit = _PARAMS_CACHE.get(key)
    except TypeError:  # unhashable values
        key, hit = None, None
    if hit is not None:
        return hit
    if params:
        import json as _json

        resolved = _native.params(preset, _json.dumps({k: _param_value(k, v) for k, v in params.items()}))
    else:
        resolved = _native.params(preset)
    if key is not None:
        if len(_PARAMS_CACHE) >= 64:
            _PARAMS_CACHE.clear()
        _PARAMS_CACHE[key] = resolved
    return resolved


class Analysis:
    """The dynamics of one conversation: per speaker, events, conversation-level metrics.

    :meth:`to_json` is the JSON of ``overtalk analyze --format json``, byte for byte; the
    attributes are its fields as Python values; the event lists also come as Arrow tables and
    DataFrames. The rule book (docs/conversation-metrics.md) defines every field; a metric the
    input cannot give is ``None``, never zero.
    """

    __slots__ = ("_native", "_dict")

    def __init__(self, native: _native.Analysis) -> None:
        self._native = native
        self._dict: Optional[dict] = None

    @property
    def recording_id(self) -> str:
        """The recording id."""
        return self._native.recording_id

    def to_json(self) -> str:
        """The JSON envelope of ``overtalk analyze --format json`` for this conversation."""
        return self._native.to_json()

    def to_jsonl(self) -> str:
        """This conversation's line of ``overtalk analyze --format jsonl`` (with its newline)."""
        return self._native.to_jsonl()

    def to_dict(self) -> dict:
        """The conversation object (``#/$defs/conversation`` of the schema) as a dict."""
        import json as _json
        if self._dict is None:
            self._dict = _json.loads(self._native.to_jsonl())
        return self._dict

    @property
    def speakers(self) -> dict:
        """Per speaker: talk time, turns, floor, interruptions made and suffered… (times in ms)."""
        return self.to_dict()["speakers"]

    @property
    def onsets(self) -> list[dict]:
        """Every onset of talk with its class (interruption, backchannel, terminal overlap…)."""
        return self.to_dict()["onsets"]

    @property
    def turns(self) -> list[dict]:
        """The turns (speaker, start, end, claim, talkspurts, tokens; times in ms)."""
        return self.to_dict()["turns"]

    @property
    def transfers(self) -> list[dict]:
        """The floor transfers with their floor-transfer offsets (ms)."""
        return self.to_dict()["transfers"]

    @property
    def intervals(self) -> list[dict]:
        """Heldner & Edlund's gaps, pauses, overlaps and NGNO intervals (``he`` in the JSON)."""
        return self.to_dict()["he"]

    @property
    def conversation(self) -> dict:
        """The conversation-level metrics (span, speech, overlap, rates, balance…; ms)."""
        return self.to_dict()["conversation"]

    @property
    def warnings(self) -> list[str]:
        """What the analysis warns about (such as no overlap in a long stretch of speech)."""
        return self.to_dict()["diagnostics"]["warnings"]

    @property
    def chat_markers(self) -> Optional[dict]:
        """For a CHAT transcript with time bullets: the transcriber's overlap and interruption
        markers against the timing (``chat_markers_vs_timing`` in the JSON: counts of ``both``,
        ``marker_only``, ``timing_only``, ``neither`` and the agreement per comparison, the
        markers found). ``None`` for other formats."""
        return self.to_dict().get("chat_markers_vs_timing")

    _EVENTS = {"onsets": "onsets", "turns": "turns", "transfers": "transfers", "intervals": "he", "talkspurts": "talkspurts"}

    def to_arrow(self, events: str = "onsets") -> "pyarrow.Table":
        """An event list (``onsets``, ``turns``, ``transfers``, ``intervals``, ``talkspurts``) or
        ``speakers`` (their scalar fields) as a ``pyarrow.Table``, which pandas, polars and
        DuckDB take through the Arrow PyCapsule interface (``__arrow_c_stream__``).

        The columns are built as Arrow buffers from the analysis itself (no JSON, no Python
        object per value) and wrapped by pyarrow without a copy: int64, float64, bool and
        string columns with their nulls; nested values (in events) as their JSON text."""
        import pyarrow as pa

        if events != "speakers" and events not in self._EVENTS:
            raise ValueError(f"events must be one of {sorted(self._EVENTS)} or 'speakers', got {events!r}")
        return _arrow_table(self._native._columns(events))

    def to_pandas(self, events: str = "onsets") -> "pandas.DataFrame":
        """:meth:`to_arrow` as a ``pandas.DataFrame``."""
        return self.to_arrow(events).to_pandas()

    def __repr__(self) -> str:
        return repr(self._native)

    def __reduce__(self) -> tuple:
        return (Analysis, (self._native,))


def analyze(
    conversation: Union[Conversation, Corpus, PathLike],
    preset: str = "default",
    *,
    timing_only: bool = False,
    **params: Any,
) -> Analysis:
    """Analyses one conversation, as ``overtalk analyze`` does.

    ``preset`` is ``default``, ``he2010`` or ``pure-jf``; ``params`` override its parameters by
    name (snake_case, durations in ms: ``terminal_window=250``, ``classifier="rules"``,
    ``ignore_labels=["Noise"]``), as a ``--config`` file does. ``timing_only`` ignores words and
    text, judging completion and backchannels by timing only (``--timing-only``). A corpus of
    one recording, a path, or text are read first. A CHAT transcript read from its format
    also gets its markers compared with the timing (:attr:`Analysis.chat_markers`). The
    analysis's own warnings (nothing left once ``ignore_labels`` drops its speakers, overlap
    not measurable, …) are given as :class:`OvertalkWarning` ``recording: …``, as the command
    line prints them, and kept in :attr:`Analysis.warnings`.
    """
    conv = _conversation(conversation, "analyze")
    native = _native.analyze(conv._native, _params(preset, params), _flag(timing_only, "timing_only"))
    _warn(native._fresh_warnings)
    return Analysis(native)


def turn_order(
    conversation: Union[Conversation, Corpus, PathLike],
    preset: str = "default",
    **params: Any,
) -> dict:
    """What a transcript without times (a debate's rush transcript, a CHAT file without media
    bullets) says of its conversation, as ``overtalk analyze`` gives it (rule book §5.10): the
    object of the JSON output's ``untimed`` list, as a dict — turns, words and their shares per
    speaker, interruptions counted rule by rule (``crosstalk``, ``cut_off``,
    ``no_sentence_end``; ``timing`` is ``None``), who followed whom before the holder's sentence
    ended, floor claims, every turn, and what cannot be measured without times. ``params`` are
    :func:`analyze`'s (``ignore_labels``, ``verbal_claim_phrases`` apply). A conversation with
    times raises :class:`OvertalkError`: :func:`analyze` is for it.
    """
    import json

    conv = _conversation(conversation, "turn_order")
    return json.loads(_native.turn_order_json(conv._native, _params(preset, params)))


def analyze_many(
    conversations: Union[Corpus, Iterable[Conversation], PathLike, Iterable[PathLike]],
    preset: str = "default",
    *,
    timing_only: bool = False,
    threads: Optional[int] = None,
    **params: Any,
) -> list[Analysis]:
    """Analyses many conversations in one call, as :func:`analyze` does each: every recording
    of a corpus (in id order), each of a list of conversations (in its order), or every
    recording read from a path, a directory or a list of paths (read on the same threads); a
    list may mix conversations, corpora, pyannote annotations and paths.

    The work runs in Rust on ``threads`` worker threads (default: one per core) with the GIL
    released; ``threads=1`` keeps it in the calling thread. The first conversation that cannot
    be analysed (in that order) raises :class:`OvertalkError` naming it. Each analysis's own
    warnings are given as :func:`analyze` gives them, in the order of the results.
    """
    p = _params(preset, params)
    t = _count(threads, "threads", _MAX_THREADS)
    timing_only = _flag(timing_only, "timing_only")
    many = _many(conversations, "analyze_many", t)
    if isinstance(many, Corpus):
        natives = _native.analyze_corpus(many._native, p, timing_only, t)
    else:
        natives = _native.analyze_many(many, p, timing_only, t)
    _warn(w for a in natives for w in a._fresh_warnings)
    return [Analysis(a) for a in natives]


def _many(conversations: Any, what: str, threads: Optional[int]) -> Union[Corpus, list]:
    """What the batch calls take, as a corpus (a corpus, or what is read from a path or a
    list of paths, on ``threads``) or a list of native conversations (in the order given):
    each item of a list is a conversation, a corpus (its recordings in id order), a pyannote
    ``Annotation``, or a path or text (every recording read from it, in id order)."""
    if isinstance(conversations, Corpus):
        return conversations
    if isinstance(conversations, _Mapping):
        raise TypeError(f"{what}: expected a list (or any iterable), got {type(conversations).__name__}")
    if isinstance(conversations, (str, bytes, _os.PathLike)):
        # One path (or text) is one source, never a sequence of characters.
        return read(conversations, threads=threads)
    items = _items(conversations, what)
    if items and all(isinstance(c, (str, _os.PathLike)) for c in items):
        return read(items, threads=threads)
    natives = []
    for i, c in enumerate(items):
        if isinstance(c, Conversation):
            natives.append(c._native)
        elif isinstance(c, Corpus):
            natives.extend(c[rid]._native for rid in c.ids())
        elif isinstance(c, (str, bytes, _os.PathLike)):
            corpus = read(c)
            natives.extend(corpus[rid]._native for rid in corpus.ids())
        elif type(c).__name__ == "Annotation":
            natives.append(Conversation.from_pyannote(c)._native)
        else:
            raise TypeError(
                f"{what}: item {i}: expected a Conversation, a Corpus, a pyannote Annotation, a path or text, got {type(c).__name__}"
            )
    return natives


#: The acoustic Heldner & Edlund intervals of one conversation, held in Rust: a sequence of
#: :class:`Interval` (indexing and iterating make them), and the fast ways in, which make no
#: Python object per interval: ``counts()`` (a dict, every class named), ``to_arrow()`` and
#: ``to_pandas()`` (``kind``, ``start_ms``, ``end_ms``, ``before``, ``after``). Defined in the
#: extension, with no Python wrapper, so that a call per conversation costs one object.
Intervals = _native.Intervals


if TYPE_CHECKING:  # pragma: no cover

    def gaps_and_overlaps(
        conversation: Union[Conversation, Corpus, PathLike], preset: str = "he2010", **params: Any
    ) -> Intervals: ...

    def gaps_and_overlaps_counts(
        conversation: Union[Conversation, Corpus, PathLike], preset: str = "he2010", **params: Any
    ) -> dict[str, Optional[int]]: ...

else:
    # The extension's functions themselves, no Python frame around them: a call per
    # conversation in a loop is the use. They take what the other functions take (a
    # `Conversation` directly, anything else through `_conversation`) and resolve `preset` and
    # `params` through `_params`, keeping the resolved parameters by preset and keywords (names,
    # types and values) in a small cache of their own in front of it.
    gaps_and_overlaps = _native.gaps_and_overlaps
    gaps_and_overlaps_counts = _native.gaps_and_overlaps_counts


def gaps_and_overlaps_many(
    conversations: Union[Corpus, Iterable[Conversation], PathLike, Iterable[PathLike]],
    preset: str = "he2010",
    *,
    threads: Optional[int] = None,
    **params: Any,
) -> list[Intervals]:
    """:func:`gaps_and_overlaps` of every recording of a corpus (in id order), of each of a
    list of conversations (in its order), or of every recording read from a path, a directory
    or a list of paths (as :func:`analyze_many` takes them), in one call: on ``threads`` worker
    threads (default: one per core; ``threads=1`` in the calling thread) with the GIL
    released. An untimed transcript (no times to measure) raises :class:`OvertalkError`."""
    p = _params(preset, params)
    t = _count(threads, "threads", _MAX_THREADS)
    many = _many(conversations, "gaps_and_overlaps_many", t)
    if isinstance(many, Corpus):
        return _native.gaps_and_overlaps_corpus(many._native, p, t)
    return _native.gaps_and_overlaps_many(many, p, t)


class Score:
    """A diarization score: DER with its components, JER, the speaker mapping, per recording
    and in total — the numbers of ``overtalk score --format json`` (:meth:`to_json`).

    Rates are fractions (0.1253 is 12.53 %); times are in seconds.
    """

    __slots__ = ("_json", "_dict")

    def __init__(self, json_text: str) -> None:
        import json as _json
        self._json = json_text
        self._dict = _json.loads(json_text)

    def to_json(self) -> str:
        """The JSON of ``overtalk score --format json``."""
        return self._json

    def to_dict(self) -> dict:
        """The JSON as a dict."""
        return self._dict

    @property
    def der(self) -> Optional[float]:
        """The total DER (micro average over recordings), ``None`` without scored reference time."""
        return self._dict["total"]["der"]

    @property
    def jer(self) -> Optional[float]:
        """The total JER, ``None`` when it was not computed (``der_only``)."""
        return self._dict["total"].get("jer")

    @property
    def total(self) -> dict:
        """The totals: ``der``, ``miss_s``, ``false_alarm_s``, ``confusion_s``, ``scored_s``, ``jer``, ``macro_der``…"""
        return self._dict["total"]

    @property
    def files(self) -> list[dict]:
        """Per recording: ``recording``, ``status``, DER components (``miss_s``, ``false_alarm_s``, ``confusion_s``…), JER, and the speaker mapping."""
        return self._dict["files"]

    @property
    def mapping(self) -> dict[str, dict[str, str]]:
        """Per recording id: reference speaker → the hypothesis speaker mapped to it (mapped speakers only)."""
        return {f["recording"]: dict(f.get("mapping") or []) for f in self.files}

    def __repr__(self) -> str:
        der, jer = self.der, self.jer
        d = "n/a" if der is None else f"{der * 100:.2f} %"
        j = "n/a" if jer is None else f"{jer * 100:.2f} %"
        return f"<overtalk.Score DER {d}, JER {j}, {len(self.files)} recordings>"

    def __reduce__(self) -> tuple:
        return (Score, (self._json,))


class EventScore:
    """The dynamics of a diarization scored against a reference, as ``overtalk score --events``
    finds them (docs/events.md): onsets, interruptions, backchannels, floor transfers, turns and
    monologues matched one to one after the DER speaker mapping; precision, recall, F1, error
    rate and count error per class, per recording and in total; the causes of the unmatched
    events; the distortion of the metrics with bootstrap intervals. :meth:`to_json` is the JSON
    of ``overtalk score --events --format json``.
    """

    __slots__ = ("_json", "_dict")

    def __init__(self, json_text: str) -> None:
        import json as _json
        self._json = json_text
        self._dict = _json.loads(json_text)

    def to_json(self) -> str:
        """The JSON of ``overtalk score --events --format json``."""
        return self._json

    def to_dict(self) -> dict:
        """The JSON as a dict."""
        return self._dict

    @property
    def der(self) -> Optional[float]:
        """The corpus DER under the scoring options (whose mapping pairs the speakers)."""
        return self._dict["der"]

    @property
    def total(self) -> dict:
        """All classes together: ``reference``, ``hypothesis``, ``tp``, ``fp``, ``fn``, ``precision``, ``recall``, ``f1``…"""
        return self._dict["total"]

    @property
    def classes(self) -> dict[str, dict]:
        """Per event class (``interruption``, ``backchannel``, ``transfer``…): its counts and rates over all recordings."""
        return {c["class"]: c for c in self._dict["classes"]}

    @property
    def recordings(self) -> list[dict]:
        """Per recording: ``id``, ``der``, the speaker ``mapping``, its classes, distortion, matched and unmatched events."""
        return self._dict["recordings"]

    @property
    def distortion(self) -> dict:
        """How far the metrics computed on the hypothesis are from the reference's, over the corpus, with bootstrap intervals."""
        return self._dict["distortion"]

    def __repr__(self) -> str:
        f1 = self.total.get("f1")
        f = "n/a" if f1 is None else f"{f1 * 100:.1f} %"
        return f"<overtalk.EventScore F1 {f}, {len(self.recordings)} recordings>"

    def __reduce__(self) -> tuple:
        return (EventScore, (self._json,))


def _corpus(x: Any, what: str) -> Corpus:
    if isinstance(x, Corpus):
        return x
    if isinstance(x, Conversation):
        return Corpus.from_conversations([x])
    if type(x).__name__ == "Annotation":
        return Corpus.from_conversations([Conversation.from_pyannote(x)])
    if isinstance(x, (list, tuple)) and x and all(isinstance(c, Conversation) for c in x):
        return Corpus.from_conversations(x)
    if x is None or isinstance(x, (bool, int, float, _Mapping)):
        raise TypeError(f"{what}: expected a Corpus, a Conversation, a pyannote Annotation, a path or text, got {type(x).__name__}")
    corpus = Corpus(_read(x, None, False, None, None, what=what))
    _warn(corpus.warnings)
    return corpus


def _uem_kwargs(uem: Any) -> dict:
    """The keyword arguments that give the native scorers the UEM ``uem`` names: the bytes of
    one file or of UEM text and the name its warnings and errors start with (``uem_source``),
    or, for a directory, every ``.uem`` file under it (``uem_files``, each its bytes and path,
    in path order), as ``overtalk score --uem DIR`` reads them."""
    if isinstance(uem, (str, _os.PathLike)) and not isinstance(uem, bytes):
        s = _os.fspath(uem)
        if isinstance(s, str) and s.strip() and _looks_like_path(s) and _os.path.isdir(s):
            return {"uem_files": _uem_dir_files(s)}
    text, source = _uem_text(uem)
    return {"uem": text, "uem_source": source}


def _uem_dir_files(directory: str) -> list:
    """Every ``.uem`` file under ``directory`` (any depth, the extension in any case; links to
    directories not followed; hidden files and folders passed over), each its bytes and path, in path order, as ``--uem DIR`` lists
    them; none is an error, as the command line's."""
    found = []
    for root, dirs, files in _os.walk(directory):
        # Hidden entries passed over, as the command line does (macOS's ``._x.uem`` forks).
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.lower().endswith(".uem") and not name.startswith("."):
                found.append(_os.path.join(root, name))
    if not found:
        raise OvertalkError(f"{directory}: no UEM file (`.uem`) in this directory")
    found.sort(key=lambda p: _pathlib.PurePath(p).parts)
    out = []
    for path in found:
        with open(path, "rb") as f:
            out.append((f.read(), path))
    return out


def _uem_text(uem: Any) -> tuple[Optional[bytes], Optional[str]]:
    """The bytes of the UEM ``uem`` gives (a file's as they are, for the reader to decode as the
    command line does), and the name its warnings and errors start with."""
    if uem is None:
        return None, None
    if isinstance(uem, dict):
        return _uem_dict_text(uem).encode("utf-8"), "uem"
    if isinstance(uem, (bytes, bytearray)):
        # As a file's bytes: a byte-order mark names UTF-16 or UTF-32, other text not UTF-8 is
        # an error at its line and column.
        return bytes(uem), "uem"
    if not isinstance(uem, (str, _os.PathLike)):
        raise TypeError(
            f"uem: expected a UEM file, its text, or {{recording_id: [(start_s, end_s), …]}}, got {type(uem).__name__}"
        )
    s = _os.fspath(uem)
    if not s.strip():
        raise OvertalkError("uem is empty; give a UEM file, its text, or leave it unset")
    if _looks_like_path(s):
        with open(s, "rb") as f:
            return f.read(), s
    # One line that names no file is a path with a typo, not UEM text: scoring without the
    # UEM meant would give another number without a word.
    if "\n" not in s.strip() and (s.strip().lower().endswith(".uem") or len(s.split()) < 4):
        raise _not_found(s, noun="UEM file or directory")
    return s.encode("utf-8", errors="surrogateescape"), "uem"


def _uem_dict_text(uem: dict) -> str:
    """``{recording_id: (start_s, end_s) or [(start_s, end_s), …]}`` as the lines of a UEM
    file. A region that ends where or before it starts is left out with a warning, as the UEM
    reader leaves out such a line; what is not a region at all is an error naming it."""
    import math

    lines, dropped = [], []
    for rid, regions in uem.items():
        where = f"uem[{rid!r}]"
        if not isinstance(rid, str):
            raise TypeError(f"{where}: a recording id is a str, got {type(rid).__name__}")
        if isinstance(regions, (str, bytes)) or not hasattr(regions, "__len__"):
            raise TypeError(f"{where}: expected (start_s, end_s) or a list of them, got {regions!r}")
        if len(regions) == 2 and all(isinstance(x, _numbers.Real) and not isinstance(x, bool) for x in regions):
            regions = [regions]
        if len(regions) == 0:
            raise ValueError(f"{where}: no regions; give (start_s, end_s) pairs, or leave the recording out")
        for region in regions:
            if isinstance(region, (str, bytes)) or not hasattr(region, "__len__") or len(region) != 2:
                raise TypeError(f"{where}: a region is (start_s, end_s), got {region!r}")
            start, end = (_seconds(x, f"{where}: region {tuple(region)!r}") for x in region)
            if not (math.isfinite(start) and math.isfinite(end)):
                raise ValueError(f"{where}: region {region!r} is not a pair of finite numbers of seconds")
            if end <= start:
                dropped.append(f"{where}: region ({start:.3f}, {end:.3f}) ends where or before it starts; dropped")
                continue
            lines.append(f"{rid} 1 {start:.6f} {end:.6f}")
    _warn(dropped)
    return "\n".join(lines) + "\n"


def score(
    reference: Any,
    hypothesis: Any,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Any = None,
    *,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    der_only: bool = False,
    events: bool = False,
    tolerance: Optional[float] = None,
) -> Union[Score, EventScore]:
    """Scores a diarization against a reference, as ``overtalk score`` does.

    ``reference`` and ``hypothesis`` are corpora, conversations, pyannote annotations, paths
    (files or directories) or text; recordings are paired by id. ``collar`` is in seconds on
    EACH side of a reference boundary (md-eval's ``-c``; pyannote.metrics' ``collar`` is twice
    this). ``preset`` is ``overtalk``, ``md-eval``, ``dscore``, ``pyannote`` or ``spyder``.
    ``uem`` is a UEM file, a directory (every ``.uem`` file under it, as ``--uem DIR``), its
    text, or ``{recording_id: [(start_s, end_s), …]}``.

    With ``events=True`` the dynamics are scored instead (``overtalk score --events``; see
    :func:`score_events`, whose ``tolerance`` it takes) and an :class:`EventScore` returned.
    """
    events, der_only = _flag(events, "events"), _flag(der_only, "der_only")
    if events and der_only:
        raise ValueError("der_only applies to the DER score, not to events=True")
    if not events and tolerance is not None:
        raise ValueError("tolerance applies to events=True")
    common = _scoring_args(reference, hypothesis, collar, skip_overlap, preset, uem, mapping, region, jer)
    if events:
        return _score_events(common, 0.2 if tolerance is None else tolerance)
    args, source = common
    return Score(_native.score_json(*args, der_only, **source))


def _scoring_args(
    reference: Any, hypothesis: Any, collar: float, skip_overlap: bool, preset: str, uem: Any,
    mapping: Optional[str], region: Optional[str], jer: Optional[str],
) -> tuple:
    """The arguments both native scorers take first (the two sides as corpora, the scoring
    options and the UEM text), and the name of the UEM in its warnings."""
    r = _corpus(reference, "reference")._native
    h = _corpus(hypothesis, "hypothesis")._native
    uem_kwargs = _uem_kwargs(uem)
    text = uem_kwargs.pop("uem", None)
    names = [_text(v, k) for k, v in (("preset", preset), ("mapping", mapping), ("region", region), ("jer", jer))]
    if names[0] is None:
        raise TypeError("preset: expected a str, got NoneType None")
    options = (_seconds(collar, "collar"), _flag(skip_overlap, "skip_overlap"), *names)
    return (r, h, *options[:3], text, *options[3:]), uem_kwargs


def _score_events(common: tuple, tolerance: float) -> EventScore:
    args, source = common
    return EventScore(_native.score_events_json(*args, _seconds(tolerance, "tolerance"), **source))


def score_events(
    reference: Any,
    hypothesis: Any,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Any = None,
    *,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    tolerance: float = 0.2,
) -> EventScore:
    """Scores the dynamics of a diarization against a reference, as ``overtalk score --events``:
    both sides analysed with the default parameters, speakers mapped with the DER mapping
    (``collar``, ``skip_overlap``, ``preset``, ``uem``… as in :func:`score`), and onsets,
    interruptions, backchannels, floor transfers, turns and monologues matched one to one when
    their onsets differ by at most ``tolerance`` seconds (sed_eval's ``t_collar``; rounded to
    the millisecond, as ``--tolerance``)."""
    common = _scoring_args(reference, hypothesis, collar, skip_overlap, preset, uem, mapping, region, jer)
    return _score_events(common, tolerance)


def detect(
    source: Any = None,
    sample_rate: Optional[int] = None,
    tracks: Any = None,
    *,
    recording_id: Optional[str] = None,
    vad: Optional[str] = None,
    diarize: Optional[bool] = None,
    diarizer: Optional[str] = None,
    num_speakers: Optional[int] = None,
    min_speakers: Optional[int] = None,
    max_speakers: Optional[int] = None,
    embedding_model: Optional[PathLike] = None,
    overlap_margin: Optional[float] = None,
    track_offsets: Optional[Mapping[str, float]] = None,
    audio_tracks: Optional[Sequence[str]] = None,
    max_duration: Optional[float] = None,
) -> Conversation:
    """Who spoke when in recordings, as ``overtalk detect`` finds it.

    - ``detect("call.wav")``: one mixed recording, its speakers told apart by the diarizer
      (``overtalk detect call.wav``); ``diarize=False`` keeps all its speech under one label,
      voice activity only (``--no-diarize``);
    - ``detect(tracks={"Host": "host.wav", "Guest": "guest.wav"})``: one file per speaker,
      the multitrack rule rejects each microphone's bleed; files recorded on separate devices
      are put on one timeline with ``track_offsets={"Guest": 1.25}`` (seconds after the common
      zero that the file starts; negative: its first seconds are dropped), as
      ``--track-offset`` does;
    - ``detect("show.mkv", audio_tracks=["Host", "Guest"])``: one file with an audio track per
      microphone (as OBS records), each read as a speaker's own track (``"_"`` skips one), as
      ``--audio-tracks`` does; without it a file's default audio track is read, with a warning
      when it holds others;
    - ``detect(samples, sample_rate=16000, tracks=["Host", "Guest"])``: a NumPy array, one
      column per speaker; a 1-D array (or one column without ``tracks``) is one mixed
      recording, diarized like a file.

    ``vad`` is the voice activity detector: ``earshot`` (the default), ``energy`` or ``none``
    (energy rules only); unset, the diarizer takes the best this build offers. The diarizer
    (``diarizer="ge2e"``, the default here; ``pyannote`` needs a build of the command line with
    that feature) takes ``num_speakers`` or ``min_speakers``/``max_speakers``, an
    ``embedding_model`` (a GE2E safetensors file) and ``overlap_margin`` (a second speaker per
    frame when within this cosine margin; off by default). Without an installed speaker model
    (``overtalk models install``) all speech is one speaker, with a warning. The result records
    its method in :attr:`Conversation.detection`.

    ``max_duration`` is the longest recording taken, in seconds (``--max-duration``; default
    the decoder's limit, 24 hours): a longer file, or more samples, is an error before it is
    decoded or copied.
    """
    recording_id, vad = _text(recording_id, "recording_id"), _text(vad, "vad")
    longest = _MAX_SECONDS
    if max_duration is not None:
        longest = _seconds(max_duration, "max_duration")
        if longest < 0:
            raise OvertalkError(f"max_duration {max_duration!r}: expected a non-negative number of seconds")
    limit = {} if max_duration is None else {"max_duration": longest}
    if diarize is not None:
        diarize = _flag(diarize, "diarize")
    diarizer_settings = dict(diarizer=_text(diarizer, "diarizer"), num_speakers=_count(num_speakers, "num_speakers"),
                             min_speakers=_count(min_speakers, "min_speakers"),
                             max_speakers=_count(max_speakers, "max_speakers"),
                             embedding_model=None if embedding_model is None else _model_path(embedding_model),
                             overlap_margin=None if overlap_margin is None else _real(overlap_margin, "overlap_margin"))
    asked = [k for k, v in diarizer_settings.items() if v is not None]
    if diarize is False and asked:
        raise ValueError(f"diarize=False goes with none of {', '.join(asked)}")
    no_offsets = track_offsets is None or (isinstance(track_offsets, _Mapping) and not track_offsets)
    if not no_offsets and not (source is None and isinstance(tracks, dict)):
        raise ValueError("track_offsets places files of tracks={speaker: file} on one timeline; give the tracks")
    if source is None or isinstance(source, (str, _os.PathLike)):
        if source is not None and tracks is not None:
            raise ValueError("give a recording or tracks={speaker: file}, not both")
        if audio_tracks is not None and source is None:
            raise ValueError("audio_tracks names the audio tracks of one recording; give the recording")
        if source is not None:
            path = _path(source, "source")
            stem = _os.path.splitext(_os.path.basename(path))[0]
            rid = recording_id or stem
            if audio_tracks is not None:
                if isinstance(audio_tracks, str):
                    raise ValueError("audio_tracks is a list of names, one per audio track")
                if diarize or asked:
                    raise ValueError("the diarizer applies to one mixed recording, not to audio_tracks")
                names = [_track_name(n, f"audio_tracks[{i}]", empty_ok=True).strip()
                         for i, n in enumerate(_items(audio_tracks, "audio_tracks"))]
                if any(not n for n in names):
                    raise ValueError("audio_tracks: a name is empty (use '_' to skip an audio track)")
                specs = [(n, path, None, 0.0, i) for i, n in enumerate(names) if n != "_"]
                if not specs:
                    raise ValueError("audio_tracks names no speaker (every audio track is '_')")
                return Conversation(_native.detect_files(rid, specs, vad or "earshot", **limit))
            if diarize is not False:
                return _diarize(rid, vad, diarizer_settings, path=path, **limit)
            return Conversation(_native.detect_files(rid, [(stem, path, None, 0.0, None)], vad or "earshot", **limit))
        if isinstance(tracks, dict):
            if diarize or asked:
                raise ValueError("the diarizer applies to one mixed recording, not to tracks={speaker: file}")
            names = [_track_name(k, f"tracks key {k!r}") for k in tracks]
            offsets = _track_offsets(track_offsets, names)
            specs = [(n, _path(v, f"tracks[{n!r}]"), None, offsets.get(n, 0.0), None) for n, v in zip(names, tracks.values())]
            # No id given: the one `overtalk detect --track` makes from the file names.
            return Conversation(_native.detect_files(recording_id, specs, vad or "earshot", **limit))
        if tracks is not None:
            raise TypeError(f"tracks: files are given as a dict {{speaker: file}}, got {type(tracks).__name__}")
        raise ValueError("detect needs a recording, tracks={speaker: file}, or samples with sample_rate")
    import numpy as np

    if audio_tracks is not None:
        raise ValueError("audio_tracks names the audio tracks of a recording's file, not columns of samples (tracks=)")
    if sample_rate is None:
        raise ValueError("samples need their sample_rate")
    sample_rate = _count(sample_rate, "sample_rate")
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(f"samples: expected a NumPy array (or a list of numbers), got {type(source).__name__}")
    try:
        a = np.asarray(source)
    except ValueError as e:
        raise ValueError(f"samples: not an array of numbers ({e})") from None
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"samples must be 1-D or 2-D (samples × tracks), got {a.ndim} dimensions")
    if a.dtype.kind not in "iuf":
        # Complex, bool, object, strings: no reading of them is a signal without a guess.
        raise TypeError(f"samples: expected floats or integers, got an array of dtype {a.dtype}")
    if a.shape[0] == 0:
        raise OvertalkError("samples: the array holds no audio samples (0 rows)")
    if a.shape[1] > a.shape[0]:
        # Channels first (torchaudio, librosa, soundfile's `.T`): read as it is, every sample
        # would be a track of its own, and the multitrack rule would run on thousands of them.
        raise ValueError(
            f"samples: {a.shape[0]} rows and {a.shape[1]} columns, more tracks than samples; "
            f"one row per sample and one column per track is expected (channels first? pass samples.T)"
        )
    if a.shape[0] > longest * sample_rate:
        raise OvertalkError(
            f"samples: limit exceeded: {a.shape[0]} samples at {sample_rate} Hz last "
            f"{a.shape[0] / sample_rate:.3f} s, longer than the {longest:.3f} s allowed"
        )
    if a.dtype.kind in "iu":
        a = _pcm_float(a)
    else:
        with np.errstate(over="ignore"):
            a = a.astype(np.float32, copy=False)
        bad = ~np.isfinite(a)
        if bad.any():
            # As decoding a file repairs them (and says so): silence, with a warning.
            per_column = bad.sum(axis=0)
            a = np.where(bad, np.float32(0), a)
            cols = ", ".join(f"column {i}: {int(n)}" for i, n in enumerate(per_column) if n)
            _warn([f"samples: {int(per_column.sum())} sample(s) NaN, infinite or beyond float32 ({cols}) read as silence"])
    mixed = a.shape[1] == 1 and tracks is None
    if mixed and diarize is not False:
        mono = np.ascontiguousarray(a[:, 0], dtype="<f4").tobytes()
        return _diarize(recording_id or "recording", vad, diarizer_settings, samples=mono, sample_rate=int(sample_rate), **limit)
    if diarize or asked:
        raise ValueError("the diarizer applies to one mixed recording, not to samples of several tracks")
    if tracks is not None:
        if isinstance(tracks, _Mapping):
            raise TypeError("tracks: for samples, a list of names, one per column (a dict {speaker: file} is for files)")
        names = [_track_name(n, f"tracks[{i}]") for i, n in enumerate(_items(tracks, "tracks"))]
    else:
        names = [f"track{i + 1}" for i in range(a.shape[1])]
    if len(names) != a.shape[1]:
        raise ValueError(f"{len(names)} track names for {a.shape[1]} columns of samples")
    cols = [(str(n), np.ascontiguousarray(a[:, i], dtype="<f4").tobytes()) for i, n in enumerate(names)]
    return Conversation(_native.detect_samples(recording_id or "recording", cols, int(sample_rate), vad or "earshot", **limit))


def _pcm_float(a: Any) -> Any:
    """Integer samples as float32 in [-1, 1), as the decoder reads PCM (``u8`` (x - 128) / 128,
    ``s16`` x / 32768, ``s32`` x / 2**31): over half the range h = 2**(bits - 1), signed
    x / h, unsigned (offset binary) (x - h) / h; computed in float64, so that no integer is
    rounded before it is scaled. Silence is 0.0 (128 for ``uint8``), the lowest value -1.0."""
    import numpy as np

    h = float(2 ** (a.dtype.itemsize * 8 - 1))
    return ((a.astype(np.float64) - (h if a.dtype.kind == "u" else 0.0)) / h).astype(np.float32)


def _model_path(model: Any) -> str:
    """The ``embedding_model`` path: a file that exists (else the error any missing file is)."""
    path = _path(model, "embedding_model")
    if not _os.path.exists(path):
        raise _not_found(path, "embedding_model")
    return path


def _track_name(name: Any, where: str, empty_ok: bool = False) -> str:
    """A speaker's name for a track: a ``str`` (a number is taken as its string); ``None``,
    ``bytes`` or an empty name is an error naming ``where``."""
    if name is None or isinstance(name, (bytes, bytearray)):
        raise TypeError(f"{where}: a track's speaker name is a str, got {type(name).__name__} {name!r}")
    n = str(name)
    if not empty_ok and not n.strip():
        raise OvertalkError(f"{where}: a track's speaker name is empty")
    return n


def _real(value: Any, what: str) -> float:
    """A real number the caller gave (not a bool, not a string), as a float."""
    if not _is_real(value):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__} {value!r}")
    return _float(value)


def _track_offsets(offsets: Optional[Mapping[str, float]], names: list[str]) -> dict[str, float]:
    """``track_offsets`` checked against the track names: each a track's, a finite number
    (any real number but a bool: ``int``, ``float``, NumPy's integers and floats…)."""
    if offsets is None:
        return {}
    if not isinstance(offsets, _Mapping):
        raise TypeError(f"track_offsets must be a mapping {{speaker: seconds}}, not {type(offsets).__name__}")
    out = {}
    for name, value in offsets.items():
        if str(name) not in names:
            raise ValueError(f"track_offsets: {str(name)!r} is not a track name (the tracks are {', '.join(names)})")
        seconds = _float(value) if _is_real(value) else _math.nan
        if not _math.isfinite(seconds):
            raise ValueError(f"track_offsets[{str(name)!r}]: expected a finite number of seconds, got {value!r}")
        out[str(name)] = seconds
    return out


def _diarize(recording_id: str, vad: Optional[str], settings: dict, **source: Any) -> Conversation:
    """One mixed recording through the diarizer; what the command line warns about (no
    speaker model, what decoding repaired) as Python warnings."""
    model = settings["embedding_model"]
    native, warnings = _native.diarize(
        recording_id,
        vad=vad,
        diarizer=settings["diarizer"],
        num_speakers=settings["num_speakers"],
        min_speakers=settings["min_speakers"],
        max_speakers=settings["max_speakers"],
        embedding_model=None if model is None else _os.fspath(model),
        overlap_margin=settings["overlap_margin"],
        **source,
    )
    _warn(warnings)
    return Conversation(native)


def write(obj: Union[Corpus, Conversation], path: Optional[PathLike] = None, format: Optional[str] = None) -> str:
    """Writes a corpus or conversation as ``format`` (default: the one ``path``'s extension names)."""
    if not isinstance(obj, (Corpus, Conversation)):
        raise TypeError(f"write: expected a Corpus or a Conversation, got {type(obj).__name__}")
    return obj.write(path, format)
