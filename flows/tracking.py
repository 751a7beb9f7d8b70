"""MLflow: one experiment per game holding every comparison a user makes: a parent run per sweep with a child
per config (its paired differences to the baseline and to the best), a parent run per league invocation with a
child per entrant version, and a run per judged match that went into the hand log."""

import contextlib
import json
import logging
import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import mlflow
from mlflow.exceptions import MlflowException
from mlflow.tracking import MlflowClient
from sqlalchemy.exc import SQLAlchemyError

from engine.core.cache_file import build_lock
from flows.settings import Paths
from flows.stats import difference_bounds, paired_mean_interval, payoff_interval, summarize

# An unwritable, full or broken store. The hand log is written first and keeps everything; a league or a judged
# match then says in one line why MLflow has no run (a sweep stays open until --resume logs it).
NOT_TRACKED = (MlflowException, OSError, SQLAlchemyError)

_READY: set[str] = set()  # tracking URIs whose store this process has opened (created or migrated once)


@dataclass(frozen=True)
class ConfigRun:
    match_id: str
    bot: str
    config: dict
    overrides: dict
    units: int
    mean: float
    se: float
    ci_low: float
    ci_high: float
    units_per_s: float
    failure: str | None = None  # why the config failed (its program crashed): a FAILED run with this tag


def mlflow_client() -> MlflowClient:
    logging.getLogger("mlflow").setLevel(logging.WARNING)  # no migration chatter on the CLI
    logging.getLogger("alembic").setLevel(logging.WARNING)
    uri = Paths.from_env().tracking_uri
    mlflow.set_tracking_uri(uri)
    if uri in _READY:
        return MlflowClient(uri)
    with _setup_lock(uri):
        client = MlflowClient(uri)  # opens the store: on a new SQLite store, creates and migrates it
        client.search_experiments(max_results=1)
    _READY.add(uri)
    return client


def _setup_lock(uri: str):
    """The first opening of a store, one process at a time. On a new SQLite store MLflow creates the
    tables and runs its migrations; two commands starting at once would both migrate, and one dies
    with alembic's CommandError. So it holds `<store>.lock`: the second waits, then finds the store
    made. (A tracking server or another database locks for itself.)"""
    if not uri.startswith("sqlite:///"):
        return contextlib.nullcontext()
    return build_lock(Path(uri.removeprefix("sqlite:///")))


def experiment_id(game: str) -> str:
    client = mlflow_client()
    name = f"cardlab-{game}"
    found = client.get_experiment_by_name(name)
    if found is not None:
        return found.experiment_id
    root = Paths.from_env().artifact_root / name
    root.mkdir(parents=True, exist_ok=True)
    try:
        return client.create_experiment(name, artifact_location=root.as_uri())
    except MlflowException:  # another command starting at the same time created it first
        found = client.get_experiment_by_name(name)
        if found is None:
            raise
        return found.experiment_id


def log_sweep(
    *, game: str, sweep_id: str, bot: str, grid: dict, seed: int, runs: list[ConfigRun],
    best: ConfigRun, runner_up: ConfigRun | None, paired_diff: float | None, paired_se: float | None,
    spec: dict | None = None, report_dir: Path | None = None, baseline: ConfigRun | None = None,
    pairs: list[tuple[str, str, int, float, float | None]] = (),
) -> str:
    """Record a finished sweep; returns the parent run id. The parent run carries the sweep's
    spec (`spec`, else what the other arguments say of it) and the git commit as a tag, and
    the report's page and plots when `report_dir` is given (attach_report adds them later).
    Each child carries its paired difference to `baseline` and to `best` from `pairs`
    (flows.sweep_record.pair_rows), so configs compare side by side in MLflow's UI."""
    exp = experiment_id(game)
    _drop_earlier_runs(exp, sweep_id)
    with mlflow.start_run(experiment_id=exp, run_name=f"sweep {sweep_id}") as parent:
        mlflow.set_tags({"cardlab.kind": "sweep", "cardlab.sweep_id": sweep_id, "cardlab.game": game,
                         "cardlab.bot": bot} | _git_tags())
        mlflow.log_dict(spec if spec is not None else {"game": game, "bot": bot, "grid": grid, "seed": seed},
                        "sweep_spec.json")
        mlflow.log_params({"bot": bot, "seed": seed, "configs": len(runs), "units_per_config": best.units,
                           "grid": json.dumps(grid)[:500]})
        for run in runs:
            with mlflow.start_run(experiment_id=exp, run_name=_label(run.overrides), nested=True) as child:
                mlflow.set_tags({"cardlab.kind": "config", "cardlab.sweep_id": sweep_id, "cardlab.game": game,
                                 "cardlab.bot": bot, "cardlab.match_id": run.match_id,
                                 "cardlab.overrides": json.dumps(run.overrides, sort_keys=True)})
                # A program's parameters are logged by name, like a bot's config keys.
                params = run.config | dict(run.config.get("params", ())) if "template" in run.config else run.config
                mlflow.log_params({k: str(v)[:500] for k, v in params.items()})
                mlflow.log_metrics({"mean": run.mean, "se": run.se, "ci_low": run.ci_low, "ci_high": run.ci_high,
                                    "units": run.units, "units_per_s": run.units_per_s}
                                   | paired_metrics(game, run.match_id, pairs, {
                                       "baseline": baseline.match_id if baseline else None, "best": best.match_id}))
                mlflow.log_dict({"game": game, "bot": bot, "config": run.config, "overrides": run.overrides},
                                "config.json")
                if run.failure:
                    mlflow.set_tag("cardlab.failure", run.failure[:5000])
            if run.failure:  # after the block, which would end it FINISHED
                mlflow_client().set_terminated(child.info.run_id, status="FAILED")
        metrics = {"best_mean": best.mean, "best_ci_low": best.ci_low}
        if paired_diff is not None:
            metrics |= {"paired_diff_vs_runner_up": paired_diff, "paired_se_vs_runner_up": paired_se or 0.0}
        mlflow.log_metrics(metrics)
        mlflow.set_tags({"cardlab.best_match": best.match_id,
                         "cardlab.best_overrides": json.dumps(best.overrides, sort_keys=True),
                         "cardlab.runner_up_match": runner_up.match_id if runner_up else ""})
        if report_dir is not None:
            _log_report(report_dir)
        return parent.info.run_id


