"""engine/core/hand_eval.py beyond the rankings (those are in tests/holdem_training/test_evaluator.py):
the preallocated-output loop, the tables-passed-in convention the bots use, and the tuple
layout older bot code reads."""

import numpy as np
import pytest

from bench.holdem_training.speed import random_hands
from engine.core import hand_eval


def test_evaluate_into_takes_small_dtypes_and_views_and_matches_hand_value7():
    deals = random_hands(5000, seed=31, size=9)
    hands = deals[:, 2:]  # a strided view, not C-contiguous
    want = np.array([hand_eval.hand_value7(*row) for row in hands.tolist()])
    out = np.zeros(len(hands), np.uint16)
    hand_eval.evaluate_into(hands.astype(np.uint8), out)
    assert np.array_equal(out, want)
    wide = np.zeros(len(hands), np.int64)
    hand_eval.evaluate_into(hands, wide)
    assert np.array_equal(wide, want) and np.array_equal(hand_eval.evaluate_many(hands), want)
    flushes = sum(hand_eval.hand_category(v) in (hand_eval.FLUSH, hand_eval.STRAIGHT_FLUSH) for v in want)
    assert flushes > 50  # the flush branch (re-reading the row) is exercised


@pytest.mark.parametrize(("shape", "length"), [((10, 6), 10), ((10, 7), 9), ((10, 7), 11)])
def test_evaluate_into_rejects_mismatched_shapes(shape, length):
    with pytest.raises(ValueError, match=r"\(n, 7\) card array and an output of length n"):
        hand_eval.evaluate_into(np.zeros(shape, np.uint8), np.zeros(length, np.uint16))


def test_tables_passed_in_give_the_module_kernels_values():
    ev = hand_eval.evaluator_tables()
    hands = random_hands(3000, seed=32)
    want = hand_eval.evaluate_many(hands)
    assert np.array_equal(hand_eval.values7(ev, hands), want)
    for row, value in zip(hands[:500].tolist(), want[:500], strict=True):
        key = np.uint64((sum(int(ev[0][c]) for c in row) + int(hand_eval.SUIT_BIAS)) % 2**64)
        bits = np.uint64(np.bitwise_or.reduce(ev[1][row]))
        assert hand_eval.value_of(ev, key, bits) == value == hand_eval.value_from_parts(key, bits)
        if not key & hand_eval.FLUSH_BITS:
            assert hand_eval.nonflush_value_of(ev, key) == value == hand_eval.nonflush_value(key)


def test_the_legacy_multiplier_keeps_older_bot_code_exact():
    """Bot code written for the earlier layout hashes (key >> 16) * ev[5][0] and reads bits
    51.. and 35..50 of the product; with the multiplier 2**16 that is the key itself."""
    ev = hand_eval.evaluator_tables()
    assert ev[5].dtype == np.uint64 and ev[5].shape == (1,)
    hands = random_hands(3000, seed=33)
    for row, value in zip(hands.tolist(), hand_eval.evaluate_many(hands), strict=True):
        key = (sum(int(ev[0][c]) for c in row) + int(hand_eval.SUIT_BIAS)) % 2**64
        if key & int(hand_eval.FLUSH_BITS):
            continue
        h = ((key >> 16) * int(ev[5][0])) % 2**64
        slot = ((h >> 35) + int(ev[4][h >> 51])) & 0xFFFF
        assert ev[2][slot] == value
