"""The 7-card evaluator's kernels on tables passed in as a tuple `ev` (no tables at import).

Bots load the tables from their own bundle (bots/holdem_training/tables.py), so a fresh
contestant process neither builds nor loads the project's cache to evaluate a hand; the engines
call the same kernels on module-level tables (engine/core/hand_eval.py, which also explains the
layout). ev = (card_key, card_bit, noflush, flush, displacement, multiplier[1]); the sixth
entry is kept for older bot tables and not read.
"""

import numpy as np

from engine.core._hand_tables import BUCKET_SHIFT, SLOT_SHIFT
from engine.core.jit import kernel

SUIT_BIAS = np.uint64(0x3333)
FLUSH_BITS = np.uint64(0x8888)
_BUCKET = np.uint64(BUCKET_SHIFT)
_SLOT = np.uint64(SLOT_SHIFT)
_SLOT_MASK = np.uint64(0xFFFF)
_RANKS13 = np.uint64(0x1FFF)


@kernel(inline="always")
def nonflush_value_of(ev, key):
    """Strength of a hand whose suit counters show no flush, from its summed key alone."""
    slot = (key >> _SLOT) + np.uint64(ev[4][key >> _BUCKET])
    return np.int64(ev[2][slot & _SLOT_MASK])


@kernel(inline="always")
def flush_value_of(ev, key, bits):
    """Strength of a flush hand: its suit's 13-bit rank mask (5+ cards of one suit, so one suit)."""
    flush_bits = key & FLUSH_BITS  # one bit: 7 cards hold 5 of at most one suit
    suit = (np.uint64(flush_bits >= np.uint64(0x80)) + np.uint64(flush_bits >= np.uint64(0x800))
            + np.uint64(flush_bits >= np.uint64(0x8000)))  # branch-free: no second misprediction
    return np.int64(ev[3][(bits >> (np.uint64(16) * suit)) & _RANKS13])


@kernel(inline="always")
def value_of(ev, key, bits):
    """Strength of a 7-card hand from its summed card keys (SUIT_BIAS included) and OR-ed bits."""
    if key & FLUSH_BITS:
        return flush_value_of(ev, key, bits)
    return nonflush_value_of(ev, key)


@kernel
def values7(ev, hands):
    """Strength of each row of an (n, 7) card array, on passed tables."""
    out = np.empty(hands.shape[0], np.int64)
    for r in range(hands.shape[0]):
        key = SUIT_BIAS
        bits = np.uint64(0)
        for c in hands[r]:
            key += ev[0][c]
            bits |= ev[1][c]
        out[r] = value_of(ev, key, bits)
    return out
