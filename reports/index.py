"""out/reports/index.html: every sweep (with its report when written), every league page under
out/leagues/, the nightly checks, and each game's submitted candidate over time."""

import contextlib
import json
import os
from pathlib import Path

import duckdb

from flows.settings import Paths
from flows.store import read_only
from reports.html import esc, page, table
from reports.panels import rows
from reports.sweep_data import label


def _safe_rows(con, sql: str, params=()) -> list[dict]:
    with contextlib.suppress(duckdb.CatalogException, duckdb.BinderException):
        return rows(con, sql, params)
    return []  # a hand log from before the table


def _link(path: Path, root: Path, text: str) -> str:
    return f'<a href="{esc(os.path.relpath(path, root))}">{esc(text)}</a>' if path.exists() else esc(text)


def build_index(*, out: Path | None = None, db: Path | None = None) -> Path:
    out = Path(out) if out else Paths.from_env().out
    reports = out / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    con = read_only(db)
    try:
        sweeps = _safe_rows(con, "SELECT s.sweep_id, s.game, s.bot, s.units, s.started_at, s.finished_at, "
                                 "s.grid, s.spec, m.config AS best_config FROM sweeps s "
                                 "LEFT JOIN matches m ON m.match_id = s.best_match ORDER BY s.started_at DESC")
        nightly = _safe_rows(con, "SELECT game, candidate, bot, verdict, differing_units, units, checked_at "
                                  "FROM nightly_checks ORDER BY checked_at DESC")
        submitted = _safe_rows(con, "SELECT game, submission_id, bot, source, sweep_id, config, submitted_at "
                                    "FROM submissions ORDER BY game, submitted_at")
    finally:
        con.close()
    body = [_sweeps(sweeps, reports), _leagues(out, reports), _candidates(submitted, nightly), _nightly(nightly)]
    path = reports / "index.html"
    path.write_text(page("cardlab: sweeps, leagues and nightly runs", "\n".join(body)))
    return path


def _sweeps(sweeps, reports: Path) -> str:
    lines = []
    for s in sweeps:
        best = _best_label(s["best_config"], s["grid"], s["spec"]) if s["best_config"] else ""
        lines.append([_link(reports / s["sweep_id"] / "index.html", reports, s["sweep_id"]), esc(s["game"]),
                      esc(s["bot"]), f"{s['units']:,}", esc(str(s["started_at"])[:19]),
                      "finished" if s["finished_at"] else "open",
                      esc(best)])
    note = "<p class=note>A sweep links to its report once <code>cardlab report SWEEP</code> wrote it.</p>"
    return "<h2>Sweeps</h2>" + note + table(["sweep", "game", "bot", "units", "started", "state", "best config"],
                                            lines)


def _best_label(config: str, grid: str | None, spec: str | None) -> str:
    """The best config by the parameters the sweep varied (`x=0.55`), not the start of its full config."""
    swept = [k for k, _ in json.loads(spec or "{}").get("grid", [])] or list(json.loads(grid or "{}"))
    return label(json.loads(config), swept)


def _leagues(out: Path, reports: Path) -> str:
    pages = sorted((out / "leagues").glob("*/index.html")) if (out / "leagues").is_dir() else []
    if not pages:
        return "<h2>Leagues</h2><p>No league pages under out/leagues/ yet.</p>"
    return "<h2>Leagues</h2><ul>" + "".join(f"<li>{_link(p, reports, p.parent.name)}</li>" for p in pages) + "</ul>"


def _candidates(submitted, nightly) -> str:
    games = sorted({s["game"] for s in submitted} | {n["game"] for n in nightly})
    if not games:
        return "<h2>Submitted candidates</h2><p>Nothing submitted yet (<code>cardlab export</code> or " \
               "<code>cardlab pick --out</code>).</p>"
    parts = ["<h2>Submitted candidates over time</h2>"]
    for game in games:
        history = []
        for s in (x for x in submitted if x["game"] == game):
            checks = [n for n in nightly if n["candidate"] == s["submission_id"]]
            verdicts = ", ".join(sorted({n["verdict"] for n in checks})) or "not checked yet"
            history.append([esc(str(s["submitted_at"])[:19]), f"<code>{esc(s['submission_id'])}</code>",
                            esc(s["bot"]), esc(s["source"]), esc(s["sweep_id"] or ""), esc(s["config"][:80]),
                            f"{len(checks)} ({esc(verdicts)})"])
        parts.append(f"<h3>{esc(game)}</h3>" + (table(["submitted", "candidate", "bot", "how", "sweep", "config",
                                                         "nightly checks"], history)
                                                  if history else "<p>Nothing submitted: nightly checks play the "
                                                                  "default bot.</p>"))
    return "".join(parts)


def _nightly(nightly) -> str:
    lines = [[esc(str(n["checked_at"])[:19]), esc(n["game"]), f"<code>{esc(n['candidate'])}</code>", esc(n["bot"]),
              f"{n['units']:,}", esc(n["verdict"]), "" if n["differing_units"] is None else f"{n['differing_units']:,}"]
             for n in nightly]
    return "<h2>Nightly checks</h2>" + (table(["checked", "game", "candidate", "bot", "units", "verdict",
                                                "units that differ"], lines) if lines else "<p>None yet.</p>")
