"""Replay pages: one unit of a match (a hand, a game or a round) as a static HTML page that
steps through it, generated from the hand log. `write_replay` is the one entry point; a game's
spec names its replay module (GameSpec.replay), whose `replay(con, match_id, unit)` builds a `Replay`."""

import importlib
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import NotFound
from flows import games
from reports.html import page, stepper


class NoReplay(NotFound):
    """No such unit, or a game without a replay page."""


@dataclass(frozen=True)
class Replay:
    title: str
    intro: str  # HTML above the steps
    steps: tuple[str, ...]  # HTML of each step


def replay_games() -> tuple[str, ...]:
    return tuple(spec.name for spec in games.specs() if spec.replay is not None)


def build(con, match_id: str, unit: int) -> Replay:
    found = con.execute("SELECT game FROM matches WHERE match_id = ?", [match_id]).fetchall()
    if not found:
        raise NoReplay(f"no match {match_id!r} in the hand log")
    game = found[0][0]
    module_name = games.get(game).replay
    if module_name is None:
        from reports.replay import events  # any game the referee loop recorded: its events, step by step

        if not events.has_events(con, match_id):
            raise NoReplay(f"match {match_id} is a {game} match with no recorded events; replays exist for "
                           f"{', '.join(replay_games())} and for any match whose events were recorded")
        return events.replay(con, match_id, unit)
    return importlib.import_module(module_name).replay(con, match_id, unit)


def file_name(match_id: str, unit: int) -> str:
    return f"{match_id}-{unit}.html"


# Units are numbered from 0 everywhere a user names one (`replay --unit N`, the file MATCH-N.html, each
# page's title); a contest's own numbering (Hold'em Training's hands from 1) is given beside it.
UNITS_NOTE = ("<p class=note>Units (hands, games, rounds) are numbered from 0, as <code>cardlab replay --unit N"
              "</code> and this page's file name <code>{file}</code> number them.</p>")


def write_replay(con, match_id: str, unit: int, out_dir: Path) -> Path:
    replay = build(con, match_id, unit)
    nav, script = stepper(list(replay.steps))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / file_name(match_id, unit)
    path.write_text(page(replay.title, replay.intro + UNITS_NOTE.format(file=path.name) + nav, script=script))
    return path
