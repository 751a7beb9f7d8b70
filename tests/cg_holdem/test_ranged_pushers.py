"""The ranged bot's value of its own bust in an all-in (``bust_place``, issue 32): with 2-3 live stacks at a table
that began with four, a bust takes a paid place (3rd: 1/3, 2nd: 2/3 of the finish score), which ICM alone valued at
0, so covered calls of a push folded hands whose equity beat the pot odds. The default (1) since 2026-11-28; it
cannot act at four live stacks or in a heads-up game, where a bust is last."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::23]


def facing_push(hole, *, live: int = 3, players: int = 4, **config) -> str:
    """Seat 1 in the big blind (40 chips behind, blinds 5/10) facing the small blind's first-in all-in for 300:
    ``live`` 3 (seat 3 folded its button), 2 (seats 0 and 3 out), or 4 (the other two folded); ``players`` 2 is a
    heads-up game of those two seats."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    me = 1 if players == 4 else 0
    push = 2 if players == 4 else 1
    if players == 2:
        stacks, chips = (40, 0), (10, 300)
        actions = ((1, 1, push, "ALL-IN", ()),)
    else:
        stacks = [0, 40, 0, 2000]
        chips = [0, 10, 300, 0]
        if live == 2:
            stacks[3] = 0
        actions = ((1, 1, 3, "FOLD", ()),) if live >= 3 else ()
        actions += ((2, 1, push, "ALL-IN", ()),)
        if live == 4:
            stacks[0] = 1000
            actions = ((0, 1, 0, "FOLD", ()),) + actions
    b.start(Setup(5, 10, 10, 2, 4800 // players, 1, players, me))
    b.new_game(7)
    return b.act(Turn(3, 1, tuple(stacks), tuple(chips), (), hole, actions, (), ("CALL", "FOLD")))


def test_the_default_values_a_bust_at_its_place_and_calls_more_than_a_bust_worth_nothing():
    default = [facing_push(h) for h in HANDS]
    assert [facing_push(h, bust_place=1.0) for h in HANDS] == default
    for live in (3, 2):
        before = [facing_push(h, live=live, bust_place=0.0) for h in HANDS]
        after = [facing_push(h, live=live, bust_place=1.0) for h in HANDS]
        # it only adds calls: a bust that still pays makes calling worth more, never folding
        assert all(a == "CALL" for a, b in zip(after, before, strict=True) if b == "CALL")
        assert after.count("CALL") > before.count("CALL")


def test_four_live_stacks_and_a_heads_up_game_are_left_as_they_were():
    for spot in (dict(live=4), dict(players=2)):
        default = [facing_push(h, **spot) for h in HANDS]
        assert [facing_push(h, bust_place=1.0, **spot) for h in HANDS] == default


def test_the_bust_value_is_the_payout_of_the_place_taken():
    b = BOTS["ranged"].make(RangedConfig(bust_place=0.5))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, 1))
    b.new_game(3)
    turn = Turn(3, 1, (0, 40, 0, 2000), (0, 10, 300, 0), (), COMBOS[0], (), (), ("CALL", "FOLD"))
    view = View(b.setup, turn, set())
    pay = b._payouts(view)
    assert pay == [1.0, 2 / 3, 1 / 3]
    assert b._icm_me([0, 0, 650, 2000], pay, 1) == 0.5 * (1 / 3)  # busted with two left: third place
    assert 0 < b._icm_me([0, 350, 300, 2000], pay, 1) < 1
