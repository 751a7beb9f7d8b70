"""The same league twice in fresh scratch hand logs: one game at a time, then `workers` in parallel."""

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from flows.league import run_league
from flows.league_play import plan_games, play
from flows.league_ratings import Leaderboard, board_from_log
from flows.league_spec import LeagueSpec
from flows.store import read_only


@dataclass(frozen=True)
class LeagueBench:
    board: Leaderboard  # of the parallel run
    workers: int
    wall_one: float  # seconds, one game at a time
    wall_parallel: float
    seats_one: dict  # (game_key, seat) -> (entrant, payoff, rank, fault)
    seats_parallel: dict

    @property
    def differ(self) -> list:
        """Seats whose result is not the same in both runs."""
        return sorted(k for k in self.seats_one if self.seats_one[k] != self.seats_parallel.get(k))


def league_bench(spec: LeagueSpec, *, workers: int) -> LeagueBench:
    play(spec, plan_games(spec)[0])  # warm-up outside the clocks: imports, compiled kernels
    runs, seats = {}, {}
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-league-") as scratch:
        for n in (1, workers):
            db = str(Path(scratch) / f"w{n}.duckdb")
            started = time.perf_counter()
            run_league(spec, db=db, workers=n, track=False)  # scratch leagues: nothing for MLflow
            runs[n] = time.perf_counter() - started
            board = board_from_log(spec.name, db)
            seats[n] = seat_results(spec.name, db)
    return LeagueBench(board=board, workers=workers, wall_one=runs[1], wall_parallel=runs[workers],
                       seats_one=seats[1], seats_parallel=seats[workers])


def seat_results(league: str, db: str) -> dict:
    con = read_only(db)
    try:
        rows = con.execute("SELECT game_key, seat, entrant, payoff, rank, fault FROM league_seats WHERE league = ?",
                           [league]).fetchall()
    finally:
        con.close()
    return {(r[0], r[1]): r[2:] for r in rows}
