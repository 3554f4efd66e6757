"""The batch calls (`read` of many files, `analyze_many`, `gaps_and_overlaps_many`) give what
one call per conversation gives, in the same order, on any number of threads; their errors
are the first in that order; the H&E intervals come as one compact object."""

import multiprocessing
import pickle

import pytest

import overtalk
from conftest import EXAMPLES

RTTM = (
    "SPEAKER clip 1 0.00 4.00 <NA> <NA> Wife <NA> <NA>\n"
    "SPEAKER clip 1 3.50 1.00 <NA> <NA> Husband <NA> <NA>\n"
    "SPEAKER clip 1 5.00 1.00 <NA> <NA> Wife <NA> <NA>\n"
)
RED_CARPET = EXAMPLES / "red-carpet" / "red-carpet.rttm"


def _conversations():
    clip = overtalk.read(RTTM)["clip"]
    red = overtalk.read(RED_CARPET)
    return [red[red.ids()[0]], clip]


def test_analyze_many_is_analyze_of_each_in_order():
    convs = _conversations()
    one_by_one = [overtalk.analyze(c).to_json() for c in convs]
    for threads in (None, 1, 2, 3):
        got = overtalk.analyze_many(convs, threads=threads)
        assert [a.recording_id for a in got] == [c.recording_id for c in convs]
        assert [a.to_json() for a in got] == one_by_one, threads
    # Parameters and timing_only as in analyze.
    got = overtalk.analyze_many(convs, "he2010", timing_only=True, terminal_window=250)
    assert [a.to_json() for a in got] == [
        overtalk.analyze(c, "he2010", timing_only=True, terminal_window=250).to_json() for c in convs
    ]
    assert overtalk.analyze_many([]) == []


def test_analyze_many_of_a_corpus_or_of_paths_is_in_id_order(tmp_path):
    (tmp_path / "b.rttm").write_text(RTTM.replace("clip", "b"))
    (tmp_path / "a.rttm").write_text(RTTM.replace("clip", "a"))
    corpus = overtalk.read(tmp_path)
    expected = [overtalk.analyze(corpus[i]).to_json() for i in ["a", "b"]]
    for source in (corpus, tmp_path, str(tmp_path), [tmp_path / "b.rttm", tmp_path / "a.rttm"]):
        got = overtalk.analyze_many(source)
        assert [a.recording_id for a in got] == ["a", "b"]
        assert [a.to_json() for a in got] == expected


def test_analyze_many_raises_the_first_failure_in_order():
    untimed = overtalk.read(b"@Begin\n@Participants:\tA Adult\n*A:\thello .\n@End\n", format="chat")
    convs = _conversations() + [untimed[untimed.ids()[0]]]
    with pytest.raises(overtalk.OvertalkError, match="untimed transcript"):
        overtalk.analyze_many(convs)
    with pytest.raises(overtalk.OvertalkError, match="unknown parameter"):
        overtalk.analyze_many(_conversations(), no_such_parameter=1)
    with pytest.raises(overtalk.OvertalkError, match="threads must be at least 1"):
        overtalk.analyze_many(_conversations(), threads=0)
    with pytest.raises(TypeError):
        overtalk.analyze_many([_conversations()[0], 42])


def test_read_of_many_files_is_the_same_on_any_threads(tmp_path):
    for name in "cab":
        (tmp_path / f"{name}.rttm").write_text(RTTM.replace("clip", name))
    paths = sorted(tmp_path.glob("*.rttm"))
    one = overtalk.read(paths, threads=1)
    for threads in (None, 2, 4):
        assert overtalk.read(paths, threads=threads).write(format="json") == one.write(format="json")
    # The first unreadable file in the order given is the error, on every thread count.
    (tmp_path / "x.rttm").write_text("SPEAKER x 1 nan 1.0 <NA> <NA> A <NA> <NA>\n")
    (tmp_path / "y.rttm").write_text("SPEAKER y 1 zzz 1.0 <NA> <NA> A <NA> <NA>\n")
    bad = [paths[0], tmp_path / "x.rttm", tmp_path / "y.rttm"]
    for threads in (1, 2):
        with pytest.raises(overtalk.OvertalkError, match="x.rttm"):
            overtalk.read(bad, threads=threads, strict=True)
    # A recording id in two files names the later file.
    (tmp_path / "again.rttm").write_text(RTTM.replace("clip", "a"))
    with pytest.raises(overtalk.OvertalkError, match=r"again.rttm: recording \"a\" appears in more than one input"):
        overtalk.read([tmp_path / "a.rttm", tmp_path / "again.rttm"], threads=2)


