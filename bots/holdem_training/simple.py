"""Baselines: a bot that always checks, and one that raises on the judge's RATE estimate."""

from dataclasses import dataclass

from bots.base import Ranged, ranged
from engine.holdem_training.rules import CHECK, RAISE, RATE_BUDGET, Action, View

_CHECK = Action(CHECK)


@dataclass(frozen=True)
class CheckerConfig:
    pass


class CheckerBot:
    """Checks every round: the showdown value of the pot, +10/+5/0 per hand."""

    def __init__(self, config: CheckerConfig = CheckerConfig()):
        self.config = config

    def start_match(self, hands: int, rate_budget: int) -> None:
        pass

    def act(self, view: View, rate=None) -> Action:
        return _CHECK

    def observe(self, view: View, action: Action, response: str) -> None:
        pass

    def end_hand(self, hand: int, delta: int) -> None:
        pass


@dataclass(frozen=True)
class RateEquityConfig(Ranged):
    # RATE t per decision (4 decisions x 75 = the 300-per-hand budget share); at most the match's budget
    rollouts: int = ranged(75, 1, RATE_BUDGET)
    threshold: float = ranged(0.6, 0.0, 1.0)  # raise when the RATE win rate is above this
    raise_fraction: float = ranged(0.5, 0.0, 1.0, lo_open=True)  # of the current stack


class RateEquityBot:
    """Asks the judge for its win rate each round and raises a stack fraction when it is high.

    Never spends past the budget: a decision without enough budget left just checks."""

    def __init__(self, config: RateEquityConfig = RateEquityConfig()):
        self.config = config
        self.budget_left = 0

    def start_match(self, hands: int, rate_budget: int) -> None:
        self.budget_left = rate_budget

    def act(self, view: View, rate) -> Action:
        t = self.config.rollouts
        if self.budget_left < t or view.stack < 1:
            return _CHECK
        self.budget_left -= t
        win, _tie = rate(t)
        if win > self.config.threshold:
            return Action(RAISE, max(1, min(view.stack, int(self.config.raise_fraction * view.stack))))
        return _CHECK

    def observe(self, view: View, action: Action, response: str) -> None:
        pass

    def end_hand(self, hand: int, delta: int) -> None:
        pass
