"""Layered side pots cross-checked against PokerKit on random multi-way all-in hands.

Each hand: every seat antes a random stake (a multiple of 60, so no layer has odd chips:
the odd-chip rule is the referee's own, docs/rules/cg_holdem.md#settlement, and is tested
with known split seeds elsewhere).
Seats whose ante is their whole stack are all-in contenders; the others keep chips, and
all but the big blind fold to it, so folded chips sit in the layers too. PokerKit plays
the hand; our pay_layers must give every seat the same final stack.
"""

import warnings

import numpy as np
import pytest

pokerkit = pytest.importorskip("pokerkit")

from engine.cg_holdem.settle import pay_layers  # noqa: E402
from engine.core.cards import card_name  # noqa: E402
from engine.holdem_training._kernels import hand_value7  # noqa: E402

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING, pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING, pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING, pokerkit.Automation.CHIPS_PULLING,
)
BLIND = 60  # posted by seat 1 (PokerKit swaps the blinds' order heads-up)


def random_hand(rng):
    n = int(rng.integers(2, 7))
    antes = [int(x) * 60 for x in rng.integers(1, 8, n)]
    folds = [bool(x) for x in rng.random(n) < 0.3]
    folds[1] = False  # the big blind is the one contender with chips behind
    antes[1] = max(antes)  # so no folded ante exceeds what it covers (PokerKit's ante trimming)
    stacks = [a + (BLIND + 600 if (s == 1 or folds[s]) else 0) for s, a in enumerate(antes)]
    deck = rng.permutation(52)
    holes = [(int(deck[2 * s]), int(deck[2 * s + 1])) for s in range(n)]
    board = [int(c) for c in deck[2 * n:2 * n + 5]]
    if rng.random() < 0.3:  # make ties common: the board plays for everyone
        board = [12, 11, 10, 9, 8]  # clubs royal flush
        rest = [int(c) for c in deck if c not in board]
        holes = [(rest[2 * s], rest[2 * s + 1]) for s in range(n)]
    return n, antes, folds, stacks, holes, board


def pokerkit_stacks(n, antes, folds, stacks, holes, board):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, tuple(antes), (BLIND, 0) if n == 2 else (0, BLIND), BLIND, tuple(stacks), n)
        for s in range(n):
            state.deal_hole(card_name(holes[s][0]) + card_name(holes[s][1]))
        while state.actor_index is not None:  # only the big blind and the folders have chips
            if state.actor_index == 1:
                state.check_or_call()
            else:
                state.fold()
        for count in (3, 1, 1):
            if not state.status:
                break
            state.deal_board("".join(card_name(c) for c in board[:count]))
            board = board[count:]
    return list(state.stacks)


def our_stacks(n, antes, folds, stacks, holes, board):
    totals = list(antes)
    totals[1] += BLIND
    contenders = [s for s in range(n) if s == 1 or not folds[s] and stacks[s] == antes[s]]
    folded = [s not in contenders for s in range(n)]
    values = [int(hand_value7(*holes[s], *board)) if not folded[s] else 0 for s in range(n)]
    won = pay_layers(totals, folded, values, dealer=n - 1)
    return [stacks[s] - totals[s] + won[s] for s in range(n)]


@pytest.mark.slow  # many games through pokerkit
def test_side_pots_match_pokerkit():
    rng = np.random.default_rng(20261122)
    checked = 0
    for _ in range(700):
        hand = random_hand(rng)
        n, antes, folds, stacks, _, _ = hand
        if all(folds[s] or s == 1 or stacks[s] > antes[s] for s in range(n)):
            continue  # no all-in contender: nothing to split
        assert our_stacks(*hand) == pokerkit_stacks(*hand), hand
        checked += 1
    assert checked > 450
