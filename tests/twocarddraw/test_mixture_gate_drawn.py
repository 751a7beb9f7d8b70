"""gate_default=drawn (issue 31): the evidence gate's doubtful round-2 bets play the posterior mean's bet or
the safe action, whichever the gate's posterior draws value higher on average; doubtful raises play safe."""

import numpy as np

from bots.twocarddraw.mixture import BET_ROWS, GATED_ROWS
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from tests.twocarddraw.test_mixture_hedge import BETS, _trained

SETTINGS = {"gate_draws": "6", "gate_share": "0.75", "gate_every": "10", "gate_top": "0"}


def _doubts(bot):
    """The posterior mean's best response, its doubtful rows, and the safe strategy's actions."""
    mean_br = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    B.Evaluator(BETS).solve(np.ascontiguousarray(bot.means), policy=mean_br)
    return mean_br, (mean_br == R.RAISE) & (bot.raise_share < 0.75), bot.gate_fallback


def test_drawn_keeps_the_doubtful_bets_only_if_the_draws_value_them_higher():
    bot = _trained({**SETTINGS, "gate_default": "drawn"}, 200)  # 200 hands: the draws were renewed on this policy
    mean_br, doubtful, safe = _doubts(bot)
    bets, raises = doubtful & BET_ROWS, doubtful & ~BET_ROWS
    assert bets.any() and raises.any() and np.all(GATED_ROWS[doubtful])
    assert len(bot.gate_servers) == 6
    played = bot.current_policy()
    assert np.array_equal(played[raises], safe[raises])  # gate_weigh=bets: the raises in doubt play safe
    assert np.array_equal(played[~doubtful], mean_br[~doubtful])
    # the bets in doubt: all the mean's or all the safe strategy's, whichever is worth more over the draws
    ev = B.Evaluator(BETS)
    values = {}
    for kept in (False, True):
        policy = np.where(raises | (bets & (not kept)), safe, mean_br)
        values[kept] = np.mean([ev.follow(server, policy) for server in bot.gate_servers])
    kept = values[True] > values[False] + 1e-12
    assert np.array_equal(played[bets], (mean_br if kept else safe)[bets])


def test_drawn_weighing_both_may_keep_the_raises_too():
    bot = _trained({**SETTINGS, "gate_default": "drawn", "gate_weigh": "both"}, 200)
    mean_br, doubtful, safe = _doubts(bot)
    played = bot.current_policy()
    ev = B.Evaluator(BETS)
    best = max(np.mean([ev.follow(server, np.where(doubtful & ~np.where(BET_ROWS, b, r), safe, mean_br))
                        for server in bot.gate_servers]) for b in (False, True) for r in (False, True))
    assert np.mean([ev.follow(server, played) for server in bot.gate_servers]) >= best - 1e-12


def test_gate_bet_share_sets_the_agreement_round_2_bets_need_apart_from_raises():
    settings = {**SETTINGS, "gate_default": "passive", "gate_bet_share": "0"}
    bot = _trained(settings, 200)
    mean_br, _, _ = _doubts(bot)
    played = bot.current_policy()
    weak = (mean_br == R.RAISE) & (bot.raise_share < 0.75)
    assert np.any(weak & BET_ROWS) and np.any(weak & ~BET_ROWS)
    assert np.array_equal(played[BET_ROWS], mean_br[BET_ROWS])  # no share needed: every bet is played
    assert np.all(played[weak & ~BET_ROWS] == R.CALL)  # the raises still need gate_share
