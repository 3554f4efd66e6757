"""Corpus runs on Ray, Dask and Spark: one row per conversation, no user serialisation.

Each input (a file path, or the bytes of a file with its name) is read and every recording in
it analysed, with the GIL released; each row holds the input, the recording id, the
conversation's line of ``overtalk analyze --format jsonl`` (``json``) and flat metric columns
(:data:`COLUMNS`). The same function serves every engine:

- Ray Data: ``ds.map_batches(overtalk.corpus.analyze_batch_arrow, batch_format="pyarrow")``
  (or ``analyze_batch``, which gives the columns as lists) on a dataset with a ``path``
  column (or ``bytes`` with ``name``), any batch format;
- Dask bag: ``bag.map(overtalk.corpus.analyze_item).flatten()`` over paths or ``(name, bytes)``;
- Spark: ``df.mapInArrow(overtalk.corpus.analyze_arrow, overtalk.corpus.SPARK_SCHEMA)`` on a
  DataFrame with a ``path`` column (or ``bytes`` and ``name``).

Sorting the rows by ``recording`` and joining their ``json`` gives the bytes of
``overtalk analyze --format jsonl`` on the same files.
"""

from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Iterable, Iterator, Optional

from . import _native

#: The flat columns of a row besides ``source``, ``recording`` and ``json``: (name, type,
#: where in the conversation object). Times in ms; ``None`` where the metric is not measurable.
COLUMNS: list[tuple[str, str, tuple[str, ...]]] = [
    ("speakers", "int64", ("conversation", "counts", "speakers")),
    ("span_ms", "int64", ("conversation", "span")),
    ("speech_ms", "int64", ("conversation", "speech")),
    ("silence_ms", "int64", ("conversation", "silence")),
    ("overlap_ms", "int64", ("conversation", "overlap")),
    ("overlap_ratio", "double", ("conversation", "overlap_ratio")),
    ("transfers_per_min", "double", ("conversation", "transfers_per_min")),
    ("turns", "int64", ("conversation", "counts", "turns")),
    ("transfers", "int64", ("conversation", "counts", "transfers")),
    ("interruptions", "int64", ("conversation", "counts", "interruptions")),
    ("successful_interruptions", "int64", ("conversation", "counts", "successful")),
    ("backchannels", "int64", ("conversation", "counts", "backchannels")),
    ("terminal_overlaps", "int64", ("conversation", "counts", "terminal_overlaps")),
    ("long_silences", "int64", ("conversation", "long_silences")),
    ("turn_median_ms", "double", ("conversation", "turn_median")),
    ("between_median_ms", "double", ("conversation", "between_median")),
]

_NAMES = [c[0] for c in COLUMNS]
_PATHS = [list(c[2]) for c in COLUMNS]

#: All columns of a row, in order.
FIELDS: list[str] = ["source", "recording", "json"] + [c[0] for c in COLUMNS]

#: The schema of a row for Spark's ``mapInArrow`` (a DDL string).
SPARK_SCHEMA: str = ", ".join(
    ["source string", "recording string", "json string"]
    + [f"{name} {'bigint' if t == 'int64' else 'double'}" for name, t, _ in COLUMNS]
)


def _rows_for(
    source: Any,
    name: Optional[str],
    preset: str,
    params_json: Optional[str],
    timing_only: bool = False,
    json_bytes: bool = False,
) -> list[dict]:
    label = name if name is not None else (_os.fspath(source) if not isinstance(source, bytes) else "<bytes>")
    out = []
    rows = _native.analyze_source(source, name, None, preset, params_json, timing_only, _PATHS, json_bytes)
    for recording, line, values in rows:
        # With json_bytes the line comes as UTF-8 bytes without its newline (Arrow columns).
        row = {"source": label, "recording": recording, "json": line if json_bytes else line.rstrip("\n")}
        row.update(zip(_NAMES, values))
        out.append(row)
    return out


def _params(params: dict) -> Optional[str]:
    from . import _param_value

    return _json.dumps({k: _param_value(k, v) for k, v in params.items()}) if params else None


