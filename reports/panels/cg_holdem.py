"""CodinGame Hold'em: finishing positions, and style (VPIP, PFR, aggression) per bot."""

from flows.stats import Z95
from reports import plots
from reports.html import esc, table
from reports.panels import Panel, rows, shown


def panels(con, data, out) -> list[Panel]:
    return [_positions(con, data, out), _style(con, data)]


def _positions(con, data, out) -> Panel:
    ids = [c.match_id for c in data.ranked]
    found = rows(con, "SELECT match_id, players, primary_position AS position, count(*) AS games FROM cgh_games "
                      "WHERE match_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL", [ids])
    players = max((r["players"] for r in found), default=2)
    names, shares, table_rows = [], [], []
    for match in ids:
        part = {r["position"]: r["games"] for r in found if r["match_id"] == match}
        total = sum(part.values())
        if not total:
            continue
        names.append(data.labels[match])
        shares.append([part.get(p, 0) / total for p in range(1, players + 1)])
        mean = sum(p * g for p, g in part.items()) / total
        var = sum(g * (p - mean) ** 2 for p, g in part.items()) / max(1, total - 1)
        half = Z95 * (var / total) ** 0.5
        table_rows.append([esc(data.labels[match]), f"{total:,}", f"{mean:.3f}",
                           f"{mean - half:.3f} .. {mean + half:.3f}"]
                          + [f"{s:.1%}" for s in shares[-1]])
    path = plots.stacked_shares(out / "cgh_positions.png", names=names, shares=shares,
                                categories=[f"{p}." for p in range(1, players + 1)],
                                xlabel="share of games by finishing position", title="Finishing positions")
    return Panel("Finishing positions",
                 table(["config", "games", "mean position", "95% CI"] + [f"{p}." for p in range(1, players + 1)],
                       table_rows), (path,))


def _style(con, data) -> Panel:
    found = rows(con, """
        WITH per_hand AS (
            SELECT match_id, unit, hand, seat, any_value(bot) AS bot,
                   max(CASE WHEN street = 0 AND kind IN ('CALL', 'BET', 'ALL-IN') THEN 1 ELSE 0 END) AS vpip,
                   max(CASE WHEN street = 0 AND kind IN ('BET', 'ALL-IN') THEN 1 ELSE 0 END) AS pfr,
                   sum(CASE WHEN kind IN ('BET', 'ALL-IN') THEN 1 ELSE 0 END) AS aggressive,
                   sum(CASE WHEN kind = 'CALL' THEN 1 ELSE 0 END) AS calls
            FROM stg_cgh_actions WHERE match_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL)
        SELECT match_id, bot, count(*) AS hands, avg(vpip) AS vpip, avg(pfr) AS pfr,
               sum(aggressive) / greatest(sum(calls), 1) AS aggression
        FROM per_hand GROUP BY ALL ORDER BY match_id, bot""", [shown(data)])
    table_rows = [[esc(data.labels[r["match_id"]]), esc(r["bot"]), f"{r['hands']:,}", f"{r['vpip']:.1%}",
                   f"{r['pfr']:.1%}", f"{r['aggression']:.2f}"] for r in found]
    return Panel("Style per bot (VPIP, PFR, aggression)",
                 "<p class=note>Hands in which the seat acted. VPIP: put chips in voluntarily preflop; PFR: bet or "
                 "raised preflop; aggression: bets and raises per call.</p>"
                 + table(["config", "bot", "hands", "VPIP", "PFR", "aggression"], table_rows))
