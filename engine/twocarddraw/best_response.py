"""Best response to a known server strategy, and the seeded server-strategy generator.

Thin wrappers over the numba kernels: validation and array plumbing here, loops there.
"""

from dataclasses import dataclass

import numpy as np

from engine.core import seeds
from engine.core.errors import BadValue
from engine.core.settings import ConfigError, listed, pairs
from engine.twocarddraw import _kernels as K
from engine.twocarddraw import rules as R
from engine.twocarddraw.strategy import Strategy

GENERATOR_EPS = 1e-3  # the generator's opponent errs 1 time in 1000 per wrong action
MIN_STEPS, MAX_STEPS = 10_000, 200_000  # what the statement says the server used


@dataclass(frozen=True, eq=False)
class BestResponse:
    value: float  # the player's expected profit per hand
    policy: np.ndarray  # (N_PLAYER_ROWS,) action codes, see rules.py


class Evaluator:
    """Reusable caches for repeated best responses (a learning bot re-solves every few hands)."""

    def __init__(self, bets: R.BetSizes):
        self.bets = bets
        self.rho1 = np.zeros((R.N_HISTORIES, R.N_HANDS))
        self.rho2 = np.zeros((63, R.N_HANDS))
        self.v2 = np.zeros((63, R.N_HANDS))
        self.u = np.zeros((21, R.N_HANDS))
        self.vdraw = np.zeros((R.N_HISTORIES, R.N_HANDS))
        self.scratch = np.zeros((K.SCRATCH_ROWS, R.N_HANDS))

    def solve(self, probs: np.ndarray, *, eps: float = 0.0, policy: np.ndarray | None = None) -> float:
        """Value per hand of the (eps-)best response to probs; writes the policy if given."""
        if policy is None:
            policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        return K.evaluate(
            probs, R.DEAL_PROB, R.DRAW_TRANSITION, self.bets.bet1, self.bets.bet2, eps, eps,
            self.rho1, self.rho2, self.v2, self.u, self.vdraw, policy, False, self.scratch,
        )

    def follow(self, probs: np.ndarray, policy: np.ndarray) -> float:
        """Value per hand of a fixed player policy (rules.py layout) against probs."""
        return K.evaluate(
            probs, R.DEAL_PROB, R.DRAW_TRANSITION, self.bets.bet1, self.bets.bet2, 0.0, 0.0,
            self.rho1, self.rho2, self.v2, self.u, self.vdraw, np.asarray(policy, dtype=np.int64), True, self.scratch,
        )


def compile_kernels(bets: R.BetSizes) -> None:
    """Compile (or load from numba's cache) the best response's kernel for the types bots call it with; the results
    are dropped. Bots call it before their test clock starts, as a submission is compiled before its test: on a cold
    cache the compilation would otherwise count as the bot's thinking."""
    evaluator = Evaluator(bets)
    probs, policy = np.full((R.N_ROWS, 3), 1.0 / 3.0), np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    evaluator.solve(probs, policy=policy)
    evaluator.follow(probs, policy)


def best_response(strategy: Strategy, *, eps: float = 0.0) -> BestResponse:
    policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    value = Evaluator(strategy.bets).solve(np.ascontiguousarray(strategy.probs), eps=eps, policy=policy)
    return BestResponse(float(value), policy)


def policy_value(strategy: Strategy, policy: np.ndarray) -> float:
    """The player's expected profit per hand playing `policy` against `strategy`."""
    return float(Evaluator(strategy.bets).follow(np.ascontiguousarray(strategy.probs), policy))


ORDERS = ("sweep", "random")
PROPOSALS = ("fresh", "perturb")
ACCEPTS = ("strict", "ties")
MISTAKES = ("all", "betting")


@dataclass(frozen=True)
class Reading:
    """How the generator reads the statement where it is ambiguous; the default is
    docs/rules/twocarddraw.md#ambiguities.

    order: situations in a cyclic sweep, or one picked at random per step. proposal: a fresh
    uniform draw on the allowed simplex, or a random step from the current row towards one.
    accept: keep only strict improvements, or ties too. mistakes: the 1-in-1000 errors at every
    decision of the opponent, or only at its responses to bets (not its openings or draws).
    """

    order: str = "sweep"
    proposal: str = "fresh"
    accept: str = "strict"
    mistakes: str = "all"

    def __post_init__(self):
        for name, allowed in (("order", ORDERS), ("proposal", PROPOSALS), ("accept", ACCEPTS),
                              ("mistakes", MISTAKES)):
            if getattr(self, name) not in allowed:
                raise BadValue(f"generator {name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")

    @property
    def label(self) -> str:
        """'' for the default reading, else the options that differ, e.g. 'order=random'."""
        default = Reading()
        return ",".join(f"{k}={getattr(self, k)}" for k in ("order", "proposal", "accept", "mistakes")
                        if getattr(self, k) != getattr(default, k))

    @classmethod
    def parse(cls, text: str) -> "Reading":
        """'order=random,proposal=perturb' (any subset; '' or 'default' = the default reading)."""
        keys = ("order", "proposal", "accept", "mistakes")
        accepted = f"key=value with keys {', '.join(keys)} (or 'default')"
        given = pairs([part for part in listed(text) if part != "default"], "generator reading", accepted=accepted)
        for key, _ in given:
            if key not in keys:
                raise ConfigError(f"generator reading {text!r}: unknown key {key!r}; accepted: {accepted}")
        return cls(**dict(given))


READINGS = (Reading(), Reading(order="random"), Reading(proposal="perturb"), Reading(accept="ties"),
            Reading(mistakes="betting"))


@dataclass(frozen=True, eq=False)
class Generated:
    strategy: Strategy
    eps_value: float  # the value the generator minimised (player vs the eps-erring responder)
    trace: np.ndarray  # eps_value after every trace_every steps



def free_rows() -> np.ndarray:
    """Rows with more than one allowed action, in the generator's sweep order."""
    return np.flatnonzero(R.allowed_actions().sum(axis=1) > 1).astype(np.int64)


def generate(bets: R.BetSizes, *, steps: int, seed: int, eps: float = GENERATOR_EPS, trace_every: int = 0,
             reading: Reading = Reading()) -> Generated:
    """A server strategy as the contest built them, reproducible from (bets, steps, seed, reading)."""
    if steps < 0:
        raise BadValue(f"steps must be >= 0, got {steps}")
    probs = np.zeros((R.N_ROWS, 3))
    key = seeds.unit_key(seeds.match_key(seed), bets.bet1 * 16 + bets.bet2, seeds.Purpose.OPPONENT)
    trace = np.zeros(steps // trace_every if trace_every > 0 else 0)
    value = K.generate(
        probs, R.allowed_actions(), free_rows(), steps, bets.bet1, bets.bet2, eps,
        eps if reading.mistakes == "all" else 0.0, seeds.stream(key), R.DEAL_PROB, R.DRAW_TRANSITION, trace_every,
        trace, reading.order == "random", reading.proposal == "perturb", reading.accept == "strict",
    )
    return Generated(Strategy(bets, probs), float(value), trace)
