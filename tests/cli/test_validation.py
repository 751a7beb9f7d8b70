"""Bad values stop a command in one line before anything is played or logged (issue 13).

Each case runs the real command line (`cardlab.cli.main`, the shell's entry point) with a fresh hand
log path, and checks the exit code (2), that stderr is one line naming the option or key and
what it accepts, and that nothing was played: no hand log was created, no games printed.
"""

import contextlib
import io
import stat
import sys
from types import SimpleNamespace
from unittest import mock

import pytest

from bots.base import SEED_MAX
from cardlab import cli
from flows.store import read_only


@pytest.fixture
def handlog(tmp_path, monkeypatch):
    """A hand log path that does not exist yet: any play would create it."""
    path = tmp_path / "logs" / "handlog.duckdb"
    monkeypatch.setenv("CARDLAB_DB", str(path))
    return path


def run(*args: str) -> SimpleNamespace:
    out, err = io.StringIO(), io.StringIO()
    with (mock.patch.object(sys, "argv", ["cardlab", *args]), pytest.raises(SystemExit) as exit_info,
          contextlib.redirect_stdout(out), contextlib.redirect_stderr(err)):
        cli.main()
        sys.exit(0)
    return SimpleNamespace(exit_code=exit_info.value.code or 0, output=out.getvalue(), stderr=err.getvalue())