def test_intervals_are_a_sequence_with_counts_columns_and_pickle():
    conv = overtalk.read(RTTM)["clip"]
    iv = overtalk.gaps_and_overlaps(conv, latch_tolerance=0)
    rows = list(iv)
    assert rows[:2] == [
        overtalk.Interval("overlap_between", 3500, 4000, "Wife", "Husband"),
        overtalk.Interval("gap", 4500, 5000, "Husband", "Wife"),
    ]
    assert len(iv) == len(rows) and iv[0] == rows[0] and iv[-1] == rows[-1] and iv[:2] == rows[:2]
    with pytest.raises(IndexError):
        iv[len(rows)]
    counts = iv.counts()
    assert list(counts) == ["pause", "gap", "overlap_within", "overlap_between", "ngno", "unbounded_silence", "unbounded_overlap"]
    assert sum(counts.values()) == len(rows)
    assert counts["gap"] == 1 and counts["overlap_between"] == 1 and counts["pause"] == 0
    assert iv == rows and pickle.loads(pickle.dumps(iv)) == iv
    assert iv.recording_id == "clip"
    pa = pytest.importorskip("pyarrow")
    table = iv.to_arrow()
    assert table.column_names == ["kind", "start_ms", "end_ms", "before", "after"]
    assert table.schema.field("start_ms").type == pa.int64()
    assert table.to_pylist()[0] == {"kind": "overlap_between", "start_ms": 3500, "end_ms": 4000, "before": "Wife", "after": "Husband"}
    assert [tuple(r.values()) for r in table.to_pylist()] == [tuple(r) for r in rows]


# Two speakers, every boundary apart (no class hangs on a tie), times in seconds: A pauses
# (2.0-2.5 s), B overlaps A's end (3.5-4.0 s, between), a gap B -> A (6.0-6.4 s), B inside A's
# talk (7.0-7.5 s, within A), A pauses (8.0-8.3 s), a gap A -> B (9.0-9.5 s).
DYAD = [(0.0, 2.0, "A"), (2.5, 4.0, "A"), (3.5, 6.0, "B"), (6.4, 8.0, "A"), (7.0, 7.5, "B"),
        (8.3, 9.0, "A"), (9.5, 10.0, "B")]
DYAD_COUNTS = {"pause": 2, "gap": 2, "overlap_within": 1, "overlap_between": 1, "ngno": 0,
               "unbounded_silence": 0, "unbounded_overlap": 0}


def test_counts_in_one_call_are_the_intervals_counts_and_pympis():
    conv = overtalk.Conversation.from_segments(DYAD, "dyad")
    iv = overtalk.gaps_and_overlaps(conv, latch_tolerance=0)
    counts = overtalk.gaps_and_overlaps_counts(conv, latch_tolerance=0)
    assert counts == iv.counts() == DYAD_COUNTS
    assert list(counts) == list(DYAD_COUNTS)  # every class, in report order
    assert [i.kind for i in iv] == ["pause", "overlap_between", "gap", "overlap_within", "pause", "gap"]
    # Each call makes its own dict: changing one changes no later result.
    changed = overtalk.gaps_and_overlaps_counts(conv, latch_tolerance=0)
    changed["gap"] = 99
    assert overtalk.gaps_and_overlaps_counts(conv, latch_tolerance=0)["gap"] == 2 == iv.counts()["gap"]
    # The preset and keywords as in gaps_and_overlaps: bridging the 0.3 s pause removes it.
    assert overtalk.gaps_and_overlaps_counts(conv, bridge_pause=400)["pause"] == 1
    assert overtalk.gaps_and_overlaps_counts(conv, "default") == overtalk.gaps_and_overlaps(conv, "default").counts()
    # pympi-ling's classes on the same turns (ms): P pauses, G gaps, O between, W within.
    pympi = pytest.importorskip("pympi")
    eaf = pympi.Elan.Eaf()
    for tier in ("A", "B"):
        eaf.add_tier(tier)
    for start, end, who in DYAD:
        eaf.add_annotation(who, round(start * 1000), round(end * 1000))
    peer = {"pause": 0, "gap": 0, "overlap_between": 0, "overlap_within": 0}
    kind = {"P": "pause", "G": "gap", "O": "overlap_between", "W": "overlap_within"}
    for _, _, cls in eaf.get_gaps_and_overlaps2("A", "B"):
        peer[kind[cls[0]]] += 1
    assert peer == {k: counts[k] for k in peer} == {k: DYAD_COUNTS[k] for k in peer}


