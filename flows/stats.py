"""Means with confidence intervals, shares, paired differences and sequential decisions (SPRT, racing): the
flows' name for engine.core.stats."""

from engine.core.stats import (
    Z95,
    Interval,
    PairedLook,
    Proportion,
    RunningSummary,
    Sprt,
    Summary,
    confidence_sequence,
    exact_binomial,
    mean_interval,
    paired_interval,
    race_losers,
    summarize,
    t95,
    t_interval,
    wilson,
)

__all__ = ["PAYOFF_BOUNDS", "Z95", "Interval", "PairedLook", "Proportion", "RunningSummary", "Sprt", "Summary",
           "confidence_sequence", "difference_bounds", "exact_binomial", "mean_interval", "paired_interval",
           "paired_mean_interval", "payoff_interval", "race_losers", "summarize", "t95", "t_interval", "wilson"]

# Games whose payoff per unit lies in a known range: their intervals never collapse to a point (a
# CodinGame sweep of 20 games all finishing last is not certain of finishing last). A finish score and a
# win share run from 0 to 1.
PAYOFF_BOUNDS = {"cg-holdem": (0.0, 1.0), "splendor": (0.0, 1.0)}


def payoff_interval(game: str, n: int, mean: float, sd: float) -> Interval:
    """95% interval of a config's mean payoff per unit, the method named (engine.core.stats.mean_interval)."""
    return mean_interval(n, mean, sd, PAYOFF_BOUNDS.get(game))


def difference_bounds(game: str) -> tuple[float, float] | None:
    """The range of a paired difference of two configs' payoffs (twice the payoff's width, centred on 0)."""
    found = PAYOFF_BOUNDS.get(game)
    return None if found is None else (found[0] - found[1], found[1] - found[0])


def paired_mean_interval(units: int, mean: float, se: float, bounds: tuple[float, float] | None = None) -> Interval:
    """95% interval of a paired difference from its mean and standard error: normal with spread; without
    any (every unit tied), the range's worst case (engine.core.stats.mean_interval), never a point."""
    if se > 0:
        low, high = paired_interval(mean, se)
        return Interval(units, mean, low, high, "normal")
    return mean_interval(units, mean, 0.0, bounds)
