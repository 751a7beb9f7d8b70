"""The ranged bot's ``river_read`` (issue 32): facing a river bet heads-up in the hand, the equity a call is
weighed with moves toward my hand's rank among the bettor's shown postflop bets, counted from the shown cards."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import combo_index
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import AGGRESSIVE, PASSIVE
from engine.cg_holdem.protocol import Setup, Turn, parse_card_text


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


BOARD = cards("2C 7D 9H KC 4S")


def bot(**config):
    b = BOTS["ranged"].make(RangedConfig(fold_equity=0.0, **config))  # no bluff raises: call or fold only
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 1))
    b.new_game(5)
    return b


def facing_a_river_bet(hole, shown: list[float], **config) -> str:
    """Seat 1 checks the river, seat 0 bets the pot; ``shown``: seat 0's shown postflop bets' percentiles."""
    b = bot(**config)
    b.shown_bets = {0: sorted(shown)}
    turn = Turn(9, 1, (700, 1100), (400, 200), BOARD, hole,
                ((8, 1, 1, "CHECK", BOARD), (9, 1, 0, "BET_200", BOARD)), (), ("CALL", "ALL-IN", "BET_400", "FOLD"))
    return b.act(turn)


def test_a_bettor_shown_betting_weak_hands_is_called_and_one_shown_betting_strong_is_not():
    hands = [cards(h) for h in ("9C 8C", "7C 6C", "AH QH", "9S 5S", "AS 2S", "QC JC")]  # none strong enough to raise
    for hole in hands:
        default = facing_a_river_bet(hole, [])
        # off (the default), the shown bets change nothing
        assert facing_a_river_bet(hole, [0.05] * 40) == facing_a_river_bet(hole, [0.99] * 40) == default
        # on, against 40 shown bluffs every hand calls; against 40 shown monsters every hand folds
        assert facing_a_river_bet(hole, [0.05] * 40, river_read=1.0) == "CALL"
        assert facing_a_river_bet(hole, [0.999] * 40, river_read=1.0) == "FOLD"
    assert {facing_a_river_bet(h, []) for h in hands} == {"CALL", "FOLD"}  # the read flips both ways


def test_shown_postflop_bets_are_counted_by_their_strength_only_when_on():
    hole = cards("AH KS")
    for river_read, counted in ((1.0, True), (0.0, False)):
        b = bot(river_read=river_read)
        b.pending = [(1, 0, "lead", AGGRESSIVE, BOARD), (1, 0, "facing", PASSIVE, BOARD),
                     (1, 0, "pre_first", AGGRESSIVE, ())]
        b._learn(1, [hole, None])
        assert b.shown_bets == ({0: [b._table(BOARD)[combo_index(*hole)]]} if counted else {})