def test_counts_in_one_call_take_what_gaps_and_overlaps_takes_and_refuse_the_rest():
    clip = overtalk.read(RTTM)
    assert overtalk.gaps_and_overlaps_counts(clip) == overtalk.gaps_and_overlaps(clip["clip"]).counts()
    assert overtalk.gaps_and_overlaps_counts(RTTM) == overtalk.gaps_and_overlaps(RTTM).counts()
    with pytest.raises(overtalk.OvertalkError, match="unknown parameter"):
        overtalk.gaps_and_overlaps_counts(clip, no_such_parameter=1)
    with pytest.raises(overtalk.OvertalkError, match="bad parameter value"):
        overtalk.gaps_and_overlaps_counts(clip, latch_tolerance=0.0)
    with pytest.raises(overtalk.OvertalkError, match="holds 2 recordings"):
        overtalk.gaps_and_overlaps_counts(overtalk.Corpus.from_conversations(_conversations()))
    with pytest.raises(TypeError, match="gaps_and_overlaps_counts: expected a Conversation"):
        overtalk.gaps_and_overlaps_counts(42)


def test_resolved_parameters_are_keyed_by_type_and_value_and_never_by_a_list_that_may_change():
    conv = overtalk.Conversation.from_segments(DYAD, "dyad")
    for call in (overtalk.gaps_and_overlaps, lambda *a, **k: overtalk.gaps_and_overlaps_counts(*a, **k)):
        for _ in range(2):  # the second round finds the first round's parameters
            assert call(conv, latch_tolerance=0) == call(conv, "he2010", latch_tolerance=0)
            # False == 0 == 0.0 in Python, but the parameter takes an int only.
            with pytest.raises(overtalk.OvertalkError, match="invalid type: boolean `false`, expected i64"):
                call(conv, latch_tolerance=False)
            with pytest.raises(overtalk.OvertalkError, match="invalid type: floating point `0.0`, expected i64"):
                call(conv, latch_tolerance=0.0)
            with pytest.raises(TypeError):
                call(conv, None)  # an explicit None is not the default preset
        # A list changed in place between two calls gives the parameters it holds now.
        labels = ["A"]
        assert [i.kind for i in overtalk.gaps_and_overlaps(conv, ignore_labels=labels)] == ["pause", "pause"]
        labels[0] = "Nobody"
        assert len(overtalk.gaps_and_overlaps(conv, ignore_labels=labels)) == sum(DYAD_COUNTS.values()) == 6
    # The arguments by name, as a Python function takes them.
    assert overtalk.gaps_and_overlaps(conversation=conv, preset="he2010", latch_tolerance=0).counts() == DYAD_COUNTS


def test_counts_in_one_call_on_every_ami_meeting(ami_files):
    for conv in overtalk.read(ami_files).values():
        iv = overtalk.gaps_and_overlaps(conv, latch_tolerance=0)
        counts = overtalk.gaps_and_overlaps_counts(conv, latch_tolerance=0)
        assert counts == iv.counts(), conv.recording_id
        assert sum(counts.values()) == len(iv) > 0


def test_intervals_index_compare_and_hash_as_a_sequence():
    conv = overtalk.Conversation.from_segments(DYAD, "dyad")
    iv = overtalk.gaps_and_overlaps(conv, latch_tolerance=0)
    rows = list(iv)
    assert isinstance(iv, overtalk.Intervals) and iv.speakers == ["A", "B"]
    assert iv[::-1] == rows[::-1] and iv[1:5:2] == rows[1:5:2] and iv[10:] == []
    assert iv[-len(rows)] == rows[0] == overtalk.Interval("pause", 2000, 2500, "A", "A")
    with pytest.raises(IndexError):
        iv[-len(rows) - 1]
    with pytest.raises(TypeError, match="interval indices must be integers or slices, not str"):
        iv["gap"]
    same = overtalk.gaps_and_overlaps(overtalk.Conversation.from_segments(DYAD, "dyad"), latch_tolerance=0)
    assert iv == same and not (iv != same) and hash(iv) == hash(same) and len({iv, same}) == 1
    assert iv != overtalk.gaps_and_overlaps(overtalk.Conversation.from_segments(DYAD, "other"), latch_tolerance=0)
    assert iv != overtalk.gaps_and_overlaps(conv, bridge_pause=400)
    assert iv == rows and iv != rows[:-1] and iv != tuple(rows) and iv != 42
    back = pickle.loads(pickle.dumps(iv))
    assert type(back) is overtalk.Intervals and back == iv and back.counts() == iv.counts()
    assert repr(iv) == '<overtalk.Intervals "dyad": 6 intervals>'


