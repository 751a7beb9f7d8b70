"""The mixture's prior strength levels (the evidence weighs how far to trust each bank's mean) and
banks whose members span the generator's readings."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.prior import load_bank
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build
BETS = R.BetSizes(2, 3)


def _bot(**settings):
    bot = BOTS["mixture"].make(BOTS["mixture"].config_from({**SMALL, **settings}))
    bot.init(BETS.bet1, BETS.bet2)
    return bot


def test_each_bucket_gets_every_strength_level_and_keeps_its_prior_weight():
    one, three = _bot(), _bot(strength_levels="3", strength_ratio="4")
    assert three.alpha.shape == (6, R.N_ROWS, 3)
    for b in range(2):
        assert np.allclose(three.alpha[3 * b + 1], one.alpha[b])  # the middle level is the single-level prior
        assert np.allclose(three.alpha[3 * b], one.alpha[b] / 4)
        assert np.allclose(three.alpha[3 * b + 2], one.alpha[b] * 4)
        assert np.exp(three.log_prior[3 * b: 3 * b + 3]).sum() == pytest.approx(np.exp(one.log_prior[b]))


def test_the_evidence_trusts_the_banks_mean_more_when_the_counts_follow_it_and_less_when_they_do_not():
    bot = _bot(buckets="1", strength_levels="3", strength_ratio="4")
    mean = bot.alpha[0] / bot.alpha_sum[0][:, None]
    rows = np.flatnonzero(R.allowed_actions().sum(axis=1) > 1)[:300]

    def weights(counts_rows):
        bot.counts[:] = 0.0
        bot.counts[rows] = counts_rows
        bot.counts_sum[:] = bot.counts.sum(axis=1)
        bot._reweigh()
        return bot.weights.copy()

    follows = weights(40.0 * mean[rows])
    assert follows.argmax() == 2, follows  # counts in the mean's proportions: the strongest prior fits best
    least = np.where(R.allowed_actions()[rows] > 0, mean[rows], np.inf).argmin(axis=1)
    against = weights(40.0 * np.eye(3)[least])  # every count on the action the mean thinks least likely
    assert against.argmax() == 0, against


def test_a_banks_members_cycle_over_the_readings_given(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))
    readings = (B.Reading(), B.Reading(proposal="perturb"))
    bank = load_bank(BETS, count=2, seed=11, steps=[300, 500], tag="t", readings=readings)
    members = [B.generate(BETS, steps=300, seed=11).strategy.probs,
               B.generate(BETS, steps=500, seed=12, reading=readings[1]).strategy.probs]
    assert np.allclose(bank.mean, np.mean(members, axis=0))
    default = load_bank(BETS, count=2, seed=11, steps=[300, 500], tag="u")
    assert not np.allclose(default.mean, bank.mean)  # the reading changed the second member
