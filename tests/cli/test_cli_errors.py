"""Paths and numbers that used to end a command in a traceback end it in one line (issue 29).

Each case runs the real command line over a real, small sweep in a fresh hand log, so the
command would get as far as writing if its option were not checked first."""

import pytest

from tests.cli.test_validation import refused, run


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A complete two-config Hold'em Training sweep (no Prefect) in this module's own hand log: (id, log)."""
    from tests.reports.conftest import make_sweep

    db = tmp_path_factory.mktemp("cli-errors") / "handlog.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDLAB_DB", str(db))
        return make_sweep("holdem-training", "exploit", [(), (("future_flop", "0.5"),)], units=20), db


@pytest.fixture
def sweep(swept, tmp_path, monkeypatch) -> str:
    """The sweep's id, with its hand log as the workspace's and outputs under tmp_path/out."""
    monkeypatch.setenv("CARDLAB_DB", str(swept[1]))
    monkeypatch.setenv("CARDLAB_OUT", str(tmp_path / "out"))
    return swept[0]


@pytest.fixture
def blocker(tmp_path):
    """A plain file where a folder is wanted."""
    path = tmp_path / "plain.txt"
    path.write_text("x")
    return path


def _commands(sweep: str) -> dict[str, tuple[str, ...]]:
    return {"pick": ("pick", "holdem-training"), "report": ("report", sweep),
            "replay": ("replay", "--match", f"{sweep}-c0"), "phh export": ("phh", "export", "--match", f"{sweep}-c0")}


@pytest.mark.parametrize("command", ["pick", "report", "replay", "phh export"])
def test_an_existing_file_or_an_uncreatable_folder_as_out_is_one_line(sweep, blocker, command):
    args = _commands(sweep)[command]
    refused(run(*args, "--out", str(blocker)), "--out", str(blocker), "is a file", "accepted: a writable folder")
    below = blocker / "bundle"  # a folder cannot be made inside a file
    refused(run(*args, "--out", str(below)), "--out", str(below), "cannot create it", "Not a directory")
    assert blocker.read_text() == "x" and not (blocker.parent / "out").exists()


def test_a_unit_past_any_match_is_one_line(sweep):
    refused(run("replay", "--match", f"{sweep}-c0", "--unit", "99999999999"), "--unit 99999999999",
            "[0, 999,999,999]")


def test_ingest_into_a_text_file_is_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    refused(run("ingest", "--db", str(text)), "--db", str(text), "is a file", "accepted: a hand log folder")
    assert text.read_text() == "not a database\n"


def test_twocarddraw_generate_refuses_a_folder_and_zero_steps_before_generating(tmp_path):
    args = ("twocarddraw", "generate", "--bet1", "1", "--bet2", "2")
    folder = run(*args, "--steps", "10", "--out", str(tmp_path))
    refused(folder, "--out", "is a folder", "accepted: a file path")
    refused(run(*args, "--steps", "0", "--out", str(tmp_path / "s.txt")), "--steps 0", "[1, 1,000,000,000]")
    assert list(tmp_path.iterdir()) == [] and "wrote" not in folder.output
