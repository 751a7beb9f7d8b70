"""The numba best response and generator against their pure-Python twins and known
values (docs/rules/twocarddraw.md#generator)."""

import numpy as np
import pytest

from bench.twocarddraw import numpy_peer
from engine.core import seeds
from engine.twocarddraw import _kernels as K
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from engine.twocarddraw.strategy import uniform_over_allowed
from tests.twocarddraw.conftest import random_strategy
from tests.twocarddraw.reference import best_response_value, generate_twin


@pytest.mark.parametrize(
    ("bet1", "bet2", "seed", "eps", "constrained"),
    [(1, 2, 1, 0.0, True), (2, 5, 2, 1e-3, True), (5, 15, 3, 0.0, False), (3, 3, 4, 0.02, False)],
)
def test_best_response_matches_twin(bet1, bet2, seed, eps, constrained):
    strategy = random_strategy(R.BetSizes(bet1, bet2), seed, constrained=constrained)
    assert B.best_response(strategy, eps=eps).value == pytest.approx(
        best_response_value(strategy.probs, strategy.bets, eps), abs=1e-12
    )


@pytest.mark.parametrize(("bet1", "bet2", "eps"), [(1, 1, 0.0), (4, 11, 1e-3)])
def test_best_response_matches_the_numpy_peer(bet1, bet2, eps):
    strategy = random_strategy(R.BetSizes(bet1, bet2), bet2, constrained=False)
    expected = numpy_peer.best_response_value(strategy.probs, strategy.bets, eps)
    assert B.best_response(strategy, eps=eps).value == pytest.approx(expected, abs=1e-12)


def test_fixed_policy_value_matches_twin():
    strategy = random_strategy(R.BetSizes(2, 3), 21)
    policy = np.random.default_rng(5).integers(0, 3, size=R.N_PLAYER_ROWS)
    openings = [R.player_round1_row(0, h) for h in range(R.N_HANDS)] + [
        R.player_round2_row(o, dp, ds, 0, h)
        for o in range(R.N_HISTORIES) for dp in range(3) for ds in range(3) for h in range(R.N_HANDS)
    ]
    policy[openings] = 1 + policy[openings] % 2  # check or bet
    capped = [r + 3 * R.N_HANDS for r in openings]
    policy[capped] = policy[capped] % 2  # fold or call facing the third bet
    assert B.policy_value(strategy, policy) == pytest.approx(
        best_response_value(strategy.probs, strategy.bets, policy=policy), abs=1e-12
    )
    br = B.best_response(strategy)
    assert B.policy_value(strategy, br.policy) == pytest.approx(br.value, abs=1e-12)


def test_incremental_reevaluation_matches_full_pass():
    strategy = random_strategy(R.BetSizes(2, 4), 11)
    ev = B.Evaluator(strategy.bets)
    probs = strategy.probs.copy()
    policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    ev.solve(probs, eps=1e-3, policy=policy)
    for row in (5, R.draw_row(3, 1, 7), R.round2_row(6, 2, 0, 1, 9)):
        probs[row] = probs[row][::-1]
        partial = K.reevaluate_row(
            probs, row, R.DEAL_PROB, R.DRAW_TRANSITION, 2, 4, 1e-3, 1e-3,
            ev.rho1, ev.rho2, ev.v2, ev.u, ev.vdraw, policy, ev.scratch,
        )
        assert partial == pytest.approx(B.Evaluator(strategy.bets).solve(probs, eps=1e-3), abs=1e-13)


@pytest.mark.parametrize("random_order, perturb, strict", [(False, False, True), (True, True, False)])
def test_generator_matches_twin(random_order, perturb, strict):
    bets = R.BetSizes(1, 3)
    rows = np.array([R.round1_row(1, 4), R.draw_row(2, 0, 3), R.round2_row(4, 1, 2, 0, 8), R.round2_row(0, 0, 0, 2, 0)])
    key = seeds.unit_key(seeds.match_key(5), 0, seeds.Purpose.OPPONENT)
    mask = R.allowed_actions()
    probs = np.zeros((R.N_ROWS, 3))
    stream = seeds.stream(key)
    value = K.generate(probs, mask, rows, 4, 1, 3, 1e-3, 1e-3, stream, R.DEAL_PROB, R.DRAW_TRANSITION, 0, np.zeros(0),
                       random_order, perturb, strict)
    twin_probs, twin_value = generate_twin(mask, rows, 4, bets, 1e-3, seeds.stream(key), random_order=random_order,
                                           perturb=perturb, strict=strict)
    np.testing.assert_allclose(probs, twin_probs, atol=1e-15)
    assert value == pytest.approx(twin_value, abs=1e-12)


