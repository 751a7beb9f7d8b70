import numpy as np
import pytest

from bots.twocarddraw.tracker import TrackingBot
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from engine.twocarddraw.strategy import Strategy


def random_strategy(bets: R.BetSizes, seed: int, *, constrained: bool = True) -> Strategy:
    """Rows drawn uniformly from the simplex (of the allowed actions if constrained); never a
    raise at the cap, which the file reader also rules out."""
    rng = np.random.default_rng(seed)
    mask = R.allowed_actions() if constrained else np.ones((R.N_ROWS, 3))
    caps = [R.round1_row(R.MAX_BETS, h) for h in range(R.N_HANDS)] + [
        R.round2_row(o, dp, ds, R.MAX_BETS, h)
        for o in range(R.N_HISTORIES) for dp in range(3) for ds in range(3) for h in range(R.N_HANDS)
    ]
    mask = mask.astype(float)
    mask[caps, 2] = 0.0
    probs = rng.exponential(size=(R.N_ROWS, 3)) * mask
    return Strategy(bets, probs / probs.sum(axis=1, keepdims=True))


@pytest.fixture(scope="session")
def generated_12():
    """A generated strategy for bets (1, 2), shared by the judge and bot tests."""
    return B.generate(R.BetSizes(1, 2), steps=60_000, seed=7).strategy


class RandomBot(TrackingBot):
    """Random legal answers (its own seeded generator), recording what the tracker infers."""

    def __init__(self, seed=0, fail_at=-1):
        super().__init__()
        self.rng = np.random.default_rng(seed)
        self.observations, self.winnings, self.calls = [], [], []
        self.fail_at = fail_at

    def new_hand(self, card1, card2, winnings):
        self.winnings.append(winnings)
        if len(self.winnings) == self.fail_at:
            return 7
        return super().new_hand(card1, card2, winnings)

    def on_hand_over(self, observation):
        self.observations.append(observation)

    def choose_round1(self, hand, bets):
        return int(self.rng.integers(1, 3)) if bets == 0 else int(self.rng.integers(0, 3 if bets < 3 else 2))

    def choose_draw(self, hand, history):
        return int(self.rng.integers(0, 3))

    def choose_round2(self, hand, history, player_drew, server_drew, bets2):
        return self.choose_round1(hand, bets2)
