"""Deck reproduction from the game seed: Java 17 SHA1PRNG vectors (docs/rules/cg_holdem.md#deck)."""

import hashlib
import random

import numpy as np
import pytest

from engine.cg_holdem._kernels import _sha1_of_20
from engine.cg_holdem.deck import DeckSource
from engine.cg_holdem.rules import REFEREE_DECK_ORDER, card_text
from engine.cg_holdem.sha1prng import Sha1Prng, java_shuffle

VECTORS = [  # seed, first BB for N=2/3/4, (cut, top 12) for hands 1 and 2
    (42, (1, 2, 3), (34, "2C QH QD KC 9C KS 8S QC JD AC 2D 4H"), (32, "5S 8H 6C 6S 7C 4S 5H 3S 2C JS QC 4D")),
    (1, (1, 1, 2), (27, "TC 3D JH 6H 8S 5S KS AH 8C 9H 2S 9D"), (27, "AH 5C 2D 3S 9S JD TC 9D 8C JH 9H 5D")),
    (-7006392080589544000, (0, 1, 1), (28, "QC 9D 3D 2S JH 4S 9H JC 9S 5C 5H TD"),
     (8, "KD QD 5S 8C 8D 6S AD 3H 9D 5D 4C 9C")),
    (123456789012345, (1, 0, 2), (37, "2D 7C KS AC 5C AS 4D JS AD QD 8D 3D"),
     (20, "5D TS 3S 9H 7S 2C 2H AD KS 5H 6D AH")),
]


@pytest.mark.parametrize(("seed", "first_bb", "hand1", "hand2"), VECTORS)
def test_spec_vectors(seed, first_bb, hand1, hand2):
    for players, expected in zip((2, 3, 4), first_bb, strict=True):
        assert DeckSource(seed, players).first_big_blind == expected
    source = DeckSource(seed, 4)
    for cut, top in (hand1, hand2):
        deck = source.next_hand()
        assert source.last_cut == cut
        assert " ".join(card_text(c) for c in deck[:12]) == top
        assert sorted(deck) == list(range(52))


def test_seed_zero_is_refused():
    with pytest.raises(ValueError, match="seed 0"):
        Sha1Prng(0)


def test_bytes_are_one_stream_whatever_the_request_sizes():
    a, b = Sha1Prng(99), Sha1Prng(99)
    whole = a.next_bytes(67)
    parts = b.next_bytes(3) + b.next_bytes(20) + b.next_bytes(1) + b.next_bytes(43)
    assert whole == parts


def test_batched_draws_equal_one_call_per_bound():
    bounds = [52, 51, 3, 7, 2**30 + 1, 2**31 - 1, 16, 1000003] * 40  # large bounds force rejections
    one, batch = Sha1Prng(-5), Sha1Prng(-5)
    assert [one.next_int(b) for b in bounds] == batch.next_ints(bounds)
    assert one.next_int(97) == batch.next_int(97)  # and the streams stay aligned


def reference_decks(seed: int, players: int, hands: int):
    """The slow twin of the numba deck kernel: hashlib SHA1PRNG, Collections.shuffle, cut."""
    rng = Sha1Prng(seed)
    first_bb = rng.next_int(players)
    decks = []
    for _ in range(hands):
        deck = list(REFEREE_DECK_ORDER)
        java_shuffle(deck, rng)
        cut = rng.next_int(52)
        decks.append((cut, deck[cut:] + deck[:cut]))
    return first_bb, decks


@pytest.mark.parametrize("seed", [1, 42, -7006392080589544000, 2**63 - 1, -(2**63), 987654321])
def test_numba_decks_equal_the_hashlib_twin(seed):
    for players in (2, 4):
        first_bb, decks = reference_decks(seed, players, 40)
        source = DeckSource(seed, players)
        assert source.first_big_blind == first_bb
        for cut, deck in decks:
            assert source.next_hand() == deck
            assert source.last_cut == cut


def test_numba_sha1_equals_hashlib():
    rng = random.Random(5)
    w = np.empty(80, np.int64)
    for _ in range(300):
        message = bytes(rng.randrange(256) for _ in range(20))
        out = np.zeros(20, np.int64)
        _sha1_of_20(np.frombuffer(message, np.uint8).astype(np.int64), 0, out, 0, w)
        assert bytes(out.astype(np.uint8)) == hashlib.sha1(message).digest()
