"""Means with confidence intervals, shares, paired differences and sequential decisions (SPRT, racing): the
flows' name for engine.core.stats."""

from engine.core.stats import (
    Z95,
    Interval,
    LuckCheck,
    PairedLook,
    Proportion,
    RunningSummary,
    Sprt,
    Summary,
    confidence_sequence,
    exact_binomial,
    luck_check,
    mean_interval,
    paired_interval,
    paired_look,
    race_losers,
    summarize,
    t95,
    t_interval,
    wilson,
)

__all__ = ["Z95", "Interval", "LuckCheck", "PairedLook", "Proportion", "RunningSummary", "Sprt", "Summary",
           "confidence_sequence", "difference_bounds", "exact_binomial", "luck_check", "mean_interval",
           "paired_interval", "paired_look", "paired_mean_interval", "payoff_interval", "race_losers", "summarize",
           "t95", "t_interval", "wilson"]

def payoff_bounds(game: str) -> tuple[float, float] | None:
    """The game's payoff range where its spec declares one (a finish score, a win share): its intervals
    never collapse to a point (20 CodinGame games all finished last are not a certain last place)."""
    from flows import games

    return games.get(game).payoff_bounds if game in games.names() else None


def payoff_interval(game: str, n: int, mean: float, sd: float) -> Interval:
    """95% interval of a config's mean payoff per unit, the method named (engine.core.stats.mean_interval)."""
    return mean_interval(n, mean, sd, payoff_bounds(game))


def difference_bounds(game: str) -> tuple[float, float] | None:
    """The range of a paired difference of two configs' payoffs (twice the payoff's width, centred on 0)."""
    found = payoff_bounds(game)
    return None if found is None else (found[0] - found[1], found[1] - found[0])


def paired_mean_interval(units: int, mean: float, se: float, bounds: tuple[float, float] | None = None) -> Interval:
    """95% interval of a paired difference from its mean and standard error: normal with spread; without
    any (every unit tied), the range's worst case (engine.core.stats.mean_interval), never a point."""
    if se > 0:
        low, high = paired_interval(mean, se)
        return Interval(units, mean, low, high, "normal")
    return mean_interval(units, mean, 0.0, bounds)
