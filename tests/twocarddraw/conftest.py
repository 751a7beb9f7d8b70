import numpy as np
import pytest

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
