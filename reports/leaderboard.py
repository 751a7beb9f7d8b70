"""A league's leaderboard as an HTML page: out/leagues/<league>/index.html.

Ratings (or mean profits) with 95% intervals, games and faults per entrant version, and every
pair's head-to-head result with its interval, from flows.league_ratings.leaderboard.
"""

import html
import math
from pathlib import Path

from flows.league_ratings import Leaderboard
from flows.settings import Paths

_STYLE = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
          "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
          "caption{text-align:left;font-weight:bold;margin-bottom:.3em}")


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
    names = {s.entrant: f"{s.name}@{s.version[:6]}" for s in board.standings}
    return [[names[p.a], names[p.b], str(p.games), fmt(p.value), interval(p.ci_low, p.ci_high)]
            for p in board.pairs]


PAIR_HEADERS = ("a", "b", "games", "a vs b", "95% CI")


def fault_rows(board: Leaderboard) -> list[list[str]]:
    """Why each entrant's faulted games faulted (a timeout, a crash, a bad answer), most frequent first."""
    return [[f"{s.name}@{s.version[:6]}", str(count), reason] for s in board.standings
            for reason, count in s.fault_reasons]


FAULT_HEADERS = ("entrant", "games", "reason")


def _table(caption: str, headers, rows) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>"


def write_page(board: Leaderboard, out_dir: Path | None = None, *, note: str = "") -> Path:
    folder = (out_dir or Paths.from_env().out / "leagues") / board.league
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / "index.html"
    text = (f"<!doctype html><html><head><meta charset='utf-8'><title>League {html.escape(board.league)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>League {html.escape(board.league)} ({html.escape(board.game)})"
            f"</h1><p>score: {html.escape(board.score_label)}; measure: {html.escape(board.measure_label)}. "
            f"{html.escape(note)}</p>"
            + _table("Leaderboard", STANDING_HEADERS, standing_rows(board))
            + _table(f"Pairs: {board.pair_label}", PAIR_HEADERS, pair_rows(board))
            + (_table("Faults: why games were lost to a limit, a crash or a bad answer", FAULT_HEADERS, faults)
               if (faults := fault_rows(board)) else "")
            + "</body></html>\n")
    page.write_text(text)
    return page
