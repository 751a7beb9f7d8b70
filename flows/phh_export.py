"""Hands from the hand log as PHH files (`cardlab phh export`): any match of a game whose spec
declares a PHH exporter (the poker contests). Each file holds its hands as PHH sections
PokerKit's ``HandHistory.load_all`` reads."""

from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import BadValue
from flows import games


class NotExportable(BadValue):
    """The match is unknown or of a game without hand histories."""


@dataclass(frozen=True)
class Exported:
    match_id: str
    game: str
    files: tuple[Path, ...]
    hands: int


def exportable_games() -> tuple[str, ...]:
    return tuple(spec.name for spec in games.specs() if spec.phh is not None)


def match_game(con, match_id: str) -> str:
    found = con.execute("SELECT game FROM matches WHERE match_id = ?", [match_id]).fetchall()
    accepted = exportable_games()
    if not found:
        recent = [r[0] for r in con.execute(
            "SELECT match_id FROM matches WHERE game IN (SELECT unnest(?::VARCHAR[])) "
            "ORDER BY started_at DESC LIMIT 5", [list(accepted)]).fetchall()]
        raise NotExportable(f"no match {match_id!r} in the hand log; recent matches with hand histories: "
                            f"{', '.join(recent) or 'none'}")
    game = found[0][0]
    if game not in accepted:
        raise NotExportable(f"match {match_id} is a {game} match; PHH export takes {' or '.join(accepted)} matches")
    return game


def export_match(con, match_id: str, out_dir: Path) -> Exported:
    game = match_game(con, match_id)
    out_dir.mkdir(parents=True, exist_ok=True)
    files, hands = games.get(game).phh(con, match_id, out_dir)
    return Exported(match_id, game, tuple(files), hands)
