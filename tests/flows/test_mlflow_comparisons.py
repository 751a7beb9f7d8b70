"""Sweeps and judged matches in MLflow (issue 30 item 8): each config's child run carries its paired difference to
the baseline and to the best; a judged match logged with --log has a run tagged with its match id, and an MLflow
store that cannot take it costs one note, never the hand log's copy. MLFLOW_TRACKING_URI is the tests' temporary
store (tests/conftest.py)."""

import numpy as np
import pytest
from mlflow.tracking import MlflowClient

from flows.settings import Paths
from flows.store import read_only
from flows.sweep import SweepSpec, sweep_flow
from tests.cli.test_validation import run


def _client() -> MlflowClient:
    return MlflowClient(Paths.from_env().tracking_uri)


def _payoffs(db: str, match_id: str) -> np.ndarray:
    con = read_only(db)
    try:
        rows = con.execute("SELECT payoff FROM units WHERE match_id = ? ORDER BY unit", [match_id]).fetchall()
    finally:
        con.close()
    return np.array([p for (p,) in rows])


def test_each_config_run_has_its_paired_difference_to_the_baseline_and_the_best(toy, tmp_path):
    db = str(tmp_path / "h.duckdb")
    spec = SweepSpec(game="toy", bot="coin", grid=(("edge", ("0.3", "0.7")),), units=200, chunk_size=100, seed=5,
                     baseline=())  # the bot's defaults (edge 0.5) are swept first
    outcome = sweep_flow(spec, db=db)
    client = _client()
    parent = client.get_run(outcome.mlflow_run_id)
    children = {r.data.tags["cardlab.match_id"]: r.data.metrics for r in client.search_runs(
        [parent.info.experiment_id], f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")}
    base, best = outcome.baseline.match_id, outcome.best.match_id
    assert set(children) == {r.match_id for r in outcome.runs} and len(children) == 3
    assert children[base]["paired_diff_vs_baseline"] == 0.0 and children[best]["paired_diff_vs_best"] == 0.0
    for match_id, metrics in children.items():
        for name, reference in (("baseline", base), ("best", best)):
            if match_id == reference:
                continue
            diff = _payoffs(db, match_id) - _payoffs(db, reference)  # the same units: a paired difference
            assert metrics[f"paired_diff_vs_{name}"] == pytest.approx(diff.mean())
            assert metrics[f"paired_units_vs_{name}"] == len(diff) == 200
            assert metrics[f"paired_low_vs_{name}"] < diff.mean() < metrics[f"paired_high_vs_{name}"]
    assert children[best]["paired_diff_vs_baseline"] == pytest.approx(outcome.baseline_diff)


@pytest.fixture
def handlog(tmp_path, monkeypatch):
    path = tmp_path / "handlog.duckdb"
    monkeypatch.setenv("CARDLAB_DB", str(path))
    return str(path)


def test_a_logged_judged_match_has_a_run_carrying_its_match_id(handlog):
    result = run("judge", "tractor", "--rounds", "3", "--log")
    assert result.exit_code == 0, result.stderr
    announced = result.output.split("logged match as ")[1].split("\n")[0]  # `ID (MLflow run RUN)`
    match_id, run_id = announced.split()[0], announced.split("MLflow run ")[1].rstrip(")")
    found = _client().get_run(run_id)
    assert found.data.tags["cardlab.match_id"] == match_id and found.data.tags["cardlab.kind"] == "judged"
    assert found.data.params["game"] == "tractor" and found.data.params["units"] == "3"
    payoffs = _payoffs(handlog, match_id)
    assert found.data.metrics["units"] == len(payoffs) == 3
    assert found.data.metrics["mean"] == pytest.approx(payoffs.mean())


def test_an_unwritable_store_leaves_the_judged_match_in_the_hand_log_and_one_note(handlog, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.touch()
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{blocker}/mlflow.db")
    result = run("judge", "tractor", "--rounds", "3", "--log")
    assert result.exit_code == 0, result.stderr
    match_id = result.output.split("logged match as ")[1].split()[0]
    assert "MLflow run" not in result.output and len(_payoffs(handlog, match_id)) == 3
    notes = [line for line in result.stderr.splitlines() if "MLflow" in line]
    assert len(notes) == 1 and match_id in notes[0] and "FileExistsError" in notes[0], result.stderr
