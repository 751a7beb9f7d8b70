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

__all__ = ["Z95", "Interval", "PairedLook", "Proportion", "RunningSummary", "Sprt", "Summary", "confidence_sequence",
           "exact_binomial", "mean_interval", "paired_interval", "race_losers", "summarize", "t95", "t_interval",
           "wilson"]
