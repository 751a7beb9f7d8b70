"""bench.cg_holdem.ranged_paired's race: the same games as the fixed comparison, and its stop rule."""

from bench.cg_holdem.ranged_paired import compare, race

LINEUP = ["style:rules"]


def test_a_race_nobody_stops_in_prints_the_fixed_comparison_s_figures():
    looks = []
    lines = race(["station", "pushfold"], LINEUP, games=6, seed=5, d1=-2.0, first_look=2, batch=2, say=looks.append)
    assert lines == compare(["station", "pushfold"], LINEUP, games=6, seed=5)  # chunks play the same games
    assert len(looks) == 3 and "1 of 1 candidates left" in looks[-1]
    assert "mean position" in lines[0] and "firsts" in lines[1]


def test_a_candidate_whose_upper_bound_is_below_d1_stops_and_ends_the_race_early():
    # d1 above any difference (finish scores lie in 0..1) stops it at the first look with spread in its differences
    lines = race(["station", "pushfold"], LINEUP, games=8, seed=5, d1=2.0, first_look=2, batch=2, say=lambda line: None)
    assert "stopped after 4 games" in lines[1] and "over 4 games" in lines[1]
    assert "over 4 games" in lines[0]  # nobody left to race the first against
