"""dbr_open="bank" (issue 31): the response may also open on the components weighed by each hand's likelihood under
their bank means, while the play and the response's model stay on the counts' posterior (the lock: heldout2 11)."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.mixture import hand_log_likelihood
from bots.twocarddraw.tracker import Observation
from engine.twocarddraw import rules as R

BETS = R.BetSizes(1, 2)
# small banks, no gate draws and one CFR+ iteration per solve keep the test fast (the opening is what it checks)
SMALL = {"buckets": "2", "bucket_count": "3", "reweigh_every": "1", "gate_draws": "0", "dbr_iterations": "1"}
# the server raises a bet in round 2 after standing pat and shows the lowest hand index: far likelier under the
# sharper bank's mean than the milder one's (found by a search over one-raise showdowns)
SHARP = Observation(moves1=((1, R.CALL),), history=R.HISTORY_INDEX[(1, R.PLAYER)], player_drew=1, server_drew=0,
                    moves2=((1, R.RAISE),), shown=0)


def _bot(**settings: str):
    spec = BOTS["dbr"]
    bot = spec.make(spec.config_from({**SMALL, **settings}))
    bot.init(BETS.bet1, BETS.bet2)
    return bot


def test_the_bank_likelihood_opens_the_response_the_counts_keep_shut_and_leaves_the_play_alone():
    """Three such hands: the counts' posterior gives the sharper bucket under dbr_top (0.9) of its weight, so the
    default stays shut; the bank likelihood gives it nearly all, so dbr_open="bank" responds. Both bots' posterior
    (and so the mixture's play and the response's model) are the same arrays."""
    assert BOTS["dbr"].config_from({}).dbr_open == "counts"
    shut, opened = _bot(), _bot(dbr_open="bank")
    for _ in range(3):
        shut.on_hand_over(SHARP)
        opened.on_hand_over(SHARP)
    assert shut.weights[shut.top_bucket].sum() < 0.9 and not shut.responding()
    assert opened.responding() and shut.open_share == 0.0
    assert np.array_equal(shut.weights, opened.weights) and np.array_equal(shut.counts, opened.counts)
    log_w = opened.log_prior + 3 * hand_log_likelihood(opened.alpha, opened.alpha_sum, *opened.no_counts, SHARP)
    w = np.exp(log_w - log_w.max())
    assert opened.open_share == pytest.approx(w[opened.top_bucket].sum() / w.sum(), rel=1e-12)
    assert opened.open_share > 0.99
