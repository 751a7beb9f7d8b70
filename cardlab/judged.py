"""A judged match (bots or programs under a contest's judge) into the hand log, the same way from
every command that offers --log.

The result is what the user came for: when the hand log cannot take the match (a full disk
with no fallback folder that has room, a damaged schema), the command still
prints its result, with one note on stderr saying why the match was not logged. Any other
exception is a bug and keeps its traceback.

A logged match then gets an MLflow run tagged with its match id (flows.tracking.log_judged); an
MLflow store that cannot take it costs one note on stderr, never the hand log's copy. A match cut
short by a signal is not sent to MLflow (it is partial, and the user is waiting to stop)."""

from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import typer

from engine.core import ending
from engine.core.errors import UserError

NOT_LOGGED = (UserError, OSError, duckdb.Error)  # the hand log's own failures, not bugs


@dataclass(frozen=True)
class Logged:
    """The match id, or why the match was not logged (`Type: first line of the message`)."""

    match_id: str | None
    error: str | None = None
    mlflow_run: str | None = None  # the match's MLflow run, when MLflow took it


def log_judged(game, *, bot: str, config: dict, seed: int, log, options: dict | None = None,
               seconds: float | None = None, what: str = "match",
               say: Callable[[str], object] | None = typer.echo) -> Logged:
    """Log `log` (the judge's ChunkLog) as one match of `game`; `say` gets `logged <what> as <id>`
    (None: the command shows the id itself, e.g. inside its JSON)."""
    from flows import events, games
    from flows.store import log_judged_match

    log = events.encode(log, games.get(game) if isinstance(game, str) else game)  # the store takes tables
    try:
        match_id = log_judged_match(game, bot=bot, config=config, seed=seed, log=log, options=options,
                                    seconds=seconds)
    except NOT_LOGGED as exc:
        lines = str(exc).splitlines()
        error = f"{type(exc).__name__}: {lines[0] if lines else ''}"
        typer.echo(f"note: the {what} was not logged ({error})", err=True)
        return Logged(None, error)
    run_id = None if ending.received() is not None else _track(
        game, match_id=match_id, bot=bot, config=config, seed=seed, log=log, options=options, seconds=seconds,
        what=what)
    if say is not None:
        say(f"logged {what} as {match_id}" + (f" (MLflow run {run_id})" if run_id else ""))
    if ending.received() is not None:  # a judged match has no resume: say what was kept and what to do
        from flows import games

        unit = (games.get(game) if isinstance(game, str) else game).unit
        typer.echo(f"interrupted by {ending.describe()}: the {log.count:,} {unit}s played are logged as {match_id}; "
                   f"a judged {what} cannot be resumed: run the command again for a whole one", err=True)
    return Logged(match_id, mlflow_run=run_id)


def _track(game, *, match_id: str, what: str, log, **match) -> str | None:
    from flows import tracking

    name = game if isinstance(game, str) else game.name
    try:
        return tracking.log_judged(name, match_id=match_id, payoffs=log.payoffs, stats=log.stats, **match)
    except tracking.NOT_TRACKED as exc:
        typer.echo(f"note: the {what} is logged as {match_id} but not in MLflow ({tracking.why_not_tracked(exc)})",
                   err=True)
        return None
