"""The final heads-up (issue 32): bench/cg_holdem/ranged_endgame.py's reading of a four-seat game's heads-up."""

from bench.cg_holdem.ranged_endgame import endgame, play


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
