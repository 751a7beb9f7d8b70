"""Numba kernels for Hold'em Training: dealing, Bob's call rule, Monte Carlo equity.

The 7-card evaluator is engine/core/hand_eval.py (shared with CodinGame hold'em and the bots);
its names are re-exported here for the callers that use this module as their one import.
"""

import numpy as np

from engine.core._rng import GOLDEN, derive_key, mix64, shuffle_prefix
from engine.core.hand_eval import (
    CARD_BIT,
    CARD_KEY,
    CATEGORY_START,
    FLUSH,
    FLUSH_BITS,
    FULL_HOUSE,
    HAND_CLASSES,
    HIGH_CARD,
    ONE_PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUIT_BIAS,
    TRIPS,
    TWO_PAIR,
    evaluate_many,
    hand_category,
    hand_value7,
    nonflush_value,
    value_from_parts,
)
from engine.core.jit import kernel

__all__ = ["CARD_BIT", "CARD_KEY", "CATEGORY_START", "FLUSH", "FULL_HOUSE", "HAND_CLASSES", "HIGH_CARD", "ONE_PAIR",
           "QUADS", "STRAIGHT", "STRAIGHT_FLUSH", "SUIT_BIAS", "TRIPS", "TWO_PAIR", "evaluate_many", "hand_category",
           "hand_value7", "value_from_parts"]

_LOW32 = np.uint64(0xFFFFFFFF)


# --------------------------------------------------------------------------------------
# Dealing and Monte Carlo (the judge's and Bob's sampling; bots may reuse them)
# --------------------------------------------------------------------------------------
DEALT = 9  # per hand: Alice's 2, Bob's 2, then the 5 board cards in deal order


@kernel
def deal_chunk(match_key, first, count, deal_purpose, opponent_purpose):
    """Deal keys, cards, showdown outcome (+1 Alice wins, 0 tie, -1 Bob wins) and RATE/Bob
    stream keys of hands first..first+count-1 (0-based); hand i depends only on (match_key, i)."""
    deal_keys = np.empty(count, np.uint64)
    cards = np.empty((count, DEALT), np.int64)
    outcome = np.empty(count, np.int64)
    stream_keys = np.empty(count, np.uint64)
    deck = np.empty(52, np.int64)
    state = np.empty(1, np.uint64)
    for i in range(count):
        index = np.uint64(first + i)
        deal_keys[i] = derive_key(match_key, index, deal_purpose)
        state[0] = deal_keys[i]
        for c in range(52):
            deck[c] = c
        shuffle_prefix(state, deck, 52, DEALT)
        cards[i, :] = deck[:DEALT]
        alice = hand_value7(deck[0], deck[1], deck[4], deck[5], deck[6], deck[7], deck[8])
        bob = hand_value7(deck[2], deck[3], deck[4], deck[5], deck[6], deck[7], deck[8])
        outcome[i] = (alice > bob) - (alice < bob)
        stream_keys[i] = derive_key(match_key, index, opponent_purpose)
    return deal_keys, cards, outcome, stream_keys


@kernel(inline="always")
def _swap_in(unseen, i, bits32, n):
    """Fisher-Yates step i: move a uniform pick of unseen[i:n] to position i and return it.
    The pick uses 32 random bits by multiply-shift (bias under n / 2**32). i and n are uint64:
    unsigned indices spare numba's negative-index fix-up on every access."""
    j = i + ((bits32 * (n - i)) >> np.uint64(32))
    c = unseen[j]
    unseen[j] = unseen[i]
    unseen[i] = c
    return c


@kernel(inline="always")
def _rollout_value(key, a, b, board_bits, unseen, need):
    """Strength of hole a, b with the known board (board_bits) and the drawn unseen[2:need];
    `key` already sums all seven. Rank bits are gathered only for the rare flush."""
    if not key & FLUSH_BITS:
        return nonflush_value(key)
    bits = board_bits | CARD_BIT[a] | CARD_BIT[b]
    for j in range(2, need):
        bits |= CARD_BIT[unseen[j]]
    return value_from_parts(key, bits)


@kernel
def sample_outcomes(stream, hole0, hole1, board, known, rollouts):
    """(wins, ties) of the hand hole0/hole1 over `rollouts` random completions: the other
    player's two cards, then the board cards after the first `known`, drawn in that order
    as the prefix of a fresh uniform shuffle of every card not seen (hole and known board)."""
    return _sample_outcomes(stream, hole0, hole1, board, known, rollouts, np.empty(52, np.uint8))


