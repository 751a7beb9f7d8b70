"""The ranged bot's first-in push by the chart when short at 3-4 live stacks (``chart_push_below_bb``, issue 32): at
or under that depth it goes all in with every hand the heads-up chart pushes at the depth x CHART_TIGHTEN per extra
opponent, and otherwise decides by the ICM check as before. Off by default; deeper, in the big blind's option or at
two live stacks it changes nothing."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS, combo_class
from bots.cg_holdem.pushfold_chart import PUSH_DEPTH
from bots.cg_holdem.ranged import CHART_TIGHTEN, RangedConfig
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::37]


def first_in(hole, *, mine: int = 30, live: int = 3, option: bool = False, **config) -> str:
    """Seat 1 (``mine`` chips, blinds 5/10) first to act preflop: three-handed (seat 0 out, seats 2 and 3 post the
    blinds), or ``live`` 2 (seat 1 posts the small blind against seat 3). ``option``: seat 1 is the big blind and
    everyone limped or folded to it (nothing to call)."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, 1))
    b.new_game(5)
    if option:
        stacks, chips = (0, mine - 10, 1590, 1590), (0, 10, 10, 10)
        actions = ((1, 1, 2, "CALL", ()), (1, 1, 3, "CALL", ()))
        possible = ("CHECK", "ALL-IN", "BET_10", "FOLD")
    elif live == 2:
        stacks, chips = (0, mine - 5, 0, 2390), (0, 5, 0, 10)
        actions, possible = (), ("CALL", "ALL-IN", "BET_15", "FOLD")
    else:
        stacks, chips = (0, mine, 1595, 1590), (0, 0, 5, 10)
        actions, possible = (), ("CALL", "ALL-IN", "BET_20", "FOLD")
    return b.act(Turn(2, 1, stacks, chips, (), hole, actions, (), possible))


def test_deeper_than_its_depth_nothing_changes():
    default = [first_in(h, mine=250) for h in HANDS]  # 25 bb against a 10 bb limit
    assert [first_in(h, mine=250, chart_push_below_bb=10) for h in HANDS] == default
    assert "ALL-IN" not in default  # deep, the plain rules open or fold


def test_short_three_handed_it_pushes_what_the_tightened_chart_pushes():
    default = [first_in(h) for h in HANDS]  # 3 bb
    pushed = [first_in(h, chart_push_below_bb=10) for h in HANDS]
    chart = [PUSH_DEPTH[combo_class(*h)] >= 3 * CHART_TIGHTEN for h in HANDS]
    assert all(p == "ALL-IN" for p, c in zip(pushed, chart, strict=True) if c)
    # below the chart the ICM check decides as before
    assert [p for p, c in zip(pushed, chart, strict=True) if not c] == [d for d, c in zip(default, chart, strict=True)
                                                                          if not c]
    assert pushed.count("ALL-IN") > default.count("ALL-IN")  # the one-hand ICM check folded some of them


def test_the_big_blinds_option_and_a_heads_up_table_are_left_as_they_were():
    # heads-up at 11 bb: deeper than the heads-up chart's 10 bb (push_below_bb), inside the setting's 12
    for spot in (dict(option=True), dict(live=2, mine=110)):
        default = [first_in(h, **spot) for h in HANDS]
        assert [first_in(h, chart_push_below_bb=12, **spot) for h in HANDS] == default
