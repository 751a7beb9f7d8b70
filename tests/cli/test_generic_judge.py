"""The generic `cardlab judge GAME -- COMMAND` (a game with play_program and no judge of its own) runs the
program once for the whole match, as the contests' judges do: it remembers every unit it has played."""

import dataclasses
import json
import signal
import subprocess
import sys

import numpy as np
import pytest

from engine.core.log import ChunkLog
from flows import games
from tests.cli.test_cli import cardlab as run_cli
from tests.flows import toy_game

COUNTER = "import sys\nfor n, _ in enumerate(sys.stdin, 1):\n    print(n, flush=True)\n"


def play_program(config, *, seed, first, count, options=None):
    """A plain play_program (no whole-match form): one process per call; unit i's payoff is how many units
    the program has seen, so a restarted program starts counting again."""
    done = subprocess.run(config.argv(), input="".join(f"{first + i}\n" for i in range(count)),
                          capture_output=True, text=True, timeout=60, check=True)
    return ChunkLog(first=first, payoffs=np.array([float(x) for x in done.stdout.split()]))


def test_the_program_persists_for_the_whole_match(tmp_path, monkeypatch):
    spec = dataclasses.replace(toy_game.SPEC, name="persist-toy", play_program=play_program, commands=None)
    monkeypatch.setitem(games._extra, spec.name, spec)
    counter = tmp_path / "counter.py"
    counter.write_text(COUNTER)
    units = 250
    code, out, err = run_cli(None, monkeypatch, "judge", spec.name, "--units", str(units), "--seed", "3", "--json",
                             "--", sys.executable, str(counter))
    assert code == 0, err
    found = json.loads(out.strip().splitlines()[-1])
    assert found["units"] == units and found["status"] == "ok"
    assert found["mean"] == np.arange(1, units + 1).mean()  # 1..250: one process; a restart would count anew


# Counts the units it is given and, after the 40th, signals the judge that runs it (its parent), then goes on
SIGNALLER = ("import os, signal, sys\nfor n, _ in enumerate(sys.stdin, 1):\n    print(n, flush=True)\n"
             "    if n == 40:\n        os.kill(os.getppid(), signal.SIGTERM)\n")


@pytest.mark.slow  # a real cardlab process, signalled mid-match
def test_a_plain_play_program_keeps_the_units_played_when_signalled(env, tmp_path):
    """SIGTERM in the middle of a game whose play_program is plain (no referee loop) ends the judge as on the
    other paths: the units played are logged, the status says interrupted, exit 143."""
    from tests.cli.test_signals import CARDLAB, ROOT, query, stopped_cleanly

    program = tmp_path / "signaller.py"
    program.write_text(SIGNALLER)
    env = env | {"CARDLAB_EXTRA_GAMES": f"{env['CARDLAB_EXTRA_GAMES']},plain-toy=tests.cli.plain_program_game"}
    units = 100_000
    done = subprocess.run([CARDLAB, "judge", "plain-toy", "--units", str(units), "--log", "--json", "--",
                           sys.executable, str(program)], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    note = stopped_cleanly(done, signal.SIGTERM)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    kept = found["units"]
    assert found["status"] == "interrupted" and 0 < kept < units
    assert found["mean"] == np.arange(1, kept + 1).mean()  # the units the one program played, in order
    assert note.startswith(f"interrupted by SIGTERM: the {kept:,} flips played are logged as {found['match_id']}")
    assert query(env, f"SELECT count(*), sum(payoff) FROM units WHERE match_id = '{found['match_id']}'") == [
        (kept, float(np.arange(1, kept + 1).sum()))]


def test_a_play_program_that_cannot_keep_the_units_says_why_nothing_was_kept(capsys):
    from cardlab.commands.generic import _play_whole

    def whole_only(config, *, seed, first, count, options=None):  # no keep_on_interrupt: it can only raise
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _play_whole(whole_only, None, seed=1, count=5, options=None)
    assert "nothing played was kept: this game's play_program takes no keep_on_interrupt" in capsys.readouterr().err
