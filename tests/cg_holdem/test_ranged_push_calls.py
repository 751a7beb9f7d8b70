"""The ranged bot's read of who calls a push (``push_calls``, issue 32): the share of hands a seat calls my first-in
all-in with comes from how often it was seen calling a lone first-in all-in at that effective depth, the chart's
share worth ``push_calls`` spots, instead of the chart's share alone. Off (0) by default."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import CLASS_PCT, COMBOS, combo_class
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::37]
ME, A, B = 1, 2, 3  # seat 0 is out


def played(answer: str, *, spots: int = 8, depth: int = 70, mine: int = 70, **config):
    """The bot (seat 1, 300 chips, blinds 5/10) after ``spots`` hands in which it folded first, then seats 2 and 3
    took turns to go all in first in with ``depth`` chips and the other answered ``answer``; then hand ``spots`` + 1
    (at most 9: the blind doubles at hand 10), where it is first in with ``mine`` chips, seats 2 and 3 behind."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, ME))
    b.new_game(7)
    history: tuple = ()
    for hand in range(1, spots + 1):
        b.act(Turn(1, hand, (0, 300, depth - 5, 1590), (0, 0, 5, 10), (), COMBOS[hand], history, (),
                   ("CALL", "FOLD")))
        pusher, caller = (A, B) if hand % 2 else (B, A)
        history = ((2, hand, ME, "FOLD", ()), (2, hand, pusher, "ALL-IN", ()), (2, hand, caller, answer, ()))
    last = Turn(2, spots + 1, (0, mine, 1595, 1590), (0, 0, 5, 10), (), COMBOS[0], history, (),
                ("CALL", "ALL-IN", "BET_20", "FOLD"))
    return b, last


def pushed(answer: str, **kw) -> list:
    """The hands of HANDS the bot pushes first in."""
    out = []
    for hole in HANDS:
        b, last = played(answer, **kw)
        if b.act(last._replace(cards=hole)) == "ALL-IN":
            out.append(hole)
    return out


def call_share(answer: str, seat: int = A, **kw) -> float:
    b, last = played(answer, **kw)
    b.act(last)  # observes the history, then decides
    return b._chart_call(View(b.setup, last, b.folded), seat)


def test_off_by_default_nothing_is_counted():
    assert RangedConfig().push_calls == 0.0
    b, last = played("CALL")
    b.act(last)
    assert b.calls == {}


def test_the_share_follows_the_calls_seen_at_that_depth():
    for answer, calls in (("CALL", 4), ("FOLD", 0)):
        chart = call_share(answer)  # the chart's share, widened by the seat's folds to raises (which moved too)
        # 4 lone pushes faced by each seat at 7 bb: (calls + 4 x the chart's share) / (4 + 4)
        assert abs(call_share(answer, push_calls=4) - (calls + 4 * chart) / 8) < 1e-9
        # another depth band (30 bb) has seen nothing: the chart's share there
        assert call_share(answer, mine=300, push_calls=4) == call_share(answer, mine=300)
    assert call_share("CALL", push_calls=4) > call_share("CALL") > call_share("FOLD") > call_share("FOLD", push_calls=4)


def test_pushes_widen_against_seats_that_fold_to_pushes():
    default, read = pushed("FOLD"), pushed("FOLD", push_calls=4)
    assert set(default) < set(read) and len(read) > 2 * len(default)  # 7 bb: 12 of 36 -> all 36
    # against seats that call nearly every push, the worst hands still fold
    assert all(CLASS_PCT[combo_class(*h)] > 0.3 for h in pushed("CALL", push_calls=4))
