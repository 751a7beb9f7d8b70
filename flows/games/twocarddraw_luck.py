"""TwoCardDraw's per-hand luck for decisions (engine/twocarddraw/luck.py): each hand's profit minus the exact
expected profit of the policy the bot played in it.

The hand log holds the cards, not the bot's policies; the match's row names what determines them (bot,
config, server options, seed), so the bot is replayed and its policy valued at every hand. A replay that
does not give the logged profits hand for hand is refused (its policies would not be the ones played).
Replays are kept between looks of a decided sweep, so each look plays only the new hands.
"""

import json
import threading
from collections import OrderedDict

import numpy as np

from bots.base import build_config
from bots.twocarddraw import BOTS
from engine.twocarddraw import judge
from engine.twocarddraw.luck import PolicyReplay, luck

KEEP = 16  # replays kept (a decided sweep's configs and its confirmation's two)
_replays: OrderedDict[tuple, PolicyReplay] = OrderedDict()
_lock = threading.Lock()


def _replay(bot: str, config: str, options: str | None, seed: int) -> PolicyReplay:
    key = (bot, config, options or "{}", int(seed))
    with _lock:
        if key in _replays:
            _replays.move_to_end(key)
            return _replays[key]
    if bot not in BOTS:
        raise ValueError(f"bot {bot!r} cannot be replayed for its policies; replayable: {', '.join(sorted(BOTS))}")
    spec = BOTS[bot]
    # options are stored as the match's k=v overrides: parsed as the match parsed them
    overrides = {k: str(v) for k, v in json.loads(options or "{}").items()}
    server = judge.load_server(build_config(judge.MatchOptions, overrides, owner="twocarddraw options"))
    replay = PolicyReplay(spec.make(spec.config_type(**json.loads(config))), server, seed=int(seed))
    with _lock:
        _replays[key] = replay
        while len(_replays) > KEEP:
            _replays.popitem(last=False)
    return replay


def unit_luck(query, match_id: str, units: int) -> np.ndarray:
    """Per unit 0..units-1 of the match (unit = hand index), profit minus the played policy's expected
    profit (zero mean given the bot's state before the hand). `query(sql, params)` reads the hand log."""
    row = query("SELECT bot, config, options, seed FROM matches WHERE match_id = ?", [match_id])
    if row.height != 1:
        raise ValueError(f"match {match_id}: not in the hand log")
    logged = query("SELECT payoff FROM units WHERE match_id = ? AND unit < ? ORDER BY unit",
                   [match_id, units])["payoff"].to_numpy().astype(float)
    if len(logged) != units:
        raise ValueError(f"match {match_id}: {len(logged)} hands logged for its first {units} units")
    replay = _replay(row["bot"][0], row["config"][0], row["options"][0], row["seed"][0])
    with _lock:  # one replay is extended by one thread at a time
        replay.advance(units)
        profits, values = replay.profits[:units].astype(float), replay.values[:units]
    differs = np.flatnonzero(profits != logged)
    if len(differs):
        raise ValueError(f"match {match_id}: the replayed bot's profit differs from the log at hand {differs[0]} "
                         f"({profits[differs[0]]:+g} against {logged[differs[0]]:+g}); its policies are unknown")
    return luck(logged, values)
