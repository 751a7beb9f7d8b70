"""Only the project's own user errors become one `error:` line with exit 2; a bug keeps its traceback.

A plain KeyError/ValueError/RuntimeError from inside a command is a bug: the guard must let it through
(a traceback, exit 1) instead of printing it as if the user had typed something wrong."""

import contextlib
import io
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

import flows.games
from bots.base import ConfigError
from cardlab import cli
from cardlab.errors import USER_ERRORS
from engine.core.errors import BadValue, MissingFile, NotFound, Unavailable, UnknownName, UserError
from flows.games import UnknownGame
from flows.league_spec import LeagueError
from flows.match import ChunkFailed
from flows.store import NoRoom
from flows.sweep import ResumeRefused, SweepFailed
from flows.sweep_record import SweepIncomplete, SweepNotFound
from tests.cli.test_validation import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("bug", [ValueError, KeyError, RuntimeError, LookupError, FileNotFoundError])
def test_a_builtin_error_from_a_bug_escapes_the_guard(monkeypatch, bug):
    def broken():
        raise bug("internal invariant broken")

    monkeypatch.setattr(flows.games, "names", broken)
    err = io.StringIO()
    with (mock.patch.object(sys, "argv", ["cardlab", "games"]), contextlib.redirect_stderr(err),
          pytest.raises(bug, match="internal invariant broken")):
        cli.main()
    assert "error:" not in err.getvalue()


@pytest.mark.parametrize("kind", [BadValue, UnknownName, NotFound, MissingFile, Unavailable])
def test_a_user_error_from_inside_a_command_is_one_line_with_exit_2(monkeypatch, kind):
    def refused():
        raise kind("nothing here; accepted: something else")

    monkeypatch.setattr(flows.games, "names", refused)
    result = run("games")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == ["error: nothing here; accepted: something else"]  # no KeyError quotes


def test_a_bug_prints_its_traceback_and_does_not_exit_2(tmp_path):
    # The real entry point in a fresh interpreter: what a user sees when a command has a bug.
    script = ("import sys, flows.games\n"
              "def broken():\n"
              "    raise KeyError('the registry lost a game')\n"
              "flows.games.names = broken\n"
              "from cardlab import cli\n"
              "sys.argv = ['cardlab', 'games']\n"
              "cli.main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"CARDLAB_DB": str(tmp_path / "h.duckdb"), "PATH": "/usr/bin:/bin",
                               "HOME": str(tmp_path)})
    assert done.returncode == 1, done.stderr
    assert "Traceback (most recent call last)" in done.stderr and "the registry lost a game" in done.stderr
    assert "error: " not in done.stderr


def test_only_the_projects_user_errors_are_guarded():
    assert USER_ERRORS == (UserError,)


@pytest.mark.parametrize("kind, old", [
    (ConfigError, ValueError), (UnknownGame, KeyError), (ResumeRefused, ValueError), (SweepFailed, RuntimeError),
    (SweepNotFound, LookupError), (SweepIncomplete, ValueError), (NoRoom, RuntimeError),
    (ChunkFailed, RuntimeError), (LeagueError, ValueError), (MissingFile, FileNotFoundError),
])
def test_project_errors_are_user_errors_and_still_their_old_type(kind, old):
    # Callers that catch the old built-in type keep working.
    assert issubclass(kind, UserError) and issubclass(kind, old)
    assert str(kind("said once")) == "said once"


@pytest.mark.parametrize("args, message", [
    (("splendor", "replay", "{missing}"), "RECORD_FILE {missing} does not exist; accepted: an existing file"),
    (("splendor", "replay", "{folder}"), "RECORD_FILE {folder} is a folder; accepted: an existing file"),
    (("judge", "tractor", "--input", "{missing}"), "--input {missing} does not exist; accepted: an existing file"),
])
def test_a_missing_input_file_is_our_one_line_not_clicks_box(tmp_path, args, message):
    names = {"missing": tmp_path / "missing.txt", "folder": tmp_path}
    result = run(*(arg.format(**names) for arg in args))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [f"error: {message.format(**names)}"]


def test_a_game_that_does_not_load_is_named_only_when_used(monkeypatch):
    """Help lists the games that load; naming a broken one gets one line, not a traceback."""
    from typer.testing import CliRunner

    from cardlab.cli import app

    monkeypatch.setenv("CARDLAB_EXTRA_GAMES", "broken=no_such_package.game")
    listed = CliRunner().invoke(app, ["judge", "--help"])
    assert listed.exit_code == 0 and "holdem-training" in listed.output and "broken" not in listed.output
    named = CliRunner().invoke(app, ["judge", "broken", "--", "x"])
    assert named.exit_code != 0 and "game 'broken' cannot be loaded: module no_such_package is missing" in str(
        named.exception or named.output)
