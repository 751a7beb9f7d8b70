"""bench/cg_holdem/call_audit.py on hand-made spots: which answers end the betting, and the exact chips and finish
score a call gains over a fold (issue 32)."""

import pytest

from bench.cg_holdem.call_audit import spot_value, street
from engine.cg_holdem.protocol import parse_card_text


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


RIVER = cards("2C 7D 9H KC 4S")


@pytest.mark.parametrize(("mine", "gain"), [("AS AD", 300.0), ("3D 3H", -100.0)])
def test_a_river_call_gains_the_pot_when_ahead_and_loses_the_call_when_behind(mine, gain):
    # the opponent bet 100 into 200 on the river with a pair of sevens; I call 100 more or fold my 100
    chips, score, go_on = spot_value(start=[1000, 1000], put_in=[100, 200], folded=[False, False],
                                     hole=[cards(mine), cards("7C 8C")], board=RIVER, dealer=1, me=0, players=2)
    assert chips == gain and not go_on
    assert score == pytest.approx(gain / 2000)  # heads-up with nobody bust the finish score is the chip share
    assert street([900, 800], [100, 200], [False, False], 0, RIVER, 10) == "river"


def test_an_all_in_on_the_turn_is_valued_over_the_44_rivers():
    # my set of nines against a set of kings all in: only the last nine (quads) wins, 1 river of 44
    board = cards("2C 7D 9H KC")
    hole = [cards("9C 9D"), cards("KS KD")]
    chips, score, _ = spot_value(start=[1000, 1000], put_in=[500, 1000], folded=[False, False], hole=hole,
                                 board=board, dealer=1, me=0, players=2)
    assert chips == pytest.approx((1000 - 43 * 1000) / 44 + 500)
    # a call busts me 43 times in 44 (score 0) or wins the game; a fold leaves 500 of 2000 chips (ICM 0.25)
    assert score == pytest.approx(1 / 44 - 0.25)
    assert street([500, 0], [500, 1000], [False, False], 0, board, 10) == "all-in"


def test_only_a_call_that_ends_the_betting_is_a_spot():
    river, turn = RIVER, RIVER[:4]
    # three in the hand, the seat after me has not answered the bet yet
    assert street([900, 800, 900], [100, 200, 100], [False] * 3, 0, river, 10) is None
    # ... or has folded: my call ends it
    assert street([900, 800, 900], [100, 200, 100], [False, False, True], 0, river, 10) == "river"
    # before the river, a call that leaves two of us with chips behind is not the end of the betting
    assert street([900, 800], [100, 200], [False, False], 0, turn, 10) is None
    # preflop, completing the big blind leaves it its option
    assert street([995, 990], [5, 10], [False, False], 0, (), 10) is None
    assert street([995, 0], [5, 1000], [False, False], 0, (), 10) == "all-in"
    assert street([1000, 800], [200, 200], [False, False], 0, river, 10) is None  # nothing to call
