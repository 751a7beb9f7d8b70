"""The ranged bot's depth read of a push/fold player (``push_read``, issue 32): a seat whose first-in raises are
mostly all-ins is read by how often it pushed first in at the push's depth band (its stack over the players left in
the hand), not by its raise-first share over all depths: such players push wider as they shorten. Off (0) by
default."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::43]
ME, PUSHER, OTHER = 1, 2, 3  # seat 0 is out


def played(pushes: int, *, raises: int = 0, spots: int = 8, **config):
    """The bot (seat 1) after ``spots`` hands in which it folded first and seat 2 then was first in with 60 chips
    (6 big blinds at 10, one player left behind it): all in in the first ``pushes``, a raise in the next ``raises``,
    a fold in the rest; then hand ``spots`` + 1 (at most 9: the blind doubles at hand 10), seat 2's first-in all-in
    for 60 faced in the big blind (300 chips), the button folded. Returns (bot, the last turn)."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, ME))
    b.new_game(7)
    stacks, chips = (0, 300, 55, 2000), (0, 0, 5, 10)
    history: tuple = ()
    for hand in range(1, spots + 1):
        b.act(Turn(1, hand, stacks, chips, (), COMBOS[hand], history, (), ("CALL", "FOLD")))
        answer = "ALL-IN" if hand <= pushes else "BET_25" if hand <= pushes + raises else "FOLD"
        history = ((2, hand, ME, "FOLD", ()), (2, hand, PUSHER, answer, ()), (2, hand, OTHER, "FOLD", ()))
    hand = spots + 1
    history += ((1, hand, OTHER, "FOLD", ()), (1, hand, PUSHER, "ALL-IN", ()))
    last = Turn(2, hand, (0, 290, 0, 2000), (0, 10, 60, 0), (), COMBOS[0], history, (), ("CALL", "FOLD"))
    return b, last


def answer(hole, pushes: int, **kw) -> str:
    b, last = played(pushes, **kw)
    return b.act(last._replace(cards=hole))


def read_share(pushes: int, **kw) -> float | None:
    """The share of all combos in push_read's range for seat 2's last all-in (None: not read)."""
    b, last = played(pushes, **kw)
    b.act(last)  # observes the history, then decides
    weights = b._push_range(View(b.setup, last, b.folded), PUSHER)
    return None if weights is None else sum(w > 0.5 for w in weights) / len(weights)


def test_off_by_default():
    assert RangedConfig().push_read == 0.0 and RangedConfig().push_icm == 0.0
    assert read_share(7) is None  # nothing is read while off


def test_the_read_follows_the_pushes_seen_at_that_depth():
    wide, tight = read_share(7, push_read=0.8), read_share(4, push_read=0.8)
    # 7 of the 8 spots before it, and 2 spots at the seat's share over all its spots (8 of 9): (7 + 16 / 9) / 10
    assert abs(wide - 0.88) < 0.03
    assert abs(tight - 0.51) < 0.03  # (4 + 2 x 5 / 9) / 10


def test_a_seat_whose_first_in_raises_are_not_mostly_all_ins_is_not_read():
    assert read_share(4, raises=4, push_read=0.8) is None  # half its raises all in: not a pusher at 0.8
    assert read_share(4, raises=4, push_read=0.5) is not None
    assert read_share(2, push_read=0.8) is None  # two all-ins before this one: too few


def test_it_calls_a_wide_pusher_more_than_the_default_read_does():
    # push_icm: the push (50 to call, a sixth of my chips) is weighed as the all-in it is
    default = [answer(h, 7, push_icm=1) for h in HANDS]
    wide = [answer(h, 7, push_icm=1, push_read=0.8) for h in HANDS]
    assert wide.count("CALL") > default.count("CALL")  # 21 of 31 against 15
    unread = [answer(h, 2, push_icm=1, push_read=0.8) for h in HANDS[::3]]  # too few all-ins to read: as without
    assert unread == [answer(h, 2, push_icm=1) for h in HANDS[::3]]


def test_push_icm_weighs_a_small_lone_push_as_an_all_in():
    before = [answer(h, 7) for h in HANDS]
    after = [answer(h, 7, push_icm=1) for h in HANDS]
    # the raise rule kept 0.68 of the equity against the odds + 0.05: as an all-in more calls pay
    assert after.count("CALL") > before.count("CALL")
    assert all(a == "CALL" for a, b in zip(after, before, strict=True) if b == "CALL")


def test_push_icm_leaves_a_raise_that_is_not_all_in():
    b, last = played(7, push_icm=1)
    raised = last._replace(stacks=(0, 290, 40, 2000))  # seat 2 raised to 60 with 40 behind: not all in
    history = last.actions[:-1] + ((1, last.hand, PUSHER, "BET_55", ()),)
    b.act(raised._replace(actions=history))
    assert not b._lone_push(View(b.setup, raised, b.folded))
