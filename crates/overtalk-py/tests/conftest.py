"""Where the tests find the repository's examples, the shared corpora and the `overtalk` binary.

Corpus-scale tests read the shared data (`OVERTALK_SHARED_DATA`, else `../shared/data` beside
the repository) and compare with the command line (`OVERTALK_BIN`, else the workspace's
`target/debug/overtalk` or `target/release/overtalk`). Without them they skip with the reason,
unless `OVERTALK_REQUIRE_SHARED_DATA=1` (set by `.ci/run`) turns the skip into a failure.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def _missing(reason: str):
    if os.environ.get("OVERTALK_REQUIRE_SHARED_DATA") == "1":
        pytest.fail(f"{reason} (OVERTALK_REQUIRE_SHARED_DATA=1)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared() -> pathlib.Path:
    p = pathlib.Path(os.environ.get("OVERTALK_SHARED_DATA") or REPO.parent / "shared" / "data")
    if not (p / "corpora" / "ami").is_dir():
        _missing(f"shared data not found at {p}")
    return p


@pytest.fixture(scope="session")
def ami(shared) -> pathlib.Path:
    return shared / "corpora" / "ami" / "only_words" / "rttms"


@pytest.fixture(scope="session")
def ami_files(ami) -> list:
    files = sorted(ami.glob("*/*.rttm"))
    assert len(files) == 170, f"expected the 170 AMI meetings, found {len(files)}"
    return files


def _binary() -> pathlib.Path:
    env = os.environ.get("OVERTALK_BIN")
    candidates = [pathlib.Path(env)] if env else [REPO / "target" / "debug" / "overtalk", REPO / "target" / "release" / "overtalk"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    _missing(f"the overtalk binary was not found ({', '.join(map(str, candidates))}); build it with `cargo build -p overtalk-cli`")


@pytest.fixture(scope="session")
def cli():
    c = _binary()

    def run(*args: str) -> bytes:
        return subprocess.run([str(c), "--quiet", *map(str, args)], check=True, capture_output=True).stdout

    return run


@pytest.fixture(scope="session")
def cli_warnings():
    """The warnings the command line prints for a run (`overtalk: warning: ` taken off), in
    order; the exit status is not checked (1 when a preset leaves a recording out)."""
    c = _binary()

    def run(*args: str) -> list:
        p = subprocess.run([str(c), *map(str, args)], capture_output=True, text=True)
        prefix = "overtalk: warning: "
        return [line[len(prefix):] for line in p.stderr.splitlines() if line.startswith(prefix)]

    return run
