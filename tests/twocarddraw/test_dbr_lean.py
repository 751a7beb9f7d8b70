"""dbr_lean (issue 31): the response may also play while it gives up at least dbr_lean of the mixture's modelled
edge over the safe strategy, that edge resting on rows the data do not pin down (servers read as a milder bucket)."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from engine.twocarddraw import equilibrium as E
from tests.twocarddraw.test_dbr_open import _bot  # its small banks, no gate draws, one CFR+ iteration per solve


def test_on_by_default_and_off_never_measured():
    assert BOTS["dbr"].config_from({}).dbr_lean == 0.2
    bot = _bot(dbr_every="1", dbr_lean="0")
    bot.hands_seen = 1
    bot.resolve()
    assert bot.lean == 0.0 and bot.solver.iterations == 0  # shut as before: no solve, no share


def test_the_share_is_one_for_the_safe_strategy_and_zero_for_the_best_response_to_the_mean():
    bot = _bot()
    bot.response = bot.safe_player
    assert bot.lean_share() == pytest.approx(1.0, abs=1e-9)
    policy = np.zeros_like(bot.policy)
    bot.evaluator.solve(np.ascontiguousarray(bot.means), policy=policy)
    bot.response = E.one_hot(policy)
    assert bot.lean_share() == pytest.approx(0.0, abs=1e-9)


def test_a_re_solve_measures_the_share_and_it_opens_the_response_at_the_threshold():
    """At a dbr_every-th hand the response is solved while shut and its share measured (one CFR+ iteration from
    uniform regrets: far from the best response to the mean, so it gives up more than the whole edge); the response
    plays from a share of dbr_lean up, and the sharpest-bucket test is left as it was."""
    bot = _bot(dbr_lean="0.5", dbr_every="1")
    assert not bot.responding()
    bot.hands_seen = 1
    bot.resolve()
    assert bot.solver.iterations > 0 and bot.lean == pytest.approx(bot.lean_share(), rel=1e-12) and bot.lean > 0.5
    assert bot.responding()
    bot.lean = 0.49
    assert not bot.responding()
    bot.lean = 0.5
    assert bot.responding()