def paired_metrics(game: str, match_id: str, pairs: list[tuple[str, str, int, float, float | None]],
                   against: dict[str, str | None]) -> dict[str, float]:
    """`paired_diff_vs_<name>` with its 95% interval (`paired_low_vs_`, `paired_high_vs_`) and units: the config
    minus each named reference on their common units (flows.stats.paired_mean_interval, never a point); the
    reference itself is 0 exactly. A reference that is None, or not paired with the config, gives nothing."""
    by_pair = {(a, b): (units, mean, se) for a, b, units, mean, se in pairs}
    out: dict[str, float] = {}
    for name, reference in against.items():
        if reference == match_id:
            out |= {f"paired_diff_vs_{name}": 0.0, f"paired_low_vs_{name}": 0.0, f"paired_high_vs_{name}": 0.0}
        elif (match_id, reference) in by_pair:
            units, mean, se = by_pair[(match_id, reference)]
            found = paired_mean_interval(int(units), float(mean), float(se or 0.0), difference_bounds(game))
            out |= {f"paired_diff_vs_{name}": found.mean, f"paired_low_vs_{name}": found.low,
                    f"paired_high_vs_{name}": found.high, f"paired_units_vs_{name}": units}
    return out


def attach_report(run_id: str, report_dir: Path) -> None:
    """Add a sweep report (page, plots, replay pages) to the sweep's parent run, under report/."""
    mlflow_client()
    with mlflow.start_run(run_id=run_id):
        _log_report(report_dir)


def _log_report(report_dir: Path) -> None:
    mlflow.log_artifacts(str(report_dir), artifact_path="report")


def _label(overrides: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(overrides.items())) or "defaults"


def _drop_earlier_runs(exp: str, sweep_id: str) -> None:
    """A sweep logged again (resumed after a kill during logging) keeps one parent run: the
    partial one is deleted with its children, so MLflow never shows two versions of a sweep."""
    client = mlflow_client()
    for run in client.search_runs([exp], f"tags.`cardlab.sweep_id` = '{sweep_id}'", max_results=10_000):
        client.delete_run(run.info.run_id)


def why_not_tracked(exc: BaseException) -> str:
    """`Type: first line`, for the one-line note that says MLflow has no run."""
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def _git_tags() -> dict[str, str]:
    from flows.store import code_version

    commit = code_version()
    return {"cardlab.git_commit": commit, "mlflow.source.git.commit": commit.removesuffix("+dirty")}


def _finite(metrics: dict) -> dict[str, float]:
    """MLflow takes numbers: a figure the standings leave empty (no rating, no CPU measured) is not logged."""
    return {k: float(v) for k, v in metrics.items() if v is not None and math.isfinite(v)}


def _metric_name(entrant: str) -> str:
    """name@version as MLflow accepts it in a metric's name (no @)."""
    name, _, version = entrant.rpartition("@")
    return f"{name}.{version}" if name else entrant


