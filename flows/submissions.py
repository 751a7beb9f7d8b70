"""Which config of each game was last submitted: every bundle written by `cardlab export <game>
--submit`, `cardlab pick --out DIR --submit` or `cardlab demo` is recorded in the hand log's
`submissions` table, and the nightly check replays the latest one."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bots.base import config_as_dict
from engine.core.errors import Unavailable, UserError
from flows import games
from flows.store import HandLog, code_version, new_match_id


@dataclass(frozen=True)
class Submission:
    submission_id: str
    game: str
    bot: str
    config: dict  # the bot's full frozen config: replaying it does not depend on later defaults
    source: str  # export or pick
    sweep_id: str | None = None

    def overrides(self) -> tuple[tuple[str, str], ...]:
        """The config as `--set` pairs (every field, so the bot's defaults cannot drift in)."""
        return tuple((key, config_text(value)) for key, value in sorted(self.config.items()))


def config_text(value) -> str:
    """A config value as `--set` accepts it back (tuples are written a/b/c)."""
    if isinstance(value, (list, tuple)):
        return "/".join(str(v) for v in value)
    return str(value)


def full_config(game: str, bot: str, overrides) -> dict:
    """The config a bundle freezes: the bot's defaults plus the overrides (k=v strings or a mapping)."""
    return config_as_dict(games.get(game).spec(bot).config_from(overrides))


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def record(store: HandLog, *, game: str, bot: str, config: dict, source: str, bundle: Path | str | None = None,
           sweep_id: str | None = None, mlflow_run: str | None = None) -> Submission:
    submission = Submission(submission_id=new_match_id("sub"), game=game, bot=bot, config=dict(config),
                            source=source, sweep_id=sweep_id)
    store.put("submissions", [{
        "submission_id": submission.submission_id, "game": game, "bot": bot,
        "config": json.dumps(config, sort_keys=True), "source": source, "sweep_id": sweep_id, "mlflow_run": mlflow_run,
        "bundle": None if bundle is None else str(Path(bundle).resolve()), "code_version": code_version(),
        "submitted_at": _utc_now()}])
    return submission


def latest(con, game: str) -> Submission | None:
    """The game's last submission, through any connection to the hand log (a writer's `HandLog.con`
    or a read-only one)."""
    rows = con.execute(
        "SELECT submission_id, game, bot, config, source, sweep_id FROM submissions WHERE game = ?"
        " ORDER BY submitted_at DESC, submission_id DESC LIMIT 1", [game]).fetchall()
    if not rows:
        return None
    submission_id, game, bot, config, source, sweep_id = rows[0]
    return Submission(submission_id=submission_id, game=game, bot=bot, config=json.loads(config), source=source,
                      sweep_id=sweep_id)


def record_bundle(game: str, *, bot: str, config: dict, source: str, bundle: Path | str | None,
                  sweep_id: str | None = None, mlflow_run: str | None = None) -> Submission:
    """Record a bundle just written (its bot and full config) in the hand log."""
    try:
        with HandLog() as store:
            return record(store, game=game, bot=bot, config=config, source=source, bundle=bundle,
                          sweep_id=sweep_id, mlflow_run=mlflow_run)
    except Exception as exc:  # the bundle is written: say so, and what was not recorded
        kind = Unavailable if isinstance(exc, UserError) else RuntimeError  # a bug keeps its traceback
        raise kind(f"wrote the bundle {bundle} but could not record it as {game}'s submission in the hand "
                   f"log: {str(exc).splitlines()[0]}") from exc


def record_export(game: str, arguments: dict) -> Submission | None:
    """Record the bundle a game's `export` command just wrote (its `bot`, `set_` and `out` arguments)."""
    bot = arguments.get("bot")
    if bot is None:
        return None
    return record_bundle(game, bot=bot, config=full_config(game, bot, list(arguments.get("set_") or [])),
                         source="export", bundle=arguments.get("out"))
