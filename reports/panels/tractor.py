"""Tractor: the defenders' points and the primary team's level changes, as declarer and defender."""

from flows.stats import Z95
from reports import plots
from reports.html import esc, table
from reports.panels import Panel, rows


def panels(con, data, out) -> list[Panel]:
    ids = [c.match_id for c in data.ranked]
    found = rows(con, """
        SELECT match_id, primary_declares, count(*) AS rounds,
               avg(ft_points) AS points, stddev_samp(ft_points) / sqrt(count(*)) AS points_se,
               avg(lv) AS level, stddev_samp(lv) / sqrt(count(*)) AS level_se
        FROM (SELECT *, CASE WHEN primary_team = 1 THEN (new_cr1 - cr1) - (new_cr2 - cr2)
                             ELSE (new_cr2 - cr2) - (new_cr1 - cr1) END AS lv
              FROM stg_tr_rounds WHERE match_id IN (SELECT unnest(?::VARCHAR[])))
        GROUP BY ALL ORDER BY match_id, primary_declares DESC""", [ids])
    names, means, lows, highs, table_rows = [], [], [], [], []
    for r in found:
        role = "declaring" if r["primary_declares"] else "defending"
        se = r["level_se"] or 0.0
        names.append(f"{data.labels[r['match_id']]}, {role}")
        means.append(r["level"])
        lows.append(r["level"] - Z95 * se)
        highs.append(r["level"] + Z95 * se)
        half = Z95 * (r["points_se"] or 0.0)
        table_rows.append([esc(data.labels[r["match_id"]]), role, f"{r['rounds']:,}", f"{r['points']:.1f}",
                           f"{r['points'] - half:.1f} .. {r['points'] + half:.1f}", f"{r['level']:+.3f}",
                           f"{lows[-1]:+.3f} .. {highs[-1]:+.3f}"])
    path = plots.intervals(out / "tr_levels.png", names=names, means=means, lows=lows, highs=highs, zero=True,
                           xlabel="levels gained minus levels the other team gained, per round (95% CI)",
                           title="Level changes")
    return [Panel("Points and level changes",
                  "<p class=note>Points: the defenders' points (hidden cards included). Level change: the primary "
                  "team's levels gained in the round minus the other team's.</p>"
                  + table(["config", "role", "rounds", "defenders' points", "95% CI", "level change", "95% CI"],
                          table_rows), (path,))]
