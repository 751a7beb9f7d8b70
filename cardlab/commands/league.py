"""`cardlab league`: programs in a league with persistent ratings, and `cardlab bench league`:
the same league played one game at a time and in parallel, wall times side by side."""

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from cardlab import checks, options, prefect_local
from cardlab.errors import fail
from engine.core.seeds import LEAGUE_SEEDS

PROGRAM_HELP = ("NAME=COMMAND (repeatable); where the game seats them (`cardlab league GAME` says which), "
                "NAME=PATH.py:ClassName (your class), NAME=bot:BOT[:k=v...] (a project bot) or NAME=model:ID "
                "(a fitted opponent model, `cardlab fit`)")


def _spec(target: str | None, file_arg: str | None, file: Path | None, *, programs: list[str], games: int | None,
          seed: int, players: int, opt: list[str], name: str | None):
    from flows.league_spec import build, load_toml, parse_program

    extra = [parse_program(p) for p in programs]
    if target == "run" or file is not None:
        path = file or (Path(file_arg) if file_arg else None)
        if path is None:
            fail("`cardlab league run` needs the league file: cardlab league run league.toml")
        if opt or name:
            fail("a league file sets its own name and options; on the command line it takes --program and --games")
        return load_toml(path, games=games, extra=extra)
    if target is None:
        from flows.games import specs

        fail(f"name a game ({', '.join(s.name for s in specs() if s.league)}), or `run league.toml`")
    if file_arg is not None:
        fail(f"unexpected argument {file_arg!r}: programs go in --program NAME=COMMAND")
    if not extra:
        fail("a league needs programs: --program NAME=COMMAND (repeatable)")
    return build(name=name or target, game=target, programs=extra, games=games or 10, seed=seed, players=players,
                 options=dict(options.pairs(opt, "--opt")))


def _play(spec, *, workers: int | None, quiet: bool, db: str | None = None):
    from flows.league import run_league
    from flows.league_play import plan_games

    prefect_local.ensure()  # a Prefect server that dies with this command (unless PREFECT_API_URL is set)
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console,
                  transient=True, disable=quiet) as progress:
        bar = progress.add_task(f"league {spec.name}", total=len(plan_games(spec)))
        return run_league(spec, db=db, workers=workers, progress=lambda n: progress.advance(bar, n))


def _turn_options(game: str, turn_ms: int | None, first_turn_ms: int | None, clock: str | None) -> list[str]:
    """The turn-limit flags as league options, for a game whose league rules take them."""
    from flows.games import get, specs

    def accepted(spec) -> set[str]:
        return set(spec.league.options) if spec.league else set()

    return options.turn_limits(accepted(get(game)), game=game, turn_ms=turn_ms, first_turn_ms=first_turn_ms,
                               clock=clock, games_with=lambda: [s.name for s in specs() if "turn_ms" in accepted(s)])


def print_board(board, console: Console) -> None:
    from rich.markup import escape

    from reports.leaderboard import FAULT_HEADERS, PAIR_HEADERS, STANDING_HEADERS, fault_rows, pair_rows, standing_rows

    table = Table(*STANDING_HEADERS, title=f"league {board.league} ({board.game}): {board.score_label}")
    for row in standing_rows(board):
        table.add_row(*row)
    console.print(table)
    pairs = Table(*PAIR_HEADERS, title=board.pair_label)
    for row in pair_rows(board):
        pairs.add_row(*row)
    console.print(pairs)
    faults = fault_rows(board)
    if faults:
        table = Table(*FAULT_HEADERS, title="faults: why games were lost to a limit, a crash or a bad answer")
        for row in faults:
            table.add_row(*(escape(cell) for cell in row))
        console.print(table)


