"""Luck of the cards in Hold'em Training, taken out of a hand's result without bias (AIVAT-style).

The judge knows every card; the players do not. When the flop, the turn and the river are turned, Alice's
share of the pot moves from her equity before the cards (win + tie / 2 against Bob's actual hand, averaged
over the cards still to come) to her equity after them. With P the pot when the cards are turned,

    luck = sum over the reveals reached of P * (equity after - equity before)

Each term has expectation zero given everything before its reveal: the pot is settled before the cards are
turned, nobody's action can depend on cards not yet seen, and the cards to come are a uniform draw from the
unseen deck (the deal's Fisher-Yates shuffle; its multiply-shift pick is biased by under n / 2**32). So
`payoff - luck` has exactly the payoff's mean, whatever the bots do, and far less spread. The equity before
the flop is estimated from boards drawn on the hand's own stream for this purpose: an unbiased estimate
keeps the flop's term at zero mean (the preflop term itself, 10 chips times the hole cards' equity, is the
same for every config on a deal and cancels in paired differences, so it is left out).
"""

import numpy as np

from engine.core import _rng
from engine.core.hand_eval import hand_value7
from engine.core.jit import kernel

PREFLOP_BOARDS = 400  # boards drawn to estimate the equity before the flop
LUCK_PURPOSE = 0x6C75636B  # "luck": the preflop estimate's stream of a hand's deal key


@kernel(inline="always")
def _share(a, b):
    return 1.0 if a > b else (0.5 if a == b else 0.0)


@kernel
def _equities(cards, deal_keys, boards):
    """(n, 4): Alice's equity against Bob's cards before the flop (estimated), on the flop, on the turn,
    at the river (the showdown's 1, 0.5 or 0). cards: (n, 9) Alice 2, Bob 2, board 5."""
    n = cards.shape[0]
    out = np.empty((n, 4))
    unseen = np.empty(52, np.int64)
    state = np.empty(1, np.uint64)
    for i in range(n):
        a0, a1, b0, b1 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        f0, f1, f2, t, r = cards[i, 4], cards[i, 5], cards[i, 6], cards[i, 7], cards[i, 8]
        out[i, 3] = _share(hand_value7(a0, a1, f0, f1, f2, t, r), hand_value7(b0, b1, f0, f1, f2, t, r))
        # The turn: every river still unseen.
        k = 0
        for c in range(52):
            if c != a0 and c != a1 and c != b0 and c != b1 and c != f0 and c != f1 and c != f2 and c != t:
                unseen[k] = c
                k += 1
        total = 0.0
        for j in range(k):
            x = unseen[j]
            total += _share(hand_value7(a0, a1, f0, f1, f2, t, x), hand_value7(b0, b1, f0, f1, f2, t, x))
        out[i, 2] = total / k
        # The flop: every turn and river pair still unseen.
        k = 0
        for c in range(52):
            if c != a0 and c != a1 and c != b0 and c != b1 and c != f0 and c != f1 and c != f2:
                unseen[k] = c
                k += 1
        total = 0.0
        pairs = 0
        for j in range(k):
            for m in range(j + 1, k):
                x, y = unseen[j], unseen[m]
                total += _share(hand_value7(a0, a1, f0, f1, f2, x, y), hand_value7(b0, b1, f0, f1, f2, x, y))
                pairs += 1
        out[i, 1] = total / pairs
        # Before the flop: boards drawn from the 48 unseen cards on the hand's own luck stream.
        k = 0
        for c in range(52):
            if c != a0 and c != a1 and c != b0 and c != b1:
                unseen[k] = c
                k += 1
        state[0] = _rng.derive_key(deal_keys[i], np.uint64(0), np.uint64(LUCK_PURPOSE))
        total = 0.0
        for _ in range(boards):
            _rng.shuffle_prefix(state, unseen, k, 5)  # unseen[0:5]: a uniform board
            total += _share(hand_value7(a0, a1, unseen[0], unseen[1], unseen[2], unseen[3], unseen[4]),
                            hand_value7(b0, b1, unseen[0], unseen[1], unseen[2], unseen[3], unseen[4]))
        out[i, 0] = total / boards
    return out


def equities(cards: np.ndarray, deal_keys: np.ndarray, boards: int = PREFLOP_BOARDS) -> np.ndarray:
    """(n, 4) equities of Alice before the flop, on the flop, on the turn and at the river, per hand: the same
    for every config on a deal (compute once per deal, apply to each config's pots)."""
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    if cards.ndim != 2 or cards.shape[1] != 9:
        raise ValueError(f"cards must be (n, 9): Alice 2, Bob 2, board 5; got shape {cards.shape}")
    return _equities(cards, np.ascontiguousarray(deal_keys, dtype=np.uint64), boards)


def luck(equity: np.ndarray, pots: np.ndarray) -> np.ndarray:
    """Per hand, the chips the cards moved: pots[:, r] is the pot when round r + 1 began (rounds 2, 3, 4
    start with the flop, the turn and the river turned), 0 for a round the hand did not reach."""
    pots = np.asarray(pots, dtype=float)
    return (pots[:, 1:4] * np.diff(equity, axis=1)).sum(axis=1)
