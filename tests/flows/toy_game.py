"""A tiny game for testing the workspace without any contest's engine.

Each unit is a biased coin flip from the unit's own stream: payoff +1 with probability
``edge`` else -1. Besides payoffs it logs a raw table so the store path is exercised.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bots.base import BotSpec
from engine.core import seeds
from engine.core.log import ChunkLog
from flows.games.base import DecisionDefaults, GameSpec


@dataclass(frozen=True)
class CoinConfig:
    edge: float = 0.5
    label: str = "plain"
    crash_unit: int = -1  # a chunk holding this unit crashes while the file `crash_file` exists
    # (or, if the file says 'short', stops just before that unit)
    crash_file: str = ""


def play_chunk(spec, config, *, seed, first, count, options=None) -> ChunkLog:
    if first <= config.crash_unit < first + count and config.crash_file and Path(config.crash_file).exists():
        if Path(config.crash_file).read_text() != "short":
            raise RuntimeError(f"toy crash in unit {config.crash_unit}")
        count = config.crash_unit - first  # a bot that ends its match early: a partial chunk
    key = seeds.match_key(seed)
    flips = np.empty(count)
    for i in range(count):
        u = seeds.generator(seeds.unit_key(key, first + i, seeds.Purpose.DEAL)).random()
        flips[i] = 1.0 if u < config.edge else -1.0
    return ChunkLog(
        first=first,
        payoffs=flips,
        tables={"toy_flips": {"unit": np.arange(first, first + count, dtype=np.int32), "heads": flips > 0}},
        stats={"flips": float(count)},
    )


BOT = BotSpec(name="coin", config_type=CoinConfig, factory=lambda c: c, summary="a biased coin")


SPEC = GameSpec(
    name="toy", title="Toy coin game", unit="flip", bots={"coin": BOT}, default_bot="coin",
    play_chunk=play_chunk, sql_file=str(Path(__file__).with_name("toy.sql")), default_grid={"edge": ("0.4", "0.6")},
    default_units=200, payoff_bounds=(-1.0, 1.0), decision=DecisionDefaults(d1=0.1, batch=100, first_look=200),
)
