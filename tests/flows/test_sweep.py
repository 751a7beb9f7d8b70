"""The real sweep flow (Prefect, local mode) against a temporary DuckDB file and MLflow store."""

from dataclasses import replace

import pytest
from mlflow.tracking import MlflowClient

from flows import sweep_record, tracking
from flows.runners import LOCAL_HTTP
from flows.settings import Paths
from flows.store import read_only
from flows.sweep import SweepSpec, parse_grid, sweep_flow, validate, with_runner


@pytest.fixture(scope="module")
def outcome(toy, tmp_path_factory):
    db = tmp_path_factory.mktemp("sweep") / "h.duckdb"
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.3,0.7,0.5"]), units=1200, seed=5,
                     chunk_size=250)
    result = sweep_flow(spec, db=str(db), max_in_flight=3)
    return spec, db, result


def test_every_unit_of_every_config_lands_once(outcome):
    spec, db, result = outcome
    con = read_only(str(db))
    per_match = con.execute("SELECT match_id, count(*), count(DISTINCT unit) FROM units GROUP BY 1").fetchall()
    con.close()
    assert len(per_match) == 3
    assert all(n == distinct == 1200 for _, n, distinct in per_match)
    assert result.units_written == 3600


def test_best_config_is_named_by_lower_bound_with_paired_difference(outcome):
    _, _, result = outcome
    assert result.best.overrides == {"edge": "0.7"}
    assert result.runner_up.overrides == {"edge": "0.5"}
    # Same flips (common random numbers): edge 0.7 wins every unit 0.5 wins, and more.
    assert result.paired_diff > 0 and result.paired_se > 0
    assert result.best.ci_low > result.runner_up.ci_high


def test_mlflow_has_a_parent_with_a_child_per_config_and_pick_finds_the_best(outcome):
    _, db, result = outcome
    con = read_only(str(db))
    picked = sweep_record.pick(con, "toy", result.sweep_id)
    latest = sweep_record.pick(con, "toy")
    con.close()
    assert picked == latest
    assert picked.overrides == {"edge": 0.7}
    assert picked.match_id == result.best.match_id
    assert picked.config == {"edge": 0.7, "label": "plain", "crash_unit": -1, "crash_file": ""}
    assert picked.parent_run_id == result.mlflow_run_id
    children = MlflowClient(Paths.from_env().tracking_uri).search_runs(
        [tracking.experiment_id("toy")], f"tags.`mlflow.parentRunId` = '{result.mlflow_run_id}'")
    assert len(children) == 3


def test_resuming_a_sweep_rewrites_nothing_and_keeps_every_unit(outcome, toy):
    spec, db, result = outcome
    again = sweep_flow(replace(spec, sweep_id=result.sweep_id), db=str(db), track=False, max_in_flight=3)
    assert again.units_written == 0
    assert [r.mean for r in again.runs] == [r.mean for r in result.runs]


@pytest.mark.slow  # a sweep run twice
def test_a_crashed_sweep_keeps_finished_chunks_and_resume_plays_only_the_rest(toy, tmp_path):
    marker = tmp_path / "crash"
    marker.write_text("")
    db = str(tmp_path / "h.duckdb")
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.4,0.6"]), units=1000, seed=3, chunk_size=100,
                     fixed=(("crash_unit", "950"), ("crash_file", str(marker))), sweep_id="s-crash")
    with pytest.raises(RuntimeError, match="toy crash"):
        sweep_flow(spec, db=db, track=False, max_in_flight=2)
    con = read_only(db)
    kept = con.execute("SELECT count(*) FROM units").fetchall()[0][0]
    con.close()
    assert 0 < kept < 2000 and kept % 100 == 0
    marker.unlink()
    resumed = sweep_flow(spec, db=db, track=False)
    assert resumed.units_written == 2000 - kept
    fresh = sweep_flow(replace(spec, sweep_id="s-fresh"), db=db, track=False)
    assert [r.mean for r in resumed.runs] == [r.mean for r in fresh.runs]
    assert all(r.units == 1000 for r in resumed.runs)


def test_bad_grid_values_fail_before_any_work(toy):
    with pytest.raises(Exception, match="edge='high' is not a number"):
        validate(SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.1,high"])))
    with pytest.raises(Exception, match="unknown key 'speed'; accepted keys: crash_file, crash_unit, edge, label"):
        validate(SweepSpec(game="toy", bot="coin", grid=parse_grid(["speed=1"])))
    with pytest.raises(ValueError, match=r"--grid 'edge': not key=value; accepted: key=v1,v2"):
        parse_grid(["edge"])


@pytest.mark.slow  # a Dask cluster
def test_dask_runner_against_a_scheduler_address_gives_the_same_results(toy, tmp_path):
    from distributed import LocalCluster

    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.4,0.6"]), units=400, seed=5, chunk_size=200)
    threads = with_runner("threads")(spec, db=str(tmp_path / "a.duckdb"), track=False)
    # In-process workers: worker processes would each start their own temporary Prefect
    # server (slow here); the scheduler, the address path and task shipping are the same.
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=LOCAL_HTTP) as cluster:
        dask = with_runner("dask", address=cluster.scheduler_address)(spec, db=str(tmp_path / "b.duckdb"), track=False)
    assert [(r.overrides, r.mean) for r in threads.runs] == [(r.overrides, r.mean) for r in dask.runs]


def test_local_dask_clusters_side_by_side_serve_http_on_loopback_without_a_port_clash():
    """Two local sweeps at once each start a cluster whose scheduler serves HTTP: on 8787 both (dashboard None) the
    second warned and moved; make_task_runner's LOCAL_HTTP takes a free loopback port instead."""
    import warnings

    import psutil
    from distributed import LocalCluster

    from flows.runners import make_task_runner

    assert make_task_runner("dask", workers=1).cluster_kwargs["dashboard_address"] == LOCAL_HTTP
    kwargs = {"n_workers": 1, "threads_per_worker": 1, "processes": False, "dashboard_address": LOCAL_HTTP}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with LocalCluster(**kwargs) as first, LocalCluster(**kwargs) as second:
            ports = {c.scheduler.http_server.port for c in (first, second)}
            listening = {c.laddr for c in psutil.Process().net_connections("tcp") if c.status == psutil.CONN_LISTEN}
    assert not [w for w in caught if "already in use" in str(w.message)]
    assert len(ports) == 2 and 8787 not in ports  # the dashboard link names the host's address; the socket is bound
    assert {address for address in listening if address.port in ports} == {("127.0.0.1", port) for port in ports}
