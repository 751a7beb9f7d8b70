"""A robust response: the mixture's best response to its posterior, or the game's safe strategy.

Each hand the bot plays the mixture's best response to the posterior mean with weight
n / (n + safe_hands) after n hands, and otherwise a pure strategy drawn from the player's
equilibrium (engine/twocarddraw/equilibrium.py, cached per bet pair like the prior banks). The
equilibrium guarantees the game value against any constrained server; with data the weight
moves to exploitation. Drawing one pure table per hand plays the behavioural strategy exactly
(each situation is met at most once per hand) and keeps the exact evaluation's pure tables.
"""

from dataclasses import dataclass

import numpy as np

from bots.twocarddraw.mixture import MixtureLearnerBot
from bots.twocarddraw.prior import cache_dir
from engine.core import cache_file, seeds
from engine.twocarddraw import equilibrium as E
from engine.twocarddraw import rules as R

DEFAULT_ITERATIONS = 1000  # CFR+ iterations: exploitability about 1e-3 per hand, 2-3 s per bet pair


@dataclass(frozen=True, eq=False)
class SafeStrategy:
    bets: R.BetSizes
    player: np.ndarray  # (N_PLAYER_ROWS, 3)
    lower: float  # the player's value when the server best-responds (guaranteed)
    upper: float  # the player's best response to the server's half (the game value is between)


def load_equilibrium(bets: R.BetSizes, *, iterations: int = DEFAULT_ITERATIONS) -> SafeStrategy:
    path = cache_dir() / f"equilibrium_{bets.bet1}_{bets.bet2}_i{iterations}.npz"

    def build() -> dict[str, np.ndarray]:
        eq = E.solve(bets, iterations=iterations)
        return {"player": eq.player, "bounds": np.array([eq.server_br, eq.player_br])}

    def as_safe(arrays: dict[str, np.ndarray]) -> SafeStrategy:
        return SafeStrategy(bets, arrays["player"], float(arrays["bounds"][0]), float(arrays["bounds"][1]))

    def read(found):
        with np.load(found) as data:
            return as_safe({"player": data["player"], "bounds": data["bounds"]})

    return cache_file.load_or_build(path, load=read, build=build, convert=as_safe)


def sample_policy(player: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """One pure table (action codes) from a behavioural table, one uniform per row."""
    return (np.cumsum(player, axis=1)[:, :2] < uniforms[:, None]).sum(axis=1).astype(np.int64)


class RobustBot(MixtureLearnerBot):
    def prepare_offline(self, bet1: int, bet2: int) -> None:
        super().prepare_offline(bet1, bet2)
        load_equilibrium(R.BetSizes(bet1, bet2), iterations=self.config.eq_iterations)

    def on_init(self) -> None:
        c = self.config
        self.safe = load_equilibrium(self.bets, iterations=c.eq_iterations)
        self.br = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        self.mix_rng = seeds.generator(seeds.unit_key(self.draw_key(c.mix_seed), self.bets.bet1 * 16 + self.bets.bet2,
                                                      seeds.Purpose.BOT))
        self.exploiting = False
        super().on_init()

    def resolve(self) -> None:
        self.policy = self.br
        super().resolve()  # writes the best response into self.br
        self._pick()

    def exploit_weight(self) -> float:
        n = self.hands_seen
        return n / (n + self.config.safe_hands) if self.config.safe_hands > 0 else 1.0

    def _pick(self) -> None:
        self.exploiting = bool(self.mix_rng.random() < self.exploit_weight())
        if self.exploiting:
            self.policy = self.br
        else:
            self.policy = sample_policy(self.safe.player, self.mix_rng.random(R.N_PLAYER_ROWS))

    def on_hand_over(self, observation) -> None:
        resolve_every = self.config.resolve_every
        super().on_hand_over(observation)
        if self.hands_seen % resolve_every != 0:  # the mixture did not re-solve: pick for the next hand here
            self._pick()
