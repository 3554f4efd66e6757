"""pyannote.core, pympi, pandas and meeteval round trips."""

import pytest

import overtalk
from conftest import EXAMPLES

RED_CARPET = EXAMPLES / "red-carpet" / "red-carpet.rttm"


def _red_carpet():
    c = overtalk.read(RED_CARPET)
    return c[c.ids()[0]]


def test_pyannote_round_trip_on_all_170_ami_meetings(ami_files):
    pytest.importorskip("pyannote.core")
    from pyannote.core import Segment
    from pyannote.database.util import load_rttm

    # pyannote compares times as floats, exactly: on the microsecond grid (pyannote's own
    # setting for consistent times) the round trip is the identity. See overtalk.interop.
    Segment.set_precision(6)
    try:
        n = 0
        repeated = []
        for path in ami_files:
            for uri, a in load_rttm(path).items():
                segs = [s for s, _ in a.itertracks()]
                repeated += [(uri, s.start, s.end) for i, s in enumerate(segs) if s in segs[max(0, i - 50) : i]]
                conv = overtalk.Conversation.from_pyannote(a)
                assert conv.recording_id == uri
                assert conv.to_pyannote() == a, path.name
                # The segments are the ones overtalk reads from the RTTM itself.
                direct = overtalk.read(path)[uri]
                assert conv._native.segments_micros() == direct._native.segments_micros(), path.name
                n += 1
        assert n == 170
        # The one segment two speakers share exactly: two tracks in load_rttm and in overtalk;
        # `annotation[segment] = label` would have kept only one of them.
        assert [(u, round(a, 2), round(b, 2)) for u, a, b in repeated] == [("IB4011", 2384.1, 2385.12)]
    finally:
        Segment.set_precision(None)


def test_pyannote_without_precision_differs_only_in_the_last_bits(ami_files):
    pytest.importorskip("pyannote.core")
    from pyannote.database.util import load_rttm

    path = ami_files[0]
    (a,) = load_rttm(path).values()
    back = overtalk.Conversation.from_pyannote(a).to_pyannote()
    pairs = list(zip(a.itertracks(yield_label=True), back.itertracks(yield_label=True)))
    assert len(pairs) == len(list(a.itertracks()))
    for (s1, t1, l1), (s2, t2, l2) in pairs:
        assert (t1, l1) == (t2, l2)
        assert abs(s1.start - s2.start) < 1e-9 and abs(s1.end - s2.end) < 1e-9


def test_a_conversation_from_pyannote_pickles_with_its_tracks():
    pytest.importorskip("pyannote.core")
    import pickle

    from pyannote.core import Annotation, Segment

    a = Annotation(uri="u")
    a[Segment(0.0, 1.5), "x"] = "A"
    a[Segment(1.0, 2.0), "y"] = "B"
    conv = overtalk.Conversation.from_pyannote(a)
    assert pickle.loads(pickle.dumps(conv)).to_pyannote() == a


def test_a_repaired_label_keeps_its_pyannote_track():
    pytest.importorskip("pyannote.core")
    from pyannote.core import Annotation, Segment

    a = Annotation(uri="u")
    a[Segment(0.0, 1.5), "first"] = "Ana\n"
    a[Segment(2.0, 3.0), "second"] = "B\x00"
    with pytest.warns(overtalk.OvertalkWarning, match="control characters"):
        conv = overtalk.Conversation.from_pyannote(a)
    back = conv.to_pyannote()
    assert sorted(back.itertracks(yield_label=True)) == [
        (Segment(0.0, 1.5), "first", "Ana"),
        (Segment(2.0, 3.0), "second", "B\ufffd"),
    ]


def test_pyannote_same_segment_two_speakers_stays_two_tracks():
    pytest.importorskip("pyannote.core")
    conv = overtalk.Conversation.from_segments([(1.0, 2.0, "A"), (1.0, 2.0, "B")], "x")
    a = conv.to_pyannote()
    assert sorted(a.labels()) == ["A", "B"] and len(list(a.itertracks())) == 2
    assert overtalk.analyze(overtalk.Conversation.from_pyannote(a)).conversation["overlap"] == 1000


def test_eaf_tiers_round_trip_through_pympi(tmp_path):
    pytest.importorskip("pympi")
    from pympi.Elan import Eaf

    conv = _red_carpet()
    # overtalk -> pympi -> file -> overtalk
    eaf = conv.to_pympi()
    assert sorted(eaf.get_tier_names()) == sorted(conv.speakers)
    path = tmp_path / "rc.eaf"
    eaf.to_file(str(path))
    back = overtalk.read(path)
    got = back[back.ids()[0]]
    key = lambda c: sorted((round(s.start, 3), round(s.end, 3), s.speaker) for s in c.segments())
    assert key(got) == key(conv)
    # overtalk's EAF -> pympi -> overtalk, with a tier selection
    path2 = tmp_path / "rc2.eaf"
    conv.write(path2)
    eaf2 = Eaf(str(path2))
    assert sorted(eaf2.get_tier_names()) == sorted(conv.speakers)
    one = conv.speakers[0]
    sel = overtalk.Conversation.from_pympi(eaf2, tiers=[one])
    assert sel.speakers == [one]
    assert key(sel) == [k for k in key(conv) if k[2] == one]
    assert key(overtalk.Conversation.from_pympi(eaf2)) == key(conv)
    with pytest.raises(KeyError):
        overtalk.Conversation.from_pympi(eaf2, tiers=["no such tier"])