def refused(result, *words: str) -> str:
    """The one error line, after checking the exit code and that it names each of `words`."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# ------------------------------------------------------------------------ bot config values
@pytest.mark.parametrize(("game", "bot", "setting", "words"), [
    ("holdem-training", "rate_equity", "threshold=nan", ("threshold=nan", "[0, 1]")),
    ("holdem-training", "rate_equity", "threshold=inf", ("threshold=inf", "[0, 1]")),
    ("holdem-training", "exploit", "future_flop=nan", ("future_flop=nan", "[0, 10]")),
    ("holdem-training", "rate_equity", "rollouts=1e23", ("rollouts='1e23'", "integer")),
    ("holdem-training", "rate_equity", f"rollouts={10**23}", (f"rollouts={10**23}", "[1, 3,000,000]")),
    ("holdem-training", "exploit", "runouts_flop=100000000", ("runouts_flop=100000000", "[1, 1000]")),
    ("holdem-training", "exploit", "raise_pcts=25/0/100", ("raise_pcts='25/0/100'", "(0)", "[1, 100,000]")),
    ("holdem-training", "exploit", "seed=-1", ("seed=-1", "[0, 2^63 - 1]")),
    ("cg-holdem", "montecarlo", "bet_fraction=-5", ("bet_fraction=-5.0", "(0, 10]")),
    ("splendor", "mcts", "nodes=1000000000", ("nodes=1000000000", "[16, 4,000,000]")),
    ("twocarddraw", "learner", "prior_scale=-inf", ("prior_scale=-inf", "(0, 1000]")),
    ("tractor", "rule", "min_block_rank=12", ("min_block_rank=12", "[0, 11]")),
])
def test_a_bot_value_out_of_range_is_refused_before_play(handlog, game, bot, setting, words):
    result = run("match", game, "--bot", bot, "--set", setting, "--hands", "2", "--chunk", "2")
    refused(result, *words)
    assert not handlog.exists() and "per " not in result.output


@pytest.mark.parametrize(("game", "option", "words"), [
    ("holdem-training", "bob_rollouts=0", ("bob_rollouts=0", "[1, 10,000]")),
    ("splendor", "opponent=nobody", ("opponent='nobody'", "'greedy'")),
    ("splendor", "opponent_set=points=nan", ("points=nan", "[-1000, 1000]")),
    ("cg-holdem", "players=5", ("players=5", "[2, 4]")),
    ("twocarddraw", "bet1=9", ("bet1=9", "[1, 5]")),
    ("tractor", "opponent=nobody", ("opponent='nobody'", "'rule'")),
])
def test_a_game_option_out_of_range_is_refused_before_play(handlog, game, option, words):
    refused(run("match", game, "--opt", option, "--hands", "2"), *words)
    assert not handlog.exists()


def test_a_sweep_grid_value_out_of_range_is_refused_before_play(handlog):
    result = run("sweep", "holdem-training", "--bot", "rate_equity", "--grid", "threshold=0.5,nan", "--hands", "10",
                 "--chunk", "10")
    refused(result, "threshold=nan", "[0, 1]")
    assert not handlog.exists()


# ------------------------------------------------------------------------ counts and seeds
@pytest.mark.parametrize("command", ["match", "sweep"])
@pytest.mark.parametrize(("option", "value", "accepted"), [
    ("--hands", "0", "[1, 1,000,000,000]"),
    ("--hands", "-1", "[1, 1,000,000,000]"),
    ("--chunk", "0", "[1, 1,000,000,000]"),
    ("--seed", str(2**63), "[0, 2^63 - 1]"),
    ("--seed", str(2**64 + 5), "[0, 2^63 - 1]"),
    ("--seed", "-1", "[0, 2^63 - 1]"),
])
def test_counts_and_seeds_outside_their_range_are_refused(handlog, command, option, value, accepted):
    refused(run(command, "holdem-training", option, value), option, value, accepted)
    assert not handlog.exists()


def test_sweep_workers_must_be_at_least_one(handlog):
    refused(run("sweep", "holdem-training", "--workers", "0"), "--workers 0", "[1, ")
    assert not handlog.exists()


@pytest.mark.parametrize(("args", "words"), [
    (("judge", "holdem-training", "--hands", "0", "--", "/bin/true"), ("--hands 0", "[1, ")),
    (("judge", "holdem-training", "--seed", str(2**63), "--", "/bin/true"), ("--seed", "[0, 2^63 - 1]")),
    (("judge", "holdem-training", "--cpu-seconds", "nan", "--", "/bin/true"), ("--cpu-seconds nan", "(0, ")),
    (("judge", "splendor", "--games", "0", "true"), ("--games 0", "[1, ")),
    (("judge", "twocarddraw", "--strategy", "x", "--hands", "-1"), ("--hands -1", "[1, ")),
    (("judge", "tractor", "--rounds", "0"), ("--rounds 0", "[1, ")),
    (("judge", "cg-holdem", "--seed", "0", "true", "true"), ("--seed 0", "non-zero Java long")),
])
def test_judge_counts_seeds_and_limits_are_checked(handlog, args, words):
    refused(run(*args), *words)
    assert not handlog.exists()


def test_the_largest_seed_plays_and_is_logged_as_given(handlog, monkeypatch):
    """2^63 - 1 is accepted, played and logged as that seed, and replays the same units."""

    monkeypatch.setenv("CARDLAB_EXTRA_GAMES", "toy=tests.flows.toy_game")
    first = run("match", "toy", "--hands", "50", "--chunk", "25", "--seed", str(SEED_MAX))
    again = run("match", "toy", "--hands", "50", "--chunk", "25", "--seed", str(SEED_MAX))
    assert first.exit_code == 0 and again.exit_code == 0, (first.output, first.stderr)
    con = read_only(str(handlog))
    try:
        seeds = con.sql("SELECT DISTINCT seed FROM matches").fetchall()
        sums = con.sql("SELECT match_id, sum(payoff) FROM units GROUP BY match_id").fetchall()
    finally:
        con.close()
    assert seeds == [(SEED_MAX,)]
    assert len(sums) == 2 and sums[0][1] == sums[1][1]


# ------------------------------------------------------------------------ hand log paths
def test_a_hand_log_that_is_a_file_is_refused_before_play(tmp_path, monkeypatch):
    binary = tmp_path / "notes.bin"
    binary.write_bytes(bytes(range(256)))
    monkeypatch.setenv("CARDLAB_DB", str(binary))
    refused(run("match", "holdem-training", "--hands", "2"), str(binary), "is a file", "accepted: a hand log folder")
    refused(run("sweep", "holdem-training", "--hands", "2"), str(binary), "is a file")
    refused(run("judge", "splendor", "--log", "true"), str(binary), "is a file")
    assert binary.read_bytes() == bytes(range(256))


@pytest.mark.parametrize("command", [("twocarddraw", "fit"), ("splendor", "report"), ("sql", "SELECT 1")])
def test_db_options_that_are_files_are_refused(tmp_path, monkeypatch, command):
    binary = tmp_path / "notes.bin"
    binary.write_bytes(b"\x00\x01 not a database")
    refused(run(*command, "--db", str(binary)), "--db", "is a file", "accepted: a hand log folder")
    monkeypatch.setenv("CARDLAB_DB", str(binary))  # the default hand log is checked the same way
    refused(run(*command), "CARDLAB_DB", "is a file")


# ------------------------------------------------------------------------ programs
@pytest.mark.parametrize(("args", "program"), [
    (("judge", "splendor", "--", "/nonexistent/a", "/nonexistent/b"), "/nonexistent/a"),
    (("judge", "splendor", "python3 /nonexistent/a.py", "python3 /nonexistent/b.py"), "/nonexistent/a.py"),
    (("judge", "cg-holdem", "--seed", "5", "/nonexistent/a", "/nonexistent/b"), "/nonexistent/a"),
    (("judge", "cg-holdem", "--seed", "5", "no-such-program-here", "true"), "no-such-program-here"),
    (("judge", "holdem-training", "--", "/nonexistent/bot"), "/nonexistent/bot"),
    (("judge", "tractor", "--program", "/nonexistent/simulator"), "/nonexistent/simulator"),
])
def test_a_missing_program_is_refused_before_any_play(handlog, args, program):
    result = run(*args)
    refused(result, program, "accepted: an executable file")
    assert "game 1" not in result.output and not handlog.exists()


def test_a_program_that_is_not_executable_is_refused(tmp_path, handlog):
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\n")
    script.chmod(stat.S_IRUSR | stat.S_IWUSR)
    refused(run("judge", "holdem-training", "--", str(script)), str(script), "not executable")


def test_an_interpreter_running_existing_code_is_accepted_by_the_check(tmp_path, handlog):
    """The check refuses only what cannot run: python3 -c '...' and an existing script pass it
    (the match then runs and fails on the program's answers, not on the check)."""
    from cardlab import checks

    script = tmp_path / "bot.py"
    script.write_text("print('hi')\n")
    assert checks.program_problem([sys.executable, str(script)]) is None
    assert checks.program_problem(["python3", "-c", "import os.path"]) is None
    assert "does not exist" in checks.program_problem(["python3", str(tmp_path / "gone.py")])


# ------------------------------------------------------------------------ output paths
def test_a_transcript_into_a_missing_folder_is_written_there(tmp_path, handlog):
    """The folder is made before the match, so the transcript cannot fail after it."""
    transcript = tmp_path / "new" / "deeper" / "lines.txt"
    result = run("judge", "holdem-training", "--hands", "1", "--no-log", "--transcript", str(transcript), "--",
                 "/bin/true")
    assert result.exit_code == 1, (result.output, result.stderr)  # /bin/true answers nothing: the match ends
    assert transcript.is_file() and "status ended" in result.output  # no -1: the reference prints it for the budget


@pytest.mark.parametrize("where", ["folder", "under a file"])
def test_a_transcript_path_that_cannot_be_written_is_refused_before_play(tmp_path, handlog, where):
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    path = tmp_path if where == "folder" else blocker / "sub" / "lines.txt"
    result = run("judge", "holdem-training", "--hands", "1", "--transcript", str(path), "--", "/bin/true")
    refused(result, "--transcript", str(path))
    assert "hands " not in result.output and not handlog.exists()


@pytest.mark.parametrize("game", ["holdem-training", "splendor", "tractor", "twocarddraw"])
def test_export_into_a_file_or_an_uncreatable_folder_is_refused(tmp_path, game):
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    refused(run("export", game, "--out", str(blocker)), "--out", "is a file")
    refused(run("export", game, "--out", str(blocker / "bundle")), "--out", "cannot create")
    assert blocker.read_text() == "x"


# ------------------------------------------------------------------------ accepted silently before (issue 29)
@pytest.mark.parametrize(("args", "words"), [
    (("sweep", "holdem-training", "--resume", ""), ("--resume ''", "is empty", "sweep id")),
    (("sweep", "holdem-training", "--bot", ""), ("--bot ''", "is empty", "bot name")),
    (("match", "holdem-training", "--bot", " "), ("--bot ' '", "is empty", "bot name")),
    (("pick", "holdem-training", "--sweep", ""), ("--sweep ''", "is empty", "sweep id")),
])
def test_an_empty_name_is_refused_not_read_as_the_default(handlog, args, words):
    """An unset shell variable (`--resume "$ID"`) must not start a new full default sweep."""
    result = run(*args)
    refused(result, *words)
    assert not handlog.exists() and "sweep s-" not in result.output


@pytest.mark.parametrize(("grid", "words"), [
    (("--grid", "rollouts=50", "--grid", "rollouts=80"), ("key 'rollouts' is given twice", "rollouts=50,80")),
    (("--grid", "threshold=0.5,0.5"), ("value '0.5' is given twice",)),
    (("--grid", "threshold=0.5,.5"), ("two of the configs are the same", "threshold=.5")),
    (("--grid", "threshold=0.4,0.6", "--set", "threshold=0.3"), ("--grid and --set both give threshold",)),
])
def test_a_grid_that_would_drop_or_repeat_a_config_is_refused(handlog, grid, words):
    result = run("sweep", "holdem-training", "--bot", "rate_equity", *grid, "--hands", "10", "--chunk", "10")
    refused(result, *words)
    assert not handlog.exists()


@pytest.mark.parametrize("game", ["holdem-training", "cg-holdem", "twocarddraw"])
def test_export_into_an_empty_out_is_refused_not_written_here(tmp_path, monkeypatch, game):
    monkeypatch.chdir(tmp_path)
    refused(run("export", game, "--out", ""), "--out ''", "is empty")
    refused(run("export", game, "--out="), "--out ''", "is empty")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("stagger", "words"), [
    ("99999999999", ("--stagger 99999999999", "[0, 1,439]")),
    ("400", ("--stagger 400", "span 1,600 minutes, past a day", "at most 359 minutes for 5 games")),
])
def test_a_stagger_that_wraps_past_a_day_is_refused(stagger, words):
    names = ("holdem-training", "cg-holdem", "splendor", "tractor", "twocarddraw")
    result = run("serve", "--dry-run", "--stagger", stagger, *[arg for name in names for arg in ("--game", name)])
    refused(result, *words)
    assert "nightly-" not in result.output


@pytest.mark.parametrize(("args", "words"), [
    (("match", "holdem-training", "--bot", "rate_equity", "--set", "threshold=\uff11"),
     ("threshold='\uff11'", "not a number in ASCII digits")),
    (("match", "holdem-training", "--bot", "exploit", "--set", "raise_pcts=25/\uff15\uff10"),
     ("raise_pcts=", "in ASCII digits")),
    (("match", "holdem-training", "--opt", "bob_rollouts=\u0665\u0660"), ("bob_rollouts=", "in ASCII digits")),
    (("twocarddraw", "bank", "--pair", "1,\uff12"), ("--pair", "not an integer")),
])
def test_digits_of_other_scripts_are_refused_in_numeric_settings(handlog, args, words):
    """int() and float() read a full-width '１' or an Arabic-Indic '٥' as digits; settings take ASCII."""
    refused(run(*args, "--hands", "2") if args[0] == "match" else run(*args), *words)
    assert not handlog.exists()
