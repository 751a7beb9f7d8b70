"""The search bot against greedy bots: its win share (Wilson interval; ties count as fractions of a win)."""

import time
from dataclasses import dataclass

from engine.core.stats import Proportion, wilson
from flows.games.splendor import SPEC, SplendorOptions

TARGETS = {2: 0.90, 4: 0.60}  # the win-share targets at 1 s/move


@dataclass(frozen=True)
class TableResult:
    players: int
    share: Proportion
    seconds: float


def strength_at(spec, config, *, players: int, games: int, seed: int) -> TableResult:
    started = time.perf_counter()
    log = SPEC.play_chunk(spec, config, seed=seed, first=0, count=games,
                             options=SplendorOptions(players=players, opponent="greedy"))
    return TableResult(players=players, share=wilson(float(log.payoffs.sum()), games),
                       seconds=time.perf_counter() - started)
