"""The one walk of a hand's server moves (learner.hand_likelihoods) behind the learner's posterior over the server's
hidden hands and the mixture's per-component hand likelihood, against a slow sum over every pair of server hands
(before and after the draw) on random hands: round-1 folds, draws without a showdown, and showdowns."""

import math

import numpy as np
import pytest

from bots.twocarddraw.learner import hand_posterior
from bots.twocarddraw.mixture import hand_log_likelihood
from bots.twocarddraw.tracker import Observation
from engine.twocarddraw import rules as R
from engine.twocarddraw.state import BET1, BET2, OVER, HandState

N = R.N_HANDS


def random_observation(rng: np.random.Generator) -> Observation:
    """A hand of random legal moves on both sides, as the player records it (the server's hand shown at showdown)."""
    state, moves = HandState(R.BetSizes(1, 2)), ([], [])
    dealt = rng.choice(N, p=R.DEAL_PROB)
    while state.phase != OVER:
        legal = state.legal()
        code = int(legal[rng.integers(len(legal))])
        if state.actor == R.SERVER and state.phase in (BET1, BET2):
            moves[state.phase == BET2].append((state.round_bets, code))
        state.apply(code)
    shown = int(rng.choice(N, p=R.DRAW_TRANSITION[state.drew[R.SERVER]][dealt])) if state.folded < 0 else -1
    return Observation(tuple(moves[0]), state.history, state.drew[R.PLAYER], state.drew[R.SERVER], tuple(moves[1]),
                       shown)


def slow_joint(probs: np.ndarray, obs: Observation) -> list[list[float]]:
    """joint[h][g]: probability of the server holding h, then g after its draw, and making the hand's moves (g = h and
    nothing after the deal counted when round 1 ended in a fold), one pair of hands at a time."""
    joint = [[0.0] * N for _ in range(N)]
    for h in range(N):
        first = R.DEAL_PROB[h] * math.prod(probs[R.round1_row(bets, h), a] for bets, a in obs.moves1)
        if obs.history < 0:
            joint[h][h] = first
            continue
        drew = first * probs[R.draw_row(obs.history, obs.player_drew, h), obs.server_drew]
        for g in range(N):
            if obs.shown >= 0 and g != obs.shown:
                continue
            after = math.prod(probs[R.round2_row(obs.history, obs.player_drew, obs.server_drew, bets, g), a]
                              for bets, a in obs.moves2)
            joint[h][g] = drew * R.DRAW_TRANSITION[obs.server_drew][h, g] * after
    return joint


@pytest.fixture(scope="module")
def hands():
    rng = np.random.default_rng(2031)
    observations = [random_observation(rng) for _ in range(120)]
    # every kind of ending is met, or the test would not check it
    assert {o.history < 0 for o in observations} == {True, False}
    assert {o.shown >= 0 for o in observations if o.history >= 0} == {True, False}
    assert any(o.moves2 for o in observations) and any(len(o.moves1) > 1 for o in observations)
    return observations


def test_posterior_is_the_slow_sums_share(hands):
    rng = np.random.default_rng(7)
    alpha = rng.exponential(size=(R.N_ROWS, 3))
    alpha_sum = alpha.sum(axis=1)
    for obs in hands:
        joint = np.array(slow_joint(alpha / alpha_sum[:, None], obs))
        pre, post = hand_posterior(alpha, alpha_sum, obs)
        np.testing.assert_allclose(pre, joint.sum(axis=1) / joint.sum(), rtol=1e-12, atol=1e-300)
        if obs.history < 0:
            assert post is None
        else:
            np.testing.assert_allclose(post, joint.sum(axis=0) / joint.sum(), rtol=1e-12, atol=1e-300)


def test_log_likelihood_per_component_is_the_slow_sum(hands):
    rng = np.random.default_rng(8)
    alpha = rng.exponential(size=(3, R.N_ROWS, 3))
    counts = rng.exponential(size=(R.N_ROWS, 3)) * (rng.random((R.N_ROWS, 1)) < 0.5)  # rows with no counts too
    got = np.array([hand_log_likelihood(alpha, alpha.sum(axis=2), counts, counts.sum(axis=1), obs) for obs in hands])
    for k in range(len(alpha)):
        probs = (alpha[k] + counts) / (alpha[k].sum(axis=1) + counts.sum(axis=1))[:, None]
        want = [math.log(np.sum(slow_joint(probs, obs))) for obs in hands]
        np.testing.assert_allclose(got[:, k], want, rtol=1e-12)
