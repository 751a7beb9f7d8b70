"""The sequential decisions (SPRT, anytime-valid racing) against simulated paired differences of known mean,
and the intervals of bounded outcomes that never collapse to a point."""

import math

import numpy as np
import pytest

from engine.core.stats import (
    Z95,
    PairedLook,
    Sprt,
    confidence_sequence,
    exact_binomial,
    mean_interval,
    race_losers,
    summarize,
)

REPEATS = 2000
BATCH = 100
CAP = 20_000


def _slack(rate: float, repeats: int) -> float:
    """Three Monte Carlo standard errors of an estimated error rate."""
    return 3 * math.sqrt(rate * (1 - rate) / repeats)


def _draws(rng, kind: str, mean: float, size) -> np.ndarray:
    """Paired differences of a known mean and sd 1: normal; heavy-tailed (Student t, 3 df: big pots
    either way); skewed (exponential, skewness 2); or very skewed (lognormal, skewness 6.2)."""
    if kind == "normal":
        x = rng.standard_normal(size)
    elif kind == "heavy":
        x = rng.standard_t(3, size) / math.sqrt(3)
    elif kind == "skewed":
        x = rng.exponential(1.0, size) - 1.0
    else:
        x = (rng.lognormal(0.0, 1.0, size) - math.exp(0.5)) / math.sqrt((math.exp(1) - 1) * math.exp(1))
    return mean + x


def _run_sprt(test: Sprt, rng, kind: str, mean: float, repeats: int = REPEATS, batch: int = BATCH, cap: int = CAP):
    """Per repeat: the verdict (H0, H1 or None at the cap) and the units used, looking after every batch."""
    n = np.zeros(repeats)
    total = np.zeros(repeats)
    squares = np.zeros(repeats)
    verdicts = np.full(repeats, None, dtype=object)
    used = np.full(repeats, cap)
    open_ = np.ones(repeats, dtype=bool)
    for _ in range(cap // batch):
        idx = np.flatnonzero(open_)
        if len(idx) == 0:
            break
        x = _draws(rng, kind, mean, (len(idx), batch))
        n[idx] += batch
        total[idx] += x.sum(axis=1)
        squares[idx] += (x * x).sum(axis=1)
        for r in idx:
            m = total[r] / n[r]
            var = (squares[r] - n[r] * m * m) / (n[r] - 1)
            verdict = test.verdict(test.llr(int(n[r]), m, var), int(n[r]))
            if verdict is not None:
                verdicts[r], used[r], open_[r] = verdict, n[r], False
    return verdicts, used


def test_sprt_bounds_are_walds():
    test = Sprt(d1=0.25, alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))


def test_sprt_llr_is_the_normal_log_likelihood_ratio():
    """n (d1-d0)(2m-d0-d1)/(2 var) equals sum log N(x; d1, var) - log N(x; d0, var) at the sample mean."""
    x = np.random.default_rng(3).normal(0.1, 2.0, 500)
    s = summarize(x)
    direct = float((-(x - 0.25) ** 2 + (x - 0.0) ** 2).sum() / (2 * s.sd ** 2))
    assert Sprt(d1=0.25).llr(s.n, s.mean, s.sd ** 2) == pytest.approx(direct, rel=1e-9)


def test_sprt_refuses_hypotheses_that_cannot_be_told_apart():
    with pytest.raises(ValueError, match="d1 must exceed d0"):
        Sprt(d1=0.0)
    with pytest.raises(ValueError, match="alpha and beta"):
        Sprt(d1=1.0, alpha=0.5)


@pytest.mark.parametrize("kind", ["normal", "heavy", "skewed"])
def test_sprt_error_rates_stay_within_alpha_and_beta_and_it_stops_early(kind):
    """Known means d0 and d1 (sd 1): wrong verdicts at most alpha (beta) plus Monte Carlo slack, and the
    average number of units far below the cap and below the fixed design of the same error rates."""
    test = Sprt(d1=0.05, alpha=0.05, beta=0.05)
    rng = np.random.default_rng(20261127)
    fixed = ((2 * 1.6448536269514722) / 0.05) ** 2  # one-sided 5%/5% fixed-sample design for sd 1: ~4,330
    for mean, wrong, right, limit in ((0.0, "H1", "H0", test.alpha), (0.05, "H0", "H1", test.beta)):
        verdicts, used = _run_sprt(test, rng, kind, mean)
        error = float(np.mean(verdicts == wrong))
        assert error <= limit + _slack(limit, REPEATS), (kind, mean, error)
        assert float(np.mean(verdicts == right)) > 0.9
        assert used.mean() < 0.2 * CAP and used.mean() < 0.8 * fixed, (kind, mean, used.mean())


