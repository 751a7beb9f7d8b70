"""TwoCardDraw: the learning curve (profit per block of 1,000 hands) and where the fit plot is."""

from flows.stats import Z95
from reports import plots
from reports.panels import Panel, rows, shown


def panels(con, data, out) -> list[Panel]:
    found = rows(con, "SELECT match_id, block, hands, mean_profit, se FROM mart_tcd_learning_curve "
                      "WHERE match_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY match_id, block", [shown(data)])
    series = []
    for match in shown(data):
        part = [r for r in found if r["match_id"] == match and r["se"] is not None]
        if part:
            series.append((data.labels[match], [1000 * r["block"] + r["hands"] / 2 for r in part],
                           [r["mean_profit"] for r in part], [r["mean_profit"] - Z95 * r["se"] for r in part],
                           [r["mean_profit"] + Z95 * r["se"] for r in part]))
    path = plots.points(out / "tcd_learning_curve.png", series=series, xlabel="hands played (block of 1,000)",
                        ylabel="mean profit per hand (95% CI)", title="Learning curve")
    return [Panel("Learning curve and opponent fit",
                  "<p class=note>A learning bot should climb from block to block. The fit quality of the opponent "
                  "model against the truth, from the prior alone (0 hands) on, is drawn by "
                  "<code>cardlab twocarddraw fit</code> (flows/opponents/twocarddraw_fit.py).</p>", (path,))]
