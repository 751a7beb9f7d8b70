"""Luck of the cards in TwoCardDraw, taken out of a hand's result without bias.

The judge knows the server's strategy, so the policy a bot played in hand n (its answer in every situation
of that hand, fixed once new_hand returns: engine/twocarddraw/exact.py) has an exact expected profit,
value[n], over everything the bot could not know (both deals, the draws' fresh cards, the server's sampled
actions). With profit[n] what the dealt cards gave,

    luck[n] = profit[n] - value[n]

has expectation zero given the bot's state before hand n (its policy depends on earlier hands only, and
hand n's cards and server draws are independent of them), so `profit - luck = value` keeps every mean
and carries no card luck at all. The policy is known only while the bot plays: a bot deterministic in
its config and the match seed is replayed here, hand by hand, to read it.
"""

import math

import numpy as np

from engine.twocarddraw.exact import _Evaluated
from engine.twocarddraw.judge import OK, play_match
from engine.twocarddraw.strategy import Strategy


class _Continued(_Evaluated):
    """The bot as one uninterrupted test across several play_match calls: init once, and the winnings
    new_hand reports counted from hand 0, not from the call's first hand."""

    def __init__(self, bot, strategy: Strategy):
        super().__init__(bot, strategy)
        self.started, self.offset = False, 0

    def init(self, bet1: int, bet2: int) -> int:
        if self.started:
            return 0
        self.started = True
        return self._bot.init(bet1, bet2)

    def new_hand(self, card1: int, card2: int, winnings: int) -> int:
        return super().new_hand(card1, card2, winnings + self.offset)


class PolicyReplay:
    """A bot's test replayed from hand 0, extended on demand: profits[n] as dealt and values[n], the
    exact expected profit of the policy it played in hand n."""

    def __init__(self, bot, strategy: Strategy, *, seed: int):
        if hasattr(bot, "reveal_strategy"):  # as the judge's play_bot does before the first hand
            bot.reveal_strategy(strategy)
        if hasattr(bot, "prepare_offline"):
            bot.prepare_offline(strategy.bets.bet1, strategy.bets.bet2)
        self._bot, self._strategy, self.seed = _Continued(bot, strategy), strategy, seed
        self.profits = np.zeros(0, dtype=np.int64)

    @property
    def values(self) -> np.ndarray:
        return np.array(self._bot.values[: len(self.profits)])

    def advance(self, hands: int) -> None:
        """Play on to `hands` hands in all (nothing when as many are already played)."""
        more = hands - len(self.profits)
        if more <= 0:
            return
        result = play_match(self._bot, self._strategy, seed=self.seed, first=len(self.profits), hands=more,
                            cpu_limit=math.inf)  # the judge's clock is not the replay's business
        if result.status != OK:
            raise ValueError(f"the replay stopped at hand {len(self.profits) + len(result.profits)}: "
                             f"{result.status}: {result.record.message}")
        self._bot.offset += int(result.profits.sum())
        self.profits = np.concatenate([self.profits, result.profits])


def luck(profits: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per hand, what the cards and the server's draws gave beyond the played policy's expectation."""
    return np.asarray(profits, dtype=float) - np.asarray(values, dtype=float)
