"""A fitted Bob (flows/opponents/holdem_training.py fits it): he calls a raise with the probability that a
noisy estimate of his equity beats the pot odds.

Bob's known rule is: call a raise of x into a pot P iff his equity over 100 random completions, wins plus
half the ties, exceeds x / (P + 2x) (the reference's inequality rearranged). The model keeps that shape
with two free numbers: `delta`, a shift of the threshold, and `rollouts`, how noisy his estimate is. With
q the equity measured here over MEASURED rollouts and v the per-completion variance of its score,

    P(call) = Phi((q - x / (P + 2x) - delta) / sqrt(v * (1 / rollouts + 1 / MEASURED)))

(the second term is this side's own measuring noise). The fit recovers the rule when delta ~ 0 and
rollouts ~ 100. As a seat, the bot answers a raise by drawing from that probability with its own stream.
"""

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from bots.base import BotSpec, Ranged, ranged, seed_field
from engine.core import _rng
from engine.core.seeds import stream
from engine.holdem_training._kernels import sample_outcomes

MEASURED = 2000  # completions per measured equity: sd <= 0.011, a tenth of Bob's own at 100
MIN_VARIANCE = 1e-4  # a lock (equity 0 or 1) still gets a finite z


def pot_odds(pot, amount):
    """The equity at which calling breaks even against folding."""
    return amount / (pot + 2.0 * amount)


def measured_equity(key: int, hole: tuple[int, int], board, known: int, rollouts: int = MEASURED
                    ) -> tuple[float, float]:
    """(equity, per-completion variance of the score) of `hole` with the first `known` board cards,
    over `rollouts` completions drawn from the stream `key`."""
    cards = np.zeros(5, dtype=np.int64)
    cards[:known] = board[:known]
    wins, ties = sample_outcomes(stream(key), int(hole[0]), int(hole[1]), cards, known, rollouts)
    q = (wins + 0.5 * ties) / rollouts
    return q, max(MIN_VARIANCE, (wins + 0.25 * ties) / rollouts - q * q)


def call_probability(q, v, pot, amount, delta: float, rollouts: float, measured: int = MEASURED):
    """The model's P(call); numpy arrays or floats."""
    z = (q - pot_odds(pot, amount) - delta) / np.sqrt(v * (1.0 / rollouts + 1.0 / measured))
    return ndtr(z)


@dataclass(frozen=True)
class BobModelConfig(Ranged):
    delta: float = ranged(0.0, -0.5, 0.5)  # threshold shift, in equity
    rollouts: float = ranged(100.0, 1.0, 1e6)  # how many completions his noise is worth
    seed: int = seed_field(0)


class BobModelBot:
    """Answers Alice's raises as the fitted Bob: `calls(...)` is True for CALL."""

    def __init__(self, config: BobModelConfig = BobModelConfig()):
        self.config = config

    def call_chance(self, key: int, hole, board, pot: int, amount: int) -> float:
        q, v = measured_equity(key ^ self.config.seed, hole, board, len(board))
        return float(call_probability(q, v, pot, amount, self.config.delta, self.config.rollouts))

    def calls(self, key: int, hole, board, pot: int, amount: int) -> bool:
        """Deterministic in (seed, key): the equity's completions and the draw come from the key's streams."""
        chance = self.call_chance(key, hole, board, pot, amount)
        return _rng.uniform(stream(~key & (2**64 - 1) ^ self.config.seed)) < chance


BOB_MODEL = BotSpec("bob_model", BobModelConfig, BobModelBot, "Bob's call rule as fitted: noisy equity vs pot odds")
