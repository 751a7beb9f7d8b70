"""Splendor: the candidate's points by round, and its win share with exact binomial intervals."""

from flows.stats import Z95, exact_binomial
from reports import plots
from reports.html import esc, table
from reports.panels import Panel, rows, shown


def panels(con, data, out) -> list[Panel]:
    return [_wins(con, data, out), _points(con, data, out)]


def _wins(con, data, out) -> Panel:
    ids = [c.match_id for c in data.ranked]
    found = {r["match_id"]: r for r in rows(
        con, "SELECT match_id, count(*) AS games, sum(CASE WHEN cand_share = 1 THEN 1 ELSE 0 END) AS outright, "
             "sum(CASE WHEN cand_share > 0 AND cand_share < 1 THEN 1 ELSE 0 END) AS shared, "
             "avg(cand_share) AS share FROM spl_games WHERE match_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL",
        [ids])}
    names, props, table_rows = [], [], []
    for match in ids:
        r = found.get(match)
        if r is None:
            continue
        p = exact_binomial(int(r["outright"]), int(r["games"]))
        names.append(data.labels[match])
        props.append(p)
        table_rows.append([esc(data.labels[match]), f"{p.n:,}", f"{p.k:,}", f"{p.rate:.3f}",
                           f"{p.low:.3f} .. {p.high:.3f}", f"{int(r['shared']):,}", f"{r['share']:.3f}"])
    path = plots.intervals(out / "spl_wins.png", names=names, means=[p.rate for p in props],
                           lows=[p.low for p in props], highs=[p.high for p in props],
                           xlabel="outright win rate (exact 95% binomial interval)", title="Wins per config")
    return Panel("Win share", "<p class=note>Outright wins with Clopper-Pearson intervals; shared wins (several "
                 "players tied at the top) are counted apart, and the mean share counts them as 1/#winners.</p>"
                 + table(["config", "games", "outright wins", "rate", "exact 95% CI", "shared wins", "mean share"],
                         table_rows), (path,))


def _points(con, data, out) -> Panel:
    found = rows(con, "SELECT match_id, round, avg(points) AS mean, stddev_samp(points) / sqrt(count(*)) AS se "
                      "FROM spl_turns WHERE is_candidate AND match_id IN (SELECT unnest(?::VARCHAR[])) "
                      "GROUP BY ALL ORDER BY match_id, round", [shown(data)])
    series = []
    for match in shown(data):
        part = [r for r in found if r["match_id"] == match and r["se"] is not None]
        if part:
            series.append((data.labels[match], [r["round"] for r in part], [r["mean"] for r in part],
                           [r["mean"] - Z95 * r["se"] for r in part], [r["mean"] + Z95 * r["se"] for r in part]))
    path = plots.bands(out / "spl_points_by_round.png", series=series, xlabel="round",
                       ylabel="candidate's points after its turn (mean, 95% band)", title="Points by round",
                       zero=False)
    return Panel("Points by round", "<p class=note>Later rounds average only the games still running.</p>", (path,))
