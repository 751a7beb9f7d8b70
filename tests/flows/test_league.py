"""Leagues end to end: games in parallel into the hand log, resumed and extended without
replaying, ratings per program version, intervals that never claim certainty from 12/12."""

import sys
from pathlib import Path

import polars as pl
import pytest

from flows.league import match_id_of, run_league
from flows.league_ratings import leaderboard, openskill_ratings
from flows.league_spec import build
from flows.store import HandLog
from reports.leaderboard import write_page

CALLER = str(Path(__file__).parents[1] / "cg_holdem" / "data" / "caller.py")
CONTESTANT = str(Path(__file__).parents[1] / "holdem_training" / "data" / "contestant.py")


def test_openskill_puts_the_entrant_that_always_finishes_ahead_first():
    rows = pl.DataFrame({"game_key": ["g1", "g1", "g2", "g2", "g3", "g3"],
                         "entrant": ["a", "b", "b", "a", "a", "b"], "rank": [1, 2, 2, 1, 1, 2]})
    rated = openskill_ratings(rows)
    assert rated["a"][2] > rated["b"][2]


def _league(tmp_path, programs, games, **kw):
    # 2 s a turn, not the arena's 50 ms: these leagues test resuming, extending and faults, and a quiet program
    # missed 50 ms of wall once under load (two pytest workers beside a league of two workers)
    return build(name="t", game="cg-holdem", programs=programs, games=games, options={"turn_ms": "2000"}, **kw)


@pytest.fixture()
def db(tmp_path):
    return str(tmp_path / "league.duckdb")


@pytest.mark.slow  # three league runs
def test_league_resumes_and_extends_without_replaying(tmp_path, db):
    quiet = f"{sys.executable} {CALLER}"
    dead = f"{sys.executable} -c pass"  # never answers: a timeout every turn, ranked out
    first = _league(tmp_path, [("a", quiet), ("b", quiet), ("dead", dead)], games=2)
    run = run_league(first, db=db, workers=2)
    assert (run.planned, run.played) == (6, 6)  # 3 tables x 2 seatings on one deal
    assert run_league(first, db=db, workers=2).played == 0

    bigger = _league(tmp_path, [("a", quiet), ("b", quiet), ("dead", dead), ("c", quiet)], games=2)
    run = run_league(bigger, db=db, workers=2)
    assert run.planned == 12 and run.played == 6  # only the new entrant's tables

    with HandLog(db) as store:
        board = leaderboard(store.query, "t")
        keys = store.query("SELECT game_key, match_id FROM league_games WHERE league = 't'")
        matches = store.query("SELECT match_id, units FROM matches WHERE source = 'league'")
        hands = store.query("SELECT count(DISTINCT match_id) AS n FROM cgh_games")["n"][0]
    assert keys.height == 12 and set(keys["match_id"]) == set(matches["match_id"]) and hands == 12
    assert all(match_id_of("t", k) == m for k, m in keys.iter_rows())
    ranked = [s.name for s in board.standings]
    assert ranked[-1] == "dead" and board.standings[-1].faults == 6
    assert [s.games for s in board.standings] == [6, 6, 6, 6]
    versus_dead = [p for p in board.pairs if p.b.startswith("dead@")]
    assert versus_dead and all(p.value == 1.0 and p.games == 2 and p.ci_low < 1.0 for p in versus_dead)
    page = write_page(board, tmp_path / "out").read_text()
    tables = {t.split("</caption>")[0]: t.count("<tr>") for t in page.split("<table><caption>")[1:]}
    rows = sorted(tables.values())
    faults = next(text for text in page.split("<table><caption>")[1:] if text.startswith("Faults"))
    assert 1 + 4 in rows and 1 + 6 in rows  # the standings of 4 entrants and their 6 pairs, each with a header
    assert "<td>dead" in faults and "<td>a" not in faults  # only the dead program's games were lost to faults


@pytest.mark.slow  # two league runs of programs
def test_an_edited_program_is_a_new_version_with_its_own_games(tmp_path, db):
    script = tmp_path / "mine.py"
    script.write_text(Path(CALLER).read_text())
    quiet = f"{sys.executable} {CALLER}"
    old = _league(tmp_path, [("mine", f"{sys.executable} {script}"), ("b", quiet)], games=2)
    run_league(old, db=db, workers=2)
    script.write_text(Path(CALLER).read_text() + "\n# tuned\n")
    new = _league(tmp_path, [("mine", f"{sys.executable} {script}"), ("b", quiet)], games=2)
    assert new.entrants[0].version != old.entrants[0].version
    assert run_league(new, db=db, workers=2).played == 2
    with HandLog(db) as store:
        board = leaderboard(store.query, "t")
    assert sorted((s.name, s.games) for s in board.standings) == [("b", 4), ("mine", 2), ("mine", 2)]


@pytest.mark.slow  # two league runs
def test_a_league_is_refused_when_its_seed_changes(tmp_path, db):
    quiet = f"{sys.executable} {CALLER}"
    run_league(_league(tmp_path, [("a", quiet), ("b", quiet)], games=2), db=db)
    with pytest.raises(ValueError, match="was created as game=cg-holdem seed=1"):
        run_league(_league(tmp_path, [("a", quiet), ("b", quiet)], games=2, seed=2), db=db)


def test_fixed_opponent_league_ranks_mean_profit_on_common_seeds(db):
    spec = build(name="ht", game="holdem-training", games=3, options={"hands": 40},
                 programs=[("checker", f"{sys.executable} {CONTESTANT} check"),
                           ("garbage", f"{sys.executable} {CONTESTANT} garbage 5")])
    run_league(spec, db=db, workers=2)
    with HandLog(db) as store:
        board = leaderboard(store.query, "ht")
        units = store.query("SELECT count(*) AS n FROM units u JOIN matches m USING (match_id) "
                            "WHERE m.source = 'league'")["n"][0]
    by_name = {s.name: s for s in board.standings}
    assert by_name["garbage"].faults == 3 and by_name["checker"].faults == 0
    assert units == 3 * 40 + 3 * 5  # the hands played before the fault are kept
    pair = board.pairs[0]
    assert pair.games == 3  # paired on the same three seeds
    assert board.standings[0].score >= board.standings[1].score
