"""Hold'em Training: profit by starting hand, and how Bob answers raises."""

from flows.stats import Z95, wilson
from reports import plots
from reports.html import esc, table
from reports.panels import Panel, rows, shown

HIGH = "23456789TJQKA"


def panels(con, data, out) -> list[Panel]:
    return [_starting_hands(con, data, out), _calibration(con, data, out)]


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
    worst = sorted(found, key=lambda r: r["mean"])[:3]
    text = ", ".join(f"{r['hole_kind']} {r['high_card']}-high {r['mean']:+.2f} ({r['n']:,} hands)" for r in worst)
    return Panel("Profit by starting hand",
                 f"<p>Where the best config wins and loses, by Alice's hole cards (pair, suited, offsuit, by the "
                 f"higher card). Costliest classes: {esc(text)}.</p>", (path,))


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
    return Panel("Bob's call rate against the exploit model's prediction",
                 "<p class=note>The exploit model's predicted call probability is not in the hand log (the bot "
                 "does not log it and ht_action_rows has no column for it), so a calibration plot of predicted "
                 "against observed cannot be drawn from a sweep yet. Shown instead: Bob's observed call rate by "
                 "raise size, with Wilson intervals, for the configs compared.</p>"
                 + table(["config", "raise size", "raises", "call rate", "95% CI"], table_rows), (path,))
