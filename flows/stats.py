"""Means with confidence intervals, shares, and paired differences: the flows' name for engine.core.stats."""

from engine.core.stats import (
    Z95,
    Proportion,
    RunningSummary,
    Summary,
    exact_binomial,
    paired_interval,
    summarize,
    t95,
    t_interval,
    wilson,
)

__all__ = ["Z95", "Proportion", "RunningSummary", "Summary", "exact_binomial", "paired_interval", "summarize",
           "t95", "t_interval", "wilson"]
