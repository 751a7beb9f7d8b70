"""The mixture's evidence gate (issue 31): a raise or bet of the best response to the posterior mean is
played only where enough posterior draws' best responses make it too; elsewhere the passive action."""

import numpy as np

from bots.twocarddraw import BOTS
from bots.twocarddraw.mixture import GATED_ROWS
from bots.twocarddraw.robust import load_equilibrium
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from tests.twocarddraw.test_mixture_hedge import BETS, SMALL, _trained  # the hedge's server and training run


def test_the_gate_turns_only_doubtful_raises_into_calls():
    share = 0.75
    bot = _trained({"gate_draws": "6", "gate_share": str(share), "gate_every": "10", "gate_top": "0",
                    "gate_default": "passive"}, 200)
    played = bot.current_policy().copy()
    mean_br = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    B.Evaluator(BETS).solve(np.ascontiguousarray(bot.means), policy=mean_br)
    changed = played != mean_br
    assert changed.any()  # after 200 hands some raise of the mean's best response is still in doubt
    # every change is a raise (or bet) turned into a call (or check), in a gated row whose share is short
    assert np.all(mean_br[changed] == R.RAISE) and np.all(played[changed] == R.CALL)
    assert np.all(GATED_ROWS[changed]) and np.all(bot.raise_share[changed] < share)
    # and every raise the mean's best response makes with enough support is played
    kept = (mean_br == R.RAISE) & (bot.raise_share >= share)
    assert np.all(played[kept] == R.RAISE)
    assert np.all(bot.raise_share[~GATED_ROWS] == 1.0)  # draws and round 1's opening bets are never gated


def test_with_no_share_required_the_gate_changes_nothing():
    plain = _trained({"gate_draws": "0"}, 60)
    gated = _trained({"gate_draws": "2", "gate_share": "0", "gate_top": "0"}, 60)
    assert np.array_equal(plain.current_policy(), gated.current_policy())


def test_the_gate_waits_for_evidence_that_the_server_is_at_the_sharp_end():
    """gate_top: while the sharpest step bucket holds less of the posterior, the bot plays the best response
    to the posterior mean; once it holds enough, doubtful raises become calls."""
    spec = BOTS["mixture"]
    bot = spec.make(spec.config_from({**SMALL, "gate_draws": "4", "gate_share": "1", "gate_top": "0.9",
                                      "gate_default": "passive"}))
    bot.init(BETS.bet1, BETS.bet2)
    played = {}
    for name, top_weight in (("spanned", 0.8), ("sharp", 1.0)):
        bot.weights = np.where(bot.top_bucket, top_weight, 1.0 - top_weight)
        bot.means = bot._posterior_means()
        bot.resolve()
        played[name] = bot.current_policy().copy()
        mean_br = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        B.Evaluator(BETS).solve(np.ascontiguousarray(bot.means), policy=mean_br)
        played[name + " mean"] = mean_br
    assert np.array_equal(played["spanned"], played["spanned mean"])
    changed = played["sharp"] != played["sharp mean"]
    assert changed.any() and np.all(played["sharp"][changed] == R.CALL)
    assert np.all(played["sharp mean"][changed] == R.RAISE)


def test_the_safe_default_replaces_a_doubtful_raise_by_the_safe_strategys_action():
    """gate_default=safe: a raise in doubt plays the safe (CFR+) strategy's most likely action in its row
    instead of call/check; every other row plays the posterior mean's best response."""
    settings = {"gate_draws": "6", "gate_share": "0.75", "gate_every": "10", "gate_top": "0"}
    safe = _trained({**settings, "gate_default": "safe"}, 200)
    mean_br = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    B.Evaluator(BETS).solve(np.ascontiguousarray(safe.means), policy=mean_br)
    doubtful = (mean_br == R.RAISE) & (safe.raise_share < 0.75)
    played = safe.current_policy()
    assert np.any(played[doubtful] != R.CALL)  # somewhere the safe strategy folds (or still raises) instead
    assert np.array_equal(played[~doubtful], mean_br[~doubtful])
    table = load_equilibrium(BETS).player
    assert np.all(table[doubtful, played[doubtful]] == table[doubtful].max(axis=1))
    assert _trained({**settings, "gate_default": "passive"}, 30).gate_fallback is None  # call/check needs no table
