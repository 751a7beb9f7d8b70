"""Exact evaluation: per-hand policy values, checked against a brute-force tree walk, the best
response, the hand a policy was really played in, and Monte Carlo play."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.simple import SampleBot
from bots.twocarddraw.tracker import PolicyBot, policy_table
from engine.twocarddraw import best_response as B
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R
from tests.twocarddraw.reference import best_response_value


def test_the_best_response_policy_is_worth_exactly_br_value(generated_12):
    summary = X.evaluate(lambda: BOTS["oracle"].make(), generated_12, seeds=[1, 2], hands=300)
    br = B.best_response(generated_12).value
    assert summary.br_value == br
    assert np.allclose(np.concatenate([r.values for r in summary.runs]), br, rtol=0, atol=1e-12)
    assert summary.ratio == pytest.approx(1.0, abs=1e-12)


def test_a_fixed_bot_is_valued_as_the_brute_force_walk_values_its_table(generated_12):
    run = X.exact_run(SampleBot(), generated_12, seed=3, hands=50)
    table = policy_table(SampleBot())
    assert run.values[0] < 0 and np.all(run.values == run.values[0])
    assert run.values[0] == pytest.approx(best_response_value(generated_12.probs, generated_12.bets, policy=table),
                                          abs=1e-12)


class Alternating(PolicyBot):
    """Plays table A on even hands and B on odd ones: switches whenever a hand is over, including
    hands that ended in a fold (learned only at the next new_hand)."""

    def __init__(self, a, b):
        super().__init__()
        self.tables, self.seen = (a, b), 0
        self.policy = a

    def on_hand_over(self, observation):
        self.seen += 1
        self.policy = self.tables[self.seen % 2]


def test_each_hand_is_valued_with_the_policy_played_in_it(generated_12):
    br = B.best_response(generated_12)
    sample = policy_table(SampleBot())
    run = X.exact_run(Alternating(br.policy, sample), generated_12, seed=4, hands=400)
    expected = np.where(np.arange(400) % 2 == 0, br.value, B.policy_value(generated_12, sample))
    assert np.allclose(run.values, expected, rtol=0, atol=1e-12)


def test_a_learners_exact_values_are_what_its_dealt_profits_average(generated_12):
    """Given the past, hand n's profit has expectation values[n]: the differences average to zero."""
    runs = [X.exact_run(BOTS["learner"].make(), generated_12, seed=s, hands=1_500) for s in range(4)]
    diff = np.concatenate([r.profits - r.values for r in runs])
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    assert abs(diff.mean()) < 4 * se, (diff.mean(), se)
    assert all(r.status == "ok" and r.bot_cpu_seconds < R.CPU_LIMIT_SECONDS for r in runs)
    assert len({round(v, 12) for v in runs[0].values}) > 100  # the learner's policy does change


def test_a_bot_without_a_policy_table_is_refused_in_one_line(generated_12):
    class Opaque:
        pass

    with pytest.raises(X.NoPolicyTable, match="Opaque exposes no current_policy"):
        X.exact_run(Opaque(), generated_12, seed=1, hands=10)
