"""bench.cg_holdem.ranged_paired's --luck: each game's all-in luck, taken by the decided sweeps' own hook from an
in-process chunk, is what the hook gives the same games read from a hand log; a game without an all-in run-out
has none; without --luck the figures are those of before."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.cg_holdem import prior_tables
from bench.cg_holdem.ranged_paired import chunk_luck, compare, maker, race, report, scored, table
from engine.cg_holdem import judge
from flows.games.cg_holdem_luck import unit_luck
from flows.stats import confidence_sequence, paired_look
from flows.store import HandLog, log_judged_match


def _chunk(lineup: list[str], games: int, seed: int, first: int = 0):
    return judge.play_chunk([maker(e) for e in lineup], seed=seed, first=first, count=games)


def test_games_without_an_all_in_run_out_have_no_correction():
    # four stations only call: nobody is all-in before the river with at most one seat behind on these deals
    log = _chunk(["station"] * 4, 4, seed=5)
    assert np.array_equal(chunk_luck(log), np.zeros(4))


@pytest.mark.parametrize("lineup, first", [(["pushfold", "pushfold"], 0), (["pushfold", "station", "pushfold"], 3)])
def test_the_bench_s_correction_is_the_hook_s_on_the_same_games_logged(tmp_path, lineup, first):
    """The same chunk written to a hand log as a judged match (flows.store) and read by the hook as decided
    sweeps read it; units from `first` on, as a race's later looks play them."""
    log = _chunk(lineup, 4, seed=5, first=first)
    got = chunk_luck(log)
    db = tmp_path / "h.duckdb"
    match = log_judged_match("cg-holdem", bot=lineup[0], config={}, seed=5, log=log, db=db)
    with HandLog(db) as store:
        want = unit_luck(store.query, match, first + 4, first)
    assert np.count_nonzero(want) >= 2  # pushfold goes all-in preflop: the comparison is not of zeros
    assert np.array_equal(got, want)


def test_a_table_member_s_correction_is_its_own_and_the_places_still_add_up():
    lineup = ["pushfold", "station", "pushfold", "station"]
    lines = table(lineup, games=4, seed=5, luck=True)
    assert all(" luck out (raw " in line for line in lines)
    means = [float(line.split("mean position ")[1].split()[0]) for line in lines]
    # each hand's luck moves finish score between its seats (their values add up to the scores handed out)
    assert sum(means) == pytest.approx(10.0, abs=0.02)
    primary = float(lines[0].split("(raw ")[1].split(")")[0])
    log = _chunk(lineup, 4, seed=5)
    assert means[0] == pytest.approx(primary + 3 * chunk_luck(log).mean(), abs=0.006)


def test_the_report_without_luck_is_the_one_before_and_with_it_takes_the_correction_out():
    scores = {"a": np.array([1.0, 0.0, 0.5, 1.0, 0.0, 0.5]), "b": np.array([0.5, 0.0, 1.0, 1.0, 0.5, 0.0])}
    assert report(scores, players=3) == [  # the lines printed before --luck existed
        "a: mean finish score 0.500 over 6 games; mean position 2.00, 2 firsts",
        "b: mean finish score 0.500 over 6 games; minus a: +0.000 [-0.358, +0.358] per game (sd 0.447); "
        "mean position 2.00, 2 firsts"]
    luck = {"a": np.array([0.25, -0.25, 0.0, 0.25, -0.25, 0.0]), "b": np.zeros(6)}
    lines = report(scores, players=3, luck=luck)
    # a's deviations from its mean halve: variance 0.2 -> 0.05; the luck's sd sqrt(0.05), 1.96 x 0.2236 / sqrt(6)
    assert lines[0] == ("a: mean finish score 0.500 over 6 games luck out (raw 0.500; the luck taken out +0.0000 "
                        "[-0.1789, +0.1789], factor 4.00); mean position 2.00, 2 firsts")
    same = report({"a": scores["a"], "c": scores["a"]}, luck={"a": luck["a"], "c": luck["a"]})[1]
    assert "minus a: +0.000" in same and same.endswith("+0.0000 [+0.0000, +0.0000], no spread to narrow")
    diff = (scores["b"] - luck["b"]) - (scores["a"] - luck["a"])
    assert f"minus a: {diff.mean():+.3f} [" in lines[1] and "luck out; raw +0.000 [-0.358, +0.358]" in lines[1]


def test_a_race_with_luck_looks_at_the_corrected_scores_and_ends_with_compare_s_figures():
    lineup, players = ["pushfold"], ["station", "pushfold"]
    looks = []
    raced = race(players, lineup, games=4, seed=5, d1=-2.0, first_look=2, batch=2, say=looks.append, luck=True)
    fixed = compare(players, lineup, games=4, seed=5, luck=True)
    assert raced == fixed[:-1] and fixed[-1].startswith("CPU: playing ")  # the same games, chunked
    assert "luck out; raw " in raced[1] and len(looks) == 2
    # d1 above any difference stops the second at the first look; its bound is the corrected differences'
    stopped = race(players, lineup, games=4, seed=5, d1=2.0, first_look=2, batch=2, say=lambda line: None, luck=True)
    a, b = (scored(c, lineup, games=2, seed=5, luck=True) for c in players)
    bounds = {}
    for name, diff in (("corrected", (b.payoffs - b.luck) - (a.payoffs - a.luck)), ("raw", b.payoffs - a.payoffs)):
        low, high = confidence_sequence(paired_look(diff), 0.05, 2)
        bounds[name] = f"[{low:+.3f}, {high:+.3f}]"
    assert bounds["corrected"] != bounds["raw"]  # the check tells them apart
    assert f"stopped after 2 games (anytime bound on it minus the first {bounds['corrected']})" in stopped[1]


def test_prior_tables_pools_the_tables_corrected_differences(tmp_path, capsys):
    saved = tmp_path / "s.npz"
    prior_tables.main(["--rev", "HEAD", "--against", "aggressive", "--against", "style:pushfold", "--games", "2",
                       "--seed", "5", "--luck", "--save", str(saved), "base", "wide=call_margin=0.05"])
    out = capsys.readouterr().out.splitlines()
    got = np.load(saved)
    corrected, raw = [], []
    for t in ("aggressive", "style:pushfold"):
        raw.append(got[f"{t}|wide"] - got[f"{t}|base"])
        corrected.append(raw[-1] - (got[f"{t}|wide|luck"] - got[f"{t}|base|luck"]))
    assert np.count_nonzero(got["aggressive|base|luck"])  # all-ins happen: the correction is not all zeros
    mean, low, high = prior_tables.pooled(corrected)
    r = prior_tables.pooled(raw)
    assert out[-1] == (f"pooled over 2 tables, wide minus base: {mean:+.4f} [{low:+.4f}, {high:+.4f}] per game "
                       f"luck out; raw {r[0]:+.4f} [{r[1]:+.4f}, {r[2]:+.4f}]")


@pytest.mark.slow  # spawns two worker processes (their imports take seconds)
def test_workers_take_the_luck_out_of_their_own_games_after_the_process_used_it():
    """A fork after this process's DuckDB and polars started their threads could hang: workers are spawned."""
    code = ("from bench.cg_holdem.ranged_paired import compare\n"
            "a = compare(['station', 'pushfold'], ['pushfold'], games=4, seed=5, luck=True)\n"
            "b = compare(['station', 'pushfold'], ['pushfold'], games=4, seed=5, luck=True, workers=2)\n"
            "assert a[:-1] == b[:-1], (a, b)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
