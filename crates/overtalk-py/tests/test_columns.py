"""Event lists as Arrow tables built from Arrow buffers (no JSON in between): the same values
as the JSON's, typed, with their nulls, on the red-carpet example and on a whole AMI meeting;
and the corpus rows' flat columns, taken from the analysis, equal to the JSON line's values."""

import json

import pytest

import overtalk
from conftest import EXAMPLES

pa = pytest.importorskip("pyarrow")

KEYS = {"onsets": "onsets", "turns": "turns", "transfers": "transfers", "intervals": "he", "talkspurts": "talkspurts"}


def _rows_from_json(a, events):
    """The rows the JSON gives: scalar fields of each speaker; nested values parsed."""
    d = a.to_dict()
    if events == "speakers":
        return [dict(speaker=k, **{f: v for f, v in s.items() if not isinstance(v, (dict, list))}) for k, s in d["speakers"].items()]
    return d[KEYS[events]]


def _parsed(table, events, a):
    """The table's rows with nested columns (JSON text) parsed back."""
    rows = table.to_pylist()
    nested = {k for r in _rows_from_json(a, events) for k, v in r.items() if isinstance(v, (dict, list))}
    return [{k: (json.loads(v) if k in nested and v is not None else v) for k, v in r.items()} for r in rows]


def _same(table, rows):
    """Each row has the JSON's fields and values (fields absent from a JSON row are null)."""
    got = table.to_pylist()
    assert len(got) == len(rows)
    for g, r in zip(got, rows):
        assert {k: v for k, v in g.items() if k in r} == r
        assert all(v is None for k, v in g.items() if k not in r)


@pytest.mark.parametrize("events", ["onsets", "turns", "transfers", "intervals", "talkspurts", "speakers"])
def test_columns_hold_the_json_values_on_red_carpet(events):
    conv = overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"]
    a = overtalk.analyze(conv)
    t = a.to_arrow(events)
    rows = _rows_from_json(a, events)
    assert t.num_rows == len(rows) > 0
    got = _parsed(t, events, a)
    for g, r in zip(got, rows):
        assert {k: v for k, v in g.items() if k in r} == r


def test_column_types_and_order():
    conv = overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"]
    a = overtalk.analyze(conv)
    onsets = a.to_arrow("onsets")
    # The struct's field order, as in the JSON.
    assert onsets.column_names[:4] == list(a.onsets[0])[:4]
    assert onsets.schema.field("speaker").type == pa.string()
    assert onsets.schema.field("time").type == pa.int64()
    assert onsets.schema.field("p_interruption").type == pa.float64()
    turns = a.to_arrow("turns")
    assert turns.schema.field("start").type == pa.int64()
    assert turns.column("speaker").to_pylist() == [x["speaker"] for x in a.turns]
    assert turns.column("end").to_pylist() == [x["end"] for x in a.turns]
    spk = a.to_arrow("speakers")
    assert spk.column_names[0] == "speaker"
    assert spk.column("speaker").to_pylist() == sorted(a.speakers)
    assert spk.column("talk").to_pylist() == [a.speakers[s]["talk"] for s in sorted(a.speakers)]
    with pytest.raises(ValueError, match="events must be one of"):
        a.to_arrow("words")


def test_columns_of_a_whole_ami_meeting(ami):
    conv = overtalk.read(ami / "test" / "EN2002a.rttm")["EN2002a"]
    a = overtalk.analyze(conv)
    for events in ["onsets", "turns", "intervals", "talkspurts", "transfers", "speakers"]:
        t = a.to_arrow(events)
        _same(t, _rows_from_json(a, events))
    # Nulls where the JSON has null (the first onsets have no holder-remaining time, say).
    onsets = a.to_arrow("onsets")
    for name in onsets.column_names:
        assert onsets.column(name).null_count == sum(1 for o in a.onsets if o.get(name) is None), name
    # pandas takes it as it is.
    df = a.to_pandas("onsets")
    assert len(df) == len(a.onsets)
    assert df["time"].tolist() == [o["time"] for o in a.onsets]


def test_corpus_row_columns_are_the_json_values(ami):
    import overtalk.corpus as oc

    rows = oc.analyze_item(str(ami / "test" / "EN2002a.rttm"))
    (row,) = rows
    d = json.loads(row["json"])
    for name, _t, path in oc.COLUMNS:
        v = d
        for k in path:
            v = None if v is None else v.get(k)
        assert row[name] == v and type(row[name]) is type(v), name
    assert row["speakers"] == 4 and row["turns"] == d["conversation"]["counts"]["turns"] > 0


EVENTS = ["onsets", "turns", "transfers", "intervals", "talkspurts", "speakers"]


def test_column_types_do_not_depend_on_the_data():
    """A table's columns and types come from the output's schema: a conversation with no
    onsets, or one whose probabilities are all null (the rules classifier), gives the same
    schema as any other, so the tables of many conversations concatenate."""
    full = overtalk.analyze(overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"])
    rules = overtalk.analyze(overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"], classifier="rules")
    alone = overtalk.analyze(overtalk.Conversation.from_segments([(0.0, 2.0, "A")], "alone"))
    for events in EVENTS:
        schemas = {str(a.to_arrow(events).schema) for a in (full, rules, alone)}
        assert len(schemas) == 1, (events, schemas)
        assert pa.concat_tables([a.to_arrow(events) for a in (full, rules, alone)]).num_rows == sum(
            a.to_arrow(events).num_rows for a in (full, rules, alone))
    empty = alone.to_arrow("transfers")
    assert empty.num_rows == 0
    assert empty.schema.field("fto").type == pa.int64()
    assert empty.schema.field("from").type == pa.string()
    # The rules classifier gives no probabilities: a float column of nulls, not a null column.
    p = rules.to_arrow("onsets").schema.field("p_interruption")
    assert p.type == pa.float64()
    assert rules.to_arrow("onsets").column("p_interruption").null_count == len(rules.onsets)
    assert not any(f.type == pa.null() for events in EVENTS for f in alone.to_arrow(events).schema)


def test_interval_columns_are_typed_without_intervals():
    alone = overtalk.Conversation.from_segments([(0.0, 2.0, "A")], "alone")
    iv = overtalk.gaps_and_overlaps(alone)
    t = iv.to_arrow()
    assert t.num_rows == len(iv)
    assert t.column_names == ["kind", "start_ms", "end_ms", "before", "after"]
    assert [f.type for f in t.schema] == [pa.string(), pa.int64(), pa.int64(), pa.string(), pa.string()]
