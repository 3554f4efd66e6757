"""Wrong inputs: a clear TypeError, ValueError or OvertalkError that names the argument, and
messages that name this package's parameters, not the command line's flags."""

import errno
import re
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


def test_a_directory_passes_over_hidden_files_and_folders(tmp_path):
    """As `overtalk analyze DIR`: Jupyter's checkpoint copies and macOS's `._x` forks are not
    read as recordings of the corpus."""
    (tmp_path / "a.rttm").write_text("SPEAKER a 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "a-checkpoint.rttm").write_text("SPEAKER b 1 0.0 1.0 <NA> <NA> B <NA> <NA>\n")
    (tmp_path / "._a.rttm").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    assert overtalk._walk(str(tmp_path)) == [str(tmp_path / "a.rttm")]
    assert overtalk.read(tmp_path).ids() == ["a"]


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


# Hostile arguments: each refused with the right exception type and a message naming the
# argument, never a panic, a hang, or a silent wrong answer.


def test_a_huge_event_tolerance_takes_every_onset_instead_of_overflowing():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    # Every onset one second late: beyond the default tolerance (0.2 s), within a huge one.
    late = overtalk.Conversation.from_segments(
        [(s.start + 1.0, s.end + 1.0, s.speaker) for s in conv.segments()], recording_id="red-carpet")
    at_default = overtalk.score_events(conv, late).total
    assert at_default["reference"] > 0 and at_default["tp"] == 0
    for tolerance in (1e17, 1e308):
        total = overtalk.score_events(conv, late, tolerance=tolerance).total
        assert (total["tp"], total["fp"], total["fn"], total["f1"]) == (at_default["reference"], 0, 0, 1.0)


def test_threads_beyond_the_bound_are_refused_before_any_is_started():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    for call in (
        lambda t: overtalk.analyze_many([conv, conv], threads=t),
        lambda t: overtalk.gaps_and_overlaps_many([conv, conv], threads=t),
        lambda t: overtalk.read([RED_CARPET, RTTM_DIR / "pyannote_database_multichannel.rttm"], threads=t),
    ):
        for t in (2**62, 10**6):
            with pytest.raises(overtalk.OvertalkError, match=f"^threads must be at most 1024, got {t}$"):
                call(t)
    # More threads than conversations: taken, and the results are those of one thread.
    many = overtalk.analyze_many([conv, conv], threads=1024)
    assert [a.to_json() for a in many] == [a.to_json() for a in overtalk.analyze_many([conv, conv], threads=1)]
    for flag, said in ((True, "bool True"), (np.True_, "bool np.True_"), (np.False_, "bool np.False_")):
        with pytest.raises(TypeError, match=f"^threads: expected a whole number, got {re.escape(said)}$"):
            overtalk.analyze_many([conv], threads=flag)


def test_read_names_the_source_it_cannot_take(tmp_path):
    for bad, kind in ((None, "NoneType"), (5, "int"), (1.5, "float"), ({"a": 1}, "dict")):
        with pytest.raises(TypeError, match=f"^source: expected a path, a list of paths, text or bytes, got {kind}$"):
            overtalk.read(bad)
    with pytest.raises(TypeError, match=r"^source\[1\]: expected a path \(str or os.PathLike\), got NoneType None$"):
        overtalk.read([RED_CARPET, None])
    with pytest.raises(TypeError, match=r"^source\[0\]: expected a path \(str or os.PathLike\), got bytes b'x.rttm'$"):
        overtalk.read([b"x.rttm"])
    with pytest.raises(overtalk.OvertalkError, match="^source: the list names no file$"):
        overtalk.read([])
    missing = tmp_path / "nothere.rttm"
    for source in (missing, [missing], str(missing)):
        with pytest.raises(FileNotFoundError, match=f"^{re.escape(str(missing))}: no such file or directory$") as e:
            overtalk.read(source)
        assert isinstance(e.value, overtalk.OvertalkError)
        assert (e.value.errno, e.value.filename, e.value.strerror) == (errno.ENOENT, str(missing), str(e.value))
    for kw, value, message in (
        ("format", 5, "format: expected a str, got int 5"),
        ("recording_id", 5, "recording_id: expected a str, got int 5"),
        ("encoding", b"utf-8", "encoding: expected a str, got bytes b'utf-8'"),
        ("strict", "no", "strict: expected True or False, got str 'no'"),
        ("strict", None, "strict: expected True or False, got NoneType None"),
    ):
        with pytest.raises(TypeError, match=f"^{message}$"):
            overtalk.read(RED_CARPET, **{kw: value})
    with pytest.raises(overtalk.OvertalkError, match="^recording_id is empty; give a name or leave it unset$"):
        overtalk.read("0.0 1.0 A\n", format="lab", recording_id="")
    with pytest.raises(overtalk.OvertalkError, match="^tiers: a name is empty$"):
        overtalk.read(SPEACH_EAF, tiers="")


def test_segments_are_refused_with_their_index():
    C = overtalk.Conversation.from_segments
    with pytest.raises(overtalk.OvertalkError, match=r"^segments\[0\]: the speaker is missing \(None\); give every segment a speaker$"):
        C([(0, 1, None)])
    with pytest.raises(overtalk.OvertalkError, match=r"^segments\[1\]: the speaker is missing \(nan\)"):
        C([(0, 1, "A"), (1, 2, float("nan"))])
    with pytest.raises(TypeError, match=r"^segments\[0\]: the speaker is a str, got bytes b'A'$"):
        C([(0, 1, b"A")])
    with pytest.raises(overtalk.OvertalkError, match=r"^speakers\[0\]: the speaker is missing \(None\)"):
        C([(0, 1, "A")], speakers=[None])
    with pytest.raises(TypeError, match=r"^segments\[0\]: expected \(start_s, end_s, speaker\[, text\]\), got \{'start': 0, 'end': 1, 'speaker': 'A'\}$"):
        C([{"start": 0, "end": 1, "speaker": "A"}])
    with pytest.raises(overtalk.OvertalkError, match=r"^segments\[0\]: time out of range: 0 to 100000000000000000000000000000000000000… s$"):
        C([(0, 10**400, "A")])
    with pytest.raises(overtalk.OvertalkError, match="^segment 0: time 1e308 is not a finite number of seconds in range$"):
        C([(0, 1e308, "A")])
    with pytest.raises(TypeError, match="^strict: expected True or False, got str 'no'$"):
        C([(-1, 1, "A")], strict="no")
    with pytest.raises(TypeError, match="^recording_id: expected a str, got int 5$"):
        C([(0, 1, "A")], recording_id=5)
    with pytest.raises(overtalk.OvertalkError, match="^recording_id is empty; give a name or leave it unset$"):
        C([(0, 1, "A")], recording_id="")
    with pytest.raises(TypeError, match="^segments: expected a list \\(or any iterable\\), got dict$"):
        C({"a": (0, 1, "A")})


def test_other_tools_objects_with_missing_or_infinite_values():
    pd = pytest.importorskip("pandas")
    na_speaker = pd.DataFrame({"start": [0.0], "end": [1.0], "speaker": pd.array([None], dtype="string")})
    with pytest.raises(overtalk.OvertalkError, match=r"^row 0: the speaker is missing \(<NA>\); give every row a speaker, or drop the row$"):
        overtalk.Conversation.from_pandas(na_speaker)
    na_text = pd.DataFrame({"start": [0.0], "end": [1.0], "speaker": ["A"], "text": pd.array([None], dtype="string")})
    assert overtalk.Conversation.from_pandas(na_text).segments() == [overtalk.Segment(0.0, 1.0, "A", None)]
    na_start = pd.DataFrame({"start": pd.array([None], dtype="Int64"), "end": [1.0], "speaker": ["A"]})
    with pytest.raises(overtalk.OvertalkError, match=r"^row 0: the start or end is missing \(<NA> and 1.0\); give every row its times, or drop the row$"):
        overtalk.Conversation.from_pandas(na_start)
    # What the reader refuses is named by its row too, as the checks above name it.
    backwards = pd.DataFrame({"start": [0.0, 2.0], "end": [1.0, 1.5], "speaker": ["A", "B"]})
    with pytest.raises(overtalk.OvertalkError, match=r"^row 1 \(B, 2–1.5 s\) is empty or reversed$"):
        overtalk.Conversation.from_pandas(backwards)
    endless = pd.DataFrame({"start": [0.0], "end": [float("inf")], "speaker": ["A"]})
    with pytest.raises(overtalk.OvertalkError, match="^row 0: time inf is not a finite number of seconds in range$"):
        overtalk.Conversation.from_pandas(endless)
    twice = pd.DataFrame([[0.0, 1.0, 2.0, "A"]], columns=["start", "end", "end", "speaker"])
    with pytest.raises(ValueError, match="^the DataFrame has 2 columns named 'end'; rename all but one$"):
        overtalk.Conversation.from_pandas(twice)
    with pytest.raises(TypeError, match="^column 'start': expected a column of values \\(a list, an array, a Series\\), got str$"):
        overtalk.Conversation.from_pandas({"start": "0", "end": "1", "speaker": "A"})
    pc = pytest.importorskip("pyannote.core")
    a = pc.Annotation(uri="u")
    a[pc.Segment(0, float("inf")), "t"] = "A"
    with pytest.raises(overtalk.OvertalkError, match="^segment 0: time inf is not a finite number of seconds in range$"):
        overtalk.Conversation.from_pyannote(a)


def test_analysis_parameters_are_named_in_their_errors():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    with pytest.raises(overtalk.OvertalkError, match='^unknown parameter "latch_tolerence"; did you mean latch_tolerance\\?$'):
        overtalk.gaps_and_overlaps(conv, latch_tolerence=5)
    with pytest.raises(overtalk.OvertalkError, match='^bad parameter value: terminal_window = "250": invalid type: string "250", expected i64$'):
        overtalk.analyze(conv, terminal_window="250")
    for value in (float("nan"), float("inf"), np.float32("nan")):
        with pytest.raises(overtalk.OvertalkError, match=f"^parameter terminal_window: expected a finite number, got {re.escape(repr(value))}$"):
            overtalk.analyze(conv, terminal_window=value)
    with pytest.raises(overtalk.OvertalkError, match=f"^parameter terminal_window = {10**30} is out of range$"):
        overtalk.analyze(conv, terminal_window=10**30)
    with pytest.raises(TypeError, match="^parameter terminal_window: cannot take a object"):
        overtalk.analyze(conv, terminal_window=object())
    # NumPy's numbers are the numbers they hold.
    assert overtalk.analyze(conv, terminal_window=np.int64(250)).to_json() == overtalk.analyze(conv, terminal_window=250).to_json()
    for preset, kind in ((None, "NoneType"), (5, "int"), (b"default", "bytes")):
        with pytest.raises(TypeError, match=f"^preset: expected a preset name \\(default, he2010 or pure-jf\\), got {kind}"):
            overtalk.analyze(conv, preset)
        with pytest.raises(TypeError, match=f"^preset: expected a preset name \\(default, he2010 or pure-jf\\), got {kind}"):
            overtalk.gaps_and_overlaps(conv, preset)
    with pytest.raises(TypeError, match="^timing_only: expected True or False, got str 'no'$"):
        overtalk.analyze(conv, timing_only="no")
    with pytest.raises(TypeError, match="^analyze_many: expected a list \\(or any iterable\\), got dict$"):
        overtalk.analyze_many({"a": conv})
    intervals = overtalk.gaps_and_overlaps(conv)
    with pytest.raises(IndexError, match="^interval index out of range$"):
        intervals[10**30]


def test_scoring_options_are_checked_by_type_and_value():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    for value, kind in (("0.25", "str '0.25'"), (None, "NoneType None"), (True, "bool True"), (1j, "complex 1j")):
        with pytest.raises(TypeError, match=f"^collar: expected a number of seconds, got {kind}$"):
            overtalk.score(conv, conv, collar=value)
    with pytest.raises(overtalk.OvertalkError, match=f"^collar: expected a finite number of seconds, got {10**400}$"):
        overtalk.score(conv, conv, collar=10**400)
    with pytest.raises(TypeError, match="^tolerance: expected a number of seconds, got str '0.2'$"):
        overtalk.score_events(conv, conv, tolerance="0.2")
    with pytest.raises(TypeError, match="^skip_overlap: expected True or False, got str 'no'$"):
        overtalk.score(conv, conv, skip_overlap="no")
    with pytest.raises(TypeError, match="^mapping: expected a str, got int 1$"):
        overtalk.score(conv, conv, mapping=1)
    with pytest.raises(TypeError, match="^reference: expected a Corpus, a Conversation, a pyannote Annotation, a path or text, got NoneType$"):
        overtalk.score(None, conv)
    with pytest.raises(overtalk.OvertalkError, match="^uem is empty; give a UEM file, its text, or leave it unset$"):
        overtalk.score(conv, conv, uem="")
    # UEM bytes are read as a UEM file's bytes are: not UTF-8, an error at its line and column;
    # with a byte-order mark, UTF-16.
    with pytest.raises(overtalk.OvertalkError, match=(
            r"^line 1, column 22: uem: invalid UTF-8 \(expected UTF-8, or UTF-16 or UTF-32 with a byte-order mark\)$")):
        overtalk.score(conv, conv, uem=b"red-carpet 1 0 10 caf\xe9\n")
    wide = overtalk.score(conv, conv, uem="red-carpet 1 0 2\n".encode("utf-16"))
    assert wide.total == overtalk.score(conv, conv, uem=b"red-carpet 1 0 2\n").total
    # NumPy's integers are numbers of seconds too.
    assert overtalk.score(conv, conv, uem={"red-carpet": (np.int64(0), np.int64(10))}).der == 0.0


def test_a_uem_file_is_named_in_its_error(tmp_path):
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    bad = tmp_path / "bad.uem"
    bad.write_text("red-carpet 1 nan 10\n")
    with pytest.raises(overtalk.OvertalkError, match=f'^{bad}:1:14: uem: onset "nan": time is NaN$'):
        overtalk.score(conv, conv, uem=bad)


def test_a_uem_file_is_read_as_the_command_line_reads_it(tmp_path):
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    # Latin-1 (not UTF-8): the reader's error at its line and column, as `overtalk score --uem`.
    latin = tmp_path / "latin.uem"
    latin.write_bytes(b"red-carpet 1 0 10 caf\xe9\n")
    with pytest.raises(overtalk.OvertalkError, match=(
            f"^{latin}:1:22: uem: invalid UTF-8 \\(expected UTF-8, or UTF-16 or UTF-32 with a byte-order mark\\)$")):
        overtalk.score(conv, conv, uem=latin)
    # UTF-16 with its byte-order mark, as Windows tools write it: read, as the command line reads it.
    wide = tmp_path / "wide.uem"
    wide.write_bytes("red-carpet 1 0 2\n".encode("utf-16"))
    narrow = tmp_path / "narrow.uem"
    narrow.write_text("red-carpet 1 0 2\n")
    assert overtalk.score(conv, conv, uem=wide).total == overtalk.score(conv, conv, uem=narrow).total
    assert overtalk.score(conv, conv, uem=wide).total != overtalk.score(conv, conv).total
    # A directory is read as `--uem DIR` reads it, every `.uem` file under it: the Latin-1 one's
    # error names it; a directory without one is an error, not an empty UEM.
    with pytest.raises(overtalk.OvertalkError, match=f"^{latin}:1:22: uem: invalid UTF-8"):
        overtalk.score(conv, conv, uem=tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(overtalk.OvertalkError, match=f"^{empty}: no UEM file \\(`.uem`\\) in this directory$"):
        overtalk.score(conv, conv, uem=empty)


def test_pickled_corpus_keeps_its_reading_warnings():
    import pickle

    with pytest.warns(overtalk.OvertalkWarning):
        corpus = overtalk.read("SPEAKER r 1 -5 6 <NA> <NA> A <NA> <NA>\n")
    assert corpus.warnings == ["<text>: line 1, column 16: negative start -5.000 clipped to 0 (repaired)"]
    assert pickle.loads(pickle.dumps(corpus)).warnings == corpus.warnings


def test_corpora_compare_by_their_conversations():
    import pickle

    corpus = overtalk.read(RED_CARPET)
    assert pickle.loads(pickle.dumps(corpus)) == corpus
    assert overtalk.read(RED_CARPET) == corpus
    assert hash(overtalk.read(RED_CARPET)) == hash(corpus)
    other = overtalk.read("SPEAKER red-carpet 1 0 1 <NA> <NA> A <NA> <NA>\n")
    assert other != corpus
    assert corpus != corpus["red-carpet"]


def test_objects_are_made_by_the_package():
    with pytest.raises(TypeError, match="^Corpus is made by read\\(\\) or Corpus.from_conversations\\(\\), not from NoneType$"):
        overtalk.Corpus(None)
    with pytest.raises(TypeError, match="^Conversation is made by read\\(\\), detect\\(\\) or Conversation.from_segments"):
        overtalk.Conversation("x")
    with pytest.raises(TypeError, match="^write: expected a Corpus or a Conversation, got NoneType$"):
        overtalk.write(None)
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    with pytest.raises(TypeError, match="^path: expected a path \\(str or os.PathLike\\), got int 5$"):
        conv.write(5)
    with pytest.raises(overtalk.OvertalkError, match="^path is empty$"):
        conv.write("")
    assert overtalk.Corpus.from_conversations([conv._native]).ids() == ["red-carpet"]


def test_samples_of_no_signal_type_or_no_length_are_refused():
    for dtype in (complex, bool, object):
        with pytest.raises(TypeError, match=f"^samples: expected floats or integers, got an array of dtype {np.dtype(dtype)}$"):
            overtalk.detect(np.zeros((100, 2), dtype=dtype), sample_rate=16000)
    for empty in (np.zeros(0), np.zeros((0, 2))):
        with pytest.raises(overtalk.OvertalkError, match=r"^samples: the array holds no audio samples \(0 rows\)$"):
            overtalk.detect(empty, sample_rate=16000)
    endless = np.lib.stride_tricks.as_strided(np.zeros(1, dtype=np.float32), shape=(10**12, 2), strides=(0, 0))
    with pytest.raises(overtalk.OvertalkError, match="^samples: limit exceeded: 1000000000000 samples at 16000 Hz last 62500000.000 s, longer than the 86400.000 s allowed$"):
        overtalk.detect(endless, sample_rate=16000)
    with pytest.raises(TypeError, match="^sample_rate: expected a whole number, got bool True$"):
        overtalk.detect(np.zeros(100), sample_rate=True)
    with pytest.raises(overtalk.OvertalkError, match=f"^sample_rate must be at most 4294967295, got {2**40}$"):
        overtalk.detect(np.zeros((100, 2)), sample_rate=2**40)


def test_samples_channels_first_are_refused_not_read_as_a_track_per_sample():
    # torchaudio and librosa give (channels, samples): read as it is, each sample a track.
    stereo = np.zeros((2, 32000), dtype=np.float32)
    message = (r"^samples: 2 rows and 32000 columns, more tracks than samples; one row per sample and one "
               r"column per track is expected \(channels first\? pass samples.T\)$")
    for tracks in (None, ["Host", "Guest"]):
        with pytest.raises(ValueError, match=message):
            overtalk.detect(stereo, sample_rate=16000, tracks=tracks)
    with pytest.raises(ValueError, match=r"^samples: 1 rows and 2 columns"):
        overtalk.detect(np.zeros((1, 2)), sample_rate=16000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", overtalk.OvertalkWarning)
        assert overtalk.detect(stereo.T, sample_rate=16000, tracks=["Host", "Guest"]).segments() == []


def test_a_path_given_as_bytes_is_named_not_read_as_content(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.rttm").write_text("SPEAKER a 1 0 1 <NA> <NA> A <NA> <NA>\n")
    with pytest.raises(TypeError, match=r"^source: bytes are a file's content; b'a.rttm' names a file: give its path "
                                        r"as a str \(os.fsdecode\(b'a.rttm'\)\) or a pathlib.Path$"):
        overtalk.read(b"a.rttm")
    assert overtalk.read(open("a.rttm", "rb").read()).ids() == ["a"]


def test_a_missing_recording_id_names_the_ids_there_are():
    corpus = overtalk.read(str(RTTM_DIR))
    ids = corpus.ids()
    with pytest.raises(KeyError) as e:
        corpus["nope"]
    listed = ", ".join(f'"{i}"' for i in ids[:10]) + (f", … and {len(ids) - 10} more" if len(ids) > 10 else "")
    assert e.value.args == (f'no recording "nope" in the corpus (its ids: {listed})',)
    two = overtalk.read("SPEAKER a 1 0 1 <NA> <NA> A <NA> <NA>\nSPEAKER b 1 0 1 <NA> <NA> B <NA> <NA>\n")
    with pytest.raises(KeyError) as e:
        two["a.rttm"]
    assert e.value.args == ('no recording "a.rttm" in the corpus (its ids: "a", "b")',)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", overtalk.OvertalkWarning)
        empty = overtalk.read("", format="rttm")
    with pytest.raises(KeyError) as e:
        empty["a"]
    assert e.value.args == ('no recording "a": the corpus is empty',)


def test_track_names_are_names():
    samples = np.zeros((1600, 2))
    with pytest.raises(TypeError, match="^tracks: expected a list \\(or any iterable\\), got str$"):
        overtalk.detect(samples, sample_rate=16000, tracks="AB")
    with pytest.raises(TypeError, match=r"^tracks: for samples, a list of names, one per column \(a dict \{speaker: file\} is for files\)$"):
        overtalk.detect(samples, sample_rate=16000, tracks={"A": 0, "B": 1})
    with pytest.raises(TypeError, match=r"^tracks\[0\]: a track's speaker name is a str, got NoneType None$"):
        overtalk.detect(samples, sample_rate=16000, tracks=[None, "B"])
    with pytest.raises(overtalk.OvertalkError, match=r"^tracks\[0\]: a track's speaker name is empty$"):
        overtalk.detect(samples, sample_rate=16000, tracks=["", "B"])
    with pytest.raises(TypeError, match=r"^tracks\['A'\]: expected a path \(str or os.PathLike\), got NoneType None$"):
        overtalk.detect(tracks={"A": None})
    with pytest.raises(TypeError, match=r"^tracks: files are given as a dict \{speaker: file\}, got list$"):
        overtalk.detect(tracks=["a.wav", "b.wav"])
    with pytest.raises(TypeError, match=r"^audio_tracks\[0\]: a track's speaker name is a str, got NoneType None$"):
        overtalk.detect("show.mkv", audio_tracks=[None])
    with pytest.raises(TypeError, match="^diarize: expected True or False, got str 'no'$"):
        overtalk.detect("call.wav", diarize="no")
    with pytest.raises(TypeError, match="^overlap_margin: expected a number, got str '0.1'$"):
        overtalk.detect("call.wav", overlap_margin="0.1")


def test_samples_that_are_not_numbers_are_read_as_silence_with_a_warning():
    rng = np.random.default_rng(1)
    clean = (rng.standard_normal((16000, 2)) * 0.01).astype(np.float32)
    dirty = clean.copy()
    dirty[:10, 0] = np.nan
    dirty[5, 1] = np.inf
    with pytest.warns(overtalk.OvertalkWarning) as said:
        conv = overtalk.detect(dirty, sample_rate=16000, tracks=["A", "B"])
    messages = [str(w.message) for w in said]
    assert messages[0] == "samples: 11 sample(s) NaN, infinite or beyond float32 (column 0: 10, column 1: 1) read as silence"
    repaired = clean.copy()
    repaired[:10, 0] = 0
    repaired[5, 1] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", overtalk.OvertalkWarning)
        assert conv.write(format="rttm") == overtalk.detect(repaired, sample_rate=16000, tracks=["A", "B"]).write(format="rttm")


def test_one_conversation_used_from_several_threads_at_once():
    import pickle
    import threading

    corpus = overtalk.read(RED_CARPET)
    conv = corpus["red-carpet"]
    expected = (overtalk.analyze(conv).to_json(), overtalk.gaps_and_overlaps(conv, latch_tolerance=40).rows())
    seen, failures = [], []

    def work() -> None:
        try:
            for _ in range(10):
                intervals = overtalk.gaps_and_overlaps(conv, latch_tolerance=40)
                seen.append((overtalk.analyze(conv).to_json(), intervals.rows()))
                assert pickle.loads(pickle.dumps(corpus))["red-carpet"] == conv
                overtalk.analyze_many([conv, conv], threads=2)
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert seen == [expected] * 40


def test_corpus_helpers_name_the_part_of_an_input_they_cannot_take():
    with pytest.raises(TypeError, match=r"^the bytes of \(name, bytes\): expected the bytes of a file, got NoneType$"):
        oc.analyze_item(("n.rttm", None))
    with pytest.raises(TypeError, match="^the input's 'bytes': expected the bytes of a file, got str$"):
        oc.analyze_item({"bytes": "SPEAKER r 1 0 1 <NA> <NA> A <NA> <NA>\n"})
    with pytest.raises(TypeError, match="^the input's 'path': expected a path \\(str or os.PathLike\\), got int 5$"):
        oc.analyze_item({"path": 5})
    with pytest.raises(TypeError, match="^row 0 of the batch: the path is a str, got int 5$"):
        oc.analyze_batch({"path": [5]})
    with pytest.raises(ValueError, match=r"^row 0 of the batch has no bytes \(None\)$"):
        oc.analyze_batch({"bytes": [None]})
    with pytest.raises(TypeError, match="^timing_only: expected True or False, got str 'no'$"):
        oc.analyze_batch([str(RED_CARPET)], timing_only="no")
    with pytest.raises(overtalk.OvertalkError, match="^parameter terminal_window: expected a finite number, got nan$"):
        oc.analyze_item(RED_CARPET, terminal_window=float("nan"))
    with pytest.raises(overtalk.OvertalkError, match='^unknown parameter "latch_tolerence"; did you mean latch_tolerance\\?$'):
        oc.analyze_batch([], latch_tolerence=5)
    assert oc.analyze_item(RED_CARPET, terminal_window=np.int64(250)) == oc.analyze_item(RED_CARPET, terminal_window=250)


def test_segments_are_taken_as_a_reader_takes_them_control_characters_and_no_speech():
    with pytest.warns(overtalk.OvertalkWarning) as said:
        conv = overtalk.Conversation.from_segments([(0, 1, "A\0"), (1, 2, "B")], "r", speakers=["C\x1b[2J"])
    assert conv.speakers == ["A\ufffd", "B", "C\ufffd[2J"]
    assert [str(w.message) for w in said] == [
        'r: speaker "A\\0" holds control characters (a line break, a tab, NUL, an escape); read as "A\ufffd" (repaired)',
        'r: speaker "C\\u{1b}[2J" holds control characters (a line break, a tab, NUL, an escape); read as "C\ufffd[2J" (repaired)',
    ]
    with pytest.raises(overtalk.OvertalkError, match='^r: speaker "A\\\\0" holds control characters \\(a line break, a tab, NUL, an escape\\); strict=True refuses what is otherwise read as "A\ufffd"$'):
        overtalk.Conversation.from_segments([(0, 1, "A\0")], "r", strict=True)
    with pytest.warns(overtalk.OvertalkWarning) as said:
        empty = overtalk.Conversation.from_segments([], "r")
    assert [str(w.message) for w in said] == [
        "r: no segments: the input holds no speech (no segment, turn or word): an empty file or an empty result, so what is made from it has no speakers (note)"
    ]
    assert len(empty) == 0


def test_turn_order_of_no_speech_says_so():
    with pytest.warns(overtalk.OvertalkWarning):
        empty = overtalk.Conversation.from_segments([], "r")
    with pytest.raises(overtalk.OvertalkError, match='^recording "r" holds no speech: no turns to put in order$'):
        overtalk.turn_order(empty)


def test_scoring_a_transcript_without_times_is_refused_as_the_command_line_refuses_it():
    town_hall = EXAMPLES / "rush-transcript" / "town-hall.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", overtalk.OvertalkWarning)
        untimed = overtalk.read(town_hall)
    timed = overtalk.read(RED_CARPET)
    message = (
        '^{side}: recording "town-hall" is an untimed transcript \\(8 utterances in order, no times\\); score needs '
        "times: use a file with times \\(captions, a transcript with start times, CHAT with media bullets, or one "
        "aligned with a forced aligner\\); overtalk.turn_order\\(conversation\\) gives what the order of its turns says$"
    )
    for call in (overtalk.score, overtalk.score_events):
        with pytest.raises(overtalk.OvertalkError, match=message.format(side="reference")):
            call(untimed, timed)
        with pytest.raises(overtalk.OvertalkError, match=message.format(side="hypothesis")):
            call(timed, untimed)


def test_text_that_utf8_cannot_encode_and_a_missing_model_are_named(tmp_path):
    with pytest.raises(overtalk.OvertalkError, match=r"^source: the text holds '\\udcff' at character 0, which UTF-8 cannot encode"):
        overtalk.read("\udcff 0 1 A")
    with pytest.raises(overtalk.OvertalkError, match=r"^segments\[1\]: the speaker '\\udcff' holds a lone surrogate, which UTF-8 cannot encode$"):
        overtalk.Conversation.from_segments([(0, 1, "A"), (1, 2, "\udcff")])
    model = tmp_path / "nothere.safetensors"
    with pytest.raises(FileNotFoundError, match=f"^{model}: no such file or directory \\(embedding_model\\)$"):
        overtalk.detect("call.wav", embedding_model=model)
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    with pytest.raises(overtalk.OvertalkError, match="^collar 1000000000000.0 s is out of range: at most 100000 hours$"):
        overtalk.score(conv, conv, collar=1e12)


def test_numpy_bools_are_flags():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    assert overtalk.read(RED_CARPET, strict=np.False_).ids() == ["red-carpet"]
    with pytest.raises(overtalk.OvertalkError):
        overtalk.Conversation.from_segments([(-1, 1, "A")], strict=np.True_)
    assert overtalk.analyze(conv, timing_only=np.True_).to_json() == overtalk.analyze(conv, timing_only=True).to_json()
    assert overtalk.score(conv, conv, skip_overlap=np.True_).der == overtalk.score(conv, conv, skip_overlap=True).der
    assert overtalk.score(conv, conv, der_only=np.True_).to_json() == overtalk.score(conv, conv, der_only=True).to_json()
    # A bool analysis parameter.
    for flag in (np.True_, np.False_):
        assert (overtalk.analyze(conv, laughter_is_floor=flag).to_json()
                == overtalk.analyze(conv, laughter_is_floor=bool(flag)).to_json())
    assert oc.analyze_item(RED_CARPET, timing_only=np.True_) == oc.analyze_item(RED_CARPET, timing_only=True)


def test_integer_samples_are_scaled_as_the_decoder_scales_pcm():
    u8 = overtalk._pcm_float(np.array([0, 64, 128, 255], dtype=np.uint8))
    assert u8.dtype == np.float32 and u8.tolist() == [-1.0, -0.5, 0.0, 127 / 128]
    s16 = overtalk._pcm_float(np.array([-32768, 0, 16384, 32767], dtype=np.int16))
    assert s16.tolist() == [-1.0, 0.0, 0.5, np.float32(32767 / 32768)]
    s32 = overtalk._pcm_float(np.array([-(2**31), 0, 2**30], dtype=np.int32))
    assert s32.tolist() == [-1.0, 0.0, 0.5]
    u16 = overtalk._pcm_float(np.array([0, 32768], dtype=np.uint16))
    assert u16.tolist() == [-1.0, 0.0]


def test_scoring_errors_name_the_side():
    conv = overtalk.read(RED_CARPET)["red-carpet"]
    with pytest.raises(overtalk.OvertalkError, match="^reference: the list names no file$"):
        overtalk.score([], conv)
    with pytest.raises(overtalk.OvertalkError, match="^hypothesis: the list names no file$"):
        overtalk.score_events(conv, [])
    with pytest.raises(TypeError, match=r"^hypothesis\[0\]: expected a path \(str or os.PathLike\), got int 5$"):
        overtalk.score(conv, [5])


def test_corpus_helpers_take_path_names_and_refuse_missing_ones():
    data = RED_CARPET.read_bytes()
    from pathlib import Path

    rows = oc.analyze_item((Path("red-carpet.rttm"), data))
    assert rows == oc.analyze_item(("red-carpet.rttm", data))
    assert [r["source"] for r in rows] == ["red-carpet.rttm"]
    assert oc.analyze_item({"bytes": data, "name": Path("red-carpet.rttm")}) == rows
    with pytest.raises(TypeError, match=r"^the name of \(name, bytes\): expected a str or os.PathLike, got NoneType None$"):
        oc.analyze_item((None, data))
    with pytest.raises(TypeError, match=r"^the name of \(name, bytes\): expected a str, got bytes b'r.rttm'$"):
        oc.analyze_item((b"r.rttm", data))
    with pytest.raises(ValueError, match=r"^row 0 of the batch: the name is missing \(nan\); give a name or None$"):
        oc.analyze_batch({"bytes": [data], "name": [float("nan")]})
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match=r"^row 0 of the batch has no path \(<NA>\)$"):
        oc.analyze_batch({"path": [pd.NA]})
    with pytest.raises(ValueError, match=r"^row 0 of the batch: the name is missing \(<NA>\); give a name or None$"):
        oc.analyze_batch({"bytes": [data], "name": [pd.NA]})


def test_lone_surrogates_in_names_are_named():
    with pytest.raises(overtalk.OvertalkError, match=r"^recording_id: '\\udcff' holds a lone surrogate, which UTF-8 cannot encode$"):
        overtalk.Conversation.from_segments([(0, 1, "A")], recording_id="\udcff")
    with pytest.raises(overtalk.OvertalkError, match=r"^speakers\[1\]: the speaker '\\udcff' holds a lone surrogate, which UTF-8 cannot encode$"):
        overtalk.Conversation.from_segments([(0, 1, "A")], speakers=["A", "\udcff"])


def test_seconds_as_decimal_and_fraction():
    import decimal
    import fractions

    conv = overtalk.read(RED_CARPET)["red-carpet"]
    at = overtalk.score(conv, conv, collar=0.25).to_json()
    assert overtalk.score(conv, conv, collar=decimal.Decimal("0.25")).to_json() == at
    assert overtalk.score(conv, conv, collar=fractions.Fraction(1, 4)).to_json() == at
    for bad in (decimal.Decimal("NaN"), decimal.Decimal("sNaN"), decimal.Decimal("Infinity")):
        with pytest.raises(overtalk.OvertalkError, match=f"^collar: expected a finite number of seconds, got {re.escape(repr(bad))}$"):
            overtalk.score(conv, conv, collar=bad)


def test_bounds_are_the_extensions():
    assert overtalk._MAX_THREADS == overtalk._native.MAX_THREADS == 1024
    assert overtalk._MAX_SECONDS == overtalk._native.MAX_DURATION == 86400.0


def test_max_duration_bounds_recordings_as_the_command_line_does():
    wav = REPO / "crates" / "overtalk-audio" / "tests" / "data" / "speech.wav"
    said = f"^{re.escape(str(wav))}: limit exceeded: the recording lasts 5.168813 s, longer than the 1.000 s allowed$"
    for kw in (dict(), dict(diarize=False)):
        with pytest.raises(overtalk.OvertalkError, match=said):
            overtalk.detect(wav, max_duration=1, **kw)
    with pytest.raises(overtalk.OvertalkError, match=said):
        overtalk.detect(tracks={"A": wav, "B": wav}, max_duration=1)
    for kw in (dict(), dict(tracks=["A"])):
        with pytest.raises(overtalk.OvertalkError, match="^samples: limit exceeded: 32000 samples at 16000 Hz last 2.000 s, longer than the 1.500 s allowed$"):
            overtalk.detect(np.zeros(32000), sample_rate=16000, max_duration=1.5, **kw)
    with pytest.raises(overtalk.OvertalkError, match="^max_duration -1: expected a non-negative number of seconds$"):
        overtalk.detect(wav, max_duration=-1)
    with pytest.raises(TypeError, match="^max_duration: expected a number of seconds, got str '5'$"):
        overtalk.detect(wav, max_duration="5")
    within = overtalk.detect(wav, diarize=False, max_duration=6)
    assert within.write(format="rttm") == overtalk.detect(wav, diarize=False).write(format="rttm")
