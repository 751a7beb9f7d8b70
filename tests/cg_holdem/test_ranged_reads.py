"""The ranged bot's reads from shown hands (issue 32): every hand's cards are shown when it ends,
so each opponent action is counted by the strength the hand had, and later ranges and fold
chances follow what the opponent really did with which hands."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import CLASS_PCT, COMBOS, combo_class, combo_index
from bots.cg_holdem.reads import AGGRESSIVE, BINS, FOLD, Reads
from engine.cg_holdem.protocol import Setup, Turn
from engine.cg_holdem.rules import parse_card_text

FLOP = ("2C", "7D", "KH")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


def bot(read_weight: str = "3"):
    b = BOTS["ranged"].make(BOTS["ranged"].config_from([f"read_weight={read_weight}"]))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 0))
    return b


def test_combo_index_finds_every_combo_either_way_round():
    for i, (a, b) in enumerate(COMBOS):
        assert combo_index(a, b) == combo_index(b, a) == i


def test_a_table_mixes_what_was_seen_with_the_guess_per_strength_bin():
    r = Reads()
    assert r.chance("facing", FOLD, 3.0) is None  # nothing seen: the frequency model alone
    for _ in range(12):
        r.add("facing", FOLD, 0.05)
        r.add("facing", AGGRESSIVE, 0.95)
    fold = r.chance("facing", FOLD, 3.0)
    assert fold(0.05, 0.5) > 0.75 and fold(0.95, 0.5) < 0.15
    assert fold(0.5, 0.3) == 0.3  # an unseen bin keeps the guess
    assert len(r.counts["facing"][FOLD]) == BINS


def bets_kept(read_weight: str, weak: str = "QS JH", strong: str = "KS KC") -> float:
    """Seat 1 raised preflop every hand and bet the flop only with weak hands, checking strong ones
    (30 hands of each, shown at the end); then, after its flop bet, the weak hand's weight against
    the strong one's (relative to before the bet)."""
    b = bot(read_weight)
    flop = cards(" ".join(FLOP))
    hand = 0
    for shown, action in ((weak, "BET_30"), (strong, "CHECK")) * 30:
        hand += 1
        b._new_hand(hand)
        for seat, act, board in ((1, "BET_20", ()), (0, "CALL", ()), (0, "CHECK", flop), (1, action, flop)):
            b._observe(hand, seat, act, board, True)
        b._learn(hand, (cards("3S 4S"), cards(shown)))
    assert not b.pending  # every action was counted once its hand was shown
    b._new_hand(hand + 1)
    for seat, act, board in ((1, "BET_20", ()), (0, "CALL", ()), (0, "CHECK", flop)):
        b._observe(hand + 1, seat, act, board, True)
    at = [combo_index(*cards(h)) for h in (weak, strong)]
    before = [b.ranges[1][i] for i in at]
    b._observe(hand + 1, 1, "BET_30", flop, True)
    after = [b.ranges[1][i] for i in at]
    return (after[0] / before[0]) / (after[1] / before[1])


def test_bets_shown_to_be_bluffs_keep_weak_hands_in_the_range():
    assert bets_kept("3") > 2.0  # the shown hands say: its flop bet is a weak hand
    assert bets_kept("1e9") < 1.0  # the frequency model alone reads a bet as strength


def test_act_counts_the_last_hand_from_the_showdown_lines():
    b = bot()
    mine, theirs = cards("AS AH"), cards("7C 2D")
    history = ((1, 1, 0, "BET_25", ()), (1, 1, 1, "FOLD", ()))
    showdown = ((1, (), (mine, theirs)),)
    turn = Turn(2, 2, (2415, 2385), (5, 10), (), cards("KS QS"), history, showdown,
                ("CALL", "ALL-IN", "BET_15", "FOLD"))
    b.act(turn)
    folds = b.reads[1].counts["pre_facing"][FOLD]
    weakest = min(BINS - 1, int(CLASS_PCT[combo_class(*theirs)] * BINS))
    assert folds[weakest] == 1.0 and sum(folds) == 1.5  # its bin, half to the one neighbour
    assert b.reads[0].counts == {}  # my own actions are not read