def league(
    target: str = typer.Argument(None, help="the game (see `cardlab games`), or `run` followed by a league file"),
    file_arg: str = typer.Argument(None, help="with `run`: the league's TOML file"),
    program: list[str] = typer.Option([], "--program", help=PROGRAM_HELP),
    games: int = typer.Option(None, "--games", callback=checks.count,
                              help="games each entrant plays at least (in the game's unit, e.g. tests of fresh cases); "
                                   "default 10 or the file's"),
    seed: int = typer.Option(LEAGUE_SEEDS.default, "--seed", callback=checks.seed,
                              help="league seed: round r deals from (seed, r); the default is the league's own range"),
    players: int = typer.Option(2, "--players", help="seats per table, for games played between entrants"),
    opt: list[str] = typer.Option([], "--opt", help="game option k=v (a wrong key is refused with the game's "
                                                    "accepted ones), e.g. hands=2000"),
    name: str = typer.Option(None, "--name", help="league name (default: the game, or the file's name)"),
    file: Path = typer.Option(None, "--file", help="the league's TOML file (same as `run FILE`)"),
    workers: int = typer.Option(None, "--workers", callback=checks.count,
                                help="games in parallel (default CARDLAB_WORKERS or 2)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (leaderboard best first)"),
    turn_ms: int = options.turn_flags()[0],
    first_turn_ms: int = options.turn_flags()[1],
    clock: str = options.turn_flags()[2],
):
    """Play a league: only the games not played yet (resumable, extendable), then the leaderboard.

    Every game goes into the hand log; ratings per program version are stored; the page is
    written to $CARDLAB_OUT/leagues/<league>/index.html; each run of the command logs the standings to
    MLflow (a parent run, a child per entrant version)."""
    from reports.leaderboard import write_page

    if target is not None and target != "run" and file is None:
        opt = [*opt, *_turn_options(target, turn_ms, first_turn_ms, clock)]
    elif turn_ms or first_turn_ms or clock:
        fail("--turn-ms, --first-turn-ms, --clock: a league file sets its own options ([options] turn_ms = 200, "
             "clock = \"cpu\")")
    spec = _spec(target, file_arg, file, programs=program, games=games, seed=seed, players=players, opt=opt,
                 name=name)
    run = _play(spec, workers=workers, quiet=as_json)
    from flows.league_ratings import board_from_log
    from flows.store import read_only

    board = board_from_log(spec.name)
    with read_only() as con:  # the page lists the games, each with its replay page
        page = write_page(board, note=f"{run.planned} games planned, {run.played} played by the last run.", con=con)
    if run.mlflow_error:  # the games and standings are in the hand log; only MLflow's copy is missing
        typer.echo(f"note: league {spec.name} was not logged to MLflow ({run.mlflow_error}); run the same league "
                   f"again to log it (nothing is played again)", err=True)
    if as_json:
        doc = board.to_json() | {"planned": run.planned, "played": run.played, "seconds": run.seconds,
                                 "workers": run.workers, "page": str(page), "mlflow_run": run.mlflow_run}
        sys.stdout.write(json.dumps(doc) + "\n")
        return
    console = Console() if sys.stdout.isatty() else Console(width=150)
    print_board(board, console)
    console.print(f"{run.played} of {run.planned} games played now ({run.planned - run.played} stored before) "
                  f"in {run.seconds:.1f} s on {run.workers} workers; page {page}"
                  + (f"; MLflow run {run.mlflow_run}" if run.mlflow_run else ""))


def bench_league(
    target: str = typer.Argument(None, help="the game, or `run` followed by a league file"),
    file_arg: str = typer.Argument(None),
    program: list[str] = typer.Option([], "--program", help=PROGRAM_HELP),
    games: int = typer.Option(None, "--games", callback=checks.count),
    seed: int = typer.Option(1, "--seed", callback=checks.seed),
    players: int = typer.Option(2, "--players"),
    opt: list[str] = typer.Option([], "--opt"),
    workers: int = typer.Option(2, "--workers", callback=checks.count, help="parallel games in the second run"),
):
    """The same league twice in fresh scratch hand logs: one game at a time, then `--workers` in
    parallel; wall times, and whether every game's result was the same."""
    spec = _spec(target, file_arg, None, programs=program, games=games, seed=seed, players=players, opt=opt,
                 name=None)
    from bench.league import league_bench

    prefect_local.ensure()  # started before the clocks: both runs then pay only their own flow
    r = league_bench(spec, workers=workers)
    console = Console() if sys.stdout.isatty() else Console(width=150)
    print_board(r.board, console)
    console.print(f"{len(r.seats_one)} seat results; {spec.game}: one at a time {r.wall_one:.1f} s, {workers} in "
                  f"parallel {r.wall_parallel:.1f} s (x{r.wall_one / r.wall_parallel:.2f}); same results in both: "
                  f"{'yes' if not r.differ else f'NO, {len(r.differ)} differ'}")
    for key in r.differ[:5]:
        console.print(f"  {key}: one at a time {r.seats_one[key]}, in parallel {r.seats_parallel.get(key)}")
