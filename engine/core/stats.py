"""The one home of 95% intervals: means (normal and Student t), shares (Wilson, exact binomial), paired differences.

numpy and the standard library only, so engine and bots can use it; flows.stats re-exports it. The t and
beta quantiles come from the regularised incomplete beta function (continued fraction, modified Lentz), solved
by bisection, which is plenty fast for the handful of intervals a report draws.
"""

import functools
import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile
_TINY = 1e-300
_CF_STEPS = 100_000  # the continued fraction needs about sqrt(a + b) steps; a million trials stays far below


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

    @property
    def half_width(self) -> float:
        """Normal 95% half-width (nan below two values)."""
        return Z95 * self.se

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


def paired_interval(mean_diff: float, se_diff: float) -> tuple[float, float]:
    return mean_diff - Z95 * se_diff, mean_diff + Z95 * se_diff


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function, evaluated by the modified Lentz method."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _CF_STEPS):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            step = c * d
            h *= step
        if abs(step - 1.0) < 1e-15:
            return h
    raise ArithmeticError(f"incomplete beta did not converge for a={a}, b={b}, x={x}")


def incomplete_beta(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):  # the fraction converges fast on this side; use symmetry on the other
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def beta_quantile(q: float, a: float, b: float) -> float:
    """x with I_x(a, b) = q, by bisection (I is increasing in x)."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if incomplete_beta(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def t_quantile(p: float, df: float) -> float:
    """Student t quantile: P(T <= t) = p with `df` degrees of freedom."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p == 0.5:
        return 0.0
    tail = min(p, 1.0 - p)  # P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2)
    x = beta_quantile(2.0 * tail, df / 2.0, 0.5)
    t = math.sqrt(df * (1.0 - x) / x)
    return t if p > 0.5 else -t


def t95(df: float) -> float:
    """Two-sided 95% Student t quantile."""
    return t_quantile(0.975, df)


def t_interval(values) -> tuple[float, float, float]:
    """Mean and its 95% interval, mean +/- t(n-1) * se (nan bounds below 2 values)."""
    s = summarize(values)
    if s.n < 2 or not math.isfinite(s.se):
        return s.mean, math.nan, math.nan
    half = t95(s.n - 1) * s.se
    return s.mean, s.mean - half, s.mean + half


@dataclass(frozen=True)
class Proportion:
    """k successes in n trials with a 95% interval (k may hold halves for ties in Wilson's)."""

    k: float
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else math.nan


def wilson(k: float, n: int) -> Proportion:
    """Wilson score interval: keeps inside [0, 1] and stays honest near 0 and 1."""
    if n == 0:
        return Proportion(k, n, math.nan, math.nan)
    p = k / n
    denom = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denom
    low = 0.0 if k <= 0 else max(0.0, centre - half)  # exact at the ends: rounding would leave 3e-17
    high = 1.0 if k >= n else min(1.0, centre + half)
    return Proportion(k, n, low, high)


def exact_binomial(k: int, n: int) -> Proportion:
    """Clopper-Pearson interval: never narrower than 95% coverage asks, for small counts."""
    if n == 0:
        return Proportion(k, n, math.nan, math.nan)
    low = 0.0 if k == 0 else beta_quantile(0.025, k, n - k + 1)
    high = 1.0 if k == n else beta_quantile(0.975, k + 1, n - k)
    return Proportion(k, n, low, high)


# ---------------------------------------------------------------------------------- bounded outcomes
@dataclass(frozen=True)
class Interval:
    """A mean with its 95% interval and the name of the method that gave it (shown to the user)."""

    n: int
    mean: float
    low: float
    high: float
    method: str


def mean_interval(n: int, mean: float, sd: float, bounds: tuple[float, float] | None = None) -> Interval:
    """95% interval of a mean from its summary, never of zero width when the outcome's range is known.

    With spread: Student t, clipped to `bounds`. Without (every value equal), a t interval would be a
    point; for outcomes known to lie in [a, b] the width comes from the worst case the range allows:
    exact binomial (Clopper-Pearson) when the value sits at an end (the outcome may be two-valued),
    Hoeffding when it sits inside. Without bounds and without spread there is no honest interval (nan)."""
    if n == 0:
        return Interval(0, math.nan, math.nan, math.nan, "no data")
    lo_b, hi_b = bounds if bounds is not None else (-math.inf, math.inf)
    if n >= 2 and math.isfinite(sd) and sd > 0:
        half = t95(n - 1) * sd / math.sqrt(n)
        return Interval(n, mean, max(lo_b, mean - half), min(hi_b, mean + half), "Student t")
    if bounds is None:
        return Interval(n, mean, math.nan, math.nan, "no spread, range unknown")
    width = hi_b - lo_b
    if mean <= lo_b or mean >= hi_b:  # all at one end: the share of the other end is 0 of n
        far = exact_binomial(0, n).high * width
        low, high = (lo_b, lo_b + far) if mean <= lo_b else (hi_b - far, hi_b)
        return Interval(n, mean, low, high, "exact binomial")
    half = width * math.sqrt(math.log(2 / 0.05) / (2 * n))
    return Interval(n, mean, max(lo_b, mean - half), min(hi_b, mean + half), "Hoeffding")


