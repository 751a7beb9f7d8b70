"""The 7-card hold'em evaluator every engine and bot uses (numba kernels over lookup tables).

Layout (why it is fast on random hands): every card adds one precomputed 64-bit key, so a
hand is 7 loads and 7 adds, with no branch an unlucky deal can mispredict but the 3% flush
test. The key holds four suit counters in its low 16 bits (biased by 3, so bit 3 of a nibble
means "5+ cards of that suit") and, above them, each rank's share of a multiplicative hash of
the rank multiset (5**rank times an odd constant: the multiply is done when the tables are
built, not per hand). A non-flush hand is then two dependent loads: a displacement for its
top 13 bits, and the strength stored at (bits 35..50 + displacement) of a 64K table (hash and
displace; about 150 KB in all, so it stays in L2). A flush is scored from its suit's 13-bit
rank mask. Strengths are ordinals 1..4824 (the classes a best 5 of 7 cards can take), higher
is better, equal iff the hands tie. Tables: engine/core/_hand_tables.py.

Kernels come in two conventions: module-level tables (hand_value7, value_from_parts; numba
freezes them into the compiled code) and tables passed in as a tuple `ev` (value_of, values7,
nonflush_value_of in engine/core/hand_eval_ev.py, re-exported here), for bots that load the
tables from their own bundle instead of the project's cache. ev = evaluator_tables().
"""

import numpy as np

from engine.core._hand_tables import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    cached_tables,
)
from engine.core.hand_eval_ev import (  # noqa: F401  (re-exported: one evaluator, two conventions)
    FLUSH_BITS,
    SUIT_BIAS,
    flush_value_of,
    nonflush_value_of,
    value_of,
    values7,
)
from engine.core.jit import kernel

__all__ = ["HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "TRIPS", "STRAIGHT", "FLUSH", "FULL_HOUSE", "QUADS",
           "STRAIGHT_FLUSH"]

CARD_KEY, CARD_BIT, NOFLUSH_ORDINAL, FLUSH_ORDINAL, DISPLACEMENT, CATEGORY_START = cached_tables()
HAND_CLASSES = int(CATEGORY_START[9] - 1)  # 4824: the distinct strengths 7 cards can make
# The bots' tuple keeps a sixth entry, a multiplier of (key >> 16), from an earlier layout in
# which the rank part was hashed per hand: 2**16 makes that product the key itself.
_LEGACY_MULTIPLIER = np.array([1 << 16], np.uint64)


def evaluator_tables() -> tuple:
    """ev = (card_key, card_bit, noflush, flush, displacement, multiplier[1]) for value_of & co."""
    return CARD_KEY, CARD_BIT, NOFLUSH_ORDINAL, FLUSH_ORDINAL, DISPLACEMENT, _LEGACY_MULTIPLIER


# --------------------------------------------------------------------------------------
# Module-level tables (the engines)
# --------------------------------------------------------------------------------------
_EV = (CARD_KEY, CARD_BIT, NOFLUSH_ORDINAL, FLUSH_ORDINAL, DISPLACEMENT)


@kernel(inline="always")
def nonflush_value(key):
    """nonflush_value_of on the module's tables."""
    return nonflush_value_of(_EV, key)


@kernel
def value_from_parts(key, bits):
    """Strength from a hand's summed CARD_KEY (plus SUIT_BIAS) and OR of CARD_BIT.
    Both parts are additive, so rollouts reuse the board's share across both players."""
    return value_of(_EV, key, bits)


@kernel(inline="always")
def key7(c0, c1, c2, c3, c4, c5, c6):
    """Summed CARD_KEY of 7 cards, SUIT_BIAS included."""
    return (CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3]
            + CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6] + SUIT_BIAS)


@kernel(inline="always")
def bits7(c0, c1, c2, c3, c4, c5, c6):
    """OR of the CARD_BIT of 7 cards."""
    return (CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3]
            | CARD_BIT[c4] | CARD_BIT[c5] | CARD_BIT[c6])


@kernel(inline="always")
def hand_value7(c0, c1, c2, c3, c4, c5, c6):
    """Strength of the best 5 of 7 cards (engine ints 0..51): 1..4824, higher is better.
    Inlined into callers: a call per hand costs about a quarter of the time."""
    key = key7(c0, c1, c2, c3, c4, c5, c6)
    if not key & FLUSH_BITS:  # the common case, without touching the rank bits
        return nonflush_value(key)
    return value_from_parts(key, bits7(c0, c1, c2, c3, c4, c5, c6))


@kernel
def hand_category(value):
    """The category (HIGH_CARD..STRAIGHT_FLUSH) of a hand_value7 ordinal."""
    cat = 0
    while cat < 8 and value >= CATEGORY_START[cat + 1]:
        cat += 1
    return cat


@kernel
def _evaluate_rows(flat, hands, out):
    """evaluate_into's loop (its own function: with the shape check's raise in the same body,
    LLVM keeps more values on the stack and the loop runs about 10% slower)."""
    for i in range(out.shape[0]):
        j = 7 * i
        key = key7(flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4], flat[j + 5], flat[j + 6])
        if not key & FLUSH_BITS:
            out[i] = nonflush_value(key)
        else:  # read the row again through the 2-D view: the cards need not stay in registers
            bits = np.uint64(0)
            for k in range(7):
                bits |= CARD_BIT[hands[i, k]]
            out[i] = value_from_parts(key, bits)


@kernel
def evaluate_into(hands, out):
    """out[i] = hand_value7 of row i of an (n, 7) card array (any integer dtypes; uint8 cards
    read the least memory)."""
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0]:
        raise ValueError("evaluate_into takes an (n, 7) card array and an output of length n")
    _evaluate_rows(hands.ravel(), hands, out)  # ravel: a view for C-contiguous input, a copy otherwise


@kernel
def evaluate_many(hands):
    """hand_value7 over the rows of an (n, 7) int array, into a new int64 array."""
    out = np.empty(hands.shape[0], np.int64)
    evaluate_into(hands, out)
    return out
