"""CodinGame Hold'em bots: registry of in-process bots (numba equity wired in)."""

import numpy as np

from bots.base import BotSpec
from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.strategies import (
    AggressiveBot,
    AggressiveConfig,
    CallingStation,
    EquityConfig,
    MonteCarloBot,
    PushFoldBot,
    PushFoldConfig,
    StationConfig,
)
from engine.cg_holdem._kernels import equity_vs_random
from engine.core.seeds import stream


class NumbaEquity:
    """Monte Carlo equity vs random hands on a SplitMix64 stream the bot owns."""

    def __init__(self, key: int = 0):
        self.state = stream(key)

    def reseed(self, key: int) -> None:
        self.state = stream(key)

    def __call__(self, hole, board, opponents: int, samples: int) -> float:
        return equity_vs_random(np.array((*hole, *board), np.int64), opponents, samples, self.state)


def _with_equity(cls):
    return lambda config: cls(config, NumbaEquity(config.seed))


BOTS: dict[str, BotSpec] = {
    "station": BotSpec("station", StationConfig, CallingStation, "calls every bet (calling station)"),
    "montecarlo": BotSpec("montecarlo", EquityConfig, _with_equity(MonteCarloBot),
                          "Monte Carlo equity vs random hands against pot odds (numba)"),
    "pushfold": BotSpec("pushfold", PushFoldConfig, PushFoldBot,
                        "preflop all-in or fold from computed heads-up push/fold ranges"),
    "aggressive": BotSpec("aggressive", AggressiveConfig, _with_equity(AggressiveBot),
                          "tunable: raises first in, push/fold when short, value bets and c-bets"),
    "ranged": BotSpec("ranged", RangedConfig, RangedBot,
                      "equity vs ranges narrowed by each action, equilibrium push/fold, ICM (issue 32)"),
}