def test_gaps_and_overlaps_many_is_gaps_and_overlaps_of_each():
    convs = _conversations()
    one_by_one = [list(overtalk.gaps_and_overlaps(c, latch_tolerance=0)) for c in convs]
    for threads in (None, 1, 2):
        got = overtalk.gaps_and_overlaps_many(convs, threads=threads, latch_tolerance=0)
        assert [list(i) for i in got] == one_by_one
    corpus = overtalk.Corpus.from_conversations(convs)
    by_id = {c.recording_id: list(overtalk.gaps_and_overlaps(c)) for c in convs}
    got = overtalk.gaps_and_overlaps_many(corpus)
    assert [i.recording_id for i in got] == corpus.ids()
    assert [list(i) for i in got] == [by_id[r] for r in corpus.ids()]


def test_resolved_parameters_are_reused_and_still_checked():
    conv = overtalk.read(RTTM)["clip"]
    a = overtalk.analyze(conv, terminal_window=250)
    b = overtalk.analyze(conv, terminal_window=250)
    assert a.to_json() == b.to_json()
    assert a.to_json() != overtalk.analyze(conv, terminal_window=3000).to_json()
    # The same keywords in another order are the same parameters.
    ab = overtalk.analyze(conv, terminal_window=250, bc_max_duration=400).to_json()
    assert overtalk.analyze(conv, bc_max_duration=400, terminal_window=250).to_json() == ab != a.to_json()
    for _ in range(2):
        with pytest.raises(overtalk.OvertalkError, match="unknown parameter"):
            overtalk.analyze(conv, no_such_parameter=1)
    # Equal values of another type are resolved on their own: 250.0 is no number of ms.
    with pytest.raises(overtalk.OvertalkError, match="bad parameter value"):
        overtalk.analyze(conv, terminal_window=250.0)
    # Values that cannot be keys of the cache are resolved each time.
    assert overtalk.analyze(conv, ignore_labels=["Husband"]).to_json() == overtalk.analyze(conv, ignore_labels=["Husband"]).to_json()


def _in_forked_child(target):
    """What `target(queue)` puts on the queue in a child forked from this process; fails
    when the child does not answer within 60 s (a hang) or exits with an error."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=target, args=(queue,))
    child.start()
    try:
        got = queue.get(timeout=60)
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
    return got


def _analyse_in_child(queue):
    convs = _conversations()
    queue.put([a.to_json() for a in overtalk.analyze_many(convs, threads=None)])


def test_a_forked_child_makes_its_own_worker_threads():
    """After the parent's batch call started the worker threads, a child forked from it (the
    `fork` start method, Spark's worker daemon) has none behind the inherited pool: it makes
    its own instead of waiting for ever."""
    convs = _conversations()
    expected = [a.to_json() for a in overtalk.analyze_many(convs, threads=None)]
    assert _in_forked_child(_analyse_in_child) == expected


def _two_recordings():
    red = overtalk.read(RED_CARPET)
    text = RED_CARPET.read_text() + RTTM
    assert len(red) == 1
    both = overtalk.read(text, format="rttm")
    assert len(both) == 2
    return both


def _score_in_child(queue):
    ref = _two_recordings()
    queue.put(overtalk.score(ref, ref).to_json())


def test_a_forked_child_scores_on_its_own_worker_threads():
    """Scoring runs its recordings and its two sides in parallel; after the parent scored, a
    forked child scores too instead of waiting for ever on threads that only the parent has."""
    ref = _two_recordings()
    expected = overtalk.score(ref, ref).to_json()
    assert _in_forked_child(_score_in_child) == expected