@kernel(inline="always")
def _sample_outcomes(stream, hole0, hole1, board, known, rollouts, unseen):
    """sample_outcomes with the caller's workspace for the unseen cards (52 uint8; batch loops
    reuse one instead of allocating per decision)."""
    seen = (np.uint64(1) << np.uint64(hole0)) | (np.uint64(1) << np.uint64(hole1))
    board_key = SUIT_BIAS
    board_bits = np.uint64(0)
    for j in range(known):
        seen |= np.uint64(1) << np.uint64(board[j])
        board_key += CARD_KEY[board[j]]
        board_bits |= CARD_BIT[board[j]]
    count = 0
    for c in range(52):
        if not (seen >> np.uint64(c)) & np.uint64(1):
            unseen[count] = c
            count += 1
    n = np.uint64(count)
    need = 2 + 5 - known
    my_key = CARD_KEY[hole0] + CARD_KEY[hole1]
    mine = value_from_parts(board_key + my_key, board_bits | CARD_BIT[hole0] | CARD_BIT[hole1])  # if known == 5
    state = stream[0]  # the stream lives in a register here: next_u64 inlined
    wins = 0
    ties = 0
    for _ in range(rollouts):
        # Fisher-Yates stopped once the prefix is drawn; each 64-bit output makes two picks.
        state += GOLDEN
        r = mix64(state)
        opp0 = _swap_in(unseen, np.uint64(0), r >> np.uint64(32), n)
        opp1 = _swap_in(unseen, np.uint64(1), r & _LOW32, n)
        key = board_key
        for i in range(2, need, 2):
            state += GOLDEN
            r = mix64(state)
            key += CARD_KEY[_swap_in(unseen, np.uint64(i), r >> np.uint64(32), n)]
            if i + 1 < need:
                key += CARD_KEY[_swap_in(unseen, np.uint64(i + 1), r & _LOW32, n)]
        if known < 5:
            mine = _rollout_value(key + my_key, hole0, hole1, board_bits, unseen, need)
        theirs = _rollout_value(key + CARD_KEY[opp0] + CARD_KEY[opp1], opp0, opp1, board_bits, unseen, need)
        wins += mine > theirs
        ties += mine == theirs
    stream[0] = state
    return wins, ties


@kernel
def bob_calls(stream, cards, known, pot, raise_amount, rollouts):
    """Bob's answer to a raise: True = CALL. From his view (his hole cards cards[2:4] and the
    first `known` board cards) he rolls out the unseen cards, assumes Alice checks from here
    on, and calls iff the mean profit of calling beats folding. In exact integers: relative
    to folding, a call wins pot + x, ties pot / 2 (the pot is always even) or loses x."""
    bob_wins, ties = sample_outcomes(stream, cards[2], cards[3], cards[4:], known, rollouts)
    return call_decision(bob_wins, ties, rollouts, pot, raise_amount)


@kernel
def call_decision(bob_wins, ties, rollouts, pot, raise_amount):
    """Bob's rule on his rollout counts, in the reference interactor's doubles: with w, d the
    rates of Alice winning and tying, call iff -w*x + d*P/2 + (1-w-d)*(P+x) > 0, evaluated in
    that order. In exact arithmetic it is 2*bob_wins*(P+x) + ties*P - 2*alice_wins*x > 0; the
    two differ only at exact break-even, where rounding leaves the doubles slightly positive
    in 6,695 of 15,972 cases (tests/holdem_training/test_reference_bob.py)."""
    w = (rollouts - bob_wins - ties) / rollouts
    d = ties / rollouts
    return -w * raise_amount + d * pot / 2 + (1.0 - w - d) * (pot + raise_amount) > 0.0


@kernel
def rate_counts(stream, cards, known, rollouts):
    """The RATE query: Alice's (wins, ties) over random completions of Bob's hole and the board."""
    return sample_outcomes(stream, cards[0], cards[1], cards[4:], known, rollouts)


@kernel
def bob_calls_many(stream_keys, cards, known, pot, raise_amount, rollouts):
    """bob_calls for every row of `cards` at one street, each hand from its own stream key
    (batch use: benchmarks, and bots that tabulate Bob's answers)."""
    n = cards.shape[0]
    out = np.empty(n, np.bool_)
    stream = np.empty(1, np.uint64)
    unseen = np.empty(52, np.uint8)
    for i in range(n):
        stream[0] = stream_keys[i]
        bob_wins, ties = _sample_outcomes(stream, cards[i, 2], cards[i, 3], cards[i, 4:], known, rollouts, unseen)
        out[i] = call_decision(bob_wins, ties, rollouts, pot, raise_amount)  # = bob_calls, one workspace
    return out
