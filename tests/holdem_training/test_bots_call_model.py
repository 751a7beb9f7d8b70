"""The exploit bot's model of Bob against the engine's Bob: predicted vs observed call rates."""

import math

import numpy as np
import pytest

from bots.holdem_training import _kernels as K
from bots.holdem_training import tables
from engine.core import seeds
from engine.holdem_training import _kernels as E

EV = tables.engine_evaluator_tables()
CDF = K.score_cdf(100, 100)
TRIALS = 1500


def _bob_view(hole, bob, board):
    """Bob's (w, d) as the bot computes it: exact on the river, 1500 completions before."""
    stats, _ = K.street_stats(EV, np.array(hole), np.array(board, np.int64), 1500, seeds.stream(77),
                              K.rank_workspace())
    k = K.pair_index(*bob)
    return stats[0, k], stats[1, k], len(board) == 5


def _observed(cards9, known, pot, x, seed):
    keys = np.array([seeds.unit_key(seeds.match_key(seed), i, seeds.Purpose.OPPONENT) for i in range(TRIALS)],
                    np.uint64)
    rows = np.repeat(np.array([cards9], np.int64), TRIALS, axis=0)
    return E.bob_calls_many(keys, rows, known, pot, x, 100).mean()


def _predicted(w, d, pot, x):
    return K.call_probs(CDF, np.full(1326, w), np.full(1326, d), np.array([0]), pot, x, 100)[0]


def _undecided_sizes(w, d):
    """(pot, x) pairs where Bob's call is a real coin flip under the model."""
    found = []
    for pot in (10, 30, 90, 150):
        for x in range(1, 101):
            if 0.15 < _predicted(w, d, pot, x) < 0.85:
                found.append((pot, x))
                break
    return found


def test_river_call_rate_matches_engine_bob_where_it_is_uncertain():
    """On the river the bot knows Bob's view exactly: the only gap left is his 100-rollout
    noise, which the model must reproduce (not just its mean, which would say 0 or 1)."""
    checked = 0
    for seed in range(60):
        rng = seeds.generator(seeds.match_key(500 + seed))
        cards9 = [int(c) for c in rng.permutation(52)[:9]]
        w, d, _ = _bob_view(cards9[:2], cards9[2:4], cards9[4:])
        for pot, x in _undecided_sizes(w, d)[:2]:
            predicted = _predicted(w, d, pot, x)
            observed = _observed(cards9, 5, pot, x, seed)
            tolerance = 4 * math.sqrt(predicted * (1 - predicted) / TRIALS) + 0.015
            assert abs(observed - predicted) <= tolerance, (pot, x, w, d, predicted, observed)
            checked += 1
        if checked >= 8:
            break
    assert checked >= 8


@pytest.mark.parametrize("known", [0, 3, 4])
def test_earlier_street_call_rates_match_engine_bob(known):
    """Before the river Bob's view comes from sampled completions (1500 here): the call rate
    may move by that error times the score distribution's steepest slope (about 8 per unit)."""
    checked = 0
    for seed in range(30):
        rng = seeds.generator(seeds.match_key(900 + 10 * known + seed))
        cards9 = [int(c) for c in rng.permutation(52)[:9]]
        w, d, _ = _bob_view(cards9[:2], cards9[2:4], cards9[4:4 + known])
        for pot, x in _undecided_sizes(w, d)[:1] + [(10, 100)]:
            predicted = _predicted(w, d, pot, x)
            observed = _observed(cards9, known, pot, x, seed)
            tolerance = 4 * math.sqrt(max(predicted * (1 - predicted), 0.01) / TRIALS) + 0.1
            assert abs(observed - predicted) <= tolerance, (pot, x, w, d, predicted, observed)
            checked += 0.15 < predicted < 0.85
        if checked >= 2:
            break
    assert checked >= 2


def test_strict_rule_at_the_boundary():
    """Bob folds on his indifference line: with P = 10, x = 5 the line is S = 150 exactly."""
    assert K.call_threshold(10, 5, 100) == 149
    assert K.call_threshold(10, 10, 100) == 133  # 30 S < 4000
