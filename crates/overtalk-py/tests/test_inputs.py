"""Wrong inputs: a clear TypeError, ValueError or OvertalkError that names the argument, and
messages that name this package's parameters, not the command line's flags."""

import warnings

import numpy as np
import pytest

import overtalk
import overtalk.corpus as oc
from conftest import EXAMPLES, REPO

RED_CARPET = EXAMPLES / "red-carpet" / "red-carpet.rttm"
RTTM_DIR = REPO / "crates" / "overtalk" / "tests" / "data" / "rttm"
SPEACH_EAF = REPO / "crates" / "overtalk" / "tests" / "data" / "eaf" / "speach_test2.eaf"


def test_constructors_name_what_they_cannot_take():
    C = overtalk.Conversation
    with pytest.raises(TypeError, match=r"segments\[1\]: expected \(start_s, end_s, speaker\[, text\]\), got \(0, 1\)"):
        C.from_segments([(0, 1, "A"), (0, 1)])
    with pytest.raises(TypeError, match=r"segments\[0\]: start and end are numbers of seconds"):
        C.from_segments([("a", 1, "A")])
    with pytest.raises(TypeError, match="segments: expected a list"):
        C.from_segments("0 1 A")
    with pytest.raises(TypeError, match="annotation: expected a pyannote.core.Annotation, got str"):
        C.from_pyannote("x")
    with pytest.raises(TypeError, match="df: expected a DataFrame or a dict of columns, got list"):
        C.from_pandas([1, 2])
    with pytest.raises(TypeError, match=r"conversations\[0\]: expected a Conversation, got str"):
        overtalk.Corpus.from_conversations(["x"])
    corpus = overtalk.read(RED_CARPET)
    with pytest.raises(TypeError, match="a recording id is a str"):
        corpus[0]


def test_from_pandas_takes_a_dict_of_columns():
    columns = {"start": [0.0, 1.5], "end": [2.0, 3.0], "speaker": ["A", "B"], "text": ["hi", None]}
    from_dict = overtalk.Conversation.from_pandas(columns, "r")
    pd = pytest.importorskip("pandas")
    assert from_dict.segments() == overtalk.Conversation.from_pandas(pd.DataFrame(columns), "r").segments()
    with pytest.raises(ValueError, match="differ in length"):
        overtalk.Conversation.from_pandas({"start": [0.0], "end": [1.0, 2.0], "speaker": ["A"]})


def test_counts_are_checked_where_they_are_given():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    for call in (
        lambda: overtalk.analyze_many([conv], threads=-1),
        lambda: overtalk.gaps_and_overlaps_many([conv], threads=-1),
        lambda: overtalk.read(RED_CARPET, threads=-1),
    ):
        with pytest.raises(overtalk.OvertalkError, match="threads must be at least 1, got -1"):
            call()
    with pytest.raises(TypeError, match="threads: expected a whole number, got float 1.5"):
        overtalk.analyze_many([conv], threads=1.5)
    assert len(overtalk.analyze_many([conv], threads=np.int64(1))) == 1
    for name in ("num_speakers", "min_speakers", "max_speakers"):
        with pytest.raises(overtalk.OvertalkError, match=f"{name} must be at least 1, got -1"):
            overtalk.detect("x.wav", **{name: -1})
    with pytest.raises(overtalk.OvertalkError, match="sample_rate must be at least 1, got -1"):
        overtalk.detect(np.zeros((10, 2)), sample_rate=-1)


def test_batch_calls_take_mixed_lists():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    expected = overtalk.analyze(conv).to_json()
    for items in ([str(RED_CARPET), conv], [conv, str(RED_CARPET)], [overtalk.read(RED_CARPET), RED_CARPET]):
        assert [a.to_json() for a in overtalk.analyze_many(items)] == [expected, expected]
        assert overtalk.gaps_and_overlaps_many(items) == [overtalk.gaps_and_overlaps(conv)] * 2
    pytest.importorskip("pyannote.core")
    (from_annotation,) = overtalk.analyze_many([conv.to_pyannote()])
    assert from_annotation.to_json() == overtalk.analyze(conv.to_pyannote()).to_json()
    with pytest.raises(TypeError, match="analyze_many: item 1: expected a Conversation"):
        overtalk.analyze_many([conv, 3])


def test_corpus_helpers_name_what_they_cannot_take(tmp_path):
    with pytest.raises(ValueError, match=r"needs a 'path' or a 'bytes' \(and 'name'\) key, got keys \['foo'\]"):
        oc.analyze_item({"foo": 1})
    with pytest.raises(TypeError, match="an input is a path"):
        oc.analyze_item(3)
    with pytest.raises(ValueError, match=r"row 1 of the batch has no path \(None\)"):
        oc.analyze_batch({"path": [str(RED_CARPET), None]})
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match=r"row 0 of the batch has no path \(nan\)"):
        oc.analyze_batch(pd.DataFrame({"path": [float("nan")]}))
    # A directory is every transcript file under it, as read() and `overtalk analyze DIR` take it.
    files = overtalk._walk(str(RTTM_DIR))
    rows = oc.analyze_item(str(RTTM_DIR))
    assert rows == [r for f in files for r in oc.analyze_item(f)]
    assert sorted(r["recording"] for r in rows) == overtalk.read(RTTM_DIR).ids()


def test_a_missing_file_is_said_to_be_missing():
    for name in ("nothere", "nothere.rttm", "dir/nothere"):
        with pytest.raises(overtalk.OvertalkError, match=f"^{name}: no such file or directory$"):
            overtalk.read(name)
    # Text stays text.
    with pytest.raises(overtalk.OvertalkError, match="cannot tell the format"):
        overtalk.read("three plain words")


def test_messages_name_the_parameters_not_the_flags(tmp_path):
    with pytest.raises(overtalk.OvertalkError, match="name it with format=$"):
        overtalk.read("three plain words")
    lab_as_rttm = tmp_path / "labels.rttm"
    lab_as_rttm.write_text("0.0 1.0 A\n1.0 2.0 B\n")
    with pytest.raises(overtalk.OvertalkError, match='name it with format="lab", or give the file its extension'):
        overtalk.read(lab_as_rttm)
    with pytest.raises(overtalk.OvertalkError, match="name its format with format=, or leave format unset to detect it"):
        overtalk.read(b'{"results": {}}', format="deepgram")
    latin1 = "SPEAKER r 1 0 1 <NA> <NA> Jos\u00e9 <NA> <NA>\n".encode("latin-1")
    with pytest.warns(overtalk.OvertalkWarning, match="name another with encoding=") as said:
        overtalk.read(latin1, format="rttm")
    assert "--" not in str(said[0].message)
    assert overtalk.read(latin1, format="rttm", encoding="latin1")["r"].speakers == ["Jos\u00e9"]
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        overtalk.read(SPEACH_EAF, ignore_tiers=["R004*"])
    notes = [str(w.message) for w in said]
    assert any('"R004 (Utterance)" (matched by ignore_tiers=)' in n and "choose with tiers= or ignore_tiers=" in n for n in notes), notes
    assert not any("--" in n for n in notes), notes