def _blob(data: Any, where: str) -> bytes:
    """The bytes of a file given in memory (``bytes``, ``bytearray``, ``memoryview``)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{where}: expected the bytes of a file, got {type(data).__name__}")
    return bytes(data)


def _name(value: Any, what: str) -> str:
    """The name of a file given as ``(name, bytes)``: a ``str`` or an ``os.PathLike`` giving
    one (a ``pathlib.Path``), not empty; ``None`` or ``bytes`` is an error naming ``what``."""
    from . import _text

    if isinstance(value, _os.PathLike):
        name = _os.fspath(value)
        if isinstance(name, str):
            value = name
    if value is None:
        raise TypeError(f"{what}: expected a str or os.PathLike, got NoneType None")
    return _text(value, what)


def _item_rows(item: Any, preset: str, timing_only: bool, params: dict, json_bytes: bool) -> list[dict]:
    from . import _flag, _path, _preset, _text

    _preset(preset)
    pj = _params(params)
    t = _flag(timing_only, "timing_only")
    if isinstance(item, dict):
        if item.get("path") is not None:
            return _path_rows(_path(item["path"], "the input's 'path'"), preset, pj, t, json_bytes)
        if item.get("bytes") is None:
            raise ValueError(f"an input dict needs a 'path' or a 'bytes' (and 'name') key, got keys {sorted(item)}")
        name = None if item.get("name") is None else _name(item["name"], "the input's 'name'")
        return _rows_for(_blob(item["bytes"], "the input's 'bytes'"), name, preset, pj, t, json_bytes)
    if isinstance(item, tuple) and len(item) == 2:
        name = _name(item[0], "the name of (name, bytes)")
        return _rows_for(_blob(item[1], "the bytes of (name, bytes)"), name, preset, pj, t, json_bytes)
    if isinstance(item, (bytes, bytearray, memoryview)):
        return _rows_for(bytes(item), None, preset, pj, t, json_bytes)
    if not isinstance(item, (str, _os.PathLike)):
        raise TypeError(
            f"an input is a path, bytes, (name, bytes) or a dict with 'path' or 'bytes', got {type(item).__name__}"
        )
    return _path_rows(item, preset, pj, t, json_bytes)


def _path_rows(path: Any, preset: str, pj: Optional[str], t: bool, json_bytes: bool) -> list[dict]:
    """The rows of a file, or of every transcript file under a directory (as
    :func:`overtalk.read` and ``overtalk analyze DIR`` find them)."""
    p = _os.fspath(path)
    if _os.path.isdir(p):
        from . import _walk

        return [row for f in _walk(p) for row in _rows_for(f, None, preset, pj, t, json_bytes)]
    return _rows_for(p, None, preset, pj, t, json_bytes)


def analyze_item(item: Any, preset: str = "default", *, timing_only: bool = False, **params: Any) -> list[dict]:
    """The rows of one input: a path (a file, or a directory: each transcript file under it),
    bytes, ``(name, bytes)`` or a dict with ``path`` or ``bytes`` (and ``name``). For a Dask bag: ``bag.map(analyze_item).flatten()`` (on the
    processes scheduler with ``chunksize=1``, so that no worker waits while another holds six
    partitions: docs/python.md).
    ``timing_only`` and ``params`` as in :func:`overtalk.analyze`."""
    return _item_rows(item, preset, timing_only, params, False)


def _inputs(batch: Any) -> list[Any]:
    """The inputs of a batch: a list, a dict of columns (Ray ``numpy``/``default``), a
    ``pandas.DataFrame`` or a ``pyarrow`` table or record batch."""
    from . import _missing

    if isinstance(batch, (list, tuple)):
        return list(batch)
    if hasattr(batch, "to_pydict"):  # pyarrow.Table / RecordBatch
        batch = batch.to_pydict()
    elif hasattr(batch, "to_dict") and hasattr(batch, "columns"):  # pandas.DataFrame
        batch = {c: batch[c].tolist() for c in batch.columns}
    if isinstance(batch, dict):
        cols = {k: list(v) for k, v in batch.items()}
        if "path" in cols:
            for i, p in enumerate(cols["path"]):
                if _missing(p):
                    raise ValueError(f"row {i} of the batch has no path ({p!r})")
                if not isinstance(p, (str, _os.PathLike)):
                    raise TypeError(f"row {i} of the batch: the path is a str, got {type(p).__name__} {p!r}")
            return [_os.fspath(p) for p in cols["path"]]
        if "bytes" in cols:
            for i, b in enumerate(cols["bytes"]):
                if _missing(b):
                    raise ValueError(f"row {i} of the batch has no bytes ({b!r})")
            names = cols.get("name", [None] * len(cols["bytes"]))
            for i, n in enumerate(names):
                # None: no name (as a dict without one); NaN or pandas' NA is no name "nan".
                if n is not None and _missing(n):
                    raise ValueError(f"row {i} of the batch: the name is missing ({n!r}); give a name or None")
            return [{"bytes": b, "name": None if n is None else str(n)} for b, n in zip(cols["bytes"], names)]
        raise KeyError(f"a batch needs a 'path' or a 'bytes' column; it has {sorted(cols)}")
    raise TypeError(f"cannot take a batch of type {type(batch).__name__}")


def _batch_columns(batch: Any, preset: str, params: dict, json_bytes: bool) -> dict[str, list]:
    from . import _preset

    timing_only = params.pop("timing_only", False)
    _preset(preset)
    _native.params(preset, _params(params))  # a bad parameter is an error for an empty batch too
    cols: dict[str, list] = {f: [] for f in FIELDS}
    for item in _inputs(batch):
        for row in _item_rows(item, preset, timing_only, params, json_bytes):
            for f in FIELDS:
                cols[f].append(row[f])
    return cols


def analyze_batch(batch: Any, preset: str = "default", **params: Any) -> dict[str, list]:
    """The rows of a batch of inputs, as columns (``{field: [values]}``). For Ray Data:
    ``ds.map_batches(analyze_batch)``; any batch format is taken."""
    return _batch_columns(batch, preset, params, False)


#: The most bytes of JSON in one Arrow string column (its offsets are 32-bit).
_ARROW_STRING_BYTES = 2**31 - 1


def _arrow_batches(cols: dict[str, list], limit: int = _ARROW_STRING_BYTES) -> list:
    """The columns of :func:`_batch_columns` (``json`` as UTF-8 bytes) as record batches of
    :func:`arrow_schema`, each holding less than ``limit`` bytes of JSON. The JSON goes into
    its string column from one buffer: no Python string is made of it (each holds curly
    quotes, so Python would keep it two bytes a character and Arrow would encode it again)."""
    import pyarrow as pa

    schema = arrow_schema()
    js = cols["json"]
    batches, start = [], 0
    while start < len(js) or not batches:
        offsets, total, end = [0], 0, start
        while end < len(js) and total + len(js[end]) < limit:
            total += len(js[end])
            offsets.append(total)
            end += 1
        if end == start and end < len(js):
            raise ValueError(f"one conversation's JSON holds {len(js[end])} bytes, more than an Arrow string column takes")
        arrays = []
        for field in schema:
            if field.name == "json":
                data = pa.py_buffer(b"".join(js[start:end]))
                arrays.append(pa.StringArray.from_buffers(end - start, pa.array(offsets, type=pa.int32()).buffers()[1], data))
            else:
                arrays.append(pa.array(cols[field.name][start:end], type=field.type))
        batches.append(pa.RecordBatch.from_arrays(arrays, schema=schema))
        start = end
    return batches


def analyze_batch_arrow(batch: Any, preset: str = "default", **params: Any) -> Any:
    """:func:`analyze_batch` as a ``pyarrow.Table`` of :func:`arrow_schema`. For Ray Data:
    ``ds.map_batches(analyze_batch_arrow, batch_format="pyarrow")``; Ray takes the table as its
    block as it is, where it would convert the columns of :func:`analyze_batch` itself (about
    four times slower than pyarrow, a quarter of the time of the analysis on AMI)."""
    import pyarrow as pa

    batches = _arrow_batches(_batch_columns(batch, preset, params, True))
    return pa.Table.from_batches(batches, schema=arrow_schema())


def arrow_schema() -> Any:
    """The row schema as a ``pyarrow.Schema``."""
    import pyarrow as pa

    types = {"int64": pa.int64(), "double": pa.float64()}
    return pa.schema(
        [("source", pa.string()), ("recording", pa.string()), ("json", pa.string())]
        + [(name, types[t]) for name, t, _ in COLUMNS]
    )


def analyze_arrow(batches: Iterable[Any], preset: str = "default", **params: Any) -> Iterator[Any]:
    """Record batches in, record batches of rows out. For Spark:
    ``df.mapInArrow(analyze_arrow, SPARK_SCHEMA)``."""
    for batch in batches:
        yield from _arrow_batches(_batch_columns(batch, preset, dict(params), True))


def to_jsonl(rows: Iterable[dict]) -> str:
    """Rows (dicts with ``recording`` and ``json``) as the text of ``overtalk analyze --format
    jsonl``: one line per conversation, in recording-id order."""
    return "".join(r["json"] + "\n" for r in sorted(rows, key=lambda r: r["recording"]))
