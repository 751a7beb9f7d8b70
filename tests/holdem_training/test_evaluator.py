"""The shared 7-card evaluator (engine/core/hand_eval.py) against the statement's examples, a slow twin written from the
statement, eval7 (a maintained PyPI evaluator) and the known category counts of all 7-card hands."""

import eval7
import numpy as np
import pytest
from numba import njit

from bench.holdem_training.speed import random_hands
from engine.core import _hand_tables
from engine.core import hand_eval as _kernels
from engine.core.cards import card_name
from tests.holdem_training import reference


def c(suit: int, value: int) -> int:
    """A card the way the contest prints it: suit 0..3, value 1..13 for 2..A."""
    return suit * 13 + value - 1


def value(cards) -> int:
    return int(_kernels.hand_value7(*cards))


def test_statement_examples():
    sf_5_to_9 = [c(3, v) for v in (4, 5, 6, 7, 8)]
    sf_wheel = [c(3, v) for v in (13, 1, 2, 3, 4)]
    flush_no_straight = [c(3, v) for v in (1, 3, 4, 5, 6)]
    spares = (c(0, 10), c(1, 9))  # Jc, Td
    assert value(sf_5_to_9 + list(spares)) > value(sf_wheel + list(spares))
    assert value(sf_wheel + list(spares)) > value(flush_no_straight + list(spares))
    two_pairs_3_8_k = [c(0, 2), c(1, 2), c(0, 7), c(1, 7), c(2, 12)]
    two_pairs_5_7_a = [c(0, 4), c(1, 4), c(0, 6), c(1, 6), c(2, 13)]
    spares = (c(3, 1), c(3, 10))  # 2s, Js: no help
    assert value(two_pairs_3_8_k + list(spares)) > value(two_pairs_5_7_a + list(spares))
    queens_full = [c(0, 11), c(1, 11), c(2, 11), c(0, 9), c(1, 9)]
    jacks_full_of_aces = [c(0, 10), c(1, 10), c(2, 10), c(0, 13), c(1, 13)]
    spares = (c(3, 1), c(3, 3))
    assert value(queens_full + list(spares)) > value(jacks_full_of_aces + list(spares))


def test_wheel_is_the_lowest_straight_and_k_a_2_3_4_is_none():
    wheel = [c(0, 13), c(1, 1), c(2, 2), c(3, 3), c(0, 4), c(1, 9), c(2, 11)]
    six_high = [c(0, 5), c(1, 1), c(2, 2), c(3, 3), c(0, 4), c(1, 9), c(2, 11)]
    wrap = [c(0, 12), c(1, 13), c(2, 1), c(3, 2), c(0, 3), c(1, 9), c(2, 7)]  # K-A-2-3-4, no straight
    assert _kernels.hand_category(value(wheel)) == _kernels.STRAIGHT
    assert value(six_high) > value(wheel)
    assert _kernels.hand_category(value(wrap)) == _kernels.HIGH_CARD
    best_trips = [c(0, 13), c(1, 13), c(2, 13), c(3, 12), c(0, 11), c(1, 1), c(2, 3)]
    assert value(wheel) > value(best_trips)


def test_suits_never_break_ties():
    a = [c(0, 13), c(1, 12), c(2, 9), c(3, 7), c(0, 5), c(1, 3), c(2, 1)]
    b = [c(3, 13), c(2, 12), c(1, 9), c(0, 7), c(3, 5), c(2, 3), c(1, 1)]
    assert value(a) == value(b)


def test_matches_the_slow_twin_on_random_hands():
    hands = random_hands(3000, seed=11)
    ours = _kernels.evaluate_many(hands)
    keys = [reference.seven_card_key(h) for h in hands.tolist()]
    order = np.argsort(ours, kind="stable")
    for a, b in zip(order[:-1], order[1:], strict=True):
        assert (ours[a] < ours[b]) == (keys[a] < keys[b]) and (ours[a] == ours[b]) == (keys[a] == keys[b])
    for h, v, key in zip(hands[:300].tolist(), ours[:300], keys[:300], strict=True):
        assert _kernels.hand_category(v) == key[0], h


def test_value_from_parts_and_many_agree_with_hand_value7():
    hands = random_hands(2000, seed=12)
    many = _kernels.evaluate_many(hands)
    for h, v in zip(hands.tolist(), many, strict=True):
        key = (sum(int(_kernels.CARD_KEY[x]) for x in h) + int(_kernels.SUIT_BIAS)) % 2**64  # keys wrap
        bits = 0
        for x in h:
            bits |= int(_kernels.CARD_BIT[x])
        assert value(h) == v == _kernels.value_from_parts(np.uint64(key), np.uint64(bits))


