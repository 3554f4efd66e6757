"""Type stubs of the extension module ``overtalk._native`` (the Rust side of ``overtalk``).

Use the package ``overtalk``; these names are its building blocks.
"""

from os import PathLike
from typing import Any, Iterator, Optional, Sequence, Union, final, overload

import pandas
import pyarrow

from . import Interval

#: The names the module exports, in the order it registers them (as ``_native.__all__``).
__all__ = [
    "OvertalkError",
    "OvertalkWarning",
    "__version__",
    "MAX_THREADS",
    "MAX_DURATION",
    "_shown_label",
    "Corpus",
    "Conversation",
    "read_paths",
    "read_bytes",
    "format_for_name",
    "output_format_for_name",
    "write_file",
    "_corpus_from_json",
    "_conversation_from_json",
    "Analysis",
    "analyze",
    "analyze_source",
    "analyze_many",
    "analyze_corpus",
    "turn_order_json",
    "Params",
    "params",
    "_analysis_from_json",
    "_params_from_json",
    "score_json",
    "score_events_json",
    "detect_files",
    "detect_samples",
    "diarize",
    "Intervals",
    "gaps_and_overlaps",
    "gaps_and_overlaps_with",
    "gaps_and_overlaps_counts",
    "gaps_and_overlaps_many",
    "gaps_and_overlaps_corpus",
    "_intervals_from_rows",
]

__version__: str
#: The most worker threads a call may ask for (``threads=``).
MAX_THREADS: int
#: The longest recording (seconds) the decoder takes by default (``overtalk detect --max-duration``).
MAX_DURATION: float

class OvertalkError(ValueError):
    """An input overtalk cannot read, or parameters it cannot use."""

class OvertalkWarning(UserWarning):
    """What overtalk repaired, questioned or left out (the command line's `overtalk: warning: …`)."""

_Segment = tuple[float, float, str, Optional[str]]

@final  # a Rust class: not subclassable
class Corpus:
    def ids(self) -> list[str]: ...
    @property
    def warnings(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, id: str, /) -> bool: ...
    def __getitem__(self, id: str, /) -> Conversation: ...
    def write(self, format: str) -> str: ...
    @staticmethod
    def from_conversations(conversations: Sequence[Conversation]) -> Corpus: ...
    def __reduce__(self) -> tuple: ...

@final  # a Rust class: not subclassable
class Conversation:
    @property
    def recording_id(self) -> str: ...
    @property
    def detection(self) -> Optional[str]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def format(self) -> Optional[str]: ...
    def speakers(self) -> list[str]: ...
    def segments(self) -> list[_Segment]: ...
    def segments_micros(self) -> list[tuple[int, int, str]]: ...
    def write(self, format: str) -> str: ...
    @staticmethod
    def from_segments(
        recording_id: str,
        segments: Sequence[_Segment],
        speakers: Optional[Sequence[str]] = None,
        extent: Optional[tuple[float, float]] = None,
        strict: bool = False,
        item: str = "segment",
    ) -> Conversation: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> tuple: ...

@final  # a Rust class: not subclassable
class Analysis:
    @property
    def recording_id(self) -> str: ...
    @property
    def _fresh_warnings(self) -> list[str]: ...
    def to_json(self) -> str: ...
    def to_jsonl(self) -> str: ...
    def _columns(
        self, events: str
    ) -> list[tuple[str, str, int, int, Optional[bytes], list[bytes]]]: ...
    def __reduce__(self) -> tuple: ...

@final  # a Rust class: not subclassable
class Params:
    def to_json(self) -> str: ...
    def __reduce__(self) -> tuple: ...

_Row = tuple[str, int, int, Optional[str], Optional[str]]

@final  # a Rust class: not subclassable
class Intervals:
    @property
    def recording_id(self) -> str: ...
    @property
    def speakers(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def counts(self) -> dict[str, Optional[int]]: ...
    def row(self, index: int) -> _Row: ...
    def rows(self) -> list[_Row]: ...
    @overload
    def __getitem__(self, index: int, /) -> Interval: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Interval]: ...
    def __iter__(self) -> Iterator[Interval]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def to_arrow(self) -> pyarrow.Table: ...
    def to_pandas(self) -> pandas.DataFrame: ...
    def _columns(self) -> list[tuple[str, str, int, int, Optional[bytes], list[bytes]]]: ...
    def __reduce__(self) -> tuple: ...