def test_looking_from_the_first_batch_on_fails_the_same_check_on_skewed_payoffs():
    """Why the first look waits: allowed to stop after 100 units, the test accepts H0 at d1 too often on
    very skewed differences."""
    test = Sprt(d1=0.1, first_look=0)
    verdicts, _ = _run_sprt(test, np.random.default_rng(20261127), "very skewed", 0.1)
    assert float(np.mean(verdicts == "H0")) > test.beta + _slack(test.beta, REPEATS)


def test_a_naive_repeated_interval_would_fail_the_same_check():
    """The simulation can fail: stopping at the first look whose plain 95% interval leaves out 0 calls a
    difference of exactly 0 'better' far more often than 5%."""
    rng = np.random.default_rng(7)
    x = (math.sqrt(BATCH) * rng.standard_normal((REPEATS, CAP // BATCH))).cumsum(axis=1)  # batch sums
    n = BATCH * np.arange(1, CAP // BATCH + 1)
    crossed = (x / np.sqrt(n) > Z95).any(axis=1)
    assert crossed.mean() > 0.15


NULL_PAIR_SD = 11.63  # Hold'em Training's null pair, luck taken out (bench decisions --luck 40000 --seed 5000)


@pytest.mark.parametrize("kind", ["normal", "heavy"])
def test_holdem_trainings_defaults_decide_a_null_pair_in_a_fifth_of_the_fixed_hands(kind):
    """The game's defaults as `sweep --until-decided` plays them (d1, first look, a look after every chunk) on
    differences with the null pair's spread: wrong at most alpha at d0 and beta at d1 (plus slack), and at d0
    (the hardest case: a true difference of exactly 0) fewer than 4,000 units per config on average, a fifth
    of the fixed design's 20,000."""
    from bench.decisions import look_every
    from flows.decide import make_rule

    rule = make_rule("holdem-training")
    test = Sprt(d1=rule.d1 / NULL_PAIR_SD, alpha=rule.alpha, beta=rule.beta, first_look=rule.first_look)  # sd units
    rng = np.random.default_rng(20261128)
    for mean, wrong, limit in ((0.0, "H1", test.alpha), (test.d1, "H0", test.beta)):
        verdicts, used = _run_sprt(test, rng, kind, mean, batch=look_every("holdem-training"))
        assert float(np.mean(verdicts == wrong)) <= limit + _slack(limit, REPEATS), (kind, mean)
        assert used.mean() < 4000, (kind, mean, used.mean())


@pytest.mark.slow  # many simulated sequences
def test_confidence_sequence_holds_at_every_look():
    """Over whole paths of 20,000 units, the anytime bounds miss the true mean at some look in at most alpha of
    the paths, where the plain 95% interval misses at some look far more often."""
    rng = np.random.default_rng(11)
    repeats, looks = 1000, CAP // BATCH
    paths = rng.standard_normal((repeats, looks, BATCH))
    sums = paths.sum(axis=2).cumsum(axis=1)
    squares = (paths * paths).sum(axis=2).cumsum(axis=1)
    n = BATCH * np.arange(1, looks + 1)
    missed_cs = missed_plain = 0
    for r in range(repeats):
        means = sums[r] / n
        sds = np.sqrt((squares[r] - n * means ** 2) / (n - 1))
        missed_cs += any(not (lo <= 0 <= hi) for lo, hi in (confidence_sequence(PairedLook(int(k), m, s), 0.05)
                                                            for k, m, s in zip(n, means, sds, strict=True)))
        missed_plain += bool((np.abs(means) > Z95 * sds / np.sqrt(n)).any())
    assert missed_cs / repeats <= 0.05 + _slack(0.05, repeats)
    assert missed_plain / repeats > 0.2


def _race(rng, means, *, alpha, repeats, batch=BATCH, cap=CAP, bounds=None):
    """Race configs with these true means on common deals (a shared noise term plus each config's own):
    how often the true best stopped, and the units each race played in all."""
    k = len(means)
    best = int(np.argmax(means))
    dropped_best = 0
    units = []
    for _ in range(repeats):
        alive = set(range(k))
        sums = np.zeros((k, k))
        squares = np.zeros((k, k))
        played = 0
        n = 0
        while n < cap and len(alive) > 1:
            common = rng.standard_normal(batch)
            x = np.asarray(means)[:, None] + common + rng.standard_normal((k, batch))
            diff = x[:, None, :] - x[None, :, :]
            sums += diff.sum(axis=2)
            squares += (diff * diff).sum(axis=2)
            n += batch
            played += batch * len(alive)
            pairs = {}
            for j in alive:
                for i in alive:
                    if i != j:
                        m = sums[j, i] / n
                        pairs[(j, i)] = PairedLook(n, m, math.sqrt(max(0.0, (squares[j, i] - n * m * m) / (n - 1))))
            alive -= race_losers(pairs, alive, alpha=alpha, configs=k)
        dropped_best += best not in alive
        units.append(played)
    return dropped_best / repeats, float(np.mean(units))


def test_racing_rarely_drops_the_true_best_and_stops_the_hopeless_early():
    """Four configs, the best only 0.05 sd ahead of the next: it is dropped in at most alpha of the races
    (plus slack), and a race plays far fewer units than the 4 x 20,000 fixed design."""
    rng = np.random.default_rng(5)
    repeats = 300
    rate, units = _race(rng, [0.0, 0.1, 0.15, 0.2], alpha=0.05, repeats=repeats)
    assert rate <= 0.05 + _slack(0.05, repeats)
    assert units < 0.5 * 4 * CAP


def test_racing_drops_nobody_among_equals_beyond_alpha():
    """All configs equal: any drop is of a (tied) best; at most alpha of the races drop anyone."""
    rng = np.random.default_rng(6)
    repeats = 200
    rate, _ = _race(rng, [0.0, 0.0, 0.0], alpha=0.05, repeats=repeats, cap=5000)
    assert rate <= 0.05 + _slack(0.05, repeats)


# ---------------------------------------------------------------------------------- bounded outcomes
def test_twenty_equal_results_in_a_known_range_do_not_give_a_point():
    """The CodinGame case: 20 games, every finish score 0 (last): the interval reaches up to the
    Clopper-Pearson bound of 0 successes in 20, and says so."""
    got = mean_interval(20, 0.0, 0.0, bounds=(0.0, 1.0))
    assert got.low == 0.0
    assert got.high == pytest.approx(exact_binomial(0, 20).high) and got.high > 0.1
    assert got.method == "exact binomial"


def test_equal_results_inside_the_range_use_hoeffding():
    got = mean_interval(20, 0.5, 0.0, bounds=(0.0, 1.0))
    assert got.method == "Hoeffding"
    assert got.low < 0.5 < got.high
    assert got.high - got.low == pytest.approx(2 * math.sqrt(math.log(40) / 40))


def test_paired_differences_with_no_spread_at_the_far_end():
    got = mean_interval(30, 2.0, 0.0, bounds=(-2.0, 2.0))
    assert got.high == 2.0 and got.low < 2.0


def test_spread_gives_student_t_clipped_to_the_range():
    x = np.array([0.0] * 18 + [1.0] * 2)
    s = summarize(x)
    got = mean_interval(s.n, s.mean, s.sd, bounds=(0.0, 1.0))
    assert got.method == "Student t"
    assert got.low == 0.0  # mean - t se is below 0: clipped
    assert got.high > s.mean


def test_no_spread_and_no_known_range_gives_no_interval_rather_than_a_point():
    got = mean_interval(50, 1.5, 0.0)
    assert math.isnan(got.low) and math.isnan(got.high)
    assert "unknown" in got.method


def test_a_bounded_games_sweep_interval_names_its_method():
    """flows.stats.payoff_interval: the game's payoff range is what keeps a CodinGame result from a point."""
    from flows.stats import payoff_interval

    assert payoff_interval("cg-holdem", 20, 0.0, 0.0).method == "exact binomial"
    assert payoff_interval("cg-holdem", 20, 0.0, 0.0).high > 0
    assert payoff_interval("holdem-training", 20, 3.0, 0.0).method == "no spread, range unknown"


def test_a_report_pair_that_tied_on_every_game_is_not_a_point():
    """The CodinGame report's "+0.0000 (+0.0000 .. +0.0000)": two configs with the same finish in all 20 games."""
    from flows.stats import difference_bounds, paired_mean_interval
    from reports.sweep_data import Pair

    tied = Pair("a", "b", 20, 0.0, 0.0, difference_bounds("cg-holdem"))
    assert tied.low < 0 < tied.high and tied.interval.method == "Hoeffding"
    assert not tied.clear
    spread = paired_mean_interval(400, 0.1, 0.02, difference_bounds("cg-holdem"))
    assert spread.method == "normal" and spread.low == pytest.approx(0.1 - Z95 * 0.02)
    unknown = Pair("a", "b", 50, 0.0, 0.0)  # a game without a known range: no interval rather than a point
    assert math.isnan(unknown.low) and not unknown.clear
