"""The Python API on inputs this repository holds: reading, writing, analysis, scoring,
detection, pickling and errors."""

import errno
import math
import pickle
import re
import warnings

import pytest

import overtalk
from conftest import EXAMPLES, REPO

RTTM = (
    "SPEAKER clip 1 0.00 4.00 <NA> <NA> Wife <NA> <NA>\n"
    "SPEAKER clip 1 3.50 1.00 <NA> <NA> Husband <NA> <NA>\n"
)
RED_CARPET = EXAMPLES / "red-carpet" / "red-carpet.rttm"


def test_read_text_segments_and_speakers():
    corpus = overtalk.read(RTTM)
    assert corpus.ids() == ["clip"]
    conv = corpus["clip"]
    assert conv.speakers == ["Husband", "Wife"]
    assert conv.segments() == [
        overtalk.Segment(0.0, 4.0, "Wife", None),
        overtalk.Segment(3.5, 4.5, "Husband", None),
    ]
    with pytest.raises(KeyError):
        corpus["nope"]


def test_analysis_fields_are_the_json_fields():
    a = overtalk.analyze(overtalk.read(RTTM)["clip"])
    assert a.conversation["overlap"] == 500
    assert a.conversation["span"] == 4500
    assert set(a.speakers) == {"Wife", "Husband"}
    assert (a.onsets[0]["speaker"], a.onsets[0]["time"], a.onsets[0]["class"]) == ("Wife", 0, "opening")
    assert a.to_jsonl().endswith("\n") and "\n" not in a.to_jsonl()[:-1]


def test_write_round_trip_every_writable_text_format(tmp_path):
    corpus = overtalk.read(RED_CARPET)
    conv = corpus[corpus.ids()[0]]
    for fmt in ["rttm", "json", "eaf", "textgrid", "webvtt", "srt", "lab", "stm", "csv", "tsv"]:
        text = conv.write(format=fmt)
        back = overtalk.read(text.encode(), format=fmt, recording_id=conv.recording_id)
        got = back[back.ids()[0]]
        assert [(s.start, s.end, s.speaker) for s in got.segments()] == [
            (s.start, s.end, s.speaker) for s in conv.segments()
        ], fmt
    out = tmp_path / "out.rttm"
    overtalk.write(corpus, out)
    assert out.read_text() == corpus.write(format="rttm")


def test_params_override_the_preset_and_unknown_names_fail():
    conv = overtalk.read(RED_CARPET)
    conv = conv[conv.ids()[0]]
    a = overtalk.analyze(conv, terminal_window=250, classifier="rules")
    params = a.to_dict()["params"]
    assert params["terminal_window"] == 250 and params["classifier"] == "rules"
    assert overtalk.analyze(conv, preset="he2010").to_dict()["params"] != overtalk.analyze(conv).to_dict()["params"]
    with pytest.raises(overtalk.OvertalkError, match="unknown parameter"):
        overtalk.analyze(conv, no_such_parameter=1)
    with pytest.raises(overtalk.OvertalkError, match="unknown preset"):
        overtalk.analyze(conv, preset="nope")


def test_errors_name_the_line():
    bad = "SPEAKER clip 1 x 4.00 <NA> <NA> Wife <NA> <NA>\n"
    with pytest.raises(overtalk.OvertalkError, match="line 1"):
        overtalk.read(bad, format="rttm", strict=True)
    with pytest.raises(overtalk.OvertalkError, match="^/no/such/dir/file.rttm: no such file or directory$"):
        overtalk.read("/no/such/dir/file.rttm")
    with pytest.raises(overtalk.OvertalkError, match="^missing.rttm: no such file or directory$"):
        overtalk.read("missing.rttm")


def test_every_public_object_pickles():
    corpus = overtalk.read(RED_CARPET)
    conv = corpus[corpus.ids()[0]]
    a = overtalk.analyze(conv)
    s = overtalk.score(conv, conv)
    iv = overtalk.gaps_and_overlaps(conv)
    e = overtalk.score_events(conv, conv)
    for obj in [corpus, conv, a, s, iv, e]:
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj)
    assert pickle.loads(pickle.dumps(a)).to_json() == a.to_json()
    assert pickle.loads(pickle.dumps(conv)) == conv
    assert pickle.loads(pickle.dumps(corpus)).write(format="json") == corpus.write(format="json")
    assert pickle.loads(pickle.dumps(s)).to_json() == s.to_json()


def test_score_of_a_diarization_against_itself_is_zero_and_against_a_shift_is_exact():
    ref = overtalk.read(RTTM)
    s = overtalk.score(ref, ref)
    assert s.der == 0.0
    hyp = overtalk.read(RTTM.replace("0.00 4.00", "0.00 3.00"))
    s = overtalk.score(ref, hyp)
    # 1 s of Wife missed out of 5 s of reference speech.
    assert math.isclose(s.der, 0.2, abs_tol=1e-12)
    assert s.mapping["clip"]["Wife"] == "Wife"


