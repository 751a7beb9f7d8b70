"""Card order, lead structure and trick winners against the statement's examples and docs/rules/tractor.md."""

import pytest

from engine.tractor.rules import CARD_OF_TOKEN, SUITS, TOKEN, TRUMP_GROUP, ordering
from engine.tractor.tricks import lead_shape, level_change, settle, trick_winner

H7 = ordering(SUITS.index("H"), 5)  # main H, CR 7 (rank index 5), as in the statement's examples
NONE7 = ordering(4, 5)


def cards(text):
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def test_statement_order_main_H_cr_7():
    # Ascending as listed in the statement; '=' cards share one order.
    chain = ["S2", "S3", "S4", "S5", "S6", "S8", "S9", "ST", "SJ", "SQ", "SK", "SA",
             "H2", "H3", "H4", "H5", "H6", "H8", "H9", "HT", "HJ", "HQ", "HK", "HA", "S7", "H7", "BJ", "RJ"]
    codes = [H7.code_of_token[c] for c in chain]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)
    assert H7.code_of_token["S7"] == H7.code_of_token["C7"] == H7.code_of_token["D7"]
    for suit in "CD":  # other non-trump suits rank like spades but in their own group
        assert [H7.code_of_token[suit + r] & 15 for r in "23456789TJQKA".replace("7", "")] == list(range(12))
    assert all(H7.is_trump(CARD_OF_TOKEN[c]) for c in chain[12:])
    assert not any(H7.is_trump(CARD_OF_TOKEN[c]) for c in chain[:12])


def test_statement_order_no_main_suit():
    top = [NONE7.code_of_token[c] for c in ("H7", "BJ", "RJ")]
    assert top[0] + 1 == top[1] and top[1] + 1 == top[2]
    assert {NONE7.code_of_token[s + "7"] for s in "HSCD"} == {top[0]}
    trumps = {t for t in TOKEN if NONE7.code_of_token[t] >> 4 == TRUMP_GROUP}
    assert trumps == {"H7", "S7", "C7", "D7", "BJ", "RJ"}


@pytest.mark.parametrize("plays, winner", [
    ("SA S2 ST S5", 0), ("SA S2 ST SA", 0), ("SA S2 ST H2", 3), ("SA H2 C7 D7", 2),
    ("C2C2 C3C4 C7D7 RJBJ", 0), ("D3D3 DTDT SKSK H2H3", 1), ("D3D3 DTDT SKSK H2H2", 3),
    ("D6D6D8D8 DJDJDKDK DTDTD2D3 HTHTBJBJ", 0), ("H6H6H8H8 H7H7BJBJ C2C2C3C4 HKHKRJRJ", 1),
    ("H6H6H8H8 H7H7D7D7 C2C2C3C4 HKHKRJRJ", 1), ("SASK STST C2H3 S7SK", 0),
    ("SASK HKH3 HAH2 S7SK", 2), ("SASK HAH2 HAH3 S7SK", 1),
    ("S2S2S3S3SA H3H3H4H4RJ D7D7H7H7H2 S7S7SQSJS6", 2),
])
def test_statement_trick_examples(plays, winner):
    got, _ = trick_winner([cards(p) for p in plays.split()], H7.code_of_token)
    assert got == winner


@pytest.mark.parametrize("lead, describe, width", [
    ("RJRJBJBJH7H7HQHQHJHJH9H9H6H6HAH2", "tractor3+tractor2+pair+pair+single+single", 6),
    ("CACAC8C8CK", "pair+pair+single", 2),
    ("S7S7C7C7", "pair+pair", 2),  # same order, not a tractor
    ("C7C7C6C6", "pair+pair", 2),  # C7 is a trump (CR), C6 is not: no tractor
    ("C6C6C8C8", "tractor2", 4),  # CR 7 leaves the sequence
    ("DADAD2D2", "pair+pair", 2),  # no wrap
    ("H2H2H4H4", "pair+pair", 2),
    ("H7H7S7S7HAHA", "tractor3", 6),
])
def test_lead_structure(lead, describe, width):
    shape = lead_shape(cards(lead), H7.code_of_token)
    assert shape.describe() == describe and shape.width == width


def test_no_main_breaks_the_main_cr_step():
    shape = lead_shape(cards("H7H7S7S7HAHA"), NONE7.code_of_token)
    assert shape.group == -1  # HA is no trump without a main suit: a mixed play


@pytest.mark.parametrize("points, change", [
    (0, (3, 0)), (5, (2, 0)), (35, (2, 0)), (40, (1, 0)), (75, (1, 0)),
    (80, (0, 0)), (119, (0, 0)), (120, (0, 1)), (255, (0, 4)),
])
def test_level_change_from_statement(points, change):
    assert level_change(points) == change


def test_settle_next_dealer_and_winner():
    make = settle(dealer=0, cr1=11, cr2=0, trick_points=30, hidden_points=0, last_width=1, last_winner=0)
    assert (make.cr1, make.next_dealer, make.winner_team) == (13, 2, 1)
    down = settle(dealer=3, cr1=0, cr2=0, trick_points=60, hidden_points=10, last_width=1, last_winner=0)
    assert (down.ft_points, down.multiplier, down.next_dealer, down.cr1) == (80, 2, 0, 0)
    ct_last = settle(dealer=3, cr1=0, cr2=0, trick_points=60, hidden_points=10, last_width=4, last_winner=1)
    assert (ct_last.ft_points, ct_last.multiplier) == (60, 0)


def brute_honour(pair_codes, lengths):
    """Try every order of the follower's pairs over the lead's pair slots (block by block)."""
    import itertools

    need = sum(lengths)
    best = None
    for chosen in itertools.permutations(pair_codes, need):
        blocks, at = [], 0
        for n in lengths:
            blocks.append(sorted(chosen[at:at + n]))
            at += n
        if all(b == list(range(b[0], b[0] + len(b))) for b in blocks):
            best = max(best if best is not None else -1, blocks[0][-1])
    return best


def test_matched_honour_against_brute_force():
    import random

    from engine.tractor.tricks import matched_honour

    rng = random.Random(5)  # seeded: the cases are fixed
    for _ in range(400):
        pair_codes = [rng.choice([128, 129, 130, 131, 133, 140, 140, 141, 142]) for _ in range(rng.randint(1, 6))]
        lengths = sorted((rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(1, 3))), reverse=True)
        counts = {}
        for code in pair_codes:
            counts[code] = counts.get(code, 0) + 1
        assert matched_honour(counts, tuple(lengths)) == brute_honour(pair_codes, lengths), (pair_codes, lengths)
