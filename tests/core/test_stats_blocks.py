"""The faster harness of `cardlab bench decisions --pool` (bench.decisions.blocks): the confirmation's SPRT
run after run on consecutive disjoint blocks of paired differences, checked on simulated differences of
known mean: every unit read by one run only, each verdict the SPRT's on its own block, error rates within
alpha and beta."""

import math

import numpy as np
import pytest

from bench.decisions import Pair, block_result, blocks
from flows.decide import Rule
from flows.stats import Sprt, paired_look

RULE = Rule(d1=0.5, first_look=400)


def test_runs_read_disjoint_blocks_and_decide_as_the_sprt_would_on_each():
    d = np.random.default_rng(11).normal(0.2, 4.0, 60_000)
    runs = blocks(d, RULE, batch=200, cap=4000)
    assert len(runs) > 10
    assert sum(n for _, n in runs) <= len(d)  # no unit twice; the unfinished last run is dropped
    test, start = Sprt(d1=0.5, first_look=400), 0
    for decision, n in runs:
        assert n % 200 == 0 and 400 <= n <= 4000
        look = paired_look(d[start:start + n])
        verdict = test.verdict(test.llr(look.n, look.mean, look.sd ** 2), look.n)
        assert decision == {"H1": "switch", "H0": "keep"}.get(verdict, "undecided")
        if decision != "undecided":  # it stopped at its first crossing, not later
            shorter = paired_look(d[start:start + n - 200])
            assert n == 400 or test.verdict(test.llr(shorter.n, shorter.mean, shorter.sd ** 2), shorter.n) is None
        start += n


def test_a_stream_too_short_for_one_run_gives_none():
    assert blocks(np.zeros(100), RULE, batch=200, cap=4000) == []


@pytest.mark.parametrize(("mean", "wrong", "limit"), [(0.0, "switch", RULE.alpha), (0.5, "keep", RULE.beta)])
def test_block_runs_err_within_the_tests_rates(mean, wrong, limit):
    d = np.random.default_rng(20261127).normal(mean, 4.0, 2_000_000)
    result = block_result(Pair("sim", (), (), "keep" if mean == 0 else "switch", "simulated"),
                          blocks(d, RULE, batch=200, cap=20_000))
    runs = len(result.decisions)
    assert runs > 500
    rate = sum(x == wrong for x in result.decisions) / runs
    assert rate <= limit + 3 * math.sqrt(limit * (1 - limit) / runs), rate
    assert result.wrong == sum(x == wrong for x in result.decisions)  # the pair's right decision scores it
    assert all(h % 2 == 0 for h in result.hands)  # both configs' units


def test_resampled_runs_at_a_clear_mean_decide_rightly_and_count_both_configs():
    from bench.decisions import resampled_runs

    d = np.random.default_rng(3).normal(-2.5, 18.0, 20_000)  # the worse pair's mean and spread
    got = resampled_runs(Pair("worse", (), (), "keep", "simulated"), d, RULE, np.random.default_rng(4), runs=300,
                         cap=20_000, batch=250)
    assert len(got.decisions) == 300 and got.wrong == 0 and got.undecided == 0
    assert set(got.hands) <= {2 * n for n in range(250, 20_001, 250)} and min(got.hands) >= 2 * RULE.first_look
    flipped = resampled_runs(Pair("better", (), (), "keep", "mislabelled"), -d, RULE, np.random.default_rng(4),
                             runs=300, cap=20_000, batch=250)
    assert flipped.wrong == 300  # every run switches: scored against the stated right decision


@pytest.mark.slow  # plays real hands in worker processes
def test_a_pool_plays_each_distinct_config_once_on_shared_deals():
    """Hold'em Training's pairs on 30 deals in parts of 20 (seeds 77 and 78): one difference per deal, the
    luck taken out, and the better pair the worse one turned round (the same two configs on the same deals)."""
    from bench.decisions import pool

    played = []
    got = {p.pair.name: p for p in pool("holdem-training", hands=30, seed=77, part=20, workers=2,
                                        progress=lambda c, p, n: played.append((c, p)))}
    assert len(played) == 3 * 2  # the default seed and the default completions are one config: 3 configs x 2 parts
    assert all(len(p.raw) == len(p.adjusted) == 30 for p in got.values())
    assert np.array_equal(got["better"].raw, -got["worse"].raw)
    assert not np.array_equal(got["null"].raw, got["null"].adjusted)  # the cards' luck came out