def test_scoring_with_no_recordings_is_an_error_not_an_empty_score():
    empty = overtalk.Corpus.from_conversations([])
    message = "no recordings in the reference or the hypothesis"
    with pytest.raises(overtalk.OvertalkError, match=message):
        overtalk.score(empty, empty)
    with pytest.raises(overtalk.OvertalkError, match=message):
        overtalk.score_events(empty, empty)
    with pytest.raises(overtalk.OvertalkError, match=message):
        overtalk.score(empty, empty, events=True)
    # A recording on one side only is scored: all of its speech missed.
    s = overtalk.score(overtalk.read(RTTM), empty)
    assert s.der == 1.0 and [f["recording"] for f in s.files] == ["clip"]


def test_arrow_and_pandas_tables_of_the_events():
    pa = pytest.importorskip("pyarrow")
    conv = overtalk.read(RED_CARPET)
    a = overtalk.analyze(conv[conv.ids()[0]])
    t = a.to_arrow("onsets")
    assert isinstance(t, pa.Table) and t.num_rows == len(a.onsets)
    assert hasattr(t, "__arrow_c_stream__")
    assert a.to_pandas("turns")["speaker"].tolist() == [x["speaker"] for x in a.turns]
    assert sorted(a.to_arrow("speakers").column("speaker").to_pylist()) == sorted(a.speakers)


def test_detect_samples_finds_the_talking_track():
    np = pytest.importorskip("numpy")
    rate = 16000
    t = np.arange(rate * 6) / rate
    rng = np.random.default_rng(7)
    # Speech-like bursts: noise modulated at 4 Hz, on track A from 1 to 3 s, on B from 3.5 to 5.5 s.
    burst = rng.normal(0, 0.3, t.size) * (0.5 + 0.5 * np.sin(2 * np.pi * 4 * t))
    a = np.where((t >= 1) & (t < 3), burst, 0.0)
    b = np.where((t >= 3.5) & (t < 5.5), burst, 0.0)
    floor = rng.normal(0, 1e-4, (t.size, 2))
    samples = np.stack([a, b], axis=1) + floor
    conv = overtalk.detect(samples.astype(np.float32), sample_rate=rate, tracks=["A", "B"], vad="energy")
    assert conv.speakers == ["A", "B"]
    assert "2 tracks" in conv.detection
    by = {s: [x for x in conv.segments() if x.speaker == s] for s in "AB"}
    assert by["A"] and by["B"]
    assert all(0.5 <= x.start and x.end <= 3.5 for x in by["A"])
    assert all(3.0 <= x.start and x.end <= 6.0 for x in by["B"])
    with pytest.raises(ValueError):
        overtalk.detect(samples, tracks=["A", "B"])


def test_gaps_and_overlaps_name_the_speakers():
    got = overtalk.gaps_and_overlaps(overtalk.read(RTTM)["clip"], latch_tolerance=0)
    between = [i for i in got if i.kind == "overlap_between"]
    assert [(i.start_ms, i.end_ms) for i in between] == [(3500, 4000)]
    assert (between[0].before, between[0].after) == ("Wife", "Husband")


def test_gaps_and_overlaps_name_the_speakers_the_analysis_keeps():
    # The intervals number the speakers that keep a segment (S1), in code-point order; a
    # declared speaker with no segment or an ignored label must not shift the names.
    rows = [(0, 1, "Zed"), (1.5, 2, "Amy"), (2.5, 3, "Zed")]
    want = [("gap", 1000, 1500, "Zed", "Amy"), ("gap", 2000, 2500, "Amy", "Zed")]

    def named(conv, **params):
        return [(i.kind, i.start_ms, i.end_ms, i.before, i.after) for i in overtalk.gaps_and_overlaps(conv, latch_tolerance=0, **params)]

    declared = overtalk.Conversation.from_segments(rows, "r", speakers=["Bob", "Zed", "Amy"])
    assert named(declared) == want
    assert overtalk.gaps_and_overlaps(declared).speakers == ["Amy", "Zed"]
    noisy = overtalk.Conversation.from_segments([(0, 0.2, "Aaron")] + rows, "r")
    assert named(noisy, ignore_labels=["Aaron"]) == want
    # Three speakers left (the general stages): names follow the kept speakers too.
    three = overtalk.Conversation.from_segments([(0, 1, "X"), (0, 1, "noise"), (1.5, 2, "Amy"), (2.5, 3, "Zed"), (3.5, 4, "Amy")], "r")
    assert named(three, ignore_labels=["X"]) == [
        ("gap", 1000, 1500, "noise", "Amy"),
        ("gap", 2000, 2500, "Amy", "Zed"),
        ("gap", 3000, 3500, "Zed", "Amy"),
    ]
    got = overtalk.gaps_and_overlaps(three, latch_tolerance=0, ignore_labels=["X"])
    assert pickle.loads(pickle.dumps(got)) == got
    assert [tuple(r) for r in got.to_pandas()[["before", "after"]].itertuples(index=False)] == [
        ("noise", "Amy"), ("Amy", "Zed"), ("Zed", "Amy")]


