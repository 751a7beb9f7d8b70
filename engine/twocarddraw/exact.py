"""Exact strength of a bot over a test: no card luck.

At each hand we take the bot's current policy (its answer in every situation it could meet in
that hand, given what it learned so far) and compute that policy's expected profit against
the true server strategy with the fixed-policy pass of best_response.Evaluator. The hand is
then played as dealt, so the bot learns exactly what it would in the real test.

The bot must answer `current_policy()` with a (N_PLAYER_ROWS,) table of action codes
(rules.py layout). A bot updates between hands only (at showdown or at the next new_hand),
so the table is read right after new_hand returns: by then a folded previous hand has been
learned from, and nothing changes until the hand is over.
"""

import math
import time
from dataclasses import dataclass

import numpy as np

from engine.twocarddraw import rules as R
from engine.twocarddraw.best_response import Evaluator, best_response
from engine.twocarddraw.judge import OK, play_bot
from engine.twocarddraw.strategy import Strategy

SEGMENT = 1_000  # hands per reported segment


class NoPolicyTable(TypeError):
    pass


@dataclass(frozen=True, eq=False)
class ExactRun:
    """One seed: values[n] = exact expected profit of the policy the bot played at hand n."""

    values: np.ndarray
    profits: np.ndarray  # what the dealt cards actually gave, for comparison
    bot_cpu_seconds: float  # the bot's own calls, without the evaluation
    status: str
    message: str

    @property
    def expected_per_hand(self) -> float:
        return float(self.values.mean()) if len(self.values) else math.nan

    def segments(self, size: int = SEGMENT) -> list[float]:
        return [float(self.values[i : i + size].mean()) for i in range(0, len(self.values), size)]


class _Evaluated:
    """Stands in for the bot at the judge: forwards every call, and after each new_hand
    values the bot's policy for that hand (re-solving only when the table changed)."""

    def __init__(self, bot, strategy: Strategy):
        if not callable(getattr(bot, "current_policy", None)):
            raise NoPolicyTable(f"{type(bot).__name__} exposes no current_policy() table to evaluate")
        self._bot = bot
        self._probs = np.ascontiguousarray(strategy.probs)
        self._evaluator = Evaluator(strategy.bets)
        self._last = None
        self._last_value = 0.0
        self.values: list[float] = []
        self.seconds = 0.0

    def __getattr__(self, name):
        return getattr(self._bot, name)

    def init(self, bet1: int, bet2: int) -> int:
        return self._bot.init(bet1, bet2)

    def new_hand(self, card1: int, card2: int, winnings: int) -> int:
        answer = self._bot.new_hand(card1, card2, winnings)
        started = time.thread_time()
        policy = np.asarray(self._bot.current_policy(), dtype=np.int64)
        if self._last is None or not np.array_equal(policy, self._last):
            self._last = policy.copy()
            self._last_value = float(self._evaluator.follow(self._probs, self._last))
        self.values.append(self._last_value)
        self.seconds += time.thread_time() - started
        return answer

    def round1(self, card1, card2, bets):
        return self._bot.round1(card1, card2, bets)

    def draw(self, card1, card2, bets):
        return self._bot.draw(card1, card2, bets)

    def round2(self, card1, card2, bets1, bets2, drew):
        return self._bot.round2(card1, card2, bets1, bets2, drew)

    def showdown(self, card1, card2, opp1, opp2):
        return self._bot.showdown(card1, card2, opp1, opp2)


def exact_run(bot, strategy: Strategy, *, seed: int, hands: int = R.HANDS_PER_TEST) -> ExactRun:
    """Play one test of `hands` hands and value the bot's policy at every hand exactly.

    The evaluation's own time is taken out of the bot's CPU figure; the 20 s limit is then
    checked on what remains (status time_limit if passed, the values are kept)."""
    evaluated = _Evaluated(bot, strategy)
    result = play_bot(evaluated, strategy, seed=seed, count=hands, cpu_limit=math.inf)
    cpu = result.cpu_seconds - evaluated.seconds
    status, message = result.status, result.record.message
    if status == OK and cpu > R.CPU_LIMIT_SECONDS:
        status, message = "time_limit", f"bot CPU time {cpu:.2f} s passed the {R.CPU_LIMIT_SECONDS:g} s limit"
    values = np.array(evaluated.values[: len(result.profits)])
    return ExactRun(values, result.profits, cpu, status, message)


@dataclass(frozen=True, eq=False)
class ExactSummary:
    br_value: float
    runs: tuple[ExactRun, ...]

    @property
    def expected_per_hand(self) -> float:
        return float(np.mean([r.expected_per_hand for r in self.runs]))

    @property
    def ratio(self) -> float:
        return self.expected_per_hand / self.br_value if self.br_value > 0 else math.nan

    def segments(self) -> list[float]:
        per_seed = [r.segments() for r in self.runs]
        width = min(len(s) for s in per_seed)
        return [float(np.mean([s[k] for s in per_seed])) for k in range(width)]


def evaluate(make_bot, strategy: Strategy, *, seeds: list[int], hands: int = R.HANDS_PER_TEST) -> ExactSummary:
    """Exact evaluation over several deal seeds; make_bot() builds a fresh bot per seed."""
    runs = tuple(exact_run(make_bot(), strategy, seed=s, hands=hands) for s in seeds)
    return ExactSummary(best_response(strategy).value, runs)
