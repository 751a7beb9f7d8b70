"""Seeds: one user-facing integer per match, turned into independent per-unit streams.

A unit is whatever a game repeats (a hand, a game, a round). Its randomness comes from
(match seed, unit index, purpose) only, so chunks of a match can run anywhere, in any
order, and still replay bit for bit.
"""

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from engine.core import _rng
from engine.core.errors import BadValue


class Purpose(IntEnum):
    """Tags that separate the streams of one unit (deal vs the opponent's sampling, ...)."""

    DEAL = 1
    OPPONENT = 2
    JUDGE_SAMPLING = 3
    BOT = 4
    SEATS = 5


@dataclass(frozen=True)
class SeedRange:
    """The seeds one purpose takes by default: low <= seed < high."""

    purpose: str
    low: int
    high: int

    @property
    def default(self) -> int:
        return self.low + 1

    def __contains__(self, seed: int) -> bool:
        return self.low <= seed < self.high


# Each purpose's default seeds lie in a range of its own, so no command's default replays the deals another
# chose or confirmed on (with one default for all, `judge` after a sweep replayed the sweep's own hands and
# "confirmed" its estimate to the last digit). A seed the user types is theirs, of course.
SWEEP_SEEDS = SeedRange("sweep", 0, 1_000_000)  # sweeps, matches, the demo, nightly checks: default 1
JUDGE_SEEDS = SeedRange("judge", 1_000_000, 2_000_000)  # `cardlab judge GAME`: default 1,000,001
LEAGUE_SEEDS = SeedRange("league", 2_000_000, 3_000_000)  # `cardlab league`: default 2,000,001
CONFIRM_SEEDS = SeedRange("confirmation", 1 << 32, 1 << 62)  # derived from a sweep's seed, never typed
SEED_RANGES = (SWEEP_SEEDS, JUDGE_SEEDS, LEAGUE_SEEDS, CONFIRM_SEEDS)


def purpose_of(seed: int) -> str:
    """The purpose whose default range holds `seed` ("other" for none), said beside a result's deals."""
    return next((r.purpose for r in SEED_RANGES if seed in r), "other")


def match_key(seed: int) -> int:
    """Spread a user seed (any non-negative int) over 64 bits via numpy's SeedSequence."""
    if seed < 0:
        raise BadValue(f"seed must be a non-negative integer, got {seed}")
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


def unit_key(key: int, index: int, purpose: Purpose) -> int:
    return int(_rng.derive_key(np.uint64(key), np.uint64(index), np.uint64(int(purpose))))


def stream(key: int) -> np.ndarray:
    """A fresh stream state for the kernels in engine.core._rng."""
    return np.array([key], dtype=np.uint64)


def generator(key: int) -> np.random.Generator:
    """A numpy Generator for Python-level code that wants one (slower to create than a stream)."""
    return np.random.Generator(np.random.PCG64(key))
