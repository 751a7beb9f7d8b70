"""bank_readings=both (issue 31): the prior holds the default readings' banks and the mixed readings' banks, each
step bucket once per family with half the prior mass, so the evidence decides per server which family fits."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from engine.twocarddraw import rules as R

BETS = R.BetSizes(1, 2)
SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build


def _bot(readings: str, **settings: str):
    spec = BOTS["dbr"]
    bot = spec.make(spec.config_from({**SMALL, "bank_readings": readings, **settings}))
    bot.init(BETS.bet1, BETS.bet2)
    return bot


@pytest.fixture(scope="module")
def bots():
    return {readings: _bot(readings) for readings in ("default", "mixed", "both")}


def test_both_holds_each_family_once_with_half_the_prior(bots):
    both, default, mixed = bots["both"], bots["default"], bots["mixed"]
    assert len(both.weights) == 2 * len(default.weights)
    assert both.weights.sum() == pytest.approx(1.0, abs=1e-12)
    for family, single in enumerate((default, mixed)):
        members = both.family == family
        assert np.array_equal(both.alpha[members], single.alpha)  # the family's banks, unchanged
        assert np.allclose(both.weights[members], single.weights / 2, rtol=1e-12, atol=0)
        assert np.array_equal(both.top_bucket[members], single.top_bucket)
    assert not np.array_equal(default.alpha, mixed.alpha)  # two different families, not one twice


def test_counts_drawn_from_one_familys_component_give_it_the_posterior(bots):
    """Counts drawn from a sharp component of either family (a server from its Dirichlet, 3 decisions at 1,000
    rows) move most of the posterior to that family: the marginal likelihood tells the families apart."""
    bot = bots["both"]
    prior = bot.weights.copy()
    rng = np.random.default_rng(31)
    for family in (0, 1):
        component = np.flatnonzero((bot.family == family) & bot.top_bucket)[0]
        server = np.array([rng.dirichlet(np.maximum(alpha, 1e-3)) for alpha in bot.alpha[component]])
        counts = np.zeros((R.N_ROWS, 3))
        for row in rng.choice(R.N_ROWS, 1000, replace=False):
            counts[row] = rng.multinomial(3, server[row] / server[row].sum())
        bot.counts[:], bot.counts_sum[:] = counts, counts.sum(axis=1)
        bot._reweigh()
        assert bot.weights[bot.family == family].sum() > 0.9
        assert bot.weights.sum() == pytest.approx(1.0, abs=1e-12)
    bot.counts[:], bot.counts_sum[:] = 0.0, 0.0
    bot._reweigh()
    assert np.allclose(bot.weights, prior)  # no evidence: the prior back


def test_dbr_top_sums_the_sharpest_bucket_over_both_families(bots):
    """Split evenly between the two families' sharpest buckets, the sharpest bucket holds the whole posterior:
    the response acts (dbr_top 0.9), though neither family's alone reaches 0.9."""
    bot = bots["both"]
    saved = bot.weights.copy()
    try:
        bot.weights = np.where(bot.top_bucket, 1.0, 0.0) / bot.top_bucket.sum()
        assert bot.config.dbr_top == 0.9 and bot.responding()
        assert all(bot.weights[bot.top_bucket & (bot.family == f)].sum() < 0.9 for f in (0, 1))
        bot.weights = np.where(bot.top_bucket, 0.85, 0.15) / np.where(bot.top_bucket, 2, len(bot.weights) - 2)
        assert not bot.responding()
    finally:
        bot.weights = saved


def test_both_play_default_plays_the_default_familys_posterior_until_the_response_acts(bots):
    """both_play=default: given the same counts, the mixture's model of the server is the default banks' bot's,
    whatever the mixed family's weight; once the (summed) sharpest bucket lets the response act, it models the
    server by the whole posterior."""
    default = bots["default"]
    restricted = _bot("both", both_play="default")
    rng = np.random.default_rng(7)
    counts = np.zeros((R.N_ROWS, 3))
    rows = rng.choice(R.N_ROWS, 500, replace=False)
    counts[rows] = rng.multinomial(4, np.full(3, 1 / 3), size=len(rows)) * R.allowed_actions()[rows]
    try:
        for bot in (default, restricted):
            bot.counts[:], bot.counts_sum[:] = counts, counts.sum(axis=1)
            bot._reweigh()
        assert restricted.weights[restricted.family == 1].sum() > 1e-6  # the mixed family still has a say
        assert np.allclose(restricted.own_weights[restricted.family == 0], default.weights, rtol=1e-9, atol=1e-15)
        assert np.all(restricted.own_weights[restricted.family == 1] == 0)
        assert np.allclose(restricted._posterior_means(), default._posterior_means(), rtol=0, atol=1e-12)
        restricted.weights = np.where(restricted.top_bucket, 1.0, 0.0) / restricted.top_bucket.sum()
        assert restricted.responding() and restricted.play_weights() is restricted.weights
    finally:
        default.counts[:], default.counts_sum[:] = 0.0, 0.0
        default._reweigh()


@pytest.mark.parametrize("share", ["0.25", "0.1"])
def test_both_share_sets_the_mixed_familys_prior_mass(bots, share):
    """both_share: the mixed family holds that share of the prior, the default family the rest, each spread over its
    buckets as its own bank's bot spreads it."""
    bot = _bot("both", both_share=share)
    mass = {0: 1 - float(share), 1: float(share)}
    assert bot.weights.sum() == pytest.approx(1.0, abs=1e-12)
    for family, single in enumerate((bots["default"], bots["mixed"])):
        members = bot.family == family
        assert bot.weights[members].sum() == pytest.approx(mass[family], abs=1e-12)
        assert np.allclose(bot.weights[members], single.weights * mass[family], rtol=1e-12, atol=0)


def _mixed_counts(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    counts = np.zeros((R.N_ROWS, 3))
    rows = rng.choice(R.N_ROWS, 500, replace=False)
    counts[rows] = rng.multinomial(4, np.full(3, 1 / 3), size=len(rows)) * R.allowed_actions()[rows]
    return counts


@pytest.mark.parametrize("source", ["play", "default"])
def test_both_counts_default_keeps_the_counts_source_when_the_response_acts(bots, source):
    """both_counts=default: the EM's counts follow the default family's posterior mean (the default banks' bot's,
    given the same counts) before and after the response starts acting; with "play" they switch to the whole
    posterior's mean when it does."""
    default = bots["default"]
    bot = _bot("both", both_play="default", both_counts=source)
    counts = _mixed_counts(11)
    try:
        for b in (default, bot):
            b.counts[:], b.counts_sum[:] = counts, counts.sum(axis=1)
            b._reweigh()
            b._update_means()
        expected = default._posterior_means()
        assert not bot.responding()
        assert np.allclose(bot.count_means, expected, rtol=0, atol=1e-12)
        bot.weights = np.where(bot.top_bucket, 1.0, 0.0) / bot.top_bucket.sum()  # the sharpest bucket: it responds
        bot._update_means()
        assert bot.responding()
        assert not np.allclose(bot.means, expected, rtol=0, atol=1e-6)  # the response models the whole posterior
        assert np.allclose(bot.count_means, expected, rtol=0, atol=1e-12) == (source == "default")
    finally:
        default.counts[:], default.counts_sum[:] = 0.0, 0.0
        default._reweigh()
