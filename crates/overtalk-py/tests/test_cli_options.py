"""The command line's options from Python, each against the command line's output on the same
input: the CHAT markers table (`analyze` of a CHAT file), `--timing-only`, `score --events`,
and the detector choice of `detect` for one mixed recording (`--no-diarize`, the diarizer's
settings)."""

import json
import pickle
import warnings

import numpy as np
import pytest

import overtalk
from conftest import EXAMPLES, REPO

# Five timed utterances and one without a bullet: overlap 3 both, 1 timing only; interruption
# 2 both, 2 timing only; interruption before the end 2 both (crates/overtalk-cli/tests/chat_markers.rs
# works the counts out).
SMALL_CHAT = (
    "@Begin\n@Participants:\tA Adult, B Adult, C Adult\n"
    "*A:\tso <the plan> [>] +/. \x150_4000\x15\n"
    "*B:\t<no> [<] wait . \x153500_6000\x15\n"
    "*A:\tfine . \x156000_8000\x15\n"
    "*B:\tI mean +//. \x158000_9000\x15\n"
    "*C:\t<yes> [<] . \x158500_9500\x15\n"
    "*A:\tok .\n@End\n"
)

SPEECH_WAV = REPO / "crates" / "overtalk-audio" / "tests" / "data" / "speech.wav"


@pytest.fixture
def small_chat(tmp_path):
    path = tmp_path / "small.cha"
    path.write_text(SMALL_CHAT, encoding="utf-8")
    return path


def test_chat_markers_table_is_the_cli_one(small_chat, cli):
    corpus = overtalk.read(small_chat)
    conv = corpus["small"]
    assert conv.format == "chat"
    a = overtalk.analyze(conv)
    assert a.to_json().encode() == cli("analyze", small_chat, "--format", "json")
    m = a.chat_markers
    assert m["utterances"] == 5 and m["untimed"] == 1
    assert m["overlap"] == {"both": 3, "marker_only": 0, "timing_only": 1, "neither": 1, "agreement": 0.75}
    assert m["interruption"]["both"] == 2 and m["interruption"]["timing_only"] == 2
    assert m["interruption"]["agreement"] == 0.5
    assert m["markers"] == {"+/.": 1, "+//.": 1, "[<]": 2, "[>]": 1}


def test_chat_markers_survive_pickling_and_text_input(small_chat):
    conv = overtalk.read(small_chat)["small"]
    again = pickle.loads(pickle.dumps(conv))
    assert again.format == "chat"
    assert overtalk.analyze(again).chat_markers == overtalk.analyze(conv).chat_markers
    corpus = pickle.loads(pickle.dumps(overtalk.read(small_chat)))
    assert overtalk.analyze(corpus["small"]).chat_markers["markers"] == {"+/.": 1, "+//.": 1, "[<]": 2, "[>]": 1}
    # Read from its text, the format is detected all the same.
    from_text = overtalk.read(SMALL_CHAT, recording_id="small")["small"]
    assert from_text.format == "chat"
    assert overtalk.analyze(from_text).chat_markers == overtalk.analyze(conv).chat_markers


def test_other_formats_have_no_markers_table():
    conv = overtalk.read(EXAMPLES / "red-carpet" / "red-carpet.rttm")["red-carpet"]
    assert conv.format == "rttm"
    a = overtalk.analyze(conv)
    assert a.chat_markers is None
    assert "chat_markers_vs_timing" not in a.to_dict()
    built = overtalk.Conversation.from_segments([(0.0, 1.0, "A"), (0.5, 2.0, "B")])
    assert built.format is None


def test_corpus_rows_of_a_chat_file_are_the_cli_jsonl(small_chat, cli):
    import overtalk.corpus as oc

    rows = oc.analyze_item(str(small_chat))
    assert oc.to_jsonl(rows).encode() == cli("analyze", small_chat, "--format", "jsonl")
    assert json.loads(rows[0]["json"])["chat_markers_vs_timing"]["utterances"] == 5