def test_generated_strategies_respect_constraints_and_sum_to_one():
    probs = B.generate(R.BetSizes(2, 3), steps=5_000, seed=3).strategy.probs
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(probs[R.allowed_actions() == 0] == 0)
    assert len(B.free_rows()) == 3881  # docs/rules/twocarddraw.md#server-strategy-file


def test_generator_is_reproducible_and_seed_dependent():
    a = B.generate(R.BetSizes(1, 2), steps=2_000, seed=9).strategy.probs
    b = B.generate(R.BetSizes(1, 2), steps=2_000, seed=9).strategy.probs
    c = B.generate(R.BetSizes(1, 2), steps=2_000, seed=10).strategy.probs
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_known_values_from_the_spec():
    # a random start is worth about +1.7 per hand to the best response at bets (1, 2)
    start = B.best_response(B.generate(R.BetSizes(1, 2), steps=0, seed=1).strategy).value
    assert 1.4 < start < 2.1
    assert B.best_response(uniform_over_allowed(R.BetSizes(1, 2))).value == pytest.approx(1.7646, abs=1e-4)
    # docs/rules/twocarddraw.md#generator: +0.409 after 20k steps and +0.080 after 200k at (1, 2);
    # +0.218 after 200k at (5, 15)
    assert 0.28 < B.best_response(B.generate(R.BetSizes(1, 2), steps=20_000, seed=2).strategy).value < 0.55
    for bets, low, high in ((R.BetSizes(1, 2), 0.04, 0.14), (R.BetSizes(5, 15), 0.12, 0.32)):
        value = B.best_response(B.generate(bets, steps=200_000, seed=1).strategy).value
        assert low < value < high, (bets, value)


def test_eps_value_is_what_the_generator_minimised():
    gen = B.generate(R.BetSizes(3, 6), steps=3_000, seed=4, trace_every=1_000)
    assert gen.eps_value == pytest.approx(B.best_response(gen.strategy, eps=B.GENERATOR_EPS).value, abs=1e-12)
    assert np.all(np.diff(gen.trace) <= 0) and gen.trace[-1] == gen.eps_value


@pytest.mark.parametrize("reading", B.READINGS[1:], ids=lambda r: r.label)
def test_every_generator_reading_keeps_the_constraints_and_changes_the_server(reading):
    default = B.generate(R.BetSizes(2, 5), steps=8_000, seed=4)
    other = B.generate(R.BetSizes(2, 5), steps=8_000, seed=4, reading=reading)
    probs = other.strategy.probs
    assert np.allclose(probs.sum(axis=1), 1.0) and np.all(probs[R.allowed_actions() == 0] == 0)
    assert not np.array_equal(probs, default.strategy.probs)
    assert other.eps_value < B.generate(R.BetSizes(2, 5), steps=0, seed=4, reading=reading).eps_value
    again = B.generate(R.BetSizes(2, 5), steps=8_000, seed=4, reading=reading)
    assert np.array_equal(probs, again.strategy.probs)


def test_mistakes_only_at_betting_is_what_that_generator_minimised():
    gen = B.generate(R.BetSizes(1, 2), steps=3_000, seed=2, reading=B.Reading(mistakes="betting"))
    ev = B.Evaluator(gen.strategy.bets)
    policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    value = K.evaluate(gen.strategy.probs, R.DEAL_PROB, R.DRAW_TRANSITION, 1, 2, 1e-3, 0.0, ev.rho1, ev.rho2, ev.v2,
                       ev.u, ev.vdraw, policy, False, ev.scratch)
    assert value == pytest.approx(gen.eps_value, abs=1e-12)
    assert value != pytest.approx(ev.solve(gen.strategy.probs, eps=1e-3), abs=1e-9)


def test_a_reading_is_parsed_and_bad_ones_are_named():
    assert B.Reading.parse("order=random, accept=ties") == B.Reading(order="random", accept="ties")
    assert B.Reading.parse("default") == B.Reading() and B.Reading().label == ""
    with pytest.raises(ValueError, match="generator order must be one of sweep, random; got 'shuffled'"):
        B.Reading.parse("order=shuffled")
    with pytest.raises(ValueError, match="keys order, proposal, accept, mistakes"):
        B.Reading.parse("steps=5")
