"""Type stubs of the extension module ``overtalk._native`` (the Rust side of ``overtalk``).

Use the package ``overtalk``; these names are its building blocks.
"""

from os import PathLike
from typing import Optional, Sequence, Union

__version__: str

class OvertalkError(ValueError):
    """An input overtalk cannot read, or parameters it cannot use."""

_Segment = tuple[float, float, str, Optional[str]]

class Corpus:
    def ids(self) -> list[str]: ...
    @property
    def warnings(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, id: str) -> bool: ...
    def __getitem__(self, id: str) -> Conversation: ...
    def write(self, format: str) -> str: ...
    @staticmethod
    def from_conversations(conversations: Sequence[Conversation]) -> Corpus: ...
    def __reduce__(self) -> tuple: ...

class Conversation:
    @property
    def recording_id(self) -> str: ...
    @property
    def detection(self) -> Optional[str]: ...
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
    ) -> Conversation: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> tuple: ...

class Analysis:
    @property
    def recording_id(self) -> str: ...
    def to_json(self) -> str: ...
    def to_jsonl(self) -> str: ...
    def _columns(
        self, events: str
    ) -> list[tuple[str, str, int, int, Optional[bytes], list[bytes]]]: ...
    def __reduce__(self) -> tuple: ...

def read_paths(
    paths: Sequence[Union[str, PathLike[str]]],
    format: Optional[str] = None,
    strict: bool = False,
    recording_id: Optional[str] = None,
) -> Corpus: ...
def read_bytes(
    data: bytes,
    format: Optional[str] = None,
    name: Optional[str] = None,
    strict: bool = False,
    recording_id: Optional[str] = None,
) -> Corpus: ...
def format_for_name(name: str) -> Optional[str]: ...
def analyze(
    conversation: Conversation, preset: str = "default", params_json: Optional[str] = None, timing_only: bool = False
) -> Analysis: ...
def gaps_and_overlaps(
    conversation: Conversation, preset: str = "he2010", params_json: Optional[str] = None
) -> list[tuple[str, int, int, Optional[int], Optional[int]]]: ...
def analyze_source(
    source: Union[bytes, str, PathLike[str]],
    name: Optional[str] = None,
    format: Optional[str] = None,
    preset: str = "default",
    params_json: Optional[str] = None,
    timing_only: bool = False,
    paths: Sequence[Sequence[str]] = ...,
) -> list[tuple[str, str, list[Union[None, bool, int, float, str]]]]: ...
def score_json(
    reference: Corpus,
    hypothesis: Corpus,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Optional[str] = None,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    der_only: bool = False,
) -> str: ...
def score_events_json(
    reference: Corpus,
    hypothesis: Corpus,
    collar: float = 0.0,
    skip_overlap: bool = False,
    preset: str = "overtalk",
    uem: Optional[str] = None,
    mapping: Optional[str] = None,
    region: Optional[str] = None,
    jer: Optional[str] = None,
    tolerance: float = 0.2,
) -> str: ...
def detect_files(
    recording_id: str, tracks: Sequence[tuple[str, Union[str, PathLike[str]], Optional[int]]], vad: str = "earshot"
) -> Conversation: ...
def detect_samples(
    recording_id: str, tracks: Sequence[tuple[str, bytes]], sample_rate: int, vad: str = "earshot"
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
) -> tuple[Conversation, Optional[str]]: ...
def _corpus_from_json(json: str, formats: Sequence[tuple[str, str]] = ...) -> Corpus: ...
def _conversation_from_json(
    id: str, json: str, detection: Optional[str], format: Optional[str] = None, overlap_not_measurable: bool = False
) -> Conversation: ...
def _analysis_from_json(label: str, detection: Optional[str], state: str) -> Analysis: ...
