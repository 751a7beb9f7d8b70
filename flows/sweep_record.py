"""What the hand log says about sweeps: the one meaning of "latest" and of "the sweep's best"
that `pick`, `report`, `demo` and the sweep flow itself all use.

- latest: the sweep of the game (or of any game) that started last, whatever its state;
- complete: every config has all its units and the sweep was closed (MLflow logged);
- best: the config with the highest lower 95% confidence bound, ties to the earlier config; for a sweep
  run until decided, the config its decision names (flows/decide.py);
- failed: a config whose program crashed or broke the protocol (matches.failure holds why); it is never
  the best, and a sweep whose other configs all completed is complete.

Functions take any DuckDB connection (a writer's or a read-only one).
"""

import json
import math
from dataclasses import dataclass

from engine.core.errors import BadValue, NotFound
from flows.stats import payoff_interval


class SweepNotFound(NotFound):
    """No such sweep in the hand log."""


class SweepIncomplete(BadValue):
    """The sweep has missing units or was never closed; its best would be a guess."""


@dataclass(frozen=True)
class SweepRow:
    sweep_id: str
    game: str
    bot: str
    spec: dict | None  # None for sweeps recorded before specs were stored
    finished: bool
    mlflow_run: str | None


@dataclass(frozen=True)
class ConfigResult:
    match_id: str
    bot: str
    config: dict
    units: int
    planned: int
    mean: float
    se: float
    ci_low: float
    ci_high: float
    method: str = "Student t"  # how the interval was made
    failure: str | None = None  # why the config failed (it is then never ranked)


_SWEEP_COLUMNS = "sweep_id, game, bot, spec, finished_at IS NOT NULL, mlflow_run"


def _row(found) -> SweepRow:
    sweep_id, game, bot, spec, finished, run = found
    return SweepRow(sweep_id, game, bot, json.loads(spec) if spec else None, bool(finished), run)


def recent(con, game: str | None = None, limit: int = 5) -> list[str]:
    where, params = ("WHERE game = ?", [game]) if game else ("", [])
    return [r[0] for r in con.execute(f"SELECT sweep_id FROM sweeps {where} ORDER BY started_at DESC, sweep_id DESC "
                                      f"LIMIT {int(limit)}", params).fetchall()]


def find(con, sweep_id: str | None = None, *, game: str | None = None) -> SweepRow:
    """The named sweep, or the latest one ('latest' or None), of `game` if given."""
    if sweep_id in (None, "latest"):
        where, params = ("WHERE game = ?", [game]) if game else ("", [])
        found = con.execute(f"SELECT {_SWEEP_COLUMNS} FROM sweeps {where} "
                            "ORDER BY started_at DESC, sweep_id DESC LIMIT 1", params).fetchall()
        if not found:
            raise SweepNotFound(f"no sweep{' of ' + game if game else ''} in the hand log yet; "
                                f"run `cardlab sweep {game or 'GAME'} ...` first")
    else:
        found = con.execute(f"SELECT {_SWEEP_COLUMNS} FROM sweeps WHERE sweep_id = ?", [sweep_id]).fetchall()
        if not found:
            known = ", ".join(recent(con, game)) or "none"
            raise SweepNotFound(f"no sweep {sweep_id!r} in the hand log; recent sweeps: {known}")
    row = _row(found[0])
    if game and row.game != game:
        raise SweepNotFound(f"sweep {row.sweep_id} is a {row.game} sweep, not {game}")
    return row


def failures(con, sweep_id: str) -> dict[str, str]:
    """The sweep's failed configs: match id -> reason (none in a hand log from before failures were kept)."""
    known = con.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = 'matches' "
                        "AND column_name = 'failure'").fetchall()
    if not known or not known[0][0]:
        return {}
    rows = con.execute("SELECT match_id, failure FROM matches WHERE sweep_id = ? AND failure IS NOT NULL "
                       "ORDER BY match_id", [sweep_id]).fetchall()
    return dict(rows)


def results(con, sweep_id: str) -> list[ConfigResult]:
    """Each config of the sweep with its units and interval (flows.stats.payoff_interval: Student t, never a
    point for a game whose payoff range is known), in config order."""
    rows = con.execute(
        "SELECT match_id, game, bot, config, units, (SELECT units FROM matches m WHERE m.match_id = r.match_id), "
        "mean, sd, se FROM mart_match_results r WHERE sweep_id = ? ORDER BY match_id",
        [sweep_id]).fetchall()
    failed = failures(con, sweep_id)
    found = []
    for match_id, game, bot, config, units, planned, mean, sd, se in rows:
        interval = payoff_interval(game, int(units), math.nan if mean is None else float(mean),
                                   math.nan if sd is None else float(sd))
        found.append(ConfigResult(match_id, bot, json.loads(config), int(units), int(planned), interval.mean,
                                  float(se or 0.0), interval.low, interval.high, interval.method,
                                  failed.get(match_id)))
    return found


def pair_rows(con, sweep_id: str) -> list[tuple[str, str, int, float, float | None]]:
    """(a, b, units, mean of a - b, its standard error) for every two configs of the sweep on their common units
    (mart_sweep_pairs); the interval is flows.stats.paired_mean_interval's."""
    return [(a, b, int(n), float(m), None if se is None else float(se)) for a, b, n, m, se in con.execute(
        "SELECT match_a, match_b, units, mean_diff, se_diff FROM mart_sweep_pairs WHERE sweep_id = ?",
        [sweep_id]).fetchall()]


