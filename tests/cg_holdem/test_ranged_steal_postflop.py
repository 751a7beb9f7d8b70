"""steal_postflop (issue 32, on by default): at 3-4 live stacks a first-in open widens also for the seats behind that
call raises and then fold to postflop bets (the `pushfold` program calls 85% of raises and folds to every postflop
bet, so its fold to raises alone never widened the steal)."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::13]


def first_in(hole, *, calls_raises: bool = True, folds_to_bets: bool = True, players: int = 4, **config):
    """Seat 0 first in (blinds 5/10, the big blind's seat last) after every seat behind was seen 30 times facing a
    raise and 30 times facing a postflop bet: calling or folding as asked."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, players, 0))
    b.new_game(5)
    for s in range(1, players):
        for _ in range(30):
            b.seen[s].count("fold_pre", not calls_raises)
            b.seen[s].count("fold_bet", folds_to_bets)
    blinds = (0,) * (players - 2) + (5, 10)
    turn = Turn(1, 1, tuple(2400 - x for x in blinds), blinds, (), hole, (), (), ("CALL", "ALL-IN", "BET_25", "FOLD"))
    return b, turn


def opens(**kw) -> int:
    return sum(b.act(t).startswith(("BET", "ALL-IN")) for b, t in (first_in(h, **kw) for h in HANDS))


def test_on_by_default_and_a_caller_who_gives_up_then_widens_the_open():
    assert RangedConfig().steal_postflop == 1.0
    off = opens(steal_postflop=0.0)
    assert opens() == opens(steal_postflop=1.0)
    assert opens(steal_postflop=1.0) > off + len(HANDS) // 4


def test_the_postflop_folds_are_what_counts():
    # seats that call raises and never fold to bets: the open is as it was
    assert opens(folds_to_bets=False, steal_postflop=1.0) == opens(folds_to_bets=False, steal_postflop=0.0)
    # the give-up chance: fold to raises, plus the weight x the calls x the fold to bets (prior weight 6 each)
    b, turn = first_in(HANDS[0], steal_postflop=0.5)
    pre, bet = 0.45 * 6 / 36, (30 + 0.45 * 6) / 36
    assert abs(b._gives_up(1, True) - (pre + 0.5 * (1 - pre) * bet)) < 1e-12
    assert b._gives_up(1, False) == pre  # two live stacks: fold to raises only


def test_a_heads_up_table_is_left_as_it_was():
    hu = [b.act(t) for b, t in (first_in(h, players=2, steal_postflop=0.0) for h in HANDS)]
    assert [b.act(t) for b, t in (first_in(h, players=2, steal_postflop=1.0) for h in HANDS)] == hu
