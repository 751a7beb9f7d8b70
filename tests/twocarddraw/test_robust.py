"""Near equilibrium (issue 31): a learner must not end below what it played before any data.

The server is generated far past the statement's 200,000 steps, so little is left to exploit and a
prior that is too sure of itself is the risk. Measured exactly: the expected profit of the policy
played at each hand against the true strategy."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from engine.twocarddraw import best_response as B
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build


@pytest.fixture(scope="module")
def near_equilibrium():
    return B.generate(R.BetSizes(1, 2), steps=400_000, seed=31).strategy


@pytest.mark.slow  # 3,000 exact hands of a learner: a strength check at size
def test_the_default_mixture_never_ends_below_its_data_free_policy(near_equilibrium):
    spec = BOTS["mixture"]
    config = spec.config_from(SMALL)
    before = spec.make(config)
    before.init(1, 2)
    data_free = B.policy_value(near_equilibrium, before.current_policy())
    best = B.best_response(near_equilibrium).value
    run = X.exact_run(spec.make(config), near_equilibrium, seed=3, hands=3_000)
    last = run.values[-1_000:].mean()
    assert best < 0.12  # the constructed server is near equilibrium: little to take
    # The learner's last 1,000 hands are worth at least what it played with no data (0.005 per hand
    # of tolerance: the policy changes from hand to hand), and it moved towards the best response.
    assert last >= data_free - 0.005, (last, data_free, best)
    assert np.mean(np.abs(run.values[-1_000:] - best)) < abs(data_free - best) + 0.005


def test_beyond_adds_step_buckets_past_the_statement_and_keeps_the_others():
    """beyond=1: one more bank, of servers past 200,000 steps, with its share of the step prior; the
    statement's buckets and their relative weights are those of the plain mixture."""
    spec = BOTS["mixture"]
    plain = spec.make(spec.config_from({"buckets": "2", "bucket_count": "2"}))
    wide = spec.make(spec.config_from({"buckets": "2", "bucket_count": "2", "beyond": "1", "beyond_weight": "0.3"}))
    plain.init(1, 2)
    wide.init(1, 2)
    assert wide.alpha.shape[0] == plain.alpha.shape[0] + 1
    assert np.array_equal(wide.alpha[:2], plain.alpha)
    prior = np.exp(wide.log_prior)
    assert prior.sum() == pytest.approx(1.0) and prior[-1] == pytest.approx(0.3)
    assert prior[:2] / prior[:2].sum() == pytest.approx(np.exp(plain.log_prior))