def ranked(configs: list) -> list:
    """The configs that did not fail, best lower bound (`.ci_low`) first; a stable sort keeps config order
    among ties."""
    return sorted((c for c in configs if not getattr(c, "failure", None)), key=lambda c: c.ci_low, reverse=True)


@dataclass(frozen=True)
class Decided:
    """What a sweep run with --until-decided decided (flows/decide.py), with the confirmation's estimate."""

    decision: str  # switch, keep or undecided
    best_match: str
    confirmed_mean: float | None  # challenger minus baseline on the confirmation's fresh deals
    confirmed_low: float | None
    confirmed_high: float | None
    confirmed_method: str | None
    deals: dict  # which deals each phase used
    hands: int = 0  # every unit played, confirmation included
    llr_path: tuple[tuple[int, float], ...] = ()  # (confirmation units per config, LLR) at each look
    bounds: tuple[float, float] = (float("nan"), float("nan"))  # accept H0 at or below, H1 at or above


def decided(con, sweep_id: str) -> Decided | None:
    """The decision of a decided sweep; None for a fixed-size sweep (or a hand log without decisions)."""
    import duckdb

    try:
        found = con.execute("SELECT decision, best_match, confirmed_mean, confirmed_low, confirmed_high, "
                            "confirmed_method, deals, hands FROM decisions WHERE sweep_id = ?", [sweep_id]).fetchall()
        looks = con.execute("SELECT units, llr, lower, upper FROM decision_looks WHERE sweep_id = ? "
                            "AND phase = 'confirm' ORDER BY look", [sweep_id]).fetchall()
    except duckdb.CatalogException:
        return None
    if not found:
        return None
    *head, deals, hands = found[0]
    return Decided(*head, json.loads(deals), int(hands), tuple((int(u), float(llr)) for u, llr, _, _ in looks),
                   (float(looks[-1][2]), float(looks[-1][3])) if looks else (float("nan"), float("nan")))


def complete_best(con, sweep_id: str | None = None, *, game: str | None = None) -> tuple[SweepRow, ConfigResult]:
    """The sweep's best config, refusing a sweep whose result is not final. A decided sweep's best is
    the config its decision names (the baseline unless the confirmation said switch)."""
    row = find(con, sweep_id, game=game)
    configs = results(con, row.sweep_id)
    short = [c for c in configs if c.units < c.planned and not c.failure]
    resume = f"`cardlab sweep {row.game} --resume {row.sweep_id}`"
    if configs and all(c.failure for c in configs):
        raise SweepIncomplete(f"sweep {row.sweep_id} is incomplete (every config failed: "
                              f"{'; '.join(c.failure for c in configs)}); fix the cause, then {resume} plays them "
                              f"again")
    if short or not configs:
        missing = sum(c.planned - c.units for c in short)
        raise SweepIncomplete(f"sweep {row.sweep_id} is incomplete ({missing:,} units missing in {len(short)} of "
                              f"{len(configs)} configs); finish it with {resume} or name another with --sweep")
    if not row.finished:
        raise SweepIncomplete(f"sweep {row.sweep_id} has every unit but was never closed (its MLflow runs were not "
                              f"all logged); close it with {resume}")
    decision = decided(con, row.sweep_id)
    if decision is not None:
        return row, next(c for c in configs if c.match_id == decision.best_match)
    return row, ranked(configs)[0]


@dataclass(frozen=True)
class Picked:
    """A sweep's best config, as `pick` exports it."""

    sweep_id: str
    game: str
    bot: str
    match_id: str
    config: dict  # the whole config
    overrides: dict  # the keys the sweep set (grid and fixed overrides)
    mean: float
    lower_bound: float
    run_id: str | None  # the sweep's MLflow parent run
    decision: Decided | None = None  # a decided sweep's decision and confirmation (fresh deals)
    failed: tuple[tuple[str, str], ...] = ()  # (config, reason) of each config that failed: not considered

    @property
    def parent_run_id(self) -> str | None:
        return self.run_id


def pick(con, game: str, sweep_id: str | None = None) -> Picked:
    """The best config of a complete sweep (the latest of `game` by default)."""
    row, best = complete_best(con, sweep_id, game=game)
    spec = row.spec or {}
    keys = [k for k, _ in spec.get("fixed", [])] + [k for k, _ in spec.get("grid", [])]
    failed = tuple((config_label(c.config, keys), c.failure) for c in results(con, row.sweep_id) if c.failure)
    return Picked(sweep_id=row.sweep_id, game=row.game, bot=best.bot, match_id=best.match_id, config=best.config,
                  overrides=_chosen(best.config, keys), mean=best.mean, lower_bound=best.ci_low, run_id=row.mlflow_run,
                  decision=decided(con, row.sweep_id), failed=failed)


def _chosen(config: dict, keys: list[str]) -> dict:
    """The values of the keys a sweep set (a program's parameters, or a bot's config keys)."""
    values = config | dict(config.get("params", ())) if "template" in config else config
    return {k: values[k] for k in dict.fromkeys(keys) if k in values}


def config_label(config: dict, keys: list[str]) -> str:
    """`k=v, ...` for the keys a sweep set: how a config is named to a user."""
    return ", ".join(f"{k}={v}" for k, v in _chosen(config, keys).items()) or "defaults"
