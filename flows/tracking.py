"""MLflow: one experiment per game, a parent run per sweep, a child run per config."""

import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import mlflow
from mlflow.exceptions import MlflowException
from mlflow.tracking import MlflowClient

from engine.core.cache_file import build_lock
from flows.settings import Paths

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
    spec: dict | None = None, report_dir: Path | None = None,
) -> str:
    """Record a finished sweep; returns the parent run id. The parent run carries the sweep's
    spec (`spec`, else what the other arguments say of it) and the git commit as a tag, and
    the report's page and plots when `report_dir` is given (attach_report adds them later)."""
    from flows.store import code_version

    exp = experiment_id(game)
    _drop_earlier_runs(exp, sweep_id)
    with mlflow.start_run(experiment_id=exp, run_name=f"sweep {sweep_id}") as parent:
        commit = code_version()
        mlflow.set_tags({"cardlab.kind": "sweep", "cardlab.sweep_id": sweep_id, "cardlab.game": game,
                         "cardlab.bot": bot, "cardlab.git_commit": commit,
                         "mlflow.source.git.commit": commit.removesuffix("+dirty")})
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
                                    "units": run.units, "units_per_s": run.units_per_s})
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
