"""Warnings: what the command line prints as `overtalk: warning: …`, the package gives as
`OvertalkWarning`s, attributed to the caller's line."""

import pathlib
import warnings

import pytest

import overtalk

REPO = pathlib.Path(__file__).resolve().parents[3]
EDGE = REPO / "crates" / "overtalk" / "tests" / "data" / "scoring-fixtures" / "edge-cases"


def caught(f, *args, **kwargs):
    """`f(*args, **kwargs)` and the messages of the OvertalkWarnings it gave, in order."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        result = f(*args, **kwargs)
    assert all(issubclass(x.category, overtalk.OvertalkWarning) for x in w), [(x.category, str(x.message)) for x in w]
    assert all(x.filename == __file__ for x in w), [x.filename for x in w]
    return result, [str(x.message) for x in w]


def test_the_warning_category_is_a_user_warning():
    assert issubclass(overtalk.OvertalkWarning, UserWarning)
    assert overtalk.OvertalkWarning is overtalk._native.OvertalkWarning
    # A warnings filter turns them into errors, as for any warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", overtalk.OvertalkWarning)
        with pytest.raises(overtalk.OvertalkWarning, match="overlaps themselves"):
            overtalk.read("SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 1 2 <NA> <NA> A <NA> <NA>\n")


def test_read_warns_what_it_repaired_and_keeps_it(cli_warnings):
    path = EDGE / "E03_self_overlap_ref" / "ref.rttm"
    corpus, said = caught(overtalk.read, str(path))
    assert said == corpus.warnings == cli_warnings("convert", path, "--to", "rttm", "-o", "-")
    assert len(said) == 1 and 'speaker "A" overlaps themselves' in said[0]


@pytest.mark.parametrize(
    "case, preset",
    [
        ("E13_file_missing_in_hyp", "overtalk"),
        ("E13_file_missing_in_hyp", "md-eval"),
        ("E14_zero_duration_turn", "spyder"),
        ("E03_self_overlap_ref", "dscore"),
        ("E12_hyp_self_overlap", "pyannote"),
    ],
)
def test_score_warns_as_the_cli_does(case, preset, cli_warnings):
    ref, hyp = str(EDGE / case / "ref.rttm"), str(EDGE / case / "hyp.rttm")
    _, said = caught(overtalk.score, ref, hyp, preset=preset)
    assert said == cli_warnings("score", "-r", ref, "-s", hyp, "--preset", preset)
    assert said, "each case warns"
    _, said_events = caught(overtalk.score_events, ref, hyp, preset=preset)
    assert said_events == cli_warnings("score", "-r", ref, "-s", hyp, "--preset", preset, "--events")


def test_score_warns_about_the_uem_as_the_cli_does(tmp_path, cli_warnings):
    ref, hyp = str(EDGE / "E13_file_missing_in_hyp" / "ref.rttm"), str(EDGE / "E13_file_missing_in_hyp" / "hyp.rttm")
    uem = tmp_path / "all.uem"
    uem.write_text("f1 1 0.000 15.000\nf1 1 9.000 3.000\nnobody 1 0.000 1.000\n")
    _, said = caught(overtalk.score, ref, hyp, uem=str(uem))
    assert said == cli_warnings("score", "-r", ref, "-s", hyp, "--uem", uem)
    assert any("before it starts" in w for w in said) and 'recording "f2" is not in the UEM' in said
    # The same UEM as text: the warnings name it `uem`.
    _, from_text = caught(overtalk.score, ref, hyp, uem=uem.read_text())
    assert [w.replace(str(uem), "uem") for w in said] == from_text


def test_score_of_a_pipeline_annotation_says_nothing_paired():
    pyannote_core = pytest.importorskip("pyannote.core")
    ref = overtalk.read("SPEAKER meeting 1 0 5 <NA> <NA> A <NA> <NA>\nSPEAKER meeting 1 5 5 <NA> <NA> B <NA> <NA>\n")
    hyp = pyannote_core.Annotation()  # uri None: the recording "recording"
    hyp[pyannote_core.Segment(0, 5)] = "x"
    hyp[pyannote_core.Segment(5, 10)] = "y"
    s, said = caught(overtalk.score, ref, hyp)
    assert s.der == 2.0
    assert said == [
        'recording "meeting" is only in the reference: all of its speech is missed',
        'recording "recording" is only in the hypothesis: all of its speech is false alarm (md-eval and dscore ignore it)',
    ]
    _, said = caught(overtalk.score, ref, hyp, preset="md-eval")
    assert said[-1] == "1 recording(s) not scored under preset md-eval: recording"


def test_a_uem_dict_warns_of_what_it_drops_and_refuses_what_is_no_region():
    ref = overtalk.read("SPEAKER r 1 0 5 <NA> <NA> A <NA> <NA>\n")
    _, said = caught(overtalk.score, ref, ref, uem={"r": [(0, 5), (9, 3)], "elsewhere": (0, 1)})
    assert said == ["uem['r']: region (9.000, 3.000) ends where or before it starts; dropped"]
    _, said = caught(overtalk.score, ref, ref, uem={"R": (0, 5)})
    assert said == ['recording "r" is not in the UEM']
    with pytest.raises(ValueError, match=r"uem\['r'\]: no regions"):
        overtalk.score(ref, ref, uem={"r": []})
    with pytest.raises(TypeError, match=r"uem\['r'\]: a region is \(start_s, end_s\), got 'ab'"):
        overtalk.score(ref, ref, uem={"r": ["ab"]})
    with pytest.raises(ValueError, match="finite"):
        overtalk.score(ref, ref, uem={"r": (0, float("nan"))})
    with pytest.raises(TypeError, match="uem: expected a UEM file"):
        overtalk.score(ref, ref, uem=3)


def test_constructors_warn_of_self_overlap_as_read_does():
    rttm = "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 1 2 <NA> <NA> A <NA> <NA>\n"
    corpus, from_read = caught(overtalk.read, rttm)
    expected = [w.removeprefix("<text>: ") for w in from_read]
    conv, said = caught(overtalk.Conversation.from_segments, [(0, 2, "A"), (1, 3, "A")], "r")
    assert said == expected
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"start": [0.0, 1.0], "end": [2.0, 3.0], "speaker": ["A", "A"]})
    _, said = caught(overtalk.Conversation.from_pandas, df, "r")
    assert said == expected
    pyannote_core = pytest.importorskip("pyannote.core")
    a = pyannote_core.Annotation(uri="r")
    a[pyannote_core.Segment(0, 2), "t1"] = "A"
    a[pyannote_core.Segment(1, 3), "t2"] = "A"
    _, said = caught(overtalk.Conversation.from_pyannote, a)
    assert said == expected
    # No overlap, no warning.
    _, said = caught(overtalk.Conversation.from_segments, [(0, 1, "A"), (1, 3, "A")], "r")
    assert said == []


NEGATIVE_RTTM = "SPEAKER r 1 -1.000 2.000 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 0.500 1.500 <NA> <NA> B <NA> <NA>\n"


def test_constructors_clip_a_negative_start_as_read_does():
    from_read, read_said = caught(overtalk.read, NEGATIVE_RTTM)
    assert read_said == ["<text>: line 1, column 20: negative start -1.000 clipped to 0 (repaired)"]
    expected = from_read["r"].write(format="rttm")
    span = overtalk.analyze(from_read["r"]).conversation["span"]
    assert span == 2000
    clipped = 'r: segment 0 ("A", -1.000–1.000 s): negative start -1.000 clipped to 0 (repaired)'
    rows = [(-1.0, 1.0, "A"), (0.5, 2.0, "B")]
    conv, said = caught(overtalk.Conversation.from_segments, rows, "r")
    assert said == [clipped]
    assert conv.write(format="rttm") == expected
    assert overtalk.analyze(conv).conversation["span"] == span
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"start": [-1.0, 0.5], "end": [1.0, 2.0], "speaker": ["A", "B"]})
    conv, said = caught(overtalk.Conversation.from_pandas, df, "r")
    # A DataFrame's rows are named as rows.
    assert said == [clipped.replace("segment 0", "row 0")] and conv.write(format="rttm") == expected
    pyannote_core = pytest.importorskip("pyannote.core")
    a = pyannote_core.Annotation(uri="r")
    a[pyannote_core.Segment(-1.0, 1.0), "first"] = "A"
    a[pyannote_core.Segment(0.5, 2.0), "second"] = "B"
    conv, said = caught(overtalk.Conversation.from_pyannote, a)
    assert said == [clipped] and conv.write(format="rttm") == expected
    # The track names survive the clipping.
    assert sorted(t for _, t in conv.to_pyannote().itertracks()) == ["first", "second"]
    # Many negative starts: one warning that counts them.
    _, said = caught(overtalk.Conversation.from_segments, [(-2, 1, "A"), (-1, 2, "B"), (-0.5, 3, "C")], "r")
    assert said == ['r: segment 0 ("A", -2.000–1.000 s): negative start -2.000 clipped to 0; '
                    "and 2 more segment(s) starting before 0, clipped likewise (repaired)"]


def test_strict_constructors_refuse_a_negative_start_as_strict_read_does():
    with pytest.raises(overtalk.OvertalkError, match="negative start -1.000"):
        overtalk.read(NEGATIVE_RTTM, strict=True)
    with pytest.raises(overtalk.OvertalkError, match=r'segment 0 \("A", -1.000–1.000 s\): negative start -1.000; strict=True refuses'):
        overtalk.Conversation.from_segments([(-1.0, 1.0, "A")], "r", strict=True)
    pd = pytest.importorskip("pandas")
    with pytest.raises(overtalk.OvertalkError, match="strict=True refuses"):
        overtalk.Conversation.from_pandas(pd.DataFrame({"start": [-1.0], "end": [1.0], "speaker": ["A"]}), strict=True)
    # A segment that ends before 0 is empty once clipped: an error, as an empty segment is.
    with pytest.raises(overtalk.OvertalkError, match="empty or reversed once its negative start is clipped to 0"):
        overtalk.Conversation.from_segments([(-2.0, -1.0, "A")], "r")


SPEECH_WAV = REPO / "crates" / "overtalk-audio" / "tests" / "data" / "speech.wav"


def _damaged_wavs(tmp_path):
    """The speech recording twice over: with a WAV header that gives no length (as written to
    a pipe), and as 32-bit float samples with a few NaN and infinite ones."""
    import struct
    import wave

    with wave.open(str(SPEECH_WAV)) as w:
        rate, channels = w.getframerate(), w.getnchannels()
        pcm = w.readframes(w.getnframes())
    raw = SPEECH_WAV.read_bytes()
    at = raw.index(b"data")
    placeholder = tmp_path / "piped.wav"
    placeholder.write_bytes(raw[: at + 4] + struct.pack("<I", 0xFFFFFFFF) + raw[at + 8 :])
    import numpy as np

    samples = np.frombuffer(pcm, dtype="<i2").astype("<f4") / 32768.0
    samples[[10, 20, 30]] = [np.nan, np.inf, -np.inf]
    data = samples.tobytes()
    fmt = struct.pack("<HHIIHH", 3, channels, rate, rate * 4 * channels, 4 * channels, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    floats = tmp_path / "floats.wav"
    floats.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return placeholder, floats


@pytest.fixture
def no_models(tmp_path, monkeypatch):
    d = tmp_path / "models"
    d.mkdir()
    monkeypatch.setenv("OVERTALK_MODEL_DIR", str(d))
    return d


def test_detect_warns_what_decoding_repaired_as_the_cli_does(tmp_path, no_models, cli_warnings):
    for wav in _damaged_wavs(tmp_path):
        # One mixed recording, diarized (no speaker model here: that is warned about too).
        conv, said = caught(overtalk.detect, wav)
        assert said == cli_warnings("detect", wav, "-o", tmp_path / "out.rttm")
        assert any(str(wav) in w for w in said), said
        assert any("no speaker model" in w for w in said), said
        # Voice activity only, and the file as one of two tracks.
        _, said = caught(overtalk.detect, wav, diarize=False)
        assert said == cli_warnings("detect", wav, "--no-diarize", "-o", tmp_path / "out.rttm")
        assert len(said) == 1 and str(wav) in said[0]
        _, said = caught(overtalk.detect, tracks={"A": str(wav), "B": str(SPEECH_WAV)})
        assert said == cli_warnings("detect", "--track", f"A={wav}", "--track", f"B={SPEECH_WAV}", "-o", tmp_path / "out.rttm")
        assert any(str(wav) in w for w in said), said
    # An undamaged recording: the speaker model's absence only.
    _, said = caught(overtalk.detect, SPEECH_WAV)
    assert len(said) == 1 and "no speaker model" in said[0]


def test_detect_warns_when_no_speech_is_found():
    import numpy as np

    conv, said = caught(overtalk.detect, np.zeros((16000, 2), dtype=np.float32), sample_rate=16000, tracks=["A", "B"])
    assert conv.speakers == ["A", "B"] and len(conv) == 0
    assert said == ["samples: no speech found in 1.00 s of audio: the recording is silent or below the "
                    "detector's threshold, so the result has no speakers"]


def test_write_warns_of_names_the_format_cannot_hold_as_the_cli_does(tmp_path, cli_warnings):
    conv = overtalk.Conversation.from_segments([(0, 1, "Zo\u00eb \U0001f3a4"), (1, 2, "")], recording_id="a b")
    source = tmp_path / "names.json"
    _, said = caught(conv.write, source)
    assert said == []
    text, said = caught(conv.write, format="rttm")
    assert said == cli_warnings("convert", source, "--to", "rttm", "-o", tmp_path / "out.rttm")
    assert len(said) == 3 and any('"Zo\u00eb \U0001f3a4" written as "Zo\u00eb_\U0001f3a4"' in w for w in said), said
    assert text.split()[1] == "a_b"
    # A file written by name warns the same, and a corpus as a conversation does.
    _, again = caught(overtalk.write, conv, tmp_path / "names.rttm")
    assert again == said
    _, from_corpus = caught(overtalk.Corpus.from_conversations([conv]).write, format="rttm")
    assert from_corpus == said


def test_detect_keeps_what_it_noted_for_the_analysis_as_the_cli_does(tmp_path, cli):
    """What detection warns about is kept with the conversation (`Conversation.warnings`), and
    `analyze` carries it as a `recording` warning, as `overtalk analyze` does for the same
    recordings; it survives a corpus and pickling."""
    import json
    import pickle
    import wave

    import numpy as np

    silent = tmp_path / "silent.wav"
    with wave.open(str(SPEECH_WAV)) as w, wave.open(str(silent), "wb") as out:
        out.setparams(w.getparams())
        out.writeframes(bytes(w.getnframes() * w.getsampwidth() * w.getnchannels()))
    conv, said = caught(overtalk.detect, tracks={"A": str(SPEECH_WAV), "B": str(silent)})
    note = ('no speech found for "B" (silent, or below the detector\'s threshold): the analysis '
            'lists the speakers who spoke, without "B"')
    assert said == conv.warnings == [note]
    analysis = overtalk.analyze(conv)
    assert analysis.warnings == ["recording: " + note]
    from_cli = json.loads(cli("analyze", "--track", f"A={SPEECH_WAV}", "--track", f"B={silent}", "--format", "json"))
    assert analysis.warnings == from_cli["conversations"][0]["diagnostics"]["warnings"]
    assert pickle.loads(pickle.dumps(conv)).warnings == [note]
    corpus = overtalk.Corpus.from_conversations([conv])
    assert corpus[conv.recording_id].warnings == [note]
    assert [a.warnings for a in overtalk.analyze_many(corpus, threads=1)] == [["recording: " + note]]
    # Samples: the same notes.
    samples = np.zeros((32_000, 2), dtype=np.float32)
    samples[:, 0] = np.frombuffer(SPEECH_WAV.read_bytes()[44:44 + 64_000], dtype="<i2") / 32768.0
    conv, said = caught(overtalk.detect, samples, sample_rate=16_000, tracks=["A", "B"])
    assert said == conv.warnings == [note]
    assert overtalk.analyze(conv).warnings == ["recording: " + note]
    # Read from a file: nothing was detected, nothing noted.
    read = overtalk.read("SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n")["r"]
    assert read.warnings == [] and overtalk.analyze(read).warnings == []