def test_hostile_calls_are_refused_or_read_as_the_command_line_reads_them(tmp_path):
    np = pytest.importorskip("numpy")
    rttm = EXAMPLES / "red-carpet" / "red-carpet.rttm"
    # A path is one source, never a sequence of characters (the first, "/", a directory).
    (one,) = overtalk.gaps_and_overlaps_many(str(rttm))
    assert one.counts() == overtalk.gaps_and_overlaps_counts(overtalk.read(rttm)["red-carpet"])
    assert [i.counts() for i in overtalk.gaps_and_overlaps_many([str(rttm)])] == [one.counts()]
    # A UEM path with a typo is an error, not a score without the UEM.
    typo = tmp_path / "typo.uem"
    with pytest.raises(overtalk.OvertalkFileNotFoundError, match=f"^{re.escape(str(typo))}: no such UEM file or directory$") as e:
        overtalk.score(rttm, rttm, uem=str(typo))
    assert (e.value.errno, e.value.filename) == (errno.ENOENT, str(typo))
    # Two tracks under one name would be one speaker.
    with pytest.raises(overtalk.OvertalkError, match="given twice"):
        overtalk.detect(np.zeros((16_000, 2), dtype=np.float32), sample_rate=16_000, tracks=["a", "a"])
    with pytest.raises(overtalk.OvertalkError, match="samples a second"):
        overtalk.detect(np.zeros((160, 2), dtype=np.float32), sample_rate=1, tracks=["a", "b"])
    # An untimed transcript has no gaps or overlaps to count: refused, as analyze refuses it.
    chat = REPO / "crates" / "overtalk" / "tests" / "data" / "chat" / "eng_overlap_ca.cha"
    with pytest.raises(overtalk.OvertalkError, match="untimed transcript"):
        overtalk.gaps_and_overlaps_counts(chat)
    with pytest.raises(overtalk.OvertalkError, match="untimed transcript"):
        overtalk.gaps_and_overlaps_many(chat)


def test_out_of_range_parameters_are_refused_by_every_function():
    rttm = EXAMPLES / "red-carpet" / "red-carpet.rttm"
    for f in (overtalk.analyze, overtalk.gaps_and_overlaps, overtalk.gaps_and_overlaps_counts):
        with pytest.raises(overtalk.OvertalkError, match="latch_tolerance = -5 ms is out of range"):
            f(rttm, latch_tolerance=-5)


def test_writing_to_a_name_without_a_format_asks_for_one(tmp_path):
    conv = overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"]
    with pytest.raises(overtalk.OvertalkError, match="cannot tell the output format"):
        conv.write(tmp_path / "out.xml")
    assert not (tmp_path / "out.xml").exists()
    assert conv.write(tmp_path / "out.xml", format="rttm").startswith("SPEAKER")
    assert conv.write().startswith("{")
    # `.json` is overtalk's JSON, `.seglst.json` SegLST, as `overtalk convert -o` takes them.
    assert conv.write(tmp_path / "out.json").startswith("{")
    assert '"session_id"' in conv.write(tmp_path / "out.seglst.json")


def test_one_line_text_with_a_slash_is_read_as_text(tmp_path):
    # JSON on one line whose text holds a "/" is text, not a path with a typo.
    doc = '{"segments": [{"start": 0.0, "end": 1.5, "speaker": "A", "text": "50/50 and/or"}]}'
    conv = overtalk.read(doc)["recording"]
    assert [s.speaker for s in conv.segments()] == ["A"]
    assert overtalk.read("SPEAKER r 1 0 1 <NA> <NA> A/B <NA> <NA>")["r"].segments()[0].speaker == "A/B"
    with pytest.raises(overtalk.OvertalkError, match="no such file"):
        overtalk.read(str(tmp_path / "missing.rttm"))


def test_the_analysis_warnings_are_python_warnings_as_the_command_line_prints_them():
    conv = overtalk.Conversation.from_segments([(0, 2, "A"), (2.5, 4.5, "B")], "r")
    said = "r: none of the input's 2 segment(s) is left once the parameters drop segments (ignored labels, min_segment): nothing was analysed"
    with pytest.warns(overtalk.OvertalkWarning) as heard:
        got = overtalk.analyze(conv, ignore_labels=["A", "B"])
    assert [str(w.message) for w in heard] == [said]
    assert heard[0].filename == __file__
    assert got.speakers == {} and got.warnings == [said.removeprefix("r: ")]
    with pytest.warns(overtalk.OvertalkWarning) as heard:
        overtalk.analyze_many([conv, overtalk.read(RED_CARPET)], ignore_labels=["A", "B"])
    assert [str(w.message) for w in heard] == [said]
    # Nothing to say: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        overtalk.analyze(overtalk.read(RED_CARPET))
        overtalk.analyze_many([conv], ignore_labels=["X"])


def test_the_stub_exports_what_the_extension_module_exports():
    import ast

    from overtalk import _native

    stub = ast.parse((REPO / "crates" / "overtalk-py" / "python" / "overtalk" / "_native.pyi").read_text())
    listed = next(ast.literal_eval(node.value) for node in stub.body
                  if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"])
    assert listed == _native.__all__
