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
