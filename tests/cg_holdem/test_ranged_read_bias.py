"""ranged.py read_bias (issue 32, off by default): each seat's reading error, learned from the shown hands, taken
off the equity of later decisions in the same situation, shrunk toward none by the prior weight."""

import random

from bots.cg_holdem.ranged import RangedBot, RangedConfig, known_equity
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn
from engine.core.cards import parse_card_name


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card_name(n) for n in names)


ME, BOARD, OPP = cards("Kh", "Qd"), cards("Ks", "9c", "8d", "7h", "2s"), cards("Jh", "Tc")
# hand 9, heads-up river facing a bet of 100 (seat 1); the same spot in hand 10
FACING = Turn(1, 9, (600, 300), (200, 300), BOARD, ME, (), (), ("CALL", "FOLD", "ALL-IN"))
LATER = Turn(1, 10, (600, 300), (200, 300), BOARD, ME, (), (), ("CALL", "FOLD", "ALL-IN"))


def bot(**config) -> RangedBot:
    b = RangedBot(RangedConfig(samples=60, **config))
    b.start(Setup(10, 20, 10, 2, 2400, 0, 2, 0))
    b.new_game(5)
    return b


def test_off_by_default_records_nothing():
    assert RangedConfig().read_bias == 0
    b = bot()
    b.range_equity(View(b.setup, FACING, set()))
    assert b.bias_pending == [] and b.bias == {}


def test_a_shown_hand_teaches_the_error_and_later_decisions_take_it_off_shrunk():
    on, off = bot(read_bias=2.0), bot()
    used = on.range_equity(View(on.setup, FACING, set()))
    assert used == off.range_equity(View(off.setup, FACING, set()))  # nothing learned yet: the plain equity
    assert on.bias_pending[0][1] == ("bet", 1)
    on._learn_bias(9, [ME, OPP])  # the straight: my top pair had 0 against it
    assert on.bias[("bet", 1)] == [used - 0.0, 1]
    raw = off.range_equity(View(off.setup, LATER, set()))
    got = on.range_equity(View(on.setup, LATER, set()))
    assert abs(got - max(0.0, raw - used / (1 + 2.0))) < 1e-12
    # another seat or situation is untouched: a check-to-me spot keys ("free", 1)
    assert ("free", 1) not in on.bias


def test_an_unshown_or_earlier_hand_is_dropped_and_a_later_one_kept():
    b = bot(read_bias=1.0)
    b.range_equity(View(b.setup, FACING, set()))
    b.range_equity(View(b.setup, LATER, set()))
    b._learn_bias(9, [ME, None])  # seat 1's cards not shown: nothing learned, the record dropped
    assert b.bias == {} and [r[0] for r in b.bias_pending] == [10]


def test_known_equity_enumerates_when_it_can():
    assert known_equity(ME, BOARD, [OPP], random.Random(0), 1) == 0.0
    turn = cards("5s", "5d", "9c", "2h")  # trips against aces: their two outs only
    assert abs(known_equity(cards("5c", "3d"), turn, [cards("Ah", "Ac")], random.Random(0), 44) - 42 / 44) < 1e-12
    sampled = known_equity(cards("5c", "3d"), turn, [cards("Ah", "Ac")], random.Random(0), 43)
    assert 0.8 < sampled <= 1.0
