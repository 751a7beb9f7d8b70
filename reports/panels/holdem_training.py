"""Hold'em Training: profit by starting hand, and how Bob answers raises."""

import numpy as np

from flows.stats import Z95, wilson
from reports import plots
from reports.html import esc, table
from reports.panels import Panel, ht_calibration, rows, shown

HIGH = "23456789TJQKA"
CAL_BINS = 8


def panels(con, data, out) -> list[Panel]:
    return [_starting_hands(con, data, out), _predicted_vs_observed(con, data, out), _calibration(con, data, out)]


def _predicted_vs_observed(con, data, out) -> Panel:
    best = data.best.match_id
    title = "Bob's observed call rate against the exploit model's predicted call probability"
    try:
        found = ht_calibration.replay(con, best)
    except Exception as exc:  # noqa: BLE001 - the report still renders, saying why this panel is empty
        return Panel(title, f"<p class=note>The replay that recovers the predictions failed: "
                            f"{esc(type(exc).__name__)}: {esc(exc)}.</p>")
    if found is None:
        return Panel(title, "<p class=note>The hand log does not keep the bot's predicted call probability, and "
                            "the best config's bot is not the exploit model whose prediction a replay can recover; "
                            "the observed call rates by raise size follow.</p>")
    if len(found.predicted) == 0:
        return Panel(title, f"<p class=note>No raise in the first {found.hands:,} hands matched its replay "
                            f"({found.mismatched:,} differed).</p>")
    edges = np.quantile(found.predicted, np.linspace(0, 1, CAL_BINS + 1))
    bins = np.clip(np.searchsorted(edges, found.predicted, side="right") - 1, 0, CAL_BINS - 1)
    xs, props, table_rows = [], [], []
    for b in range(CAL_BINS):
        mask = bins == b
        if not mask.any():
            continue
        p = wilson(int(found.called[mask].sum()), int(mask.sum()))
        xs.append(float(found.predicted[mask].mean()))
        props.append(p)
        table_rows.append([f"{edges[b]:.3f} .. {edges[b + 1]:.3f}", f"{p.n:,}", f"{xs[-1]:.3f}", f"{p.rate:.3f}",
                           f"{p.low:.3f} .. {p.high:.3f}"])
    path = plots.points(out / "ht_calibration.png",
                        series=[(data.labels[best], xs, [p.rate for p in props], [p.low for p in props],
                                 [p.high for p in props])],
                        xlabel="the exploit model's predicted call probability (mean in bin)",
                        ylabel="Bob's observed call rate (Wilson 95%)", title="Calibration of the call model",
                        diagonal=True)
    return Panel(title,
                 f"<p class=note>The hand log keeps Bob's answers, not the model's predictions: the first "
                 f"{found.hands:,} hands of the best config were replayed with the bot's model read at each raise "
                 f"({len(found.predicted):,} raises matched the log, {found.mismatched:,} did not). Bins hold "
                 f"equal numbers of raises; on the diagonal the model is calibrated.</p>"
                 + table(["predicted range", "raises", "mean predicted", "observed", "95% CI"], table_rows), (path,))


def _starting_hands(con, data, out) -> Panel:
    best = data.best.match_id
    found = rows(con, "SELECT hole_kind, high_card, count(*) AS n, avg(profit) AS mean, "
                      "stddev_samp(profit) / sqrt(count(*)) AS se FROM stg_ht_hands WHERE match_id = ? "
                      "GROUP BY ALL", [best])
    series = []
    for kind in ("pair", "suited", "offsuit"):
        part = sorted((r for r in found if r["hole_kind"] == kind and r["se"] is not None),
                      key=lambda r: HIGH.index(r["high_card"]))
        if part:
            series.append((kind, [HIGH.index(r["high_card"]) for r in part], [r["mean"] for r in part],
                           [r["mean"] - Z95 * r["se"] for r in part], [r["mean"] + Z95 * r["se"] for r in part]))
    path = plots.points(out / "ht_starting_hands.png", series=series, xticks=list(HIGH),
                        xlabel="Alice's higher hole card", ylabel="mean profit per hand (95% CI)",
                        title=f"Profit by starting hand: {data.labels[best]}")
    return Panel("Profit by starting hand",
                 f"<p>Where the best config wins and loses, by Alice's hole cards (pair, suited, offsuit, by the "
                 f"higher card). {esc(costliest(found))}</p>", (path,))


def costliest(found: list[dict], count: int = 3) -> str:
    """The classes that lost (negative mean profit per hand), worst first; only classes that cost are listed."""
    losing = sorted((r for r in found if r["mean"] < 0), key=lambda r: r["mean"])[:count]
    if not losing:
        return "No class lost on average."
    return "Costliest classes (mean profit per hand, below 0): " + ", ".join(
        f"{r['hole_kind']} {r['high_card']}-high {r['mean']:+.2f} ({r['n']:,} hands)" for r in losing) + "."


def _calibration(con, data, out) -> Panel:
    found = rows(con, "SELECT match_id, size_bucket, count(*) AS raises, "
                      "sum(CASE WHEN response = 'CALL' THEN 1 ELSE 0 END) AS calls "
                      "FROM stg_ht_actions WHERE action = 'RAISE' AND match_id IN (SELECT unnest(?::VARCHAR[])) "
                      "GROUP BY ALL ORDER BY size_bucket", [shown(data)])
    buckets = sorted({r["size_bucket"] for r in found})
    series, table_rows = [], []
    for match in shown(data):
        part = {r["size_bucket"]: wilson(int(r["calls"]), int(r["raises"])) for r in found if r["match_id"] == match}
        xs = [i for i, b in enumerate(buckets) if b in part]
        ps = [part[buckets[i]] for i in xs]
        if xs:
            series.append((data.labels[match], xs, [p.rate for p in ps], [p.low for p in ps], [p.high for p in ps]))
        table_rows += [[esc(data.labels[match]), esc(b[3:]), f"{p.n:,}", f"{p.rate:.3f}",
                        f"{p.low:.3f} .. {p.high:.3f}"] for b, p in sorted(part.items())]
    path = plots.points(out / "ht_bob_calls.png", series=series, xticks=[b[3:] for b in buckets],
                        xlabel="Alice's raise, as a share of the pot", ylabel="Bob's observed call rate (Wilson 95%)",
                        title="Bob's answers to raises")
    return Panel("Bob's call rate by raise size",
                 "<p class=note>Bob's observed call rate by the raise's size against the pot, with Wilson "
                 "intervals, for the configs compared.</p>"
                 + table(["config", "raise size", "raises", "call rate", "95% CI"], table_rows), (path,))
