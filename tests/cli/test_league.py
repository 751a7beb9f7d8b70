"""`cardlab league` as scripts call it: one JSON object, leaderboard best first."""

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from cardlab import cli, prefect_local

PROGRAMS = Path(__file__).parents[1] / "flows" / "league_programs"


def cardlab(monkeypatch, *args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "argv", ["cardlab", *args])
    monkeypatch.setattr(prefect_local, "ensure", lambda **kw: None)  # the session's Prefect server will do
    with pytest.raises(SystemExit) as exit_info, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        cli.main()
        sys.exit(0)
    return exit_info.value.code or 0, out.getvalue(), err.getvalue()


def _reference(tmp_path) -> str:
    """The project's exported simulator: agrees with the reference on every case."""
    code, _, err = cardlab(pytest.MonkeyPatch(), "export", "tractor", "--out", str(tmp_path / "sim"))
    assert code == 0, err
    return f"{sys.executable} {tmp_path / 'sim' / 'simulate.py'}"


@pytest.mark.slow  # a league of programs
def test_tractor_league_json_ranks_simulators_by_agreement(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "h.duckdb"))
    monkeypatch.setenv("CARDLAB_OUT", str(tmp_path / "out"))
    reference = _reference(tmp_path)
    args = ["league", "tractor", "--program", f"ref={reference}", "--program", "echo=cat",
            "--program", f"silent={sys.executable} -c pass", "--games", "2", "--opt", "cases=3", "--json"]
    code, out, err = cardlab(monkeypatch, *args)
    assert code == 0, err
    doc = json.loads(out)
    board = doc["leaderboard"]
    assert [row["name"] for row in board][0] == "ref" and board[0]["score"] == 1.0
    assert 0.5 < board[0]["ci_low"] < 1.0  # Wilson over 6 cases: agreement on all is not certainty
    assert {row["name"]: (row["games"], row["score"]) for row in board[1:]} == {"echo": (2, 0.0), "silent": (2, 0.0)}
    assert doc["played"] == 6 and Path(doc["page"]).is_file()
    code, out, _ = cardlab(monkeypatch, *args[:-4], "3", "--opt", "cases=3", "--json")  # one more test each
    assert code == 0 and json.loads(out)["played"] == 3


@pytest.mark.slow  # leagues through the CLI
def test_league_file_runs_and_bad_input_gets_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "h.duckdb"))
    league = tmp_path / "l.toml"
    league.write_text('game = "tractor"\n[programs]\nsilent = "cat"\n')
    code, out, err = cardlab(monkeypatch, "league", "run", str(league), "--games", "1", "--opt", "cases=2")
    assert code == 2 and "a league file sets its own name and options" in err
    code, out, err = cardlab(monkeypatch, "league", "run", str(league), "--games", "1")
    assert code == 0, err
    assert "silent" in out and "1 of 1 games played now" in out
    for args, says in [(("league", "chess", "--program", "a=cat"), "unknown game 'chess'; accepted:"),
                       (("league", "tractor"), "a league needs programs"),
                       (("league", "tractor", "--program", "cat"), "NAME=COMMAND"),
                       (("league", "run"), "needs the league file")]:
        code, _, err = cardlab(monkeypatch, *args)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
