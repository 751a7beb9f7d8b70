"""The ranged bot against a raise heads-up (issue 32): a re-raise's fold chance counts the folds
seen within the raiser's range (not among all hands), and a call keeps only ``call_realize`` of
its equity, so a marginal hand folds or re-raises instead of calling."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import CLASS_PCT, COMBO_CLASS, COMBOS, range_quantile
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn


def bot(**config):
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 1))  # seat 1, the big blind
    return b


def test_a_range_s_quantile_is_taken_within_the_range():
    top_half = [1.0 if CLASS_PCT[c] >= 0.5 else 0.0 for c in COMBO_CLASS]
    assert 0.7 < range_quantile(top_half, 0.5) < 0.8  # halfway through the top half
    assert 0.45 < range_quantile([1.0] * len(COMBOS), 0.5) < 0.55


def raised_by_the_folder(config: dict) -> tuple:
    """The big blind's bot facing seat 0's open on hand 21, after 20 hands where seat 0 opened
    strong hands, re-raised the best and folded the rest to a re-raise, all shown."""
    b = bot(**config)
    b._new_hand(1)
    for hand in range(1, 21):
        b._new_hand(hand)
        strong = hand % 5 == 0
        for seat, action in ((0, "BET_40"), (1, "BET_120"), (0, "BET_400" if strong else "FOLD")):
            b._observe(hand, seat, action, (), True)
        shown = ((12, 25) if strong else (11, 9), (0, 14))  # AA-like against a weak hand; KJ-like otherwise
        b._learn(hand, shown)
    b._new_hand(21)
    b._observe(21, 0, "BET_40", (), True)  # its range narrows to its opens
    return b, b._fold_chance(0, (), "fold_3bet")


def test_a_raiser_that_folds_most_of_its_range_to_re_raises_is_read_to_fold_more_within_it():
    _, inside = raised_by_the_folder({})
    _, among_all = raised_by_the_folder({"folds_in_range": 0.0})
    assert inside > among_all


def facing_an_open(hole: tuple[int, int], **config) -> str:
    b = bot(**config)
    b.new_game(5)
    turn = Turn(2, 1, (2350, 2390), (50, 10), (), hole, ((1, 1, 0, "BET_45", ()),), (),
                ("CALL", "ALL-IN", "BET_80", "FOLD"))
    return b.act(turn)


def test_a_call_that_keeps_less_of_its_equity_is_made_with_fewer_hands():
    # every hand where the full-equity call and the discounted one differ: the discount never calls more
    calls = {1.0: 0, 0.6: 0}
    for a, b in COMBOS[::37]:
        for realize in calls:
            calls[realize] += facing_an_open((a, b), call_realize=realize, fold_equity=0.0) == "CALL"
    assert calls[0.6] < calls[1.0]
