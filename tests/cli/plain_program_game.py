"""A game whose play_program is a plain function (no referee, no whole-match form) that keeps the units it
finished when told to (keep_on_interrupt), for the generic judge's interrupt test; loaded by a real `cardlab`
process through CARDLAB_EXTRA_GAMES."""

import dataclasses
import subprocess

import numpy as np

from engine.core.log import ChunkLog
from tests.flows import toy_game


def play_program(config, *, seed, first, count, options=None, keep_on_interrupt=False):
    """One process for the call, a unit's index in and a number out per unit: the payoff of unit i is the
    program's answer (the counter answers how many units it has seen)."""
    proc = subprocess.Popen(config.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    payoffs: list[float] = []
    try:
        for unit in range(first, first + count):
            proc.stdin.write(f"{unit}\n")
            proc.stdin.flush()
            payoffs.append(float(proc.stdout.readline()))
    except KeyboardInterrupt:  # the unit in play is dropped; every one before it is kept
        if not keep_on_interrupt:
            raise
    finally:
        proc.kill()
        proc.wait()
    return ChunkLog(first=first, payoffs=np.array(payoffs, dtype=np.float64))


SPEC = dataclasses.replace(toy_game.SPEC, name="plain-toy", play_program=play_program, commands=None)
