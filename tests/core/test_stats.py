"""Intervals against known values and scipy.stats as an outside oracle."""

import math
import re
from pathlib import Path

import pytest

from engine.core.stats import Z95, exact_binomial, incomplete_beta, summarize, t95, t_interval, t_quantile, wilson


@pytest.fixture
def scipy_stats():
    return pytest.importorskip("scipy.stats")  # the oracle; the known-value tests run without it


def test_wilson_clean_sweep_is_not_certain():
    p = wilson(12, 12)
    assert p.high == 1.0
    assert p.low == pytest.approx(0.7575, abs=1e-4)  # 12/(12 + z^2), the textbook value


def test_wilson_no_wins_is_not_certain_of_zero():
    p = wilson(0, 12)
    assert p.low == 0.0
    assert p.high == pytest.approx(0.2425, abs=1e-4)


def test_wilson_accepts_half_wins_for_ties():
    assert wilson(5.5, 12).low < 5.5 / 12 < wilson(5.5, 12).high


@pytest.mark.parametrize("k,n", [(0, 12), (12, 12), (1, 12), (6, 12), (3, 40), (47, 1000), (999_000, 1_000_000)])
def test_exact_binomial_matches_scipy_beta_quantiles(k, n, scipy_stats):
    p = exact_binomial(k, n)
    low = 0.0 if k == 0 else scipy_stats.beta.ppf(0.025, k, n - k + 1)
    high = 1.0 if k == n else scipy_stats.beta.ppf(0.975, k + 1, n - k)
    assert p.low == pytest.approx(low, rel=1e-9, abs=1e-12)
    assert p.high == pytest.approx(high, rel=1e-9, abs=1e-12)


def test_exact_binomial_clean_sweep_known_value():
    assert exact_binomial(12, 12).low == pytest.approx(0.025 ** (1 / 12), rel=1e-12)  # solves p^12 = 0.025


@pytest.mark.parametrize("a,b,x", [(0.5, 0.5, 0.3), (3, 7, 0.2), (50, 2, 0.97), (1e4, 3e4, 0.25)])
def test_incomplete_beta_matches_scipy(a, b, x, scipy_stats):
    assert incomplete_beta(a, b, x) == pytest.approx(scipy_stats.beta.cdf(x, a, b), rel=1e-10)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 30, 120, 10_000])
def test_t95_matches_scipy(df, scipy_stats):
    assert t95(df) == pytest.approx(scipy_stats.t.ppf(0.975, df), rel=1e-9)


@pytest.mark.parametrize("p", [0.01, 0.3, 0.5, 0.9])
def test_t_quantile_both_tails(p, scipy_stats):
    assert t_quantile(p, 4) == pytest.approx(scipy_stats.t.ppf(p, 4), rel=1e-9, abs=1e-12)


def test_t_interval_is_wider_than_normal_for_few_values():
    values = [1.0, 2.0, 4.0, 3.5]
    mean, low, high = t_interval(values)
    s = summarize(values)
    assert mean == s.mean and high - mean > s.half_width
    assert math.isnan(t_interval([1.0])[1])
    mean, low, high = t_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and round(high - mean, 3) == 2.484  # t(2) = 4.303 times se 0.577


def test_sql_marts_use_the_same_normal_quantile():
    sql = " ".join(p.read_text() for p in (Path(__file__).parents[2] / "data" / "sql").glob("*.sql"))
    assert set(re.findall(r"\b1\.9\d*\b", sql)) == {repr(Z95)}