def test_pandas_round_trip():
    pytest.importorskip("pandas")
    conv = _red_carpet()
    df = conv.to_pandas()
    back = overtalk.Conversation.from_pandas(df, recording_id=conv.recording_id)
    assert back.segments() == conv.segments()
    with pytest.raises(KeyError):
        overtalk.Conversation.from_pandas(df.drop(columns=["speaker"]))


def test_seglst_agrees_with_meeteval_both_ways(ami, tmp_path):
    """The 16 AMI test meetings: overtalk's SegLST loaded by meeteval gives meeteval's own
    conversion of the RTTMs, and meeteval's SegLST read by overtalk gives the RTTMs."""
    pytest.importorskip("meeteval")  # installed by scripts/python/setup_venv.sh
    import decimal

    from meeteval.io import RTTM, SegLST

    files = sorted((ami / "test").glob("*.rttm"))
    assert len(files) == 16
    ours = overtalk.read([str(f) for f in files])
    theirs = RTTM.load(files).to_seglst()

    def key(s):
        return (s["session_id"], str(s["speaker"]), decimal.Decimal(str(s["start_time"])), decimal.Decimal(str(s["end_time"])))

    written = tmp_path / "ami.seglst.json"
    overtalk.write(ours, written, format="seglst")
    loaded = SegLST.load(written)
    assert len(loaded) == len(theirs) == 7493
    assert sorted(map(key, loaded)) == sorted(map(key, theirs))

    dumped = tmp_path / "meeteval.json"
    theirs.dump(dumped)
    back = overtalk.read(str(dumped))
    assert overtalk.write(back, format="rttm") == overtalk.write(ours, format="rttm")


def test_from_pandas_refuses_rows_without_a_speaker():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"start": [0.0, 1.0], "end": [1.0, 2.0], "speaker": ["A", None], "text": ["hi", 42]})
    with pytest.raises(overtalk.OvertalkError, match=r"^row 1: the speaker is missing \(nan\); give every row a speaker, or drop the row$"):
        overtalk.Conversation.from_pandas(df)
    df["speaker"] = ["A", "B"]
    conv = overtalk.Conversation.from_pandas(df)
    assert [s.text for s in conv.segments()] == ["hi", "42"]


SPEACH_EAF = EXAMPLES.parent / "crates" / "overtalk" / "tests" / "data" / "eaf" / "speach_test2.eaf"


def test_from_pympi_takes_the_tiers_read_takes():
    pytest.importorskip("pympi")
    import warnings

    from pympi.Elan import Eaf

    with warnings.catch_warnings(record=True) as from_file:
        warnings.simplefilter("always")
        corpus = overtalk.read(SPEACH_EAF)
    expected = corpus[corpus.ids()[0]]
    eaf = Eaf(str(SPEACH_EAF))
    with warnings.catch_warnings(record=True) as from_object:
        warnings.simplefilter("always")
        conv = overtalk.Conversation.from_pympi(eaf, recording_id=expected.recording_id)
    # The speakers are the participants of the top-level tiers; the child tiers (chunks,
    # language codes) and the marker tier are not speakers, and no annotation is counted twice.
    assert conv.speakers == expected.speakers == ["P001", "R004001"]
    assert conv.segments() == expected.segments()
    assert overtalk.analyze(conv).conversation["overlap"] == 0
    # The same notes, without the positions of a file pympi's object does not have.
    strip = lambda w: str(w.message).split("column 5: ", 1)[-1]
    assert [strip(w) for w in from_file] == [str(w.message).removeprefix("eaf: ") for w in from_object]
    assert any("3 child tier(s) skipped" in str(w.message) for w in from_object)
    assert all(issubclass(w.category, overtalk.OvertalkWarning) for w in from_object)
    # The object is left as it was.
    assert sorted(eaf.get_tier_names()) == sorted(Eaf(str(SPEACH_EAF)).get_tier_names())


def test_from_pympi_tiers_is_a_tier_name_or_a_list_of_them():
    pytest.importorskip("pympi")
    from pympi.Elan import Eaf

    eaf = Eaf()
    for name in ("Speaker1", "Speaker2"):
        eaf.add_tier(name)
    eaf.add_annotation("Speaker1", 0, 1000, "hello")
    eaf.add_annotation("Speaker2", 500, 1500, "hi")
    # A string is one tier, not its characters.
    with pytest.warns(overtalk.OvertalkWarning, match='"Speaker2" \\(not chosen by'):
        one = overtalk.Conversation.from_pympi(eaf, tiers="Speaker1")
    assert one.speakers == ["Speaker1"] and [s.text for s in one.segments()] == ["hello"]
    both = overtalk.Conversation.from_pympi(eaf, tiers=["Speaker*"])
    assert both.speakers == ["Speaker1", "Speaker2"]
    with pytest.raises(KeyError, match="no tier 'Speaker3'"):
        overtalk.Conversation.from_pympi(eaf, tiers="Speaker3")
    with pytest.raises(TypeError, match="eaf: expected a pympi.Elan.Eaf, got NoneType"):
        overtalk.Conversation.from_pympi(None)


def test_read_chooses_tiers_as_the_cli_does(cli):
    for args, kwargs in [
        (["--tiers", "marker,Person1 (Utterance)"], dict(tiers=["marker", "Person1 (Utterance)"])),
        (["--ignore-tiers", "R004*"], dict(ignore_tiers="R004*")),
    ]:
        corpus = overtalk.read(SPEACH_EAF, **kwargs)
        assert corpus.write(format="rttm").encode() == cli("convert", SPEACH_EAF, "--to", "rttm", "-o", "-", *args)
    with pytest.raises(TypeError, match="tiers: expected names"):
        overtalk.read(SPEACH_EAF, tiers=[1])