def log_league(board, *, seed: int, games: int, players: int, options: dict, entrants: dict, planned: int,
               played: int, difference: bool) -> str:
    """One parent run per league invocation (a resumed or extended league logs a new one: each run is the
    standings after that invocation, earlier runs stay as its history) with a child per entrant version, so two
    versions of a program never share a run. `board` is flows.league_ratings.Leaderboard; `entrants` maps each
    entrant key (name@version) to its flows.league_spec.Entrant; `difference`: the pairs are paired differences
    (else shares of games finishing ahead). Returns the parent run id."""
    exp = experiment_id(board.game)
    with mlflow.start_run(experiment_id=exp, run_name=f"league {board.league}") as parent:
        mlflow.set_tags({"cardlab.kind": "league", "cardlab.league": board.league, "cardlab.game": board.game,
                         "cardlab.score": board.score_label, "cardlab.measure": board.measure_label,
                         "cardlab.pairs": board.pair_label} | _git_tags())
        mlflow.log_params({"league": board.league, "game": board.game, "seed": seed, "games": games,
                           "players": players, "options": json.dumps(options, sort_keys=True)[:500],
                           "entrants": len(board.standings)})
        figures = {"games_planned": planned, "games_played_now": played}
        for s in board.standings:
            label = _metric_name(s.entrant)
            figures |= {f"score/{label}": s.score, f"measure/{label}": s.measure, f"measure_low/{label}": s.ci_low,
                        f"measure_high/{label}": s.ci_high}
        mlflow.log_metrics(_finite(figures))
        mlflow.log_dict(board.to_json(), "leaderboard.json")
        if board.pairs:  # a table MLflow's UI shows; its pandas call warns of a pandas 4 change that is MLflow's
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                _log_pairs(board.pairs)
        for position, s in enumerate(board.standings, start=1):
            e = entrants.get(s.entrant)
            with mlflow.start_run(experiment_id=exp, run_name=s.entrant, nested=True):
                mlflow.set_tags({"cardlab.kind": "entrant", "cardlab.league": board.league, "cardlab.game": board.game,
                                 "cardlab.entrant": s.entrant, "cardlab.version": s.version,
                                 "cardlab.entrant_kind": e.kind if e else "",
                                 "cardlab.command": e.command[:5000] if e else ""})
                mlflow.log_params({"name": s.name, "version": s.version, "kind": e.kind if e else "unknown",
                                   "command": e.command[:500] if e else ""})
                mlflow.log_metrics(_finite({
                    "position": position, "score": s.score, "measure": s.measure, "ci_low": s.ci_low,
                    "ci_high": s.ci_high, "games": s.games, "faults": s.faults, "mu": s.mu, "sigma": s.sigma,
                    "cpu_seconds": s.cpu_seconds} | _versus(s.entrant, board.pairs, difference=difference)))
        return parent.info.run_id


def _log_pairs(pairs) -> None:
    mlflow.log_table({"a": [p.a for p in pairs], "b": [p.b for p in pairs], "games": [p.games for p in pairs],
                      "value": [p.value for p in pairs], "ci_low": [p.ci_low for p in pairs],
                      "ci_high": [p.ci_high for p in pairs]}, "pairs.json")


def _versus(entrant: str, pairs, *, difference: bool) -> dict:
    """`vs/<other>` with `_low`, `_high` and games: each pair seen from `entrant`'s side. b's side of a's share is
    one minus it, of a paired difference minus it; both intervals (Wilson, t) are symmetric, so the bounds swap."""
    out = {}
    for p in pairs:
        if entrant not in (p.a, p.b):
            continue
        value, low, high = p.value, p.ci_low, p.ci_high
        if entrant == p.b:
            value, low, high = (-value, -high, -low) if difference else (1 - value, 1 - high, 1 - low)
        other = _metric_name(p.b if entrant == p.a else p.a)
        out |= {f"vs/{other}": value, f"vs_low/{other}": low, f"vs_high/{other}": high, f"vs_games/{other}": p.games}
    return out


def log_judged(game: str, *, match_id: str, bot: str, config: dict, seed: int, payoffs, stats: dict | None = None,
               options: dict | None = None, seconds: float | None = None) -> str:
    """One run per judged match in the hand log, named and tagged by its match id (the hand log's key), with the
    primary player's mean payoff per unit and its 95% interval (flows.stats.payoff_interval). Returns the run id."""
    summary = summarize(payoffs)
    interval = payoff_interval(game, summary.n, summary.mean, summary.sd)
    with mlflow.start_run(experiment_id=experiment_id(game), run_name=f"judged {match_id}") as run:
        mlflow.set_tags({"cardlab.kind": "judged", "cardlab.match_id": match_id, "cardlab.game": game,
                         "cardlab.bot": bot, "cardlab.interval": interval.method} | _git_tags())
        mlflow.log_params({"game": game, "bot": bot[:500], "seed": seed, "units": summary.n}
                          | {f"config.{k}": str(v)[:500] for k, v in config.items()}
                          | {f"option.{k}": str(v)[:500] for k, v in (options or {}).items()})
        mlflow.log_metrics(_finite({"mean": interval.mean, "ci_low": interval.low, "ci_high": interval.high,
                                    "se": summary.se, "units": summary.n, "seconds": seconds,
                                    "units_per_s": summary.n / seconds if seconds else None}
                                   | {f"stat/{k}": v for k, v in (stats or {}).items()}))
        mlflow.log_dict({"game": game, "bot": bot, "match_id": match_id, "seed": seed, "config": config,
                         "options": options or {}}, "match.json")
        return run.info.run_id
