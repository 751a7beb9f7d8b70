"""The exploit model's predicted call probability, recovered by replaying the logged match.

The hand log keeps Bob's answers but not what the bot predicted, so the best config's first
hands are played again in this process (the same seed deals the same hands, and the bot's
own streams come from its config's seed) with the bot wrapped to read, at every raise, the
call probability its model assigns: its posterior over Bob's holdings times each holding's
call chance. Replayed raises are checked against the logged ones; only those that agree
count, and the panel says how many did not."""

import json
from dataclasses import dataclass

import numpy as np

from engine.holdem_training import judge
from engine.holdem_training.rules import RAISE
from flows import games

EXPLOIT_BOTS = ("exploit",)
MAX_HANDS = 2000  # replayed hands: a few seconds, some thousand raises


@dataclass(frozen=True)
class Calibration:
    hands: int
    predicted: np.ndarray  # per raise that matched the log
    called: np.ndarray  # 1 if Bob called it
    mismatched: int  # raises whose replay differs from the log


class _Recorder:
    """The bot as the judge sees it, noting its model's call probability for each raise."""

    def __init__(self, bot):
        self.bot = bot
        self.raises: dict[tuple[int, int], tuple[int, float]] = {}

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def act(self, view, rate):
        action = self.bot.act(view, rate)
        pending = self.bot.pending_raise
        if action.kind == RAISE and pending is not None:
            bob_w, bob_d, active, pot, x = pending
            weights = self.bot.posterior[active]
            probs = self.bot.call_chances(view.round, bob_w, bob_d, active, pot, x)
            self.raises[(view.hand, view.round)] = (x, float((weights * probs[active]).sum() / weights.sum()))
        return action


def _config(spec, stored: dict):
    pairs = {k: "/".join(map(str, v)) if isinstance(v, list) else str(v) for k, v in stored.items()}
    return spec.config_from(pairs)


def replay(con, match_id: str) -> Calibration | None:
    """None when the match's bot is not the exploit model."""
    game, bot, config, options, seed, units = con.execute(
        "SELECT game, bot, config, options, seed, units FROM matches WHERE match_id = ?", [match_id]).fetchone()
    if game != "holdem-training" or bot not in EXPLOIT_BOTS:
        return None
    adapter = games.get(game)
    spec = adapter.spec(bot)
    opts = adapter.options({k: str(v) for k, v in json.loads(options or "{}").items()})
    hands = min(int(units), MAX_HANDS)
    recorder = _Recorder(spec.make(_config(spec, json.loads(config))))
    judge.play_chunk(recorder, seed=int(seed), first=0, count=hands, rate_budget=opts.rate_budget_per_hand * hands,
                     bob_rollouts=opts.bob_rollouts)
    logged = {(h, r): (a, resp) for h, r, a, resp in con.execute(
        "SELECT hand, round, amount, response FROM ht_action_rows WHERE match_id = ? AND action = 'RAISE' "
        "AND hand <= ?", [match_id, hands]).fetchall()}
    predicted, called, mismatched = [], [], 0
    for key in set(logged) | set(recorder.raises):
        mine, theirs = recorder.raises.get(key), logged.get(key)
        if mine is None or theirs is None or mine[0] != theirs[0]:
            mismatched += 1
            continue
        predicted.append(mine[1])
        called.append(1 if theirs[1] == "CALL" else 0)
    return Calibration(hands, np.array(predicted), np.array(called), mismatched)
