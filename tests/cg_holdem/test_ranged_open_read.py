"""open_read (issue 32, off by default): heads-up first in, the opened share moves from open_hu with the opponent's
read call rate facing a raise: wider against a seat seen calling raises, narrower against one seen re-raising them."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::7]


def first_in(hole, answer: str, **config):
    """Seat 0, the small blind heads-up 240 big blinds deep, first in after seat 1 was seen facing a raise 30 times,
    each time answering ``answer`` (call or raise)."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 0))
    b.new_game(5)
    for _ in range(30):
        b.seen[1].count("fold_pre", False)
        b.seen[1].count("raise_pre", answer == "raise")
    turn = Turn(1, 1, (2395, 2390), (5, 10), (), hole, (), (), ("CALL", "ALL-IN", "BET_25", "FOLD"))
    return b, turn


def opens(answer: str, **kw) -> int:
    return sum(b.act(t).startswith(("BET", "ALL-IN")) for b, t in (first_in(h, answer, **kw) for h in HANDS))


def test_off_by_default_and_off_the_read_changes_nothing():
    assert RangedConfig().open_read == 0.0
    default = opens("call")
    assert default == opens("raise") == opens("call", open_read=0.0)
    assert abs(default / len(HANDS) - RangedConfig().open_hu) < 0.08


def test_on_a_caller_gets_wider_opens_a_re_raiser_narrower():
    default = opens("call")
    assert opens("call", open_read=1.0) > default + len(HANDS) // 10
    assert opens("raise", open_read=1.0) < default - len(HANDS) // 10


def test_a_re_raise_of_a_raise_is_counted_a_call_is_not():
    b, _ = first_in(COMBOS[0], "call")
    before = dict(b.seen[1].n), dict(b.seen[1].k)
    b._new_hand(2)
    for seat, action in ((0, "BET_25"), (1, "BET_60")):
        b._observe(2, seat, action, (), True)
    b._new_hand(3)
    for seat, action in ((0, "BET_25"), (1, "CALL")):
        b._observe(3, seat, action, (), True)
    assert b.seen[1].n["raise_pre"] == before[0]["raise_pre"] + 2
    assert b.seen[1].k["raise_pre"] == before[1]["raise_pre"] + 1
