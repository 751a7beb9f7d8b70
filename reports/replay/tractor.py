"""One Tractor round trick by trick: who led, the four plays, the winner and the points."""

from reports.html import esc, table
from reports.panels import rows
from reports.replay import NoReplay, Replay

RANKS = "23456789TJQKA"


def replay(con, match_id: str, unit: int) -> Replay:
    found = rows(con, "SELECT * FROM stg_tr_rounds WHERE match_id = ? AND round = ?", [match_id, unit])
    if not found:
        raise NoReplay(f"match {match_id} has no Tractor round for unit {unit}")
    r = found[0]
    tricks = rows(con, "SELECT * FROM stg_tr_tricks WHERE match_id = ? AND round = ? ORDER BY trick",
                  [match_id, unit])
    steps, taken = [], {1: 0, 2: 0}
    for t in tricks:
        taken[t["winner_team"]] += t["points"]
        plays = [[str(k + 1), esc(t["leader"]) if k == 0 else "", f"<code>{esc(t[f'play{k + 1}'])}</code>"]
                 for k in range(4)]
        steps.append(f"<h2>Trick {t['trick']}</h2><p>{esc(t['leader'])} leads {esc(t['structure'])}; "
                     f"<b>{esc(t['winner'])}</b> wins {t['points']} points. Points so far: team 1 (Alice+Charles) "
                     f"{taken[1]}, team 2 (Bob+David) {taken[2]}.</p>" + table(["play", "leader", "cards"], plays))
    level = lambda cr: RANKS[cr] if 0 <= cr < 13 else "won"  # noqa: E731
    intro = (f"<p>Match <code>{esc(match_id)}</code>, round {unit}: dealer {esc(r['dealer'])}, main suit "
             f"{esc(r['main'])}, levels {level(r['cr1'])} / {level(r['cr2'])} &rarr; "
             f"{level(r['new_cr1'])} / {level(r['new_cr2'])}. Defenders' points {r['ft_points']} (tricks "
             f"{r['trick_points']}, hidden cards {r['hidden_points']}); the declarers {esc(r['result'])}. "
             f"The primary bot's team: {r['primary_team']}, payoff {r['payoff']:+d}.</p>")
    return Replay(f"Tractor round {unit} of {match_id}", intro, tuple(steps))
