"""A sweep as an HTML page with PNG plots: profit per config with CIs, cumulative profit.

Reads the hand log's marts through a read-only connection, and MLflow for the run link.
"""

import html
import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from flows import sweep_record  # noqa: E402
from flows.settings import Paths  # noqa: E402
from flows.store import read_only  # noqa: E402

CURVE_POINTS = 400  # points per cumulative curve: enough to see the shape, small PNGs


@dataclass(frozen=True)
class Report:
    sweep_id: str
    page: Path
    plots: tuple[Path, ...]


def _frame(con, sql: str, params=()) -> pl.DataFrame:
    return pl.from_arrow(con.sql(sql, params=list(params)).to_arrow_table())


def resolve_sweep(con, sweep_id: str | None) -> dict:
    """The sweep's row; 'latest' means what it means everywhere (flows.sweep_record)."""
    found = sweep_record.find(con, sweep_id)
    return _frame(con, "SELECT * FROM sweeps WHERE sweep_id = ?", [found.sweep_id]).row(0, named=True)


def _label(config_json: str, grid: dict) -> str:
    config = json.loads(config_json)
    return ", ".join(f"{k}={config.get(k)}" for k in grid) or "defaults"


def build_report(sweep_id: str | None = None, *, out_dir: Path | None = None, db: Path | None = None) -> Report:
    con = read_only(db)
    try:
        sweep = resolve_sweep(con, sweep_id)
        sid = sweep["sweep_id"]
        grid = json.loads(sweep["grid"])
        results = _frame(con, "SELECT * FROM mart_match_results WHERE sweep_id = ? ORDER BY match_id", [sid])
        stride = max(1, int(sweep["units"]) // CURVE_POINTS)
        curves = _frame(
            con,
            "SELECT c.match_id, c.unit, c.cumulative FROM mart_cumulative c JOIN matches m USING (match_id) "
            "WHERE m.sweep_id = ? AND (c.unit % ? = 0 OR c.unit = m.units - 1) ORDER BY c.match_id, c.unit",
            [sid, stride],
        )
    finally:
        con.close()
    out = Path(out_dir) if out_dir else Paths.from_env().out / "reports" / sid
    out.mkdir(parents=True, exist_ok=True)
    labels = {r["match_id"]: _label(r["config"], grid) for r in results.iter_rows(named=True)}
    from flows import games

    try:
        axis = games.get(sweep["game"]).payoff_label
    except KeyError:  # a game no longer registered still gets its report
        axis = "payoff per unit"
    plots = (_plot_means(results, labels, out / "profit_per_config.png", axis),
             _plot_curves(curves, labels, out / "cumulative_profit.png"))
    page = out / "index.html"
    page.write_text(_html(sweep, results, labels, plots))
    return Report(sid, page, plots)


def _plot_means(results: pl.DataFrame, labels: dict, path: Path, axis: str) -> Path:
    fig, ax = plt.subplots(figsize=(8, 0.5 + 0.45 * max(3, results.height)))
    rows = list(results.sort("mean").iter_rows(named=True))
    y = range(len(rows))
    ax.errorbar([r["mean"] for r in rows], list(y),
                xerr=[[r["mean"] - r["ci_low"] for r in rows], [r["ci_high"] - r["mean"] for r in rows]],
                fmt="o", capsize=4)
    ax.set_yticks(list(y), [labels[r["match_id"]] for r in rows])
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"mean {axis} (95% CI)")
    ax.set_title("Profit per config")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_curves(curves: pl.DataFrame, labels: dict, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (match_id,), part in curves.group_by(["match_id"], maintain_order=True):
        ax.plot(part["unit"].to_list(), part["cumulative"].to_list(), label=labels.get(match_id, match_id))
    ax.set_xlabel("unit (same deals for every config)")
    ax.set_ylabel("cumulative payoff")
    ax.set_title("Cumulative profit")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _html(sweep: dict, results: pl.DataFrame, labels: dict, plots) -> str:
    best = sweep.get("best_match")
    rows = []
    for r in results.sort("ci_low", descending=True).iter_rows(named=True):
        mark = " (best)" if r["match_id"] == best else ""
        rows.append(
            f"<tr><td>{html.escape(labels[r['match_id']])}{mark}</td><td>{r['units']:,}</td>"
            f"<td>{r['mean']:+.4f}</td><td>{r['se']:.4f}</td><td>{r['ci_low']:+.4f} .. {r['ci_high']:+.4f}</td>"
            f"<td>{(r['units_per_s'] or 0):,.0f}</td><td><code>{html.escape(r['match_id'])}</code></td></tr>"
        )
    images = "".join(f'<img src="{p.name}" alt="{p.stem}">' for p in plots)
    title = f"cardlab sweep {sweep['sweep_id']}"
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:60em}}td,th{{padding:.2em .8em;text-align:right}}
td:first-child{{text-align:left}}img{{max-width:100%;display:block;margin:1em 0}}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Game <b>{html.escape(sweep['game'])}</b>, bot <b>{html.escape(sweep['bot'])}</b>, {sweep['units']:,} units per
config, seed {sweep['seed']} (every config faced the same deals). MLflow parent run:
<code>{html.escape(str(sweep.get('mlflow_run') or '-'))}</code>.</p>
<table><tr><th>config</th><th>units</th><th>mean</th><th>se</th><th>95% CI</th><th>units/s</th><th>match</th></tr>
{''.join(rows)}</table>
{images}
</body></html>
"""