def test_timing_only_is_the_cli_flag(cli):
    path = EXAMPLES / "red-carpet" / "red-carpet.vtt"
    conv = overtalk.read(path)["red-carpet"]
    words = overtalk.analyze(conv, classifier="rules")
    timing = overtalk.analyze(conv, timing_only=True, classifier="rules")
    assert timing.to_json().encode() == cli("analyze", path, "--format", "json", "--timing-only", "--classifier", "rules")
    assert words.to_json().encode() == cli("analyze", path, "--format", "json", "--classifier", "rules")
    # Without the words, the turns carry no tokens.
    assert all(t["n_tokens"] == 0 for t in timing.turns), timing.turns
    assert sum(t["n_tokens"] for t in words.turns) > 0
    # The corpus helper takes it too.
    import overtalk.corpus as oc

    rows = oc.analyze_item(str(path), timing_only=True)
    assert oc.to_jsonl(rows).encode() == cli("analyze", path, "--format", "jsonl", "--timing-only")


def test_event_scores_are_the_cli_ones(shared, ami, cli):
    ref = ami / "test" / "EN2002a.rttm"
    sys = shared / "system-outputs" / "vbx-ami" / "AMI_Mix-Headset" / "test" / "EN2002a.rttm"
    s = overtalk.score(ref, sys, collar=0.25, events=True)
    assert isinstance(s, overtalk.EventScore)
    expected = cli("score", "-r", ref, "-s", sys, "--events", "--collar", "0.25", "--format", "json")
    assert s.to_json().encode() == expected
    d = json.loads(expected)
    assert s.total == d["total"] and s.der == d["der"]
    assert [r["id"] for r in s.recordings] == ["EN2002a"]
    assert list(s.classes) == [c["class"] for c in d["classes"]] and len(s.classes) > 0
    assert all(s.classes[c["class"]] == c for c in d["classes"])
    # A tolerance of its own, and score_events spelled out.
    t = overtalk.score_events(ref, sys, collar=0.25, tolerance=0.5)
    assert t.to_json().encode() == cli(
        "score", "-r", ref, "-s", sys, "--events", "--collar", "0.25", "--tolerance", "0.5", "--format", "json"
    )
    assert t.to_dict()["options"]["tolerance"] == 500 and s.to_dict()["options"]["tolerance"] == 200
    assert pickle.loads(pickle.dumps(t)).to_json() == t.to_json()


def test_event_scoring_options_are_checked(shared, ami):
    ref = ami / "test" / "EN2002a.rttm"
    with pytest.raises(overtalk.OvertalkError, match="tolerance"):
        overtalk.score_events(ref, ref, tolerance=-1)
    with pytest.raises(ValueError, match="der_only"):
        overtalk.score(ref, ref, events=True, der_only=True)
    with pytest.raises(ValueError, match="tolerance"):
        overtalk.score(ref, ref, tolerance=0.5)


@pytest.fixture
def no_models(tmp_path, monkeypatch):
    """No speaker model installed: the diarizer falls back to voice activity only."""
    d = tmp_path / "models"
    d.mkdir()
    monkeypatch.setenv("OVERTALK_MODEL_DIR", str(d))
    return d


def test_one_mixed_recording_is_diarized_as_the_cli_does(no_models, cli):
    with pytest.warns(UserWarning, match="no speaker model"):
        conv = overtalk.detect(SPEECH_WAV)
    assert conv.write(format="rttm").encode() == cli("detect", SPEECH_WAV)
    a = overtalk.analyze(conv)
    assert a.to_json().encode() == cli("analyze", SPEECH_WAV, "--format", "json")
    assert conv.detection == a.to_dict()["detection"]["method"] == "vad-only fallback (earshot; one speaker; no speaker model)"
    # Said in the result, as on the command line, and kept through a pickle.
    assert any(w.startswith("speakers not told apart") for w in a.to_dict()["diagnostics"]["warnings"])
    again = overtalk.analyze(pickle.loads(pickle.dumps(conv)))
    assert again.to_json() == a.to_json()
    # A corpus of it keeps what the detection cannot measure: indexing it, analysing it whole,
    # and pickling it give the same result as the conversation itself.
    corpus = overtalk.Corpus.from_conversations([conv])
    (rid,) = corpus.ids()
    assert corpus[rid].detection == conv.detection
    assert overtalk.analyze(corpus[rid]).to_json() == a.to_json()
    (whole,) = overtalk.analyze_many(corpus)
    assert whole.to_json() == a.to_json()
    (pickled,) = overtalk.analyze_many(pickle.loads(pickle.dumps(corpus)))
    assert pickled.to_json() == a.to_json()
    # The H&E counts say the overlaps are unknown, as the JSON's nulls do; gaps are counted.
    counts = overtalk.gaps_and_overlaps_counts(conv)
    assert counts["overlap_between"] is None and counts["unbounded_overlap"] is None, counts
    assert isinstance(counts["gap"], int)
    intervals = overtalk.gaps_and_overlaps(conv)
    assert intervals.counts() == counts == pickle.loads(pickle.dumps(intervals)).counts()
    he = a.to_dict()["conversation"]["he_counts"]["acoustic"]
    assert he["overlap_within"] is None and he["gap"] == counts["gap"], he
    # The sentence between the two seconds of silence, as one speaker.
    segs = conv.segments()
    assert len({s.speaker for s in segs}) == 1
    assert 0.8 <= segs[0].start <= 1.3, segs


