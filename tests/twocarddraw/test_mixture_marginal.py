"""bucket_weigh=marginal / bank (issue 31): the step buckets weighed by each hand's probability under each component's
posterior (or bank) mean with the server's hidden cards summed out, instead of the EM's counts (guessed under the
leader)."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.mixture import hand_log_likelihood
from bots.twocarddraw.tracker import Observation
from engine.twocarddraw import rules as R

BETS = R.BetSizes(1, 2)
SMALL = {"buckets": "2", "bucket_count": "3", "reweigh_every": "1"}  # small banks keep the test fast to build
SHOWDOWN = Observation(moves1=((1, R.CALL),), history=R.HISTORY_INDEX[(1, R.PLAYER)], player_drew=1, server_drew=2,
                       moves2=((0, R.RAISE),), shown=R.N_HANDS - 1)
RAISED = Observation(moves1=((1, R.RAISE), (3, R.FOLD)), history=-1, player_drew=-1, server_drew=-1, moves2=(),
                     shown=-1)


def _bot(**settings: str):
    spec = BOTS["mixture"]
    bot = spec.make(spec.config_from({**SMALL, **settings}))
    bot.init(BETS.bet1, BETS.bet2)
    return bot


@pytest.fixture(scope="module")
def bots():
    return {weigh: _bot(**({"bucket_weigh": weigh} if weigh else {})) for weigh in ("", "counts", "marginal")}


def test_default_weighs_by_counts_as_before(bots):
    """Off by default: the same hands leave the default bot's posterior exactly as bucket_weigh=counts leaves it,
    while the marginal weighing moves it elsewhere."""
    assert BOTS["mixture"].config_from({}).bucket_weigh == "counts"
    for bot in bots.values():
        for obs in (SHOWDOWN, RAISED, SHOWDOWN):
            bot.on_hand_over(obs)
    default, counts, marginal = bots[""], bots["counts"], bots["marginal"]
    assert np.array_equal(default.weights, counts.weights) and np.array_equal(default.means, counts.means)
    assert not np.allclose(default.weights, marginal.weights, rtol=1e-6, atol=0)


def test_hand_likelihood_sums_the_hidden_cards_out():
    """Against a direct double sum over the server's hands before and after the draw, with counts added."""
    bot = _bot(bucket_weigh="marginal")
    rng = np.random.default_rng(31)
    counts = rng.exponential(size=(R.N_ROWS, 3))
    got = hand_log_likelihood(bot.alpha, bot.alpha_sum, counts, counts.sum(axis=1), SHOWDOWN)
    for k in range(len(bot.alpha)):
        p = (bot.alpha[k] + counts) / (bot.alpha_sum[k] + counts.sum(axis=1))[:, None]
        h1, (pd, sd), g = SHOWDOWN.history, (SHOWDOWN.player_drew, SHOWDOWN.server_drew), SHOWDOWN.shown
        total = sum(R.DEAL_PROB[h] * p[R.round1_row(1, h), R.CALL] * p[R.draw_row(h1, pd, h), sd]
                    * R.DRAW_TRANSITION[sd][h, g] * p[R.round2_row(h1, pd, sd, 0, g), R.RAISE]
                    for h in range(R.N_HANDS))
        assert got[k] == pytest.approx(np.log(total), rel=1e-12)


@pytest.mark.parametrize("weigh", ["marginal", "bank"])
def test_a_hand_a_bucket_makes_likelier_raises_its_weight(weigh):
    bot = _bot(bucket_weigh=weigh)
    prior = bot.weights.copy()
    ll = hand_log_likelihood(bot.alpha, bot.alpha_sum, bot.counts, bot.counts_sum, RAISED)
    assert ll.max() - ll.min() > 1e-3  # the buckets' means tell this hand apart
    bot.on_hand_over(RAISED)
    likelier, less = np.argmax(ll), np.argmin(ll)
    assert bot.weights[likelier] > prior[likelier] and bot.weights[less] < prior[less]
    assert bot.weights.sum() == pytest.approx(1.0, abs=1e-12)
    # the counts now hold the first hand: "marginal" reads them for the second, "bank" does not
    again = hand_log_likelihood(bot.alpha, bot.alpha_sum, bot.counts, bot.counts_sum, RAISED)
    bot.on_hand_over(RAISED)
    assert np.allclose(bot.loglik, ll + (again if weigh == "marginal" else ll), rtol=1e-12, atol=0)
    assert not np.allclose(again, ll, rtol=1e-6, atol=0)
