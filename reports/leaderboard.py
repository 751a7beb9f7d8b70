"""A league's leaderboard as an HTML page: out/leagues/<league>/index.html.

Ratings (or mean profits) with 95% intervals, as a table and a plot, games and faults per entrant
version, every pair's head-to-head result with its interval (flows.league_ratings.leaderboard),
and, given the hand log, every game with a link to its replay page.
"""

import contextlib
import html
import math
from pathlib import Path

from flows.league_ratings import Leaderboard
from flows.settings import Paths
from reports import plots
from reports.html import esc, images, table
from reports.panels import rows as query_rows
from reports.replay import NoReplay, write_replay

MAX_REPLAYS = 200  # replay pages written per league page; later games name the command that writes theirs

_STYLE = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
          "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
          "caption{text-align:left;font-weight:bold;margin-bottom:.3em}img{max-width:100%;display:block;margin:.8em 0}"
          ".note{color:#666;font-size:.9em}")


def _label(s) -> str:
    return f"{s.name}@{s.version[:6]}"


def fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{value:+.{digits}f}" if isinstance(value, float) else str(value)


def interval(low, high, digits: int = 3) -> str:
    if low is None or not math.isfinite(low):
        return "- (too few games)"
    return f"{low:+.{digits}f} .. {high:+.{digits}f}"


def standing_rows(board: Leaderboard) -> list[list[str]]:
    """Rows shared by the terminal table and the page: rank, entrant, games, score, measure (CI), ..."""
    rows = []
    for i, s in enumerate(board.standings, start=1):
        rating = f"{fmt(s.mu, 2)} / {fmt(s.sigma, 2)}" if s.mu is not None else "-"
        rows.append([str(i), s.name, s.version, str(s.games), fmt(s.score, 4), fmt(s.measure),
                     interval(s.ci_low, s.ci_high), rating, str(s.faults),
                     "-" if s.cpu_seconds is None else f"{s.cpu_seconds:.3f}"])
    return rows


STANDING_HEADERS = ("#", "entrant", "version", "games", "score", "measure", "95% CI", "mu / sigma", "faults",
                    "CPU s/game")


def pair_rows(board: Leaderboard) -> list[list[str]]:
    names = {s.entrant: _label(s) for s in board.standings}
    return [[names[p.a], names[p.b], str(p.games), fmt(p.value), interval(p.ci_low, p.ci_high)]
            for p in board.pairs]


PAIR_HEADERS = ("a", "b", "games", "a vs b", "95% CI")


def fault_rows(board: Leaderboard) -> list[list[str]]:
    """Why each entrant's faulted games faulted (a timeout, a crash, a bad answer), most frequent first."""
    return [[_label(s), str(count), reason] for s in board.standings
            for reason, count in s.fault_reasons]


FAULT_HEADERS = ("entrant", "games", "reason")


def _table(caption: str, headers, rows) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>"


def standing_plots(board: Leaderboard, folder: Path) -> tuple[Path, ...]:
    """Each entrant's measure (win share, profit or share agreed) with its 95% interval, best at the top, and
    for games between entrants the openskill rating mu with +- 2 sigma."""
    ranked = list(reversed(board.standings))
    if not ranked:
        return ()

    def finite(v, fallback):
        return v if v is not None and math.isfinite(v) else fallback

    made = [plots.intervals(folder / "standings.png", names=[_label(s) for s in ranked],
                            means=[s.measure for s in ranked],
                            lows=[finite(s.ci_low, s.measure) for s in ranked],
                            highs=[finite(s.ci_high, s.measure) for s in ranked],
                            xlabel=f"{board.measure_label} (95% CI)", title=f"League {board.league}: each entrant")]
    rated = [s for s in ranked if s.mu is not None and s.sigma is not None]
    if rated:
        made.append(plots.intervals(folder / "ratings.png", names=[_label(s) for s in rated],
                                    means=[s.mu for s in rated], lows=[s.mu - 2 * s.sigma for s in rated],
                                    highs=[s.mu + 2 * s.sigma for s in rated], xlabel="openskill mu (bar: +- 2 sigma)",
                                    title="Ratings (ranked by the ordinal mu - 3 sigma)"))
    return tuple(made)


def game_rows(con, board: Leaderboard, folder: Path) -> list[list[str]]:
    """Every game of the league in round order: its seats (rank, fault) and a link to its replay page
    (replays/ beside the page), or the command that writes one."""
    seats: dict[str, list] = {}
    for r in query_rows(con, "SELECT game_key, seat, entrant, rank, fault FROM league_seats WHERE league = ? "
                             "ORDER BY game_key, seat", [board.league]):
        seats.setdefault(r["game_key"], []).append(r)
    games = query_rows(con, "SELECT g.game_key, g.round, g.match_id, (SELECT min(unit) FROM units u "
                            "WHERE u.match_id = g.match_id) AS unit FROM league_games g WHERE g.league = ? "
                            "ORDER BY g.round, g.game_key", [board.league])
    names = {s.entrant: _label(s) for s in board.standings}
    out = []
    for k, g in enumerate(games):
        who = ", ".join(f"{s['seat'] + 1}. {names.get(s['entrant'], s['entrant'])} #{s['rank']}"
                        + (f" (fault: {s['fault']})" if s["fault"] else "") for s in seats.get(g["game_key"], ()))
        link = f"<code>cardlab replay --match {esc(g['match_id'])} --unit {g['unit']}</code>"
        if g["unit"] is not None and k < MAX_REPLAYS:
            with contextlib.suppress(NoReplay):  # a game with no replay page keeps the command
                path = write_replay(con, g["match_id"], int(g["unit"]), folder / "replays")
                link = f'<a href="replays/{esc(path.name)}">replay</a>'
        out.append([str(g["round"]), esc(who), f"<code>{esc(g['match_id'])}</code>", link])
    return out


def _games_html(rows: list[list[str]]) -> str:
    if not rows:
        return ""
    return ('<h2 id="games">Games</h2><p class=note>Seat order; #rank in the game (1 = best); each game is a match '
            "in the hand log; a replay page shows its first unit.</p>"
            + table(["round", "seats (rank)", "match", "replay"], rows))


def write_page(board: Leaderboard, out_dir: Path | None = None, *, note: str = "", con=None) -> Path:
    """The league's page; given a read connection to its hand log, with the games and their replays."""
    folder = (out_dir or Paths.from_env().out / "leagues") / board.league
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / "index.html"
    shown = standing_plots(board, folder)
    games = _games_html(game_rows(con, board, folder)) if con is not None else ""
    text = (f"<!doctype html><html><head><meta charset='utf-8'><title>League {html.escape(board.league)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>League {html.escape(board.league)} ({html.escape(board.game)})"
            f"</h1><p>score: {html.escape(board.score_label)}; measure: {html.escape(board.measure_label)}. "
            f"{html.escape(note)}</p>"
            + _table("Leaderboard", STANDING_HEADERS, standing_rows(board))
            + images(shown)
            + _table(f"Pairs: {board.pair_label}", PAIR_HEADERS, pair_rows(board))
            + (_table("Faults: why games were lost to a limit, a crash or a bad answer", FAULT_HEADERS, faults)
               if (faults := fault_rows(board)) else "<p>No faults: no game was lost to a limit, a crash or a bad "
                                                      "answer.</p>")
            + games
            + "</body></html>\n")
    page.write_text(text)
    return page
