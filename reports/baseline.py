"""Which config of a sweep is the baseline (what the user has now).

The one place reports ask: the sweep's `baseline_match` column once the hand log has it,
else the config equal to the spec's baseline overrides (the bot's defaults when none)."""

import json

import duckdb

from bots.base import config_as_dict
from flows import games


def baseline_match(con, sweep_id: str) -> str | None:
    try:
        found = con.execute("SELECT baseline_match FROM sweeps WHERE sweep_id = ?", [sweep_id]).fetchall()
        if found and found[0][0]:
            return found[0][0]
    except duckdb.BinderException:  # a hand log from before the column
        pass
    game, bot, spec = con.execute("SELECT game, bot, spec FROM sweeps WHERE sweep_id = ?", [sweep_id]).fetchone()
    doc = json.loads(spec) if spec else {}
    if doc.get("program"):
        return None  # a program's parameters have no defaults to compare with
    try:
        target = config_as_dict(games.get(game).spec(bot).config_from(dict(doc.get("baseline") or ())))
    except (KeyError, ValueError, games.UnknownGame):
        return None
    for match_id, config in con.execute("SELECT match_id, config FROM matches WHERE sweep_id = ? ORDER BY match_id",
                                        [sweep_id]).fetchall():
        if json.loads(config) == json.loads(json.dumps(target, sort_keys=True)):
            return match_id
    return None
