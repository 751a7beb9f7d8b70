"""Means with confidence intervals, and paired differences on common random numbers."""

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    sd: float
    se: float

    @property
    def ci_low(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def ci_high(self) -> float:
        return self.mean + Z95 * self.se

    def describe(self, unit: str = "unit") -> str:
        return f"{self.mean:+.4f} per {unit}  (95% CI {self.ci_low:+.4f} .. {self.ci_high:+.4f}, n={self.n:,})"


def summarize(values) -> Summary:
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan)
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    return Summary(n, float(x.mean()), sd, sd / math.sqrt(n) if n > 1 else math.nan)


class RunningSummary:
    """Welford's streaming mean/variance, so a long match never holds all payoffs."""

    def __init__(self):
        self.n, self.mean, self._m2 = 0, 0.0, 0.0

    def add(self, values) -> None:
        x = np.asarray(values, dtype=np.float64)
        if len(x) == 0:
            return
        n_b, mean_b = len(x), float(x.mean())
        m2_b = float(((x - mean_b) ** 2).sum())
        n = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / n
        self._m2 += m2_b + delta * delta * self.n * n_b / n
        self.n = n

    def result(self) -> Summary:
        if self.n < 2:
            return Summary(self.n, self.mean if self.n else math.nan, math.nan, math.nan)
        sd = math.sqrt(self._m2 / (self.n - 1))
        return Summary(self.n, self.mean, sd, sd / math.sqrt(self.n))


@dataclass(frozen=True)
class Proportion:
    """k successes in n trials with a 95% interval."""

    k: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else math.nan


def wilson(k: int, n: int) -> Proportion:
    """Wilson score interval: keeps inside [0, 1] and stays honest near 0 and 1."""
    if n == 0:
        return Proportion(k, n, math.nan, math.nan)
    p = k / n
    denom = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denom
    return Proportion(k, n, max(0.0, centre - half), min(1.0, centre + half))


def exact_binomial(k: int, n: int) -> Proportion:
    """Clopper-Pearson interval: never narrower than 95% coverage asks, for small counts."""
    from scipy.stats import beta

    if n == 0:
        return Proportion(k, n, math.nan, math.nan)
    low = 0.0 if k == 0 else float(beta.ppf(0.025, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(0.975, k + 1, n - k))
    return Proportion(k, n, low, high)


def paired_interval(mean_diff: float, se_diff: float) -> tuple[float, float]:
    return mean_diff - Z95 * se_diff, mean_diff + Z95 * se_diff
