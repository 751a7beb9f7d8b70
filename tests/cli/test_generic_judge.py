"""The generic `cardlab judge GAME -- COMMAND` (a game with play_program and no judge of its own) runs the
program once for the whole match, as the contests' judges do: it remembers every unit it has played."""

import dataclasses
import json
import subprocess
import sys

import numpy as np

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
