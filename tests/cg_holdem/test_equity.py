"""Evaluator and equity: the pure-Python twin against eval7 and hand_value7, the numba
Monte Carlo kernels against the twin and known all-in equities."""

import random

import numpy as np
import pytest

from bots.cg_holdem.pure_eval import equity_vs_random_py, value7
from engine.cg_holdem._kernels import class_combo, class_equity_matrix, combo_count, equity_vs_random
from engine.core.cards import card_name
from engine.core.hand_eval import hand_value7
from engine.core.seeds import stream

eval7 = pytest.importorskip("eval7")


def sign(x):
    return (x > 0) - (x < 0)


def test_pure_evaluator_orders_hands_like_eval7_and_hand_value7():
    rng = random.Random(7)
    for _ in range(8000):
        cards = rng.sample(range(52), 9)
        a, b = cards[:7], cards[2:]
        ours = sign(value7(a) - value7(b))
        oracle = sign(eval7.evaluate([eval7.Card(card_name(c)) for c in a])
                      - eval7.evaluate([eval7.Card(card_name(c)) for c in b]))
        assert ours == oracle == sign(hand_value7(*a) - hand_value7(*b)), [card_name(c) for c in cards]


@pytest.mark.parametrize(("hole", "board", "opponents"), [
    ((12, 25), (), 1), ((0, 14), (), 3), ((12, 11), (24, 23, 40), 2), ((5, 18), (31, 44, 6, 19), 1),
])
def test_numba_equity_matches_the_pure_twin(hole, board, opponents):
    fast = equity_vs_random(np.array(hole + board), opponents, 20000, stream(3))
    slow = equity_vs_random_py(hole, board, opponents, 4000, random.Random(3))
    assert abs(fast - slow) < 0.03


def test_known_preflop_equities():
    aces = equity_vs_random(np.array([12, 25]), 1, 40000, stream(5))
    assert abs(aces - 0.852) < 0.01  # AA against one random hand: 85.2%


def test_class_combos_are_the_class():
    for cls in range(169):
        pairs = {tuple(sorted(class_combo(cls, k))) for k in range(combo_count(cls))}
        assert len(pairs) == combo_count(cls)
        for a, b in pairs:
            hi, lo = max(a % 13, b % 13), min(a % 13, b % 13)
            suited = a // 13 == b // 13
            assert cls == (hi * 13 + lo if suited or hi == lo else lo * 13 + hi)


def test_class_matrix_known_matchups(class_matrix):
    eq = class_matrix
    aa, kk, aks, ako, k7o = 12 * 13 + 12, 11 * 13 + 11, 12 * 13 + 11, 11 * 13 + 12, 5 * 13 + 11
    assert abs(eq[aa, kk] - 0.82) < 0.06  # AA vs KK about 82% (400 deals: sd 0.02)
    assert abs(eq[aks, ako] - 0.52) < 0.06
    assert abs(eq[aa, k7o] - 0.88) < 0.06
    off = ~np.eye(169, dtype=bool)
    assert np.allclose((eq + eq.T)[off], 1.0)
    assert class_equity_matrix(50, stream(1)).shape == (169, 169)