def test_no_diarize_and_the_detector_are_the_cli_flags(no_models, cli):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = overtalk.detect(SPEECH_WAV, diarize=False)
    assert plain.write(format="rttm").encode() == cli("detect", SPEECH_WAV, "--no-diarize")
    energy = overtalk.detect(SPEECH_WAV, diarize=False, vad="energy")
    assert energy.write(format="rttm").encode() == cli("detect", SPEECH_WAV, "--no-diarize", "--vad", "energy")
    with pytest.warns(UserWarning):
        chosen = overtalk.detect(SPEECH_WAV, vad="energy", num_speakers=1)
    assert chosen.write(format="rttm").encode() == cli("detect", SPEECH_WAV, "--vad", "energy", "--num-speakers", "1")


def test_samples_of_one_mixed_recording_are_diarized_like_the_file(no_models):
    import wave

    with wave.open(str(SPEECH_WAV)) as w:
        rate = w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    with pytest.warns(UserWarning):
        from_file = overtalk.detect(SPEECH_WAV, recording_id="speech")
    with pytest.warns(UserWarning):
        from_samples = overtalk.detect(pcm.astype(np.float32) / 32768.0, sample_rate=rate, recording_id="speech")
    assert from_samples.segments() == from_file.segments()
    assert from_samples.detection == from_file.detection


