"""The Python outputs are the command line's: `analyze(...).to_json()` byte for byte on every
AMI test meeting and the red-carpet example, and `score(...)` on the VBx outputs (the 12
published DERs)."""

import json

import pytest

import overtalk
from conftest import EXAMPLES


def test_analyze_json_is_the_cli_json_for_red_carpet(cli):
    path = EXAMPLES / "red-carpet" / "red-carpet.rttm"
    corpus = overtalk.read(path)
    assert len(corpus) == 1
    a = overtalk.analyze(corpus[corpus.ids()[0]])
    assert a.to_json().encode() == cli("analyze", path, "--format", "json")


def test_analyze_json_is_the_cli_json_for_every_ami_test_meeting(ami, cli):
    files = sorted((ami / "test").glob("*.rttm"))
    assert len(files) == 16
    for path in files:
        corpus = overtalk.read(path)
        (rid,) = corpus.ids()
        got = overtalk.analyze(corpus[rid]).to_json().encode()
        assert got == cli("analyze", path, "--format", "json"), path.name


def test_analyze_with_a_preset_and_parameters_is_the_cli_with_flags(ami, cli):
    path = ami / "test" / "EN2002a.rttm"
    corpus = overtalk.read(path)
    a = overtalk.analyze(corpus["EN2002a"], preset="he2010", terminal_window=250, classifier="rules")
    assert a.to_json().encode() == cli(
        "analyze", path, "--format", "json", "--preset", "he2010", "--terminal-window", "250", "--classifier", "rules"
    )


# (setup, split, forgiving, fair, full) from the VBx README (shared/data/system-outputs/README.md).
PUBLISHED = [
    ("AMI_Mix-Headset", "dev", "1.56", "9.68", "16.33"),
    ("AMI_Mix-Headset", "test", "2.10", "12.53", "18.99"),
    ("AMI_beamformed", "dev", "2.80", "10.81", "17.66"),
    ("AMI_beamformed", "test", "3.90", "14.23", "20.84"),
]


@pytest.mark.parametrize("setup,split,forgiving,fair,full", PUBLISHED)
def test_score_is_the_cli_score_on_the_vbx_outputs(shared, ami, cli, setup, split, forgiving, fair, full):
    ref = ami / split
    sys = shared / "system-outputs" / "vbx-ami" / setup / split
    reference, hypothesis = overtalk.read(ref), overtalk.read(sys)
    for (collar, skip), published in [((0.25, True), forgiving), ((0.25, False), fair), ((0.0, False), full)]:
        s = overtalk.score(reference, hypothesis, collar=collar, skip_overlap=skip, preset="dscore")
        assert f"{s.der * 100:.2f}" == published, (setup, split, collar, skip)
        args = ["score", "-r", ref, "-s", sys, "--preset", "dscore", "--collar", str(collar), "--format", "json"]
        if skip:
            args.append("--skip-overlap")
        assert s.to_json().encode() == cli(*args)
        # Every number the CLI gives, per recording and in total, and the mapping.
        cli_json = json.loads(cli(*args))
        assert s.total == cli_json["total"]
        assert s.files == cli_json["files"]


RUSH = """TOWN HALL DEBATE, TRANSCRIPT

MODERATOR: Senator, you have two minutes.

SMITH: Thank you. The plan we passed --

JONES: It was never passed. (CROSSTALK)

SMITH: Listen, the plan that we wrote

MODERATOR: Let's move on to the economy.

JONES: Let me finish. The fact is --

SMITH: No.

JONES: When I'm talking, you're not talking.
"""


def test_turn_order_is_the_cli_untimed_object(tmp_path, cli):
    """A rush transcript (no times): `turn_order` gives the object the command line puts in
    the JSON's `untimed` list; `analyze` refuses it, naming `turn_order`."""
    path = tmp_path / "rush.txt"
    path.write_text(RUSH)
    got = overtalk.turn_order(path)
    want = json.loads(cli("analyze", path, "--format", "json", "-q"))["untimed"][0]
    assert got == want
    assert got["recording"] == "rush" and got["turns"] == 8
    counts = {r["rule"]: r["count"] for r in got["rules"]}
    assert counts == {"crosstalk": 1, "cut_off": 2, "no_sentence_end": 3, "timing": None}
    assert [c["phrase"] for c in got["verbal_claims"]] == ["let me finish", "when i'm talking", "you're not talking"]
    # Parameters apply: an ignored speaker is left out.
    assert "MODERATOR" not in overtalk.turn_order(path, ignore_labels=["MODERATOR"])["speakers"]
    with pytest.raises(overtalk.OvertalkError, match="turn_order"):
        overtalk.analyze(path)
    with pytest.raises(overtalk.OvertalkError, match="has times"):
        overtalk.turn_order(EXAMPLES / "red-carpet" / "red-carpet.rttm")
    # Written where only times can go it would be an empty file: refused, as convert refuses it.
    corpus = overtalk.read(path)
    with pytest.raises(overtalk.OvertalkError, match="holds timed segments only"):
        corpus["rush"].write(format="rttm")
    assert '"untimed"' in corpus["rush"].write(format="json")


def test_a_uem_directory_is_read_as_the_cli_reads_it(tmp_path, cli, cli_warnings):
    """`score(uem=DIR)` reads every `.uem` file under DIR (any depth, the extension in any case),
    the regions of a recording named in several files united, as `overtalk score --uem DIR`:
    the same JSON and the same warnings."""
    path = EXAMPLES / "red-carpet" / "red-carpet.rttm"
    conv = overtalk.read(path)["red-carpet"]
    hyp = tmp_path / "hyp.rttm"
    hyp.write_text("".join(
        f"SPEAKER red-carpet 1 {s.start:.3f} {s.end - s.start:.3f} <NA> <NA> {'X' if k % 3 else s.speaker} <NA> <NA>\n"
        for k, s in enumerate(conv.segments())
    ))
    uems = tmp_path / "uems"
    (uems / "deeper").mkdir(parents=True)
    (uems / "a.uem").write_text("red-carpet 1 0 4\n")
    (uems / "deeper" / "B.UEM").write_text("red-carpet 1 6 9\nother 1 0 5\n")
    (uems / "notes.txt").write_text("not a UEM\n")
    # Hidden entries are passed over: a macOS resource fork, a Jupyter checkpoint copy.
    (uems / "._a.uem").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    (uems / ".ipynb_checkpoints").mkdir()
    (uems / ".ipynb_checkpoints" / "a-checkpoint.uem").write_text("red-carpet 1 0 20\n")
    got = overtalk.score(path, hyp, uem=uems, collar=0.25)
    assert got.to_json().encode() == cli("score", "-r", path, "-s", hyp, "--uem", uems, "--collar", "0.25", "--format", "json")
    # Only the regions: other than the whole recording, and the union of both files.
    assert got.total != overtalk.score(path, hyp, collar=0.25).total
    assert got.total == overtalk.score(path, hyp, uem={"red-carpet": [(0, 4), (6, 9)]}, collar=0.25).total
    assert got.total != overtalk.score(path, hyp, uem=uems / "a.uem", collar=0.25).total
    with pytest.warns(overtalk.OvertalkWarning) as caught:
        overtalk.score(path, hyp, uem=str(uems))
    said = [str(w.message) for w in caught]
    assert said == cli_warnings("score", "-r", path, "-s", hyp, "--uem", uems)
