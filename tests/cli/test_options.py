"""Bots and k=v settings are read by one helper (cardlab.options), whatever the command: a bad part
stops the command with one `error:` line naming it and what is accepted, before anything is played
or written. Every case runs the real entry point (cardlab.cli.main)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import flows.store
from flows.store import read_only
from tests.cli.test_validation import refused, run

ROOT = Path(__file__).resolve().parents[2]
HT_BOTS = "accepted: checker, exploit, rate_equity"


@pytest.fixture
def handlog(tmp_path, monkeypatch):
    path = tmp_path / "logs" / "handlog.duckdb"
    monkeypatch.setenv("CARDLAB_DB", str(path))
    return path


@pytest.mark.parametrize(("args", "words"), [
    (("match", "holdem-training", "--bot", "robot"), ("--bot 'robot': unknown bot for holdem-training", HT_BOTS)),
    (("match", "holdem-training", "--bot", "rate_equity", "--set", "threshold"),
     ("--set 'threshold': not key=value", "accepted: key=value with a key of raise_fraction, rollouts, threshold")),
    (("match", "holdem-training", "--opt", "bob_rollouts"), ("--opt 'bob_rollouts': not key=value",
                                                             "accepted: key=value")),
    (("match", "holdem-training", "--set", "=3"), ("--set '=3': not key=value", "accepted: key=value")),
    (("sweep", "holdem-training", "--bot", "robot"), ("--bot 'robot': unknown bot for holdem-training", HT_BOTS)),
    (("demo", "--game", "holdem-training", "--bot", "robot"), ("--bot 'robot': unknown bot for holdem-training",
                                                                HT_BOTS)),
    (("sweep", "holdem-training", "--set", "threshold"), ("--set 'threshold': not key=value", "accepted: key=value")),
    (("sweep", "holdem-training", "--opt", "x"), ("--opt 'x': not key=value", "accepted: key=value")),
    (("judge", "tractor", "--bot", "nobody"), ("--bot 'nobody': unknown bot", "accepted: random, rule")),
    (("judge", "tractor", "--opponent", "nobody"), ("--opponent 'nobody': unknown bot", "accepted: random, rule")),
    (("judge", "tractor", "--set", "min_block_rank"), ("--set 'min_block_rank': not key=value",
                                                        "accepted: key=value with a key of")),
    (("cg-holdem", "tournament", "--bot", "nobody", "--players", "2"),
     ("--bot 'nobody': unknown bot", "accepted: aggressive, montecarlo, pushfold, ranged, station")),
    (("cg-holdem", "phh", "--out", "{tmp}/x.phh", "--bot", "montecarlo:samples", "--bot", "station"),
     ("--bot 'montecarlo:samples' setting 'samples': not key=value", "accepted: key=value with a key of", "samples")),
    (("cg-holdem", "phh", "--out", "{tmp}/x.phh", "--bot", ":samples=3", "--bot", "station"),
     ("--bot ':samples=3': no bot name", "accepted: NAME or NAME:k=v:k=v", "montecarlo")),
    (("bench", "cg-holdem", "speed", "--lineup", "pushfold/station/nobody/station"),
     ("--lineup 'nobody': unknown bot", "accepted: aggressive")),
    (("splendor", "tournament", "mcts:time_ms", "greedy"),
     ("BOTS 'mcts:time_ms' setting 'time_ms': not key=value", "accepted: key=value with a key of")),
    (("splendor", "tournament", "nobody", "greedy"), ("BOTS 'nobody': unknown bot", "accepted: greedy, mcts, random")),
    (("bench", "twocarddraw", "strength", "--bot", "   ", "--tests", "1"),
     ("--bot '   ': no bot name", "accepted: NAME or NAME k=v k=v", "learner")),
    (("bench", "twocarddraw", "strength", "--bot", "learner prior_scale", "--tests", "1"),
     ("--bot 'learner prior_scale' setting 'prior_scale': not key=value", "accepted: key=value with a key of")),
    (("judge", "holdem-training", "--env", "NOEQUALS", "--", "/bin/true"),
     ("--env 'NOEQUALS': not key=value", "accepted: NAME=VALUE")),
    (("judge", "holdem-training", "--env", "1X=2", "--", "/bin/true"),
     ("--env 1X='2': '1X' is not a variable name", "accepted: NAME=VALUE")),
    (("league", "twocarddraw", "--program", "a=true", "--opt", "hands"), ("--opt 'hands': not key=value",
                                                                            "accepted: key=value")),
    (("twocarddraw", "fit", "--checkpoints", "100,x"), ("--checkpoints '100,x': 'x' is not an integer",
                                                         "accepted: hand counts separated by commas")),
    (("twocarddraw", "bank", "--pair", "2"), ("--pair '2': 2 expected, 1 given", "accepted: bet sizes b1,b2")),
    (("bench", "splendor", "strength", "--players", "3"), ("--players '3': 3 is not measured", "accepted: 2, 4")),
    (("bench", "splendor", "strength", "--players", "2,9"), ("--players '2,9': 9 is out of range", "accepted: 2, 4")),
    (("bench", "splendor", "strength", "--players", ","), ("--players ',': no value", "accepted: 2, 4")),
    (("cg-holdem", "phh", "--out", "{tmp}/x.phh", "--bot", "station"), ("--bot: 1 given", "accepted: 2 to 4 bots")),
    (("cg-holdem", "phh", "--out", "{tmp}/x.phh", "--seed", "0"), ("--seed 0", "non-zero Java long")),
    (("bench", "cg-holdem", "speed", "--lineup", "pushfold/station"), ("--lineup 'pushfold/station': 2 bots",
                                                                       "accepted: 4 bot entries")),
    (("judge", "splendor", "--save-inputs", "true"), ("--save-inputs: given without --save",
                                                      "accepted: --save-inputs with --save DIR")),
    (("sweep", "holdem-training", "--program", "true", "--bot", "exploit"), ("--program and --bot: given together",
                                                                            "accepted: one of them")),
])
def test_a_bad_bot_or_setting_is_one_line_naming_it_and_what_is_accepted(handlog, tmp_path, args, words):
    result = run(*(arg.format(tmp=tmp_path) for arg in args))
    refused(result, *words)
    assert not handlog.exists() and "Traceback" not in result.stderr


@pytest.mark.parametrize("game", ["holdem-training", "splendor", "cg-holdem", "twocarddraw"])
def test_export_refuses_an_unknown_bot_or_setting_before_writing(tmp_path, game):
    out = tmp_path / "bundle"
    refused(run("export", game, "--out", str(out), "--bot", "nobody"), "--bot 'nobody': unknown bot", "accepted: ")
    refused(run("export", game, "--out", str(out), "--set", "seed"), "--set 'seed': not key=value",
            "accepted: key=value with a key of")
    assert not out.exists() or not any(out.iterdir())


# ------------------------------------------------------------------------ the judged-match log
def test_a_judged_match_is_logged_and_announced(handlog):

    result = run("judge", "tractor", "--rounds", "3", "--log")
    assert result.exit_code == 0, result.stderr
    match_id = result.output.split("logged match as ")[1].split()[0]
    con = read_only(str(handlog))
    try:
        assert con.sql(f"SELECT count(*) FROM units WHERE match_id = '{match_id}'").fetchall() == [(3,)]
    finally:
        con.close()


def test_a_hand_log_that_cannot_take_the_match_leaves_one_note_and_the_result(handlog, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(flows.store, "log_judged_match", full)
    result = run("judge", "tractor", "--rounds", "3", "--log")
    assert result.exit_code == 0, result.stderr
    assert "levels per round" in result.output and "logged match" not in result.output
    notes = [line for line in result.stderr.splitlines() if not line.startswith("judge tractor")]  # progress
    assert notes == ["note: the match was not logged (OSError: [Errno 28] No space left on device)"]


def test_a_bug_while_logging_keeps_its_traceback(handlog, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("a column the store lost")

    monkeypatch.setattr(flows.store, "log_judged_match", broken)
    with pytest.raises(KeyError, match="a column the store lost"):
        run("judge", "tractor", "--rounds", "3", "--log")


# ------------------------------------------------------------------------ the TwoCardDraw bundle
@pytest.mark.slow  # exports a bundle and judges it
def test_the_twocarddraw_bundle_forwards_its_options_to_the_judge(tmp_path):
    """run.py (no parser of its own) passes its options to `cardlab judge twocarddraw` with the frozen bot."""
    strategy, bundle = tmp_path / "s.txt", tmp_path / "b"
    assert run("twocarddraw", "generate", "--bet1", "2", "--bet2", "4", "--steps", "2000", "--out",
               str(strategy)).exit_code == 0
    assert run("export", "twocarddraw", "--bot", "learner", "--set", "prior_scale=2", "--out",
               str(bundle)).exit_code == 0
    done = subprocess.run([sys.executable, str(bundle / "run.py"), "--strategy", str(strategy), "--hands", "300",
                           "--seed", "5"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["bot"], out["config"]["prior_scale"], out["hands_played"], out["seed"]) == ("learner", 2.0, 300, 5)
    refused_run = subprocess.run([sys.executable, str(bundle / "run.py"), "--hands", "0", "--strategy",
                                  str(strategy)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert refused_run.returncode == 2 and refused_run.stderr.strip().splitlines()[-1].startswith("error: --hands 0")
