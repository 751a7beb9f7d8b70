"""A server strategy: one probability row per situation, in the flat layout of rules.py."""

from dataclasses import dataclass

import numpy as np

from engine.twocarddraw import rules as R


@dataclass(frozen=True, eq=False)
class Strategy:
    """bets: the test's bet sizes; probs: (N_ROWS, 3) float64, each row a distribution."""

    bets: R.BetSizes
    probs: np.ndarray

    def __post_init__(self):
        if self.probs.shape != (R.N_ROWS, 3):
            raise ValueError(f"strategy needs {R.N_ROWS} rows of 3 probabilities, got shape {self.probs.shape}")

    @property
    def round1(self) -> np.ndarray:
        """[bets, hand, action]"""
        return self.probs[: R.DRAW_BASE].reshape(R.MAX_BETS + 1, R.N_HANDS, 3)

    @property
    def draw(self) -> np.ndarray:
        """[history, player drew, hand, server draws]"""
        return self.probs[R.DRAW_BASE : R.ROUND2_BASE].reshape(R.N_HISTORIES, 3, R.N_HANDS, 3)

    @property
    def round2(self) -> np.ndarray:
        """[history, player drew, server drew, bets2, hand, action]"""
        return self.probs[R.ROUND2_BASE :].reshape(R.N_HISTORIES, 3, 3, R.MAX_BETS + 1, R.N_HANDS, 3)

    def with_probs(self, probs: np.ndarray) -> "Strategy":
        return Strategy(self.bets, np.ascontiguousarray(probs, dtype=np.float64))


def uniform_over_allowed(bets: R.BetSizes) -> Strategy:
    """Every allowed action equally likely (a deterministic, legal reference strategy)."""
    mask = R.allowed_actions().astype(np.float64)
    return Strategy(bets, mask / mask.sum(axis=1, keepdims=True))


def mean_strategy(strategies: list[Strategy]) -> Strategy:
    if not strategies:
        raise ValueError("mean of no strategies")
    return strategies[0].with_probs(np.mean([s.probs for s in strategies], axis=0))
