"""The numba showdown settlement against its slow twin: the pure-Python evaluator plus
settle.pay_layers (which test_side_pots_pokerkit checks against PokerKit)."""

import random

import numpy as np

from bots.cg_holdem.pure_eval import value7
from engine.cg_holdem._kernels import showdown_winnings
from engine.cg_holdem.settle import pay_layers

ROYAL_CLUBS = [12, 11, 10, 9, 8]  # on this board every contender ties


def random_showdown(rng: random.Random):
    n = rng.randint(2, 4)
    totals = [rng.choice((1, 7, 10, 35, 60, 60, 120)) * rng.randint(1, 4) for _ in range(n)]
    folded = [rng.random() < 0.3 for _ in range(n)]
    for s in rng.sample(range(n), 2):
        folded[s] = False  # a showdown has at least two contenders
    cards = rng.sample(range(52), 2 * n + 5)
    board = cards[2 * n:]
    if rng.random() < 0.2:
        board = ROYAL_CLUBS
        cards = rng.sample([c for c in range(52) if c not in board], 2 * n)
    return totals, folded, cards[:2 * n], board, rng.randrange(n)


def slow_twin(totals, folded, cards, board, dealer):
    values = [0 if folded[s] else value7(cards[2 * s:2 * s + 2] + board) for s in range(len(totals))]
    return pay_layers(totals, folded, values, dealer)


def test_showdown_kernel_equals_the_slow_twin():
    rng = random.Random(11)
    odd_layers = ties = 0
    for _ in range(3000):
        totals, folded, cards, board, dealer = random_showdown(rng)
        fast = showdown_winnings(np.array(totals), np.array(folded, np.int64), np.array(cards),
                                 np.array(board), dealer).tolist()
        slow = slow_twin(totals, folded, cards, board, dealer)
        assert fast == slow, (totals, folded, cards, board, dealer)
        assert sum(fast) == sum(totals)
        ties += board == ROYAL_CLUBS
        odd_layers += any(t % 2 for t in totals)
    assert ties > 400 and odd_layers > 400  # the split and odd-chip paths were exercised
