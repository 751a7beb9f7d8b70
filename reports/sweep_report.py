"""A sweep as an HTML page a user decides from: the recommendation first, the paired
differences to the baseline and to the runner-up with CIs, honest plots, the game's own
panels, and replays of the biggest wins and losses.

Reads the hand log through a read-only connection; "latest" and "best" are flows.sweep_record's."""

import contextlib
from dataclasses import dataclass
from pathlib import Path

from flows import games
from flows.settings import Paths
from flows.store import read_only
from reports import plots
from reports.html import esc, images, page, table
from reports.panels import panels_for
from reports.recommend import recommend
from reports.replay import NoReplay, write_replay
from reports.replay.events import has_events
from reports.sweep_data import SweepData, load, param_series

EXTREMES = 3  # replays of the biggest wins and of the biggest losses


@dataclass(frozen=True)
class Report:
    sweep_id: str
    page: Path
    plots: tuple[Path, ...]
    replays: tuple[Path, ...] = ()
    mlflow_run: str | None = None  # the sweep's MLflow parent run


def build_report(sweep_id: str | None = None, *, out_dir: Path | None = None, db: Path | None = None) -> Report:
    con = read_only(db)
    try:
        data = load(con, sweep_id)
        out = Path(out_dir) if out_dir else Paths.from_env().out / "reports" / data.sweep_id
        out.mkdir(parents=True, exist_ok=True)
        main = _main_plots(data, out)
        shape = _param_plots(data, out)
        panels = panels_for(con, data, out)
        replays = _replays(con, data, out / "replays")
    finally:
        con.close()
    page_path = out / "index.html"
    page_path.write_text(_html(data, main, panels, replays, shape))
    return Report(data.sweep_id, page_path, main + shape + tuple(p for panel in panels for p in panel.plots),
                  tuple(path for _, _, path in replays), data.row.get("mlflow_run"))


def _main_plots(data: SweepData, out: Path) -> tuple[Path, ...]:
    ranked = list(reversed(data.ranked))  # best at the top of the plot
    names = [data.labels[c.match_id] for c in ranked]
    means = plots.intervals(out / "profit_per_config.png", names=names, means=[c.mean for c in ranked],
                            lows=[c.ci_low for c in ranked], highs=[c.ci_high for c in ranked],
                            xlabel=f"mean {data.payoff_label} (95% CI)", title="Each config on its own",
                            marks=[i for i, c in enumerate(ranked) if c.match_id == data.baseline])
    ref = data.reference
    others = [c for c in ranked if c.match_id != ref and data.pair(c.match_id, ref)]
    pairs = [data.pair(c.match_id, ref) for c in others]
    diffs = plots.intervals(out / "paired_differences.png", names=[data.labels[c.match_id] for c in others],
                            means=[p.mean for p in pairs], lows=[p.low for p in pairs],
                            highs=[p.high for p in pairs], zero=True,
                            xlabel=f"minus {data.labels[ref]}, per {data.unit}, same deals (95% CI)",
                            title=f"Paired difference to the {'baseline' if data.baseline else 'best config'}")
    series = [(data.labels[c.match], c.units, c.cumulative, [-b for b in c.band], c.band) for c in data.curves]
    curves = plots.bands(out / "cumulative_difference.png", series=series, xlabel=f"{data.unit}s played (same deals)",
                         ylabel=f"cumulative payoff minus {data.labels[ref]}",
                         title="Cumulative difference (band: where a zero-mean difference would stay, 95%)")
    return means, diffs, curves


def _param_plots(data: SweepData, out: Path) -> tuple[Path, ...]:
    """Per numeric parameter: each config's mean, and its paired difference to the reference, against the
    parameter's value, with 95% intervals (lines join the grid's values: a peak between two shows)."""
    made = []
    ref = "baseline" if data.baseline else "best config"
    for key, series in param_series(data).items():
        base = [(x, m) for s in series for x, m, match in zip(s.x, s.mean, s.matches, strict=True)
                if match == data.baseline]
        made.append(plots.points(out / f"profit_vs_{key}.png",
                                 series=[(s.others or key, s.x, s.mean, s.low, s.high) for s in series],
                                 xlabel=key, ylabel=f"mean {data.payoff_label} (95% CI)", marks=base,
                                 title=f"Profit against {key}" + (" (ringed: the baseline)" if base else "")))
        made.append(plots.points(out / f"paired_vs_{key}.png", zero=True,
                                 series=[(s.others or key, s.x, s.diff, s.diff_low, s.diff_high) for s in series],
                                 xlabel=key, ylabel=f"minus the {ref} per {data.unit} (95% CI)",
                                 title=f"Paired difference to the {ref} ({data.labels[data.reference]}), same "
                                       f"deals, against {key}"))
    return tuple(made)


