"""dbr_span (issue 31): dbr_top's test on the sharpest step buckets' summed share may count the next bucket too, where
in-range order=random+accept=ties servers read (their response otherwise never opens)."""

import numpy as np

from bots.twocarddraw import BOTS
from tests.twocarddraw.test_dbr_open import _bot  # its small banks, no gate draws, one CFR+ iteration per solve


def test_span_one_is_the_gates_own_test_and_the_default():
    assert BOTS["dbr"].config_from({}).dbr_span == 1
    for levels in ("1", "2"):
        bot = _bot(strength_levels=levels)
        assert np.array_equal(bot._respond_buckets(), bot.top_bucket)


def test_span_two_counts_the_next_bucket_at_every_strength_level():
    """Components are bucket-major, strength levels inside: with two levels the milder bucket's two components
    join the test; a posterior on the milder bucket opens the response only with dbr_span=2."""
    narrow, wide = _bot(strength_levels="2"), _bot(strength_levels="2", dbr_span="2")
    assert narrow.top_bucket.tolist() == [False, False, True, True]
    assert wide._respond_buckets().tolist() == [True, True, True, True]
    for bot in (narrow, wide):
        bot.weights = np.array([0.6, 0.35, 0.03, 0.02])  # the milder bucket holds 0.95
    assert not narrow.responding() and wide.responding()
    wide.weights = np.array([0.06, 0.04, 0.5, 0.4])
    assert wide.responding()


def test_span_reaches_no_further_than_asked_among_four_buckets():
    """With four buckets, dbr_span=2 tests buckets 2 and 3 only: a posterior on bucket 1 stays shut."""
    bot = _bot(buckets="4", dbr_span="2")
    assert bot._respond_buckets().tolist() == [False, False, True, True]
    bot.weights = np.array([0.02, 0.9, 0.05, 0.03])
    assert not bot.responding()
    bot.weights = np.array([0.02, 0.03, 0.9, 0.05])
    assert bot.responding()