def test_music_taken_for_a_speaker_is_named_from_a_file_and_from_samples(no_models, tmp_path):
    import wave

    # Held chords, 4 s each, 12 s: what a voice detector takes for speech.
    rate = 16_000
    t = np.arange(12 * rate) / rate
    x = np.zeros(12 * rate)
    for i, chord in enumerate([[220.0, 277.2, 329.6], [196.0, 246.9, 293.7], [174.6, 220.0, 261.6]]):
        part = slice(4 * i * rate, 4 * (i + 1) * rate)
        for f in chord:
            for h in range(1, 5):
                x[part] += np.sin(2 * np.pi * f * h * t[part]) / h
    x *= 0.05
    path = tmp_path / "jingle.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((x * 32767).astype("<i2").tobytes())
    with pytest.warns(UserWarning) as heard:
        from_file = overtalk.detect(path)
    said = [str(w.message) for w in heard]
    assert any("jingle.wav: speaker SPK00 (12.0 s) sounds like music" in m for m in said), said
    assert any("sounds like music" in n for n in from_file.warnings), from_file.warnings
    with pytest.warns(UserWarning) as heard:
        overtalk.detect(x.astype(np.float32), sample_rate=rate)
    said = [str(w.message) for w in heard]
    assert any("samples: speaker SPK00 (12.0 s) sounds like music" in m for m in said), said
    # A track of its own, from samples as from files: plucked notes every 400 ms (a jingle
    # with a steady beat) are named, the voice's track is not.
    with wave.open(str(SPEECH_WAV)) as w:
        assert w.getframerate() == rate and w.getnchannels() == 1
        voice = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2") / 32768.0
    i = np.arange(9 * rate)
    pluck_t = (i % 6_400) / rate
    notes = np.array([262.0, 330.0, 392.0, 523.0])[(i // 6_400) % 4]
    plucks = 0.25 * np.exp(-pluck_t * 12.0) * np.sin(2 * np.pi * notes * pluck_t)
    n = max(len(voice), len(plucks))
    cols = np.zeros((n, 2), dtype=np.float32)
    cols[: len(voice), 0] = voice
    cols[: len(plucks), 1] = plucks
    with pytest.warns(UserWarning) as heard:
        both = overtalk.detect(cols, sample_rate=rate, tracks=["Host", "Jingle"])
    said = [str(w.message) for w in heard if "music" in str(w.message)]
    assert len(said) == 1 and said[0].startswith("samples: track Jingle ("), said
    assert "`--ignore-label Jingle`" in said[0], said
    assert said[0] in both.warnings, both.warnings
    wav, jingle = tmp_path / "voice.wav", tmp_path / "jingle-track.wav"
    for path, column in [(wav, cols[:, 0]), (jingle, cols[:, 1])]:
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes((column * 32767).astype("<i2").tobytes())
    with pytest.warns(UserWarning) as heard:
        overtalk.detect(tracks={"Host": wav, "Jingle": jingle})
    from_files = [str(w.message) for w in heard if "music" in str(w.message)]
    assert len(from_files) == 1 and from_files[0].startswith(f"{jingle}: track Jingle ("), from_files
    # The same sentence (the seconds aside: the voice detector hears the 16-bit file's plucks
    # a little differently from the float samples).
    assert from_files[0].split(" s of speech)", 1)[1] == said[0].split(" s of speech)", 1)[1]


def test_diarizer_settings_are_checked(no_models):
    with pytest.raises(overtalk.OvertalkError, match="`pyannote` feature"):
        overtalk.detect(SPEECH_WAV, diarizer="pyannote")
    with pytest.raises(overtalk.OvertalkError, match="takes none of"):
        overtalk.detect(SPEECH_WAV, diarizer="pyannote", num_speakers=2)
    with pytest.raises(overtalk.OvertalkError, match="unknown diarizer"):
        overtalk.detect(SPEECH_WAV, diarizer="vbx")
    with pytest.raises(overtalk.OvertalkError, match="larger than max_speakers"):
        overtalk.detect(SPEECH_WAV, min_speakers=3, max_speakers=2)
    with pytest.raises(overtalk.OvertalkError, match="at least 1"):
        overtalk.detect(SPEECH_WAV, num_speakers=0)
    with pytest.raises(overtalk.OvertalkError, match="overlap_margin"):
        overtalk.detect(SPEECH_WAV, overlap_margin=1.5)
    with pytest.raises(ValueError, match="diarize=False"):
        overtalk.detect(SPEECH_WAV, diarize=False, num_speakers=2)
    with pytest.raises(ValueError, match="one mixed recording"):
        overtalk.detect(tracks={"A": SPEECH_WAV, "B": SPEECH_WAV}, num_speakers=2)


def _write_ge2e(path):
    """A GE2E model file (safetensors) with deterministic pseudo-random weights: the tensors
    and shapes of the real encoder (3 LSTM layers of 256, a 256 x 256 projection), so the
    whole diarization path runs without it, as crates/overtalk-cli/tests/detect.rs does."""
    rng = np.random.default_rng(0x2545F491)
    shapes = {}
    for layer in range(3):
        shapes[f"lstm.weight_ih_l{layer}"] = (1024, 40 if layer == 0 else 256)
        shapes[f"lstm.weight_hh_l{layer}"] = (1024, 256)
        shapes[f"lstm.bias_ih_l{layer}"] = (1024,)
        shapes[f"lstm.bias_hh_l{layer}"] = (1024,)
    shapes["linear.weight"] = (256, 256)
    shapes["linear.bias"] = (256,)
    header, blobs, offset = {"__metadata__": {}}, [], 0
    for name, shape in shapes.items():
        data = ((rng.random(shape, dtype=np.float32) - 0.5) * 0.2).astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"".join(blobs))


@pytest.fixture
def ge2e_models(tmp_path, monkeypatch):
    """A model directory holding a GE2E speaker model, as `overtalk models install` lays it out."""
    d = tmp_path / "models"
    d.mkdir()
    _write_ge2e(d / "ge2e.safetensors")
    monkeypatch.setenv("OVERTALK_MODEL_DIR", str(d))
    return d


def test_detect_with_an_installed_speaker_model_is_the_cli_detect(ge2e_models, cli):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a model is installed: no fallback warning
        conv = overtalk.detect(SPEECH_WAV)
    assert conv.write(format="rttm").encode() == cli("detect", SPEECH_WAV)
    assert conv.detection.startswith("ge2e (model ge2e.safetensors"), conv.detection
    # The model named explicitly, with the diarizer's settings: the same flags on the command line.
    model = ge2e_models / "ge2e.safetensors"
    # (The command line's own tests check these flags; here, that they reach the diarizer.)
    chosen = overtalk.detect(SPEECH_WAV, embedding_model=model, max_speakers=3, overlap_margin=0.05)
    assert chosen.detection.startswith("ge2e (model ge2e.safetensors"), chosen.detection
    assert "speakers 1..3; overlap margin 0.05;" in chosen.detection
    # More speakers asked for than the clip can give: the count found is said, as on the
    # command line.
    with pytest.warns(overtalk.OvertalkWarning, match=": 40 speakers asked for, "):
        overtalk.detect(SPEECH_WAV, num_speakers=40)


def test_zero_length_turns_reach_the_scoring_presets_as_on_the_command_line(tmp_path, cli):
    # A zero-length turn: spyder keeps its speaker on to the next turn, dscore refuses the
    # file; the reader drops it, and the corpus carries it to score() (through a pickle too).
    ref = tmp_path / "ref.rttm"
    ref.write_text(
        "SPEAKER f1 1 0.000 5.000 <NA> <NA> A <NA> <NA>\n"
        "SPEAKER f1 1 5.000 0.000 <NA> <NA> C <NA> <NA>\n"
        "SPEAKER f1 1 6.000 2.000 <NA> <NA> B <NA> <NA>\n"
    )
    hyp = tmp_path / "hyp.rttm"
    hyp.write_text("SPEAKER f1 1 0.000 5.000 <NA> <NA> x <NA> <NA>\nSPEAKER f1 1 6.000 2.000 <NA> <NA> y <NA> <NA>\n")
    ours = overtalk.score(ref, hyp, preset="spyder")
    theirs = json.loads(cli("score", "-r", ref, "-s", hyp, "--preset", "spyder", "--format", "json"))
    assert ours.to_dict()["total"] == theirs["total"]
    assert ours.to_dict()["total"]["der"] > 0
    again = overtalk.score(pickle.loads(pickle.dumps(overtalk.read(ref))), overtalk.read(hyp), preset="spyder")
    assert again.to_dict()["total"] == theirs["total"]
    with pytest.raises(overtalk.OvertalkError, match="zero-length"):
        overtalk.score(ref, hyp, preset="dscore")


def test_tracks_are_named_as_the_command_line_names_them(tmp_path, cli):
    import shutil

    host, guest = tmp_path / "show-host.wav", tmp_path / "show-guest.wav"
    shutil.copy(SPEECH_WAV, host)
    shutil.copy(SPEECH_WAV, guest)
    conv = overtalk.detect(tracks={"Host": host, "Guest": guest})
    assert conv.recording_id == "show"
    assert conv.write(format="rttm").encode() == cli("detect", "--track", f"Host={host}", "--track", f"Guest={guest}")


def test_track_offsets_place_the_files_as_the_command_line_does(tmp_path, cli):
    import shutil

    host, guest = tmp_path / "show-host.wav", tmp_path / "show-guest.wav"
    shutil.copy(SPEECH_WAV, host)
    shutil.copy(SPEECH_WAV, guest)
    tracks = {"Host": host, "Guest": guest}
    conv = overtalk.detect(tracks=tracks, track_offsets={"Guest": 0.5, "Host": -0.25})
    theirs = cli(
        "detect", "--track", f"Host={host}", "--track", f"Guest={guest}",
        "--track-offset", "Guest=0.5", "--track-offset", "Host=-0.25",
    )
    assert conv.write(format="rttm").encode() == theirs
    plain = overtalk.detect(tracks=tracks)
    assert conv.write(format="rttm") != plain.write(format="rttm")
    with pytest.raises(ValueError, match="'Cam' is not a track name"):
        overtalk.detect(tracks=tracks, track_offsets={"Cam": 1.0})
    with pytest.raises(ValueError, match="finite number of seconds"):
        overtalk.detect(tracks=tracks, track_offsets={"Host": float("nan")})
    with pytest.raises(ValueError, match="give the tracks"):
        overtalk.detect(host, track_offsets={"Host": 1.0})
    # No offsets asked for: one file detects as without them.
    one = overtalk.detect(host, diarize=False, track_offsets={})
    assert one.write(format="rttm") == overtalk.detect(host, diarize=False).write(format="rttm")
    with pytest.raises(overtalk.OvertalkError, match="puts the whole of its recording"):
        overtalk.detect(tracks=tracks, track_offsets={"Host": -1000.0})


def test_track_offsets_take_numpy_numbers(tmp_path):
    import shutil

    host, guest = tmp_path / "show-host.wav", tmp_path / "show-guest.wav"
    shutil.copy(SPEECH_WAV, host)
    shutil.copy(SPEECH_WAV, guest)
    tracks = {"Host": host, "Guest": guest}
    plain = overtalk.detect(tracks=tracks, track_offsets={"Guest": 1.0, "Host": 0.5})
    numpy = overtalk.detect(tracks=tracks, track_offsets={"Guest": np.int64(1), "Host": np.float32(0.5)})
    assert numpy.write(format="rttm") == plain.write(format="rttm")
    assert numpy.detection == plain.detection
    assert numpy.detection.endswith("; offsets Host +0.500 s, Guest +1.000 s")
    for bad in (np.float64("inf"), np.bool_(True), True, 10**400, "0.5"):
        with pytest.raises(ValueError, match=r"^track_offsets\['Guest'\]: expected a finite number of seconds, got "):
            overtalk.detect(tracks=tracks, track_offsets={"Guest": bad})
    for big in (1e10, -360000001, np.float64(1e300)):
        with pytest.raises(ValueError, match=r'^track_offsets\["Guest"\]: out of range: an offset is at most 100000 hours either way, got '):
            overtalk.detect(tracks=tracks, track_offsets={"Guest": big})


def test_audio_tracks_of_one_file_are_read_as_the_command_line_reads_them(tmp_path, cli):
    import shutil

    show = tmp_path / "show.mkv"
    shutil.copy(REPO / "crates" / "overtalk-audio" / "tests" / "data" / "speech.2tracks.mkv", show)
    conv = overtalk.detect(show, audio_tracks=["Host", "Guest"])
    assert conv.write(format="rttm").encode() == cli("detect", str(show), "--audio-tracks", "Host,Guest")
    assert [s.speaker for s in conv.segments()] == ["Host", "Guest"]
    guest = overtalk.detect(show, audio_tracks=["_", "Guest"])
    assert guest.write(format="rttm").encode() == cli("detect", str(show), "--audio-tracks", "_,Guest")
    # Without them: the default track, and a warning naming the others.
    with pytest.warns(UserWarning, match="it holds 2 audio tracks and only its default one was read"):
        one = overtalk.detect(show, diarize=False)
    assert [s.speaker for s in one.segments()] == ["show"]
    with pytest.raises(overtalk.OvertalkError, match="audio track 3 requested, but the recording has 2"):
        overtalk.detect(show, audio_tracks=["A", "B", "C"])
    with pytest.raises(ValueError, match="give the recording"):
        overtalk.detect(audio_tracks=["A", "B"])
    with pytest.raises(ValueError, match="not to audio_tracks"):
        overtalk.detect(show, audio_tracks=["A", "B"], num_speakers=2)
    with pytest.raises(ValueError, match="a list of names"):
        overtalk.detect(show, audio_tracks="Host")
    with pytest.raises(ValueError, match="a name is empty"):
        overtalk.detect(show, audio_tracks=["Host", " "])
    with pytest.raises(ValueError, match="not columns of samples"):
        overtalk.detect(np.zeros((16_000, 2), dtype=np.float32), sample_rate=16_000, audio_tracks=["A", "B"])
