"""Seeds: one user-facing integer per match, turned into independent per-unit streams.

A unit is whatever a game repeats (a hand, a game, a round). Its randomness comes from
(match seed, unit index, purpose) only, so chunks of a match can run anywhere, in any
order, and still replay bit for bit.
"""

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
