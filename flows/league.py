"""A league as a Prefect flow: the games not played yet, in parallel over the task runner; every
game into the hand log as its own match, then a row per game and seat in the league tables,
and ratings recomputed from all of them.

Resumable and extendable by construction: a game's key (league, round, seating) is written only
after the game and its hands are stored, and the plan (flows.league_play.plan_games) is a pure
function of the league, so a re-run, an added entrant or a larger `games` plays exactly the
keys that are missing. The flow process is the hand log's only writer; workers play.
Each invocation then logs the standings to MLflow (flows.tracking.log_league).
"""

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed

from flows import games, shards, tracking
from flows.games.base import HOUSE, SQL_DIR
from flows.league_play import GameOutcome, plan_games, play
from flows.league_ratings import leaderboard, recompute_ratings
from flows.league_spec import Entrant, LeagueError, LeagueSpec, game_spec
from flows.runners import LocalOnly, make_task_runner
from flows.settings import worker_count
from flows.store import HandLog

LEAGUE_SQL = SQL_DIR / "league.sql"


@dataclass(frozen=True)
class LeagueRun:
    league: str
    planned: int  # games the league holds now
    played: int  # games played by this run (the rest were stored already)
    seconds: float
    workers: int
    mlflow_run: str | None = None  # this invocation's parent run (flows.tracking.log_league)
    mlflow_error: str | None = None  # why MLflow has none (the games are in the hand log all the same)


# Not a decorator: the task's function keeps its own importable name, so a Dask worker
# process unpickles it by reference.
play_game_task = task(play, name="league-game", persist_result=False, cache_policy=NO_CACHE, retries=0)


def match_id_of(league: str, key: str) -> str:
    """Deterministic, so a game replayed after a crash replaces its own rows, never adds a copy."""
    return "L" + hashlib.sha256(f"{league}\0{key}".encode()).hexdigest()[:20]


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def prepare(store: HandLog, spec: LeagueSpec) -> set[str]:
    """Create or check the league's record, register its entrants; the keys already played."""
    store.apply_sql(LEAGUE_SQL)
    store.ensure_game(games.get(spec.game))
    con = store.con
    options = json.dumps(dict(spec.options), sort_keys=True)
    row = con.execute("SELECT game, seed, players, options FROM leagues WHERE league = ?", [spec.name]).fetchone()
    if row is None:
        store.put("leagues", [{"league": spec.name, "game": spec.game, "seed": spec.seed, "players": spec.players,
                               "options": options, "created_at": _now()}])
    elif tuple(row) != (spec.game, spec.seed, spec.players, options):
        raise LeagueError(f"league {spec.name!r} was created as game={row[0]} seed={row[1]} players={row[2]} "
                          f"options={row[3]}; extend it with those, or name a new league (--name)")
    known = {r[0] for r in store.con.execute("SELECT entrant FROM league_entrants WHERE league = ?",
                                             [spec.name]).fetchall()}
    new = [{"league": spec.name, "entrant": e.key, "name": e.name, "version": e.version, "command": e.command,
            "registered_at": _now()} for e in spec.entrants if e.key not in known]
    if new:  # an entrant keeps its first registration
        store.put("league_entrants", new)
    return {r[0] for r in store.con.execute("SELECT game_key FROM league_games WHERE league = ?",
                                            [spec.name]).fetchall()}


def record(store: HandLog, spec: LeagueSpec, outcome: GameOutcome) -> None:
    """The game's hands as a hand-log match, then its league rows: the seats, then the game (a game
    is played once its row is there), each keyed by the game so a replay replaces them."""
    plan = outcome.plan
    match_id = match_id_of(spec.name, plan.key)
    store.begin_match(match_id=match_id, game=spec.game, bot="league", seed=plan.seed, units=outcome.log.count,
                      source="league", config={"league": spec.name, "game_key": plan.key},
                      options={"seats": [e.key for e in plan.seats], "faults": list(outcome.faults)})
    if outcome.log.count:
        store.write_chunk(match_id, 0, outcome.log, seconds=outcome.seconds)
    store.finish_match(match_id, outcome.seconds)
    key = shards.safe_key(spec.name, plan.key)
    store.put("league_seats", [{"league": spec.name, "game_key": plan.key, "seat": seat, "entrant": e.key,
                                "payoff": outcome.payoffs[seat], "units": outcome.units, "rank": outcome.ranks[seat],
                                "fault": outcome.faults[seat], "cpu_seconds": outcome.cpu_seconds[seat]}
                               for seat, e in enumerate(plan.seats)], key=key)
    store.put("league_games", [{"league": spec.name, "game_key": plan.key, "round": plan.round, "seed": plan.seed,
                                "match_id": match_id, "seconds": outcome.seconds, "played_at": _now()}], key=key)


@flow(name="cardlab-league", validate_parameters=False, log_prints=True)
def league_flow(spec: LeagueSpec, db: str | None = None, progress: Callable[[int], None] | None = None,
                workers: int | None = None, track: bool = True) -> LeagueRun:
    """With `track`, the standings go to MLflow once every game is stored: an MLflow failure loses nothing of the
    hand log; the run says why in `mlflow_error`, and running the league again (nothing left to play) logs it."""
    started = time.perf_counter()
    workers = workers or worker_count()
    with HandLog(db) as store:
        done = prepare(store, spec)
        plans = plan_games(spec)
        todo = [p for p in plans if p.key not in done]
        pending, running = iter(todo), {}
        try:
            while True:
                while len(running) < 2 * workers and (plan := next(pending, None)) is not None:
                    running[play_game_task.submit(spec, plan)] = plan
                if not running:
                    break
                future = next(as_completed(list(running)))
                running.pop(future)
                record(store, spec, future.result())  # a failed game raises; it is played again next run
                if progress is not None:
                    progress(1)
        finally:
            for future in running:  # games under way end (their programs reaped) and are kept
                future.wait()
                if future.state.is_completed():
                    record(store, spec, future.result())
            recompute_ratings(store, spec)
        if track:
            board = leaderboard(store.query, spec.name)
            entrants = {key: Entrant(name, command, version) for key, name, version, command in store.con.execute(
                "SELECT entrant, name, version, command FROM league_entrants WHERE league = ?", [spec.name]).fetchall()}
    run_id = error = None
    if track:  # after the hand log is closed: MLflow never holds the writer's lock
        try:
            run_id = tracking.log_league(board, seed=spec.seed, games=spec.games, players=spec.players,
                                         options=dict(spec.options), entrants=entrants, planned=len(plans),
                                         played=len(todo), difference=game_spec(spec.game).payoff_kind == HOUSE)
        except tracking.NOT_TRACKED as exc:
            error = tracking.why_not_tracked(exc)
            get_run_logger().warning("league %s: not logged to MLflow (%s)", spec.name, error)
    return LeagueRun(spec.name, len(plans), len(todo), time.perf_counter() - started, workers, run_id, error)


def run_league(spec: LeagueSpec, *, db: str | None = None, workers: int | None = None,
               progress: Callable[[int], None] | None = None, runner: str | None = None,
               track: bool = True) -> LeagueRun:
    """The flow on a task runner of `workers` threads (CARDLAB_WORKERS by default), at most one
    per core: the contests' wall-clock limits (a CodinGame turn) must not depend on the league."""
    workers = max(1, min(workers or worker_count(), os.cpu_count() or 1))
    bound = league_flow.with_options(task_runner=make_task_runner(runner, workers=workers))
    # Prefect ships the flow's parameters to every task: the progress bar must stay here.
    return bound(spec, db=db, progress=LocalOnly(progress) if progress else None, workers=workers, track=track)

