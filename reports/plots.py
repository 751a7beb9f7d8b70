"""PNG plots with honest axes: intervals drawn around estimates, axes fitted to the intervals
(not stretched to 0), differences drawn against a 0 line, bands where noise would reach."""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 110


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def intervals(path: Path, *, names, means, lows, highs, xlabel: str, title: str, zero: bool = False,
              marks=()) -> Path:
    """One row per estimate with its interval; `zero` draws the 0 line (for differences).
    The axis spans the intervals with a margin, so they are never squashed flat."""
    n = len(names)
    fig, ax = plt.subplots(figsize=(8, 0.8 + 0.42 * max(3, n)))
    y = list(range(n))
    ax.errorbar(means, y, xerr=[[m - lo for m, lo in zip(means, lows, strict=True)],
                                [hi - m for m, hi in zip(means, highs, strict=True)]], fmt="o", capsize=4)
    for i in marks:
        ax.plot([means[i]], [i], "o", color="crimson", ms=9, zorder=3)
    ax.set_yticks(y, list(names))
    finite = [v for v in list(lows) + list(highs) if v == v]
    if finite:
        lo, hi = min(finite), max(finite)
        pad = 0.08 * (hi - lo or abs(hi) or 1.0)
        lo, hi = lo - pad, hi + pad
        if zero:
            lo, hi = min(lo, -pad), max(hi, pad)
        ax.set_xlim(lo, hi)
    if zero:
        ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def bands(path: Path, *, series, xlabel: str, ylabel: str, title: str, zero: bool = True) -> Path:
    """Lines with shaded bands: series = [(name, x, y, band_low, band_high)]."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, x, y, low, high in series:
        (line,) = ax.plot(x, y, label=name)
        ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15)
    if zero:
        ax.axhline(0, color="grey", lw=1, ls="--")
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.grid(alpha=0.3)
    if series:
        ax.legend(fontsize=8)
    return _save(fig, path)


def points(path: Path, *, series, xlabel: str, ylabel: str, title: str, diagonal: bool = False,
           xticks=None, zero: bool = False, marks=()) -> Path:
    """Markers with vertical error bars: series = [(name, x, y, y_low, y_high)]; `zero` draws the 0 line (for
    differences), `marks` = [(x, y)] ringed in red (the baseline)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, (name, x, y, low, high) in enumerate(series):
        shift = [v + 0.08 * (k - (len(series) - 1) / 2) for v in x] if xticks else x
        ax.errorbar(shift, y, yerr=[[a - b for a, b in zip(y, low, strict=True)],
                                    [b - a for a, b in zip(y, high, strict=True)]],
                    fmt="o-" if not xticks else "o", capsize=3, label=name, ms=4)
    if diagonal:  # over the data's range, so the points are not squashed into a corner
        values = [v for _, x, y, low, high in series for v in (*x, *low, *high)]
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        pad = 0.05 * (hi - lo or 1.0)
        ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="grey", ls="--", lw=1, label="perfect calibration")
    if zero:
        ax.axhline(0, color="grey", lw=1, ls="--")
    for x, y in marks:
        ax.plot([x], [y], "o", mfc="none", mec="crimson", ms=12, mew=2, zorder=3)
    if xticks:
        ax.set_xticks(range(len(xticks)), xticks)
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.grid(alpha=0.3)
    if series:
        ax.legend(fontsize=8)
    return _save(fig, path)


def stacked_shares(path: Path, *, names, shares, categories, xlabel: str, title: str) -> Path:
    """Horizontal stacked bars: shares[i][j] = share of category j for row i."""
    fig, ax = plt.subplots(figsize=(8, 0.8 + 0.42 * max(3, len(names))))
    left = [0.0] * len(names)
    for j, cat in enumerate(categories):
        widths = [row[j] for row in shares]
        ax.barh(range(len(names)), widths, left=left, label=str(cat))
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(range(len(names)), list(names))
    ax.set(xlabel=xlabel, title=title, xlim=(0, 1))
    ax.legend(fontsize=8, ncol=len(categories), loc="lower right")
    return _save(fig, path)
