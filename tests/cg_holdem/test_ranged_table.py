"""bench.cg_holdem.ranged_table: a league still running is read from the hand log and labelled by
its player count, and each league's programs are listed with the versions the league recorded."""

import hashlib
import json
from datetime import UTC, datetime

from bench.cg_holdem.ranged_table import rows
from bots.program import program_version
from flows.league import LEAGUE_SQL
from flows.store import HandLog

ENTRANTS = ("ranged@r1", "aggressive@a1", "montecarlo@m1", "pushfold@p1")
RANKS = ((1, 2, 3, 4), (2, 1, 4, 3), (1, 3, 2, 4))  # per game, in ENTRANTS' order


def four_seat_games_so_far(db, name: str) -> None:
    """The rows a four-seat league has written after three games (its JSON is still empty)."""
    now = datetime.now(UTC).replace(tzinfo=None)
    with HandLog(db) as store:
        store.apply_sql(LEAGUE_SQL)
        store.put("leagues", [{"league": name, "game": "cg-holdem", "seed": 32, "players": 4, "options": "{}",
                               "created_at": now}])
        for k, ranks in enumerate(RANKS):
            key = f"r{k}:" + ",".join(ENTRANTS)
            store.put("league_games", [{"league": name, "game_key": key, "round": k, "seed": k, "match_id": f"m{k}",
                                        "seconds": 0.1, "played_at": now}])
            store.put("league_seats", [{"league": name, "game_key": key, "seat": seat, "entrant": e,
                                        "payoff": (4 - rank) / 3, "units": 1, "rank": rank, "fault": ""}
                                       for seat, (e, rank) in enumerate(zip(ENTRANTS, ranks, strict=True))])


def test_an_unfinished_four_seat_league_is_labelled_by_its_seats_with_its_games_so_far(tmp_path):
    four_seat_games_so_far(tmp_path / "handlog.duckdb", "four-ranged")
    (tmp_path / "four-ranged.json").write_text("")  # ranged_leagues.sh's redirect, before the league ends
    lines = rows(tmp_path, "ranged")
    assert not any("heads-up" in line for line in lines)
    mine = next(line for line in lines if line.startswith("| four seats (unfinished): ranged |"))
    mean = sum(r[0] for r in RANKS) / len(RANKS)
    assert f"| {len(RANKS)} | mean position {mean:.2f} [" in mine
    assert any(line.startswith("| four seats (unfinished): ranged ahead of montecarlo |") for line in lines)
    assert "four-ranged: " in lines[-1] and "ranged@r1" in lines[-1] and "sha256" not in lines[-1]


def test_a_finished_league_lists_its_programs_versions_commit_and_the_file_s_sha256(tmp_path):
    (tmp_path / "programs").mkdir()
    program = tmp_path / "programs" / "ranged.py"
    program.write_text("print('FOLD')\n")
    version = program_version(f"python3 {program}")
    board = [{"name": "ranged", "version": version, "games": 200, "measure": 0.71, "ci_low": 0.644, "ci_high": 0.768,
              "faults": 1, "commit": "5e6c51c"},
             {"name": "aggressive", "version": "0" * 12, "games": 200, "measure": 0.29, "ci_low": 0.2,
              "ci_high": 0.3, "faults": 0}]
    (tmp_path / "hu-ranged-aggressive.json").write_text(json.dumps({"leaderboard": board, "pairs": []}))
    table, programs = rows(tmp_path, "ranged")
    assert table == "| heads-up vs aggressive | 200 | 71.0% [64.4%, 76.8%] | 1 |"
    sha = hashlib.sha256(program.read_bytes()).hexdigest()
    assert f"ranged@{version} commit 5e6c51c (sha256 {sha})" in programs
    assert "aggressive@000000000000" in programs and programs.count("sha256") == 1  # its file is not there