# ---------------------------------------------------------------------------------- sequential decisions
@dataclass(frozen=True)
class Sprt:
    """A generalized sequential probability ratio test on paired differences (a config minus the
    baseline on the same deals), in the game's own unit: H0 mean = d0 against H1 mean = d1.

    The log-likelihood ratio is the normal one with the variance estimated from the data,
    n (d1 - d0) (2 mean - d0 - d1) / (2 var), the approximation chess-engine testing uses on game
    outcomes; Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha) keep the chance of
    accepting H1 when d0 holds near alpha, and of accepting H0 when d1 holds near beta.

    No verdict before `first_look` differences: on skewed payoffs the early sample mean and variance
    are both too small together too often; on very skewed differences (skewness 6) a test free to stop
    after 100 units accepted H0 at d1 in 9.5% of simulated runs at beta = 5%, 2.1% with the first look
    at 1,000 (tests/core/test_stats_sequential.py; docs/statistics.md)."""

    d1: float
    d0: float = 0.0
    alpha: float = 0.05
    beta: float = 0.05
    first_look: int = 1000

    def __post_init__(self):
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must lie in (0, 0.5), got {self.alpha}, {self.beta}")
        if not self.d1 > self.d0:
            raise ValueError(f"d1 must exceed d0, got d0={self.d0}, d1={self.d1}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, n: int, mean: float, var: float) -> float:
        """LLR after n paired differences with this mean and (sample) variance."""
        if n < 2 or not math.isfinite(var):
            return 0.0
        var = max(var, 1e-12 * (self.d1 - self.d0) ** 2)  # no spread at all: the mean alone decides
        return n * (self.d1 - self.d0) * (2 * mean - self.d0 - self.d1) / (2 * var)

    def verdict(self, llr: float, n: int) -> str | None:
        """'H1' (the difference is d1 or more), 'H0' (d0 or less), or None: play on."""
        if n < self.first_look:
            return None
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


@dataclass(frozen=True)
class PairedLook:
    """The paired differences seen so far: n, mean and sample standard deviation."""

    n: int
    mean: float
    sd: float


def paired_look(differences) -> PairedLook:
    """The look at an array of paired differences."""
    d = np.asarray(differences, dtype=float)
    return PairedLook(len(d), float(d.mean()) if len(d) else 0.0, float(d.std(ddof=1)) if len(d) > 1 else 0.0)


@dataclass(frozen=True)
class LuckCheck:
    """Paired differences with and without a zero-mean correction (a control variate) taken out: both
    means with 95% normal intervals, and the variance-reduction factor (how many times fewer units the
    adjusted differences need for the same precision)."""

    n: int
    raw: PairedLook
    adjusted: PairedLook
    shift: PairedLook  # raw minus adjusted per unit: the correction's own mean (zero if unbiased)

    @property
    def factor(self) -> float:
        return self.raw.sd ** 2 / self.adjusted.sd ** 2 if self.adjusted.sd > 0 else math.inf

    @property
    def shift_interval(self) -> tuple[float, float]:
        """95% interval of the correction's mean: an unbiased correction's covers 0."""
        half = Z95 * self.shift.sd / math.sqrt(max(self.n, 1))
        return self.shift.mean - half, self.shift.mean + half


def luck_check(raw, adjusted) -> LuckCheck:
    raw, adjusted = np.asarray(raw, dtype=float), np.asarray(adjusted, dtype=float)
    return LuckCheck(len(raw), paired_look(raw), paired_look(adjusted), paired_look(raw - adjusted))


@functools.lru_cache(maxsize=64)
def _mixture_scale(alpha: float) -> float:
    """rho / n* that makes the normal-mixture boundary narrowest at n* samples (minimised numerically:
    x -> (1 + x) (log((1 + x) / x) - 2 log alpha) is convex in log x)."""
    lo, hi = math.log(1e-4), math.log(1e2)
    for _ in range(200):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        fa, fb = ((1 + math.exp(t)) * (math.log1p(math.exp(-t)) - 2 * math.log(alpha)) for t in (a, b))
        lo, hi = (lo, b) if fa < fb else (a, hi)
    return math.exp(0.5 * (lo + hi))


def confidence_sequence(look: PairedLook, alpha: float = 0.05, tuned_for: int = 10_000) -> tuple[float, float]:
    """Anytime-valid (1 - alpha) bounds on a mean: they hold at every look at once, so a race may stop
    whenever they say so. Two-sided normal-mixture boundary (Robbins; Howard, Ramdas, McAuliffe and
    Sekhon 2021): |sum - n mu| <= sqrt((V + rho) log((V + rho) / (rho alpha^2))), V = n sd^2, with the
    sample sd plugged in (asymptotically valid: Waudby-Smith et al. 2021), narrowest at `tuned_for`."""
    if look.n < 2 or not look.sd > 0:
        return -math.inf, math.inf
    v = look.n * look.sd ** 2
    rho = _mixture_scale(alpha) * tuned_for * look.sd ** 2
    radius = math.sqrt((v + rho) * math.log((v + rho) / (rho * alpha * alpha))) / look.n
    return look.mean - radius, look.mean + radius


def race_losers(pairs: dict[tuple[int, int], PairedLook], alive: set[int], *, alpha: float, configs: int,
                tuned_for: int = 10_000) -> set[int]:
    """Configs of a race to stop: i stops when some alive j beats it, the anytime-valid lower bound
    of (j minus i) on their common deals above 0. Each pair's sequence runs at alpha / (configs - 1):
    the true best stops only if one of its configs - 1 sequences misses, so at most alpha overall.
    `pairs[(j, i)]` holds j minus i."""
    level = alpha / max(1, configs - 1)
    losers = set()
    for (j, i), look in pairs.items():
        if i in alive and j in alive and confidence_sequence(look, level, tuned_for)[0] > 0:
            losers.add(i)
    return losers