def _assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    """The map from our values to the oracle's (both higher = better) is strictly increasing,
    so every pair of these hands, not just the paired deals, compares the same way."""
    order = np.argsort(ours, kind="stable")
    step_ours, step_theirs = np.diff(ours[order]), np.diff(theirs[order])
    assert ((step_ours == 0) == (step_theirs == 0)).all() and (step_theirs >= 0).all()


def _deals(n: int, seed: int):
    deals = random_hands(n, seed=seed, size=9)  # Alice 2, Bob 2, board 5
    return np.concatenate([deals[:, :2], deals[:, 4:]], axis=1), deals[:, 2:]


@pytest.mark.slow  # a million hands through a second evaluator
def test_a_million_pairs_order_like_phevaluator():
    """1,000,000 deals (two holdings on one board) compared by phevaluator's C evaluator
    (its rank: 1 = best, card id = rank * 4 + suit with suits c, d, h, s)."""
    from phevaluator import _pheval  # the C core; its Python wrapper converts cards per call

    hands_a, hands_b = _deals(1_000_000, 2026)

    def theirs(hands):
        ids = (hands % 13) * 4 + hands // 13
        return -np.fromiter(map(_pheval.evaluate_7cards, *(ids[:, j].tolist() for j in range(7))),
                            np.int64, len(hands))

    ours_a, ours_b = _kernels.evaluate_many(hands_a), _kernels.evaluate_many(hands_b)
    theirs_a, theirs_b = theirs(hands_a), theirs(hands_b)
    assert (np.sign(ours_a - ours_b) == np.sign(theirs_a - theirs_b)).all()
    assert (ours_a == ours_b).sum() > 10_000  # split pots are well represented
    _assert_same_order(np.concatenate([ours_a, ours_b]), np.concatenate([theirs_a, theirs_b]))
    assert len(np.unique(ours_a)) > 4000  # the sample reaches nearly all 4824 classes


def test_pairs_order_like_eval7():
    """A second oracle with its own conventions (higher = better, cards named like 'As')."""
    hands_a, hands_b = _deals(100_000, 2027)
    deck = [eval7.Card(card_name(x)) for x in range(52)]
    evaluate = eval7.evaluate
    ours_a, ours_b = _kernels.evaluate_many(hands_a), _kernels.evaluate_many(hands_b)
    theirs_a = np.fromiter((evaluate([deck[x] for x in h]) for h in hands_a.tolist()), np.int64, len(hands_a))
    theirs_b = np.fromiter((evaluate([deck[x] for x in h]) for h in hands_b.tolist()), np.int64, len(hands_b))
    assert (np.sign(ours_a - ours_b) == np.sign(theirs_a - theirs_b)).all()
    _assert_same_order(np.concatenate([ours_a, ours_b]), np.concatenate([theirs_a, theirs_b]))


@njit(cache=True)
def _category_counts():
    counts = np.zeros(9, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c_ in range(b + 1, 52):
                for d in range(c_ + 1, 52):
                    for e in range(d + 1, 52):
                        for f in range(e + 1, 52):
                            for g in range(f + 1, 52):
                                counts[_kernels.hand_category(_kernels.hand_value7(a, b, c_, d, e, f, g))] += 1
    return counts


@pytest.mark.slow
def test_category_counts_over_all_133_million_hands():
    expected = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
    counts = _category_counts()
    assert counts.tolist() == expected
    assert counts.sum() == 133_784_560


def test_category_boundaries_and_class_count():
    assert _kernels.HAND_CLASSES == 4824  # distinct strengths of a best 5 of 7 cards
    assert np.diff(_kernels.CATEGORY_START).tolist() == [407, 1470, 763, 575, 10, 1277, 156, 156, 10]


def test_tables_loaded_from_the_disk_cache_equal_freshly_built_ones(tmp_path, monkeypatch):
    built = _hand_tables.build_tables()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    first = _hand_tables.cached_tables()  # builds and writes the file
    assert len(list(tmp_path.glob("hand_eval_*.npz"))) == 1
    again = _hand_tables.cached_tables()  # reads it back
    for fresh, written, read in zip(built, first, again, strict=True):
        assert np.array_equal(fresh, written) and np.array_equal(fresh, read)
        assert np.asarray(read).dtype == np.asarray(fresh).dtype
