"""The step-count mixture learner: its bucket likelihood, what it infers, and that it learns."""

import math

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.mixture import bucket_log_likelihood
from bots.twocarddraw.prior import bucket_edges
from engine.twocarddraw import best_response as B
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build


def _dirichlet_multinomial(alpha_row, counts_row) -> float:
    s, n = sum(alpha_row), sum(counts_row)
    out = math.lgamma(s) - math.lgamma(s + n)
    return out + sum(math.lgamma(a + c) - math.lgamma(a) for a, c in zip(alpha_row, counts_row, strict=True))


def test_bucket_likelihood_is_the_dirichlet_multinomial_of_the_seen_rows():
    rng = np.random.default_rng(3)
    alpha = rng.uniform(0.2, 5.0, size=(3, 6, 3))
    counts = rng.uniform(0.0, 2.0, size=(6, 3)) * (rng.random((6, 1)) < 0.5)
    out = np.zeros(3)
    bucket_log_likelihood(alpha, alpha.sum(axis=2), counts, counts.sum(axis=1), out)
    for b in range(3):
        expected = sum(_dirichlet_multinomial(alpha[b, r], counts[r]) for r in range(6) if counts[r].sum() > 0)
        assert out[b] == pytest.approx(expected, abs=1e-10)


def test_bucket_edges_cover_the_statements_step_range_in_log_steps():
    edges = bucket_edges(4)
    assert edges[0] == pytest.approx(B.MIN_STEPS) and edges[-1] == pytest.approx(B.MAX_STEPS)
    assert np.allclose(np.diff(np.log(edges)), np.log(20) / 4)


@pytest.mark.slow  # trains the learner over many hands
def test_the_learner_weighs_the_step_buckets_and_improves_on_its_prior():
    """Against a 10,000-step server the low bucket gains weight; against 200,000 steps it loses it.
    On the 10,000-step server (much to exploit) the policy's exact value rises well above the prior's."""
    bets = R.BetSizes(2, 3)
    weights, runs = {}, {}
    for steps in (B.MIN_STEPS, B.MAX_STEPS):
        server = B.generate(bets, steps=steps, seed=5).strategy
        bot = BOTS["mixture"].make(BOTS["mixture"].config_from(SMALL))
        runs[steps] = X.exact_run(bot, server, seed=1, hands=1_500)
        weights[steps] = bot.weights[0]
    assert weights[B.MIN_STEPS] > 0.9 and weights[B.MAX_STEPS] < 0.1, weights
    values = runs[B.MIN_STEPS].values
    assert runs[B.MIN_STEPS].status == "ok" and values[-300:].mean() > values[0] + 0.05, values[[0, -1]]


def test_posterior_sampling_is_reproducible_from_its_seed(generated_12):
    def values(seed):
        config = BOTS["mixture"].config_from({**SMALL, "explore": "thompson", "explore_seed": str(seed)})
        return X.exact_run(BOTS["mixture"].make(config), generated_12, seed=2, hands=40).values

    assert np.array_equal(values(1), values(1)) and not np.array_equal(values(1), values(2))
