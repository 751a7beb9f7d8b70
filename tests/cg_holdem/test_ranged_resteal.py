"""The ranged bot's re-steal all-in (``resteal_below_bb``, issue 32): at 3-4 live stacks, facing one raise nobody has
called, short against the opener, it goes all in when ICM values that above folding; the opener's calls come from its
read fold to re-raises, the seats behind call as the chart says. 12 bb by default; at two live stacks it never acts."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import CLASS_PCT, COMBOS, combo_class
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn
from engine.core.cards import card

HANDS = COMBOS[::37]
MIDDLING = (card(0, 10), card(1, 4))  # queen-six offsuit
WEAK = (card(0, 5), card(1, 0))  # seven-deuce offsuit


def bb_facing_open(hole, folds_to_reraise: int, *, mine: int = 150, behind: bool = False, called: bool = False,
                   live: int = 4, spy: list | None = None, **config) -> str:
    """The big blind (seat 3, ``mine`` chips with its blind) facing seat 1's open to 30 (3 bb), seat 1 seen raising
    first in 16 of 20 hands and folding to ``folds_to_reraise`` of 20 re-raises of its raise. ``behind``: the small
    blind (seat 2) is the one to answer instead, the big blind still to act; ``called``: seat 2 called the open;
    ``live`` 2: seats 0 and 2 are out of chips. ``spy`` collects each ICM all-in valuation asked."""
    me = 2 if behind else 3
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, me))
    b.new_game(5)
    for k in range(20):
        b.seen[1].count("pfr", k < 16)
        b.seen[1].count("fold_3bet", k < folds_to_reraise)
    if spy is not None:
        real = b._push_value
        b._push_value = lambda view, callers: spy.append(callers) or real(view, callers)
    stacks, chips = [1500, 1170, 1495, 1490], [0, 30, 5, 10]
    stacks[me], chips[me] = mine - chips[me], chips[me]
    if live == 2:
        stacks[0] = stacks[2] = chips[2] = 0
        actions = ((1, 1, 1, "BET_30", ()),)
    elif behind:
        actions = ((1, 1, 0, "FOLD", ()), (1, 1, 1, "BET_30", ()))
    else:
        second = "CALL" if called else "FOLD"
        actions = ((1, 1, 0, "FOLD", ()), (1, 1, 1, "BET_30", ()), (1, 1, 2, second, ()))
        if called:
            stacks[2], chips[2] = 1470, 30
    turn = Turn(2, 1, tuple(stacks), tuple(chips), (), hole, actions, (), ("CALL", "ALL-IN", "BET_50", "FOLD"))
    return b.act(turn)


def test_off_and_out_of_its_depth_nothing_changes():
    asked = []
    default = [bb_facing_open(h, 18, spy=asked, resteal_below_bb=0) for h in HANDS]
    assert asked == []  # off, it never values a re-steal
    # set, but 15 bb deep against a 10 bb limit (and the default 12): the same answers, no valuation asked, the same
    # random stream after
    assert [bb_facing_open(h, 18, spy=asked, resteal_below_bb=10) for h in HANDS] == default
    assert [bb_facing_open(h, 18, spy=asked) for h in HANDS] == default
    assert asked == []
    assert default.count("ALL-IN") < len(HANDS) // 2  # the plain rules fold or call most hands there


def test_a_middling_hand_re_steals_from_a_wide_opener_that_folds_to_re_raises():
    assert 0.4 < CLASS_PCT[combo_class(*MIDDLING)] < 0.6
    assert bb_facing_open(MIDDLING, 18, resteal_below_bb=0) != "ALL-IN"  # off
    assert bb_facing_open(MIDDLING, 18, mine=110) == "ALL-IN"  # the default, 11 bb deep
    assert bb_facing_open(MIDDLING, 18, resteal_below_bb=15) == "ALL-IN"
    # the seats behind are valued too: the small blind with the big blind still to act
    assert bb_facing_open(MIDDLING, 18, behind=True, resteal_below_bb=15) == "ALL-IN"


def test_an_opener_that_never_folds_to_re_raises_gets_no_weak_shove():
    assert bb_facing_open(WEAK, 18, resteal_below_bb=15) == "ALL-IN"  # any two against one that folds 80%...
    assert bb_facing_open(WEAK, 0, resteal_below_bb=15) == "FOLD"  # ... not against one that never folds
    shoves = [sum(bb_facing_open(h, f, resteal_below_bb=15) == "ALL-IN" for h in HANDS) for f in (0, 18)]
    assert 0 < shoves[0] < shoves[1]  # fewer hands, but still its strong ones


def test_a_called_open_is_not_re_stolen():
    asked = []
    called = [bb_facing_open(h, 18, called=True, spy=asked, resteal_below_bb=15) for h in HANDS]
    assert asked == [] and called == [bb_facing_open(h, 18, called=True) for h in HANDS]


def test_with_two_live_stacks_it_never_acts():
    asked = []
    answers = [bb_facing_open(h, 18, live=2, spy=asked, resteal_below_bb=50) for h in HANDS]
    assert asked == [] and answers == [bb_facing_open(h, 18, live=2) for h in HANDS]
    heads_up = BOTS["ranged"].make(RangedConfig(resteal_below_bb=50))  # and at a heads-up table
    heads_up.start(Setup(5, 10, 10, 2, 2400, 1, 2, 1))
    heads_up.new_game(5)
    heads_up._push_value = lambda view, callers: asked.append(callers)
    turn = Turn(2, 1, (130, 140), (30, 10), (), MIDDLING, ((1, 1, 0, "BET_25", ()),), (),
                ("CALL", "ALL-IN", "BET_50", "FOLD"))
    heads_up.act(turn)
    assert asked == []