def _replays(con, data: SweepData, out: Path) -> list[tuple[str, float, Path]]:
    if games.get(data.game).replay is None and not has_events(con, data.best.match_id):
        return []
    best = data.best.match_id
    found = con.execute(f"(SELECT unit, payoff FROM units WHERE match_id = ? ORDER BY payoff DESC, unit "
                        f"LIMIT {EXTREMES})"
                        f" UNION ALL (SELECT unit, payoff FROM units WHERE match_id = ? ORDER BY payoff, unit "
                        f"LIMIT {EXTREMES})", [best, best]).fetchall()
    made = []
    for k, (unit, payoff) in enumerate(found):
        with contextlib.suppress(NoReplay):
            made.append(("win" if k < EXTREMES else "loss", payoff, write_replay(con, best, unit, out)))
    return made


def _config_rows(data: SweepData) -> list[list[str]]:
    ref, best, second = data.reference, data.best.match_id, data.runner_up.match_id if data.runner_up else None
    out = []
    for c in data.ranked:
        vs = []
        for other in (ref, second if c.match_id == best else best):
            p = data.pair(c.match_id, other) if other and other != c.match_id else None
            vs.append("" if p is None else f"{p.mean:+.4f} ({p.low:+.4f} .. {p.high:+.4f})")
        tag = " <b>best</b>" if c.match_id == best else ""
        out.append([esc(data.labels[c.match_id]) + tag, f"{c.units:,}", f"{c.mean:+.4f}",
                    f"{c.ci_low:+.4f} .. {c.ci_high:+.4f}", vs[0], vs[1], f"<code>{esc(c.match_id)}</code>"])
    return out


def _failed_html(data: SweepData) -> str:
    """The configs that failed (a program that crashed or broke the protocol): not ranked, with why."""
    failed = data.failed()
    if not failed:
        return ""
    rows = [[esc(data.labels[c.match_id]), f"{c.units:,} of {c.planned:,}", esc(c.failure),
             f"<code>{esc(c.match_id)}</code>"] for c in failed]
    return (f'<h2 id="failed">Failed configs ({len(failed)}): not ranked</h2>'
            + table(["config", f"{data.unit}s played", "reason", "match"], rows))


def _shape_html(data: SweepData, shape) -> str:
    if not shape:
        return ""
    keys = ", ".join(dict.fromkeys(p.stem.split("_vs_", 1)[1] for p in shape))
    return (f'<h2 id="shape">Profit against each parameter ({esc(keys)})</h2><p class=note>Each config\'s mean and '
            f"its paired difference to the {'baseline' if data.baseline else 'best config'} against the parameter's "
            "value, 95% intervals; the lines join the grid's values, so a peak between two of them shows as a bend. "
            "Where other parameters vary too, each setting of them is its own line. Failed configs are left out."
            "</p>" + images(shape))


def _html(data: SweepData, main, panels, replays, shape=()) -> str:
    rec = recommend(data)
    row = data.row
    ref_name = "baseline" if data.baseline else "best"
    verdict = (f'<div class="verdict{"" if rec.sure else " unsure"}" id="recommendation">{esc(rec.headline)}</div>'
               + "<ul>" + "".join(f"<li>{esc(d)}</li>" for d in rec.details) + "</ul>")
    header = ["config", f"{data.unit}s", "mean", "95% CI", f"vs {ref_name} (paired, 95% CI)",
              "vs best (paired; best: vs runner-up)", "match"]
    body = [verdict,
            f"<p>Game <b>{esc(data.game)}</b>, bot <b>{esc(row['bot'])}</b>, {row['units']:,} {data.unit}s per "
            f"config, seed {row['seed']}: every config met the same deals, so differences are paired unit by unit. "
            f"Ranked by the lower 95% bound. MLflow parent run: <code>{esc(row.get('mlflow_run') or '-')}</code>.</p>",
            table(header, _config_rows(data)),
            _failed_html(data),
            images(main),
            _shape_html(data, shape)]
    for panel in panels:
        body.append(f"<h2>{esc(panel.title)}</h2>{panel.html}{images(panel.plots)}")
    if replays:
        links = "".join(f'<li><a href="replays/{esc(p.name)}">{kind} {payoff:+g}: {esc(p.stem)}</a></li>'
                        for kind, payoff, p in replays)
        body.append(f"<h2>Biggest wins and losses of the best config</h2><ul>{links}</ul>")
    return page(f"cardlab sweep {data.sweep_id}", "\n".join(body))
