"""bench.cg_holdem.ranged_paired's --table: one bot played alone, every line-up member's finishing position."""

import numpy as np
import pytest

from bench.cg_holdem.ranged_paired import main, payoffs, positions, table

LINEUP = ["station", "pushfold", "style:rules", "station"]  # station twice: members are told apart by index


def test_the_primary_s_positions_give_the_paired_bench_s_scores_and_each_game_ranks_everyone():
    found, deal = positions(LINEUP, games=8, seed=5)
    scores = payoffs(LINEUP[0], LINEUP[1:], games=8, seed=5)
    assert np.array_equal((4 - found[:, 0]) / 3, scores)  # the same games as the paired comparison
    assert all(sorted(row) == [1, 2, 3, 4] for row in found.tolist())  # no member missing or counted twice
    assert deal.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]  # the duplicate format: four rotations per deal


def test_table_lines_count_firsts_and_lasts_from_the_positions():
    found, _ = positions(LINEUP, games=8, seed=5)
    lines = table(LINEUP, games=8, seed=5)
    assert len(lines) == 4 and lines[2].startswith("style:rules: mean position")
    for line, column in zip(lines, found.T, strict=True):
        assert f"mean position {column.mean():.2f} [" in line
        assert f"{(column == 1).sum()} firsts, {(column == 4).sum()} lasts" in line


def test_a_candidate_given_twice_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["ranged", "ranged:open_hu=0.7", "ranged", "--against", "pushfold", "--games", "1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "'ranged' given twice" in err and "each entry once" in err
