"""The final heads-up (issue 32): the ranged bot's ``reshove_below_bb`` setting, and
bench/cg_holdem/ranged_endgame.py's reading of a four-seat game's heads-up."""

from bench.cg_holdem.ranged_endgame import endgame, play
from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS, combo_class
from bots.cg_holdem.pushfold_chart import CALL_DEPTH
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::23]


def short_bb(hole: tuple[int, int], **config) -> str:
    """The big blind at a heads-up table, 5 bb effective, facing a min-raise (not all in)."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 1))
    b.new_game(5)
    turn = Turn(2, 1, (30, 50), (20, 10), (), hole, ((1, 1, 0, "BET_15", ()),), (),
                ("CALL", "ALL-IN", "BET_20", "FOLD"))
    return b.act(turn)


def test_reshove_pushes_the_charts_calling_hands_and_folds_the_rest():
    answers = [short_bb(h, reshove_below_bb=10) for h in HANDS]
    assert answers == ["ALL-IN" if CALL_DEPTH[combo_class(*h)] >= 5 else "FOLD" for h in HANDS]
    assert "ALL-IN" in answers and "FOLD" in answers
    # off (the default) the bot flat-calls some of them: the setting changes play only when set
    assert "CALL" in [short_bb(h) for h in HANDS]


def test_endgame_finds_the_final_heads_up_and_its_par():
    tables = play("ranged", ["aggressive", "style:rules", "style:lag"], games=4, seed=5)
    games, hands = endgame(tables)
    positions = dict(zip(tables["games"]["unit"], tables["games"]["primary_position"], strict=True))
    assert set(games["unit"]) == {u for u, p in positions.items() if p <= 2}
    for unit, won, share in games.select("unit", "won", "share").iter_rows():
        assert won == (positions[unit] == 1) and 0 < share < 1
    assert set(hands["unit"]) == set(games["unit"])
    assert games["hands"].sum() == hands.height
    assert set(hands["mine"]) <= {"shove", "raise", "call", "check", "fold", "none"}
