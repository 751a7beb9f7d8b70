"""Everything a sweep report shows, read once from the hand log: configs with intervals (the
ranking is flows.sweep_record's), the baseline, paired differences on common deals, and the
cumulative difference curves."""

import json
from dataclasses import dataclass

import numpy as np

from flows import games, sweep_record
from flows.stats import Z95, difference_bounds, paired_mean_interval
from reports.baseline import baseline_match

CURVE_POINTS = 400  # points per curve: enough for the shape, small PNGs


@dataclass(frozen=True)
class Pair:
    """a minus b on the same units (common random numbers)."""

    a: str
    b: str
    units: int
    mean: float
    se: float
    bounds: tuple[float, float] | None = None  # the difference's range, when the game's payoff has one

    @property
    def interval(self):
        """flows.stats.paired_mean_interval: never a point where every unit tied (the method is named)."""
        return paired_mean_interval(self.units, self.mean, self.se, self.bounds)

    @property
    def low(self) -> float:
        return self.interval.low

    @property
    def high(self) -> float:
        return self.interval.high

    @property
    def clear(self) -> bool:
        """The interval leaves out 0."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class Curve:
    """Cumulative sum of `match` minus `reference`, unit by unit, with a 95% band (+- 1.96 sd
    of the per-unit difference times sqrt(units): where a zero-mean difference would stay)."""

    match: str
    reference: str
    units: tuple[int, ...]
    cumulative: tuple[float, ...]
    band: tuple[float, ...]


@dataclass(frozen=True)
class SweepData:
    row: dict
    spec: dict
    configs: tuple  # sweep_record.ConfigResult, config order
    ranked: tuple  # best first (sweep_record.ranked)
    labels: dict
    baseline: str | None
    pairs: dict  # (a, b) -> Pair
    curves: tuple[Curve, ...]
    payoff_label: str
    unit: str
    decision: sweep_record.Decided | None = None  # a sweep run until decided (flows/decide.py)
    keys: tuple[str, ...] = ()  # the swept parameters, in the spec's order

    @property
    def sweep_id(self) -> str:
        return self.row["sweep_id"]

    @property
    def game(self) -> str:
        return self.row["game"]

    @property
    def best(self):
        return self.ranked[0]

    @property
    def runner_up(self):
        return self.ranked[1] if len(self.ranked) > 1 else None

    @property
    def reference(self) -> str:
        """What differences are taken against: the baseline, else the best config."""
        return self.baseline or self.best.match_id

    def pair(self, a: str, b: str) -> Pair | None:
        return self.pairs.get((a, b))

    def short(self) -> list:
        return [c for c in self.configs if c.units < c.planned and not c.failure]  # a failed one is listed apart

    def failed(self) -> list:
        return [c for c in self.configs if c.failure]


def config_values(config: dict) -> dict:
    """A config's parameters by name: a bot's config, or a program's template parameters."""
    return config | dict(config.get("params", ())) if "template" in config else config


def label(config: dict, keys) -> str:
    values = config_values(config)
    return ", ".join(f"{k}={values.get(k)}" for k in keys) or "defaults"


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if np.isfinite(number) else None


@dataclass(frozen=True)
class ParamSeries:
    """Configs that differ only in `key` (the other swept parameters fixed at `others`), by value of `key`:
    each one's mean with its interval and its paired difference to the reference with its interval."""

    key: str
    others: str  # the other parameters' values, "" when `key` is the only one that varies
    x: tuple[float, ...]
    mean: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    diff: tuple[float, ...]  # minus the reference on the same deals (nan where no pair was measured)
    diff_low: tuple[float, ...]
    diff_high: tuple[float, ...]
    matches: tuple[str, ...]


