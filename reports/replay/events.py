"""Any game's unit from the events the referee loop recorded (referee_events): each step is the
acting seat and its event as the engine returned it. The replay of a game that declares no page
of its own; a game's own page can say more, this one needs nothing from the game."""

import json

from reports.html import esc, table
from reports.panels import rows
from reports.replay import NoReplay, Replay


def has_events(con, match_id: str) -> bool:
    return bool(con.execute("SELECT 1 FROM referee_events WHERE match_id = ? LIMIT 1", [match_id]).fetchall())


def replay(con, match_id: str, unit: int) -> Replay:
    events = rows(con, "SELECT step, seat, event FROM referee_events WHERE match_id = ? AND unit = ? ORDER BY step",
                  [match_id, unit])
    if not events:
        raise NoReplay(f"match {match_id} has no recorded events for unit {unit}")
    payoff = con.execute("SELECT payoff FROM units WHERE match_id = ? AND unit = ?", [match_id, unit]).fetchall()
    faults = rows(con, "SELECT seat, kind, rule, reason FROM referee_faults WHERE match_id = ? AND unit = ?",
                  [match_id, unit])
    steps = []
    for e in events:
        fields = json.loads(e["event"])
        body = (table(["field", "value"], [[esc(k), f"<code>{esc(json.dumps(v))}</code>"] for k, v in fields.items()])
                if isinstance(fields, dict) else f"<p><code>{esc(e['event'])}</code></p>")
        steps.append(f"<h2>Step {e['step'] + 1}: seat {e['seat']}</h2>{body}")
    intro = (f"<p>Match <code>{esc(match_id)}</code>, unit {unit}: {len(events)} events"
             + (f", payoff {payoff[0][0]:+g}" if payoff else "") + ".</p>")
    if faults:
        intro += table(["seat", "fault", "rule", "reason"],
                       [[str(f["seat"]), esc(f["kind"]), esc(f["rule"]), esc(f["reason"])] for f in faults])
    return Replay(f"Unit {unit} of {match_id}", intro, tuple(steps))
