"""The ranged bot's switch for the four-seat tables where it missed its target (``table_pfr``, issue 32): when its
reads show two opponents raising first in at least ``table_pfr`` of their hands, one of them a wide opener
(WIDE_OPENER), its bluffs weigh the opponents' folds by ``table_fold_equity`` instead of ``fold_equity``. Off by
default; at a table with callers (low raise-first shares) it plays as before."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import WIDE_OPENER, RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

HANDS = 40  # hands each opponent was seen in
EQUITIES = [k / 50 for k in range(26)]  # 0 .. 0.5: where a bluff's worth turns on the fold guess


def flop_spot(raises_first: dict[int, int], **config):
    """Seat 1 on the flop, checked to by seat 2 alone (seats 0 and 3 folded), after HANDS hands in which seat s
    raised first in raises_first[s] times and seat 2 folded to a bet 10 times."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, 1))
    b.new_game(11)
    for seat in (0, 2, 3):
        for k in range(HANDS):
            b.seen[seat].count("pfr", k < raises_first[seat])
    for k in range(HANDS):
        b.seen[2].count("fold_bet", k < 10)
    turn = Turn(2, 3, (1100, 1100, 1100, 1100), (10, 40, 40, 10), (0, 18, 35), COMBOS[100], (), (), ("CHECK",))
    return b, View(b.setup, turn, {0, 3})


def bluffs(raises_first: dict[int, int], **config) -> list[bool]:
    b, view = flop_spot(raises_first, **config)
    return [b._bluff_pays(view, eq, 0.5 * view.pot, 1.0) for eq in EQUITIES]


RAISERS = {0: 14, 2: 26, 3: 4}  # a wide opener (seat 2) and a second raiser (seat 0): the miss kind
CALLERS = {0: 3, 2: 26, 3: 4}  # the wide opener beside two who rarely raise first


def test_the_reads_decide_the_kind_of_table():
    b, view = flop_spot(RAISERS, table_pfr=0.25)
    pfr = sorted((b.seen[s].freq("pfr", b.config.prior_weight) for s in (0, 2, 3)), reverse=True)
    assert pfr[0] >= WIDE_OPENER and pfr[1] >= 0.25 > pfr[2]  # the spot is what its name says
    assert b._raisers_table(view)
    assert not flop_spot(CALLERS, table_pfr=0.25)[0]._raisers_table(view)
    assert not flop_spot({0: 14, 2: 14, 3: 14}, table_pfr=0.25)[0]._raisers_table(view)  # no wide opener
    assert not flop_spot(RAISERS)[0]._raisers_table(view)  # off by default


def test_at_the_miss_kind_it_bluffs_as_table_fold_equity_and_elsewhere_as_before():
    default = bluffs(RAISERS)
    wider = bluffs(RAISERS, fold_equity=1.5)
    assert wider != default and sum(wider) > sum(default)  # the spot is one where the weight matters
    assert bluffs(RAISERS, table_pfr=0.25) == wider
    assert bluffs(RAISERS, table_pfr=0.25, table_fold_equity=1.0) == default
    assert bluffs(CALLERS, table_pfr=0.25) == bluffs(CALLERS) == bluffs(RAISERS)  # callers: fold_equity as before