def param_series(data: SweepData) -> dict[str, list[ParamSeries]]:
    """Per numeric swept parameter that takes at least two values among the completed configs: profit and
    paired difference against it, one series per setting of the other parameters (so a peak between two
    grid values shows as a curve, not as a rank)."""
    out = {}
    varying = [k for k in data.keys if len({str(config_values(c.config).get(k)) for c in data.ranked}) > 1]
    for key in varying:
        numbers = {c.match_id: _number(config_values(c.config).get(key)) for c in data.ranked}
        if None in numbers.values() or len(set(numbers.values())) < 2:
            continue
        groups: dict[str, list] = {}
        for c in data.ranked:
            values = config_values(c.config)
            others = ", ".join(f"{k}={values.get(k)}" for k in varying if k != key)
            groups.setdefault(others, []).append(c)
        series = []
        for others, members in groups.items():
            members.sort(key=lambda c: numbers[c.match_id])
            diffs = [_diff(data, c.match_id) for c in members]
            series.append(ParamSeries(key, others, tuple(numbers[c.match_id] for c in members),
                                      tuple(c.mean for c in members), tuple(c.ci_low for c in members),
                                      tuple(c.ci_high for c in members), *map(tuple, zip(*diffs, strict=True)),
                                      tuple(c.match_id for c in members)))
        out[key] = series
    return out


def _diff(data: SweepData, match: str) -> tuple[float, float, float]:
    if match == data.reference:
        return 0.0, 0.0, 0.0  # the reference minus itself, exactly
    p = data.pair(match, data.reference)
    return (p.mean, p.low, p.high) if p is not None else (float("nan"),) * 3


def load(con, sweep_id: str | None) -> SweepData:
    found = sweep_record.find(con, sweep_id)
    sid = found.sweep_id
    cols = [d[0] for d in con.execute("SELECT * FROM sweeps WHERE sweep_id = ?", [sid]).description]
    row = dict(zip(cols, con.execute("SELECT * FROM sweeps WHERE sweep_id = ?", [sid]).fetchone(), strict=True))
    spec = found.spec or {}
    configs = tuple(sweep_record.results(con, sid))
    keys = list(dict.fromkeys([k for k, _ in spec.get("fixed", [])] + [k for k, _ in spec.get("grid", [])]
                              or list(json.loads(row["grid"]))))
    labels = {c.match_id: label(c.config, keys) for c in configs}
    base = baseline_match(con, sid)
    if base in labels:
        labels[base] += " (baseline)"
    pairs = {(a, b): Pair(a, b, n, m, se or 0.0, difference_bounds(row["game"]))
             for a, b, n, m, se in sweep_record.pair_rows(con, sid)}
    ranked = tuple(sweep_record.ranked(list(configs)))
    reference = base or (ranked[0].match_id if ranked else None)
    curves = tuple(_curve(con, c.match_id, reference) for c in configs if reference and c.match_id != reference)
    try:
        adapter = games.get(row["game"])
        axis, unit = adapter.payoff_label, adapter.unit
    except KeyError:  # a game no longer registered still gets its report
        axis, unit = "payoff per unit", "unit"
    return SweepData(row, spec, configs, ranked, labels, base, pairs, curves, axis, unit,
                     sweep_record.decided(con, sid), tuple(keys))


def _curve(con, match: str, reference: str) -> Curve:
    diffs = np.array([d for (d,) in con.execute(
        "SELECT a.payoff - b.payoff FROM units a JOIN units b ON a.unit = b.unit "
        "WHERE a.match_id = ? AND b.match_id = ? ORDER BY a.unit", [match, reference]).fetchall()], dtype=float)
    if len(diffs) == 0:
        return Curve(match, reference, (), (), ())
    cumulative = np.cumsum(diffs)
    n = np.arange(1, len(diffs) + 1)
    sd = float(diffs.std(ddof=1)) if len(diffs) > 1 else 0.0
    keep = np.unique(np.r_[np.arange(0, len(diffs), max(1, len(diffs) // CURVE_POINTS)), len(diffs) - 1])
    return Curve(match, reference, tuple(int(x) for x in n[keep]), tuple(float(x) for x in cumulative[keep]),
                 tuple(float(x) for x in Z95 * sd * np.sqrt(n[keep])))