def params(preset: str = "default", params_json: Optional[str] = None) -> Params: ...
def read_paths(
    paths: Sequence[Union[str, PathLike[str]]],
    format: Optional[str] = None,
    strict: bool = False,
    recording_id: Optional[str] = None,
    threads: Optional[int] = None,
    encoding: Optional[str] = None,
    tiers: Optional[Sequence[str]] = None,
    ignore_tiers: Optional[Sequence[str]] = None,
) -> Corpus: ...
def read_bytes(
    data: bytes,
    format: Optional[str] = None,
    name: Optional[str] = None,
    strict: bool = False,
    recording_id: Optional[str] = None,
    encoding: Optional[str] = None,
    tiers: Optional[Sequence[str]] = None,
    ignore_tiers: Optional[Sequence[str]] = None,
) -> Corpus: ...
def format_for_name(name: str) -> Optional[str]: ...
def output_format_for_name(name: str) -> Optional[str]: ...
def _shown_label(name: str) -> str: ...
def write_file(path: Union[str, PathLike[str]], text: str) -> None: ...
def analyze(conversation: Conversation, params: Params, timing_only: bool = False) -> Analysis: ...
def analyze_many(
    conversations: Sequence[Conversation], params: Params, timing_only: bool = False, threads: Optional[int] = None
) -> list[Analysis]: ...
def analyze_corpus(
    corpus: Corpus, params: Params, timing_only: bool = False, threads: Optional[int] = None
) -> list[Analysis]: ...
def turn_order_json(conversation: Conversation, params: Params) -> str: ...
def gaps_and_overlaps(conversation: Any, preset: Any = "he2010", **params: Any) -> Intervals: ...
def gaps_and_overlaps_counts(conversation: Any, preset: Any = "he2010", **params: Any) -> dict[str, Optional[int]]: ...
def gaps_and_overlaps_with(conversation: Conversation, params: Params) -> Intervals: ...
def gaps_and_overlaps_many(
    conversations: Sequence[Conversation], params: Params, threads: Optional[int] = None
) -> list[Intervals]: ...
def gaps_and_overlaps_corpus(corpus: Corpus, params: Params, threads: Optional[int] = None) -> list[Intervals]: ...
def analyze_source(
    source: Union[bytes, str, PathLike[str]],
    name: Optional[str] = None,
    format: Optional[str] = None,
    preset: str = "default",
    params_json: Optional[str] = None,
    timing_only: bool = False,
    paths: Sequence[Sequence[str]] = ...,
    json_bytes: bool = False,
) -> list[tuple[str, Union[str, bytes], list[Union[None, bool, int, float, str]]]]: ...
def score_json(
    reference: Corpus,
    hypothesis: Corpus,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Optional[bytes] = None,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    der_only: bool = False,
    uem_source: Optional[str] = None,
    uem_files: Optional[Sequence[tuple[bytes, str]]] = None,
) -> str: ...
def score_events_json(
    reference: Corpus,
    hypothesis: Corpus,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Optional[bytes] = None,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    tolerance: float = 0.2,
    uem_source: Optional[str] = None,
    uem_files: Optional[Sequence[tuple[bytes, str]]] = None,
) -> str: ...
def detect_files(
    recording_id: Optional[str],
    tracks: Sequence[tuple[str, Union[str, PathLike[str]], Optional[int], float, Optional[int]]],
    vad: str = "earshot",
    max_duration: Optional[float] = None,
) -> Conversation: ...
def detect_samples(
    recording_id: str,
    tracks: Sequence[tuple[str, bytes]],
    sample_rate: int,
    vad: str = "earshot",
    max_duration: Optional[float] = None,
) -> Conversation: ...
def diarize(
    recording_id: str,
    path: Optional[Union[str, PathLike[str]]] = None,
    samples: Optional[bytes] = None,
    sample_rate: Optional[int] = None,
    diarizer: Optional[str] = None,
    vad: Optional[str] = None,
    num_speakers: Optional[int] = None,
    min_speakers: Optional[int] = None,
    max_speakers: Optional[int] = None,
    embedding_model: Optional[Union[str, PathLike[str]]] = None,
    overlap_margin: Optional[float] = None,
    max_duration: Optional[float] = None,
) -> tuple[Conversation, list[str]]: ...
_PickledOrigin = tuple[Optional[str], Optional[str], bool, bool]
def _corpus_from_json(
    json: str,
    origins: Sequence[tuple[str, _PickledOrigin]] = ...,
    zero_length: Sequence[tuple[str, str, int, int]] = ...,
    warnings: Sequence[str] = ...,
) -> Corpus: ...
def _conversation_from_json(id: str, json: str, origin: _PickledOrigin) -> Conversation: ...
def _analysis_from_json(label: str, detection: Optional[str], state: str) -> Analysis: ...
def _params_from_json(json: str) -> Params: ...
def _intervals_from_rows(
    recording_id: str,
    speakers: Sequence[str],
    rows: Sequence[tuple[str, int, int, Optional[int], Optional[int]]],
    overlap_unknown: bool = False,
) -> Intervals: ...
