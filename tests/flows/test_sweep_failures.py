"""A config that fails (its program crashes, or breaks the protocol so the judge ends the match) is recorded
as failed with its reason; the other configs finish, `pick` chooses among them and says what failed and why,
and resuming does not try a failed config for ever (issue 30 item 3)."""

import json
import sys
from pathlib import Path

import pytest
from mlflow.tracking import MlflowClient

from flows import sweep_record, tracking
from flows.settings import Paths
from flows.store import read_only
from flows.sweep import ResumeRefused, SweepFailed, SweepSpec, parse_grid, resume_spec, sweep_flow, validate

RAISER = f"{sys.executable} {Path(__file__).parent / 'data' / 'ht_raiser.py'}"


def _toy_spec(marker: Path, sweep_id: str, grid: str = "crash_unit=-1,150") -> SweepSpec:
    # crash_unit is a grid key: only the config holding unit 150 crashes (while `marker` exists)
    return SweepSpec(game="toy", bot="coin", grid=parse_grid([grid]), units=400, seed=5, chunk_size=100,
                     fixed=(("crash_file", str(marker)),), sweep_id=sweep_id)


@pytest.fixture(scope="module")
def one_failed(toy, tmp_path_factory):
    folder = tmp_path_factory.mktemp("failed")
    marker = folder / "crash"
    marker.write_text("")
    spec = _toy_spec(marker, "s-onefail")
    db = str(folder / "h.duckdb")
    return spec, db, marker, sweep_flow(spec, db=db, max_in_flight=2)


def _read(db: str, sql: str, params=()) -> list:
    con = read_only(db)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_the_other_configs_finish_and_the_failure_is_recorded_with_its_reason(one_failed):
    _, db, _, outcome = one_failed
    by_value = {r.overrides["crash_unit"]: r for r in outcome.runs}
    assert by_value["-1"].failure is None and by_value["-1"].units == 400
    assert "RuntimeError: toy crash in unit 150" in by_value["150"].failure
    assert "chunk 1 (flips 100-199)" in by_value["150"].failure
    assert outcome.best is by_value["-1"] and outcome.runner_up is None  # a failed config is never ranked
    rows = dict(_read(db, "SELECT match_id, failure FROM matches WHERE sweep_id = 's-onefail'"))
    assert rows[by_value["-1"].match_id] is None and rows[by_value["150"].match_id] == by_value["150"].failure
    status = _read(db, "SELECT options->>'status', finished_at IS NOT NULL FROM matches WHERE match_id = ?",
                   [by_value["150"].match_id])
    assert status == [("failed", True)]
    assert _read(db, "SELECT finished_at IS NOT NULL FROM sweeps WHERE sweep_id = 's-onefail'") == [(True,)]


def test_mlflow_shows_the_failed_config_as_a_failed_run_with_its_reason(one_failed):
    _, _, _, outcome = one_failed
    client = MlflowClient(Paths.from_env().tracking_uri)
    runs = client.search_runs([tracking.experiment_id("toy")],
                              "tags.`cardlab.sweep_id` = 's-onefail' and tags.`cardlab.kind` = 'config'")
    status = {json.loads(r.data.tags["cardlab.overrides"])["crash_unit"]: r for r in runs}
    assert status["150"].info.status == "FAILED" and status["-1"].info.status == "FINISHED"
    assert "toy crash in unit 150" in status["150"].data.tags["cardlab.failure"]
    assert "cardlab.failure" not in status["-1"].data.tags


def test_pick_chooses_among_completed_configs_and_names_the_failed_one(one_failed):
    _, db, _, outcome = one_failed
    con = read_only(db)
    picked = sweep_record.pick(con, "toy", "s-onefail")
    con.close()
    assert picked.match_id == outcome.best.match_id
    assert [config for config, _ in picked.failed] == ["crash_file=" + picked.config["crash_file"] + ", crash_unit=150"]
    assert "toy crash in unit 150" in picked.failed[0][1]


def test_the_report_lists_failed_configs_with_their_reasons(one_failed, tmp_path):
    from reports.sweep_report import build_report

    _, db, _, _ = one_failed
    page = build_report("s-onefail", out_dir=tmp_path, db=Path(db)).page.read_text()
    failed = page.split('id="failed"')[1]
    assert "Failed configs (1)" in page and "crash_unit=150" in failed and "toy crash in unit 150" in failed
    assert "incomplete" not in page  # a failed config is listed apart, not as missing units


def test_a_closed_sweep_plays_its_failed_configs_again_only_when_asked(toy, tmp_path):
    marker = tmp_path / "crash"
    marker.write_text("")
    spec, db = _toy_spec(marker, "s-retry"), str(tmp_path / "h.duckdb")
    first = sweep_flow(spec, db=db, track=False)
    failed = next(r for r in first.runs if r.failure)
    con = read_only(db)
    with pytest.raises(ResumeRefused, match="is complete: nothing to resume .*1 failed config.* --retry-failed"):
        resume_spec(con, "s-retry", {"game": "toy"})
    assert resume_spec(con, "s-retry", {"game": "toy"}, retry_failed=True) == spec
    con.close()
    marker.unlink()  # the cause is fixed
    again = sweep_flow(spec, db=db, track=False, retry_failed=True)
    assert all(r.failure is None and r.units == 400 for r in again.runs)
    assert again.units_written == 400 - failed.units  # only what the failed config missed
    con = read_only(db)
    assert sweep_record.pick(con, "toy", "s-retry").failed == ()
    assert sweep_record.failures(con, "s-retry") == {}
    # the failure was cleared by an appended row, and the config then finished: no failed status is left
    assert con.execute("SELECT failure, options->>'status', options->>'failed_attempts', finished_at IS NOT NULL "
                       "FROM matches WHERE match_id = ?", [failed.match_id]).fetchall() == [(None, None, "1", True)]
    con.close()


def test_workers_that_write_their_chunks_fail_only_the_failing_config(toy, tmp_path, monkeypatch):
    """CARDLAB_WORKERS_WRITE=1: the tasks write the chunks they play; a failing config is recorded as failed
    with its reason all the same, the others finish, and --retry-failed completes it."""
    monkeypatch.setenv("CARDLAB_WORKERS_WRITE", "1")
    marker = tmp_path / "crash"
    marker.write_text("")
    spec, db = _toy_spec(marker, "s-direct"), str(tmp_path / "h.duckdb")
    first = sweep_flow(spec, db=db, track=False)
    by_value = {r.overrides["crash_unit"]: r for r in first.runs}
    assert by_value["-1"].units == 400 and by_value["-1"].failure is None and first.best is by_value["-1"]
    assert "toy crash in unit 150" in by_value["150"].failure and by_value["150"].units < 400
    assert _read(db, "SELECT failure FROM matches WHERE match_id = ?", [by_value["150"].match_id]) == [
        (by_value["150"].failure,)]
    marker.unlink()
    again = sweep_flow(spec, db=db, track=False, retry_failed=True)
    assert [(r.units, r.failure) for r in again.runs] == [(400, None), (400, None)]
    assert again.units_written == 400 - by_value["150"].units
    assert _read(db, "SELECT count(*), count(DISTINCT unit) FROM units WHERE match_id = ?",
                 [by_value["150"].match_id]) == [(400, 400)]


def test_resuming_an_open_sweep_retries_a_failed_config_once_not_for_ever(toy, tmp_path):
    marker = tmp_path / "crash"
    marker.write_text("")
    spec, db = _toy_spec(marker, "s-allfail", grid="crash_unit=50,150"), str(tmp_path / "h.duckdb")
    attempts = "SELECT options->>'failed_attempts' FROM matches WHERE sweep_id = 's-allfail' ORDER BY match_id"
    with pytest.raises(SweepFailed, match="every config failed .*toy crash in unit 50.*toy crash in unit 150"):
        sweep_flow(spec, db=db, track=False)
    with pytest.raises(SweepFailed, match="every config failed"):  # the resume tries each once more
        sweep_flow(spec, db=db, track=False)
    assert _read(db, attempts) == [("2",), ("2",)]
    with pytest.raises(SweepFailed, match="every config failed"):  # and then no more
        sweep_flow(spec, db=db, track=False)
    assert _read(db, attempts) == [("2",), ("2",)]
    marker.unlink()
    done = sweep_flow(spec, db=db, track=False, retry_failed=True)
    assert [r.units for r in done.runs] == [400, 400] and not any(r.failure for r in done.runs)


@pytest.mark.slow  # program processes
def test_a_program_that_crashes_for_one_value_fails_only_that_config(tmp_path):
    spec = SweepSpec(game="holdem-training", bot="program", program=RAISER + " {size}",
                     grid=parse_grid(["size=3,boom"]), units=60, chunk_size=30, seed=4)
    validate(spec)
    outcome = sweep_flow(spec, db=str(tmp_path / "h.duckdb"), track=False)
    by_value = {r.overrides["size"]: r for r in outcome.runs}
    assert by_value["3"].units == 60 and by_value["3"].failure is None and outcome.best is by_value["3"]
    assert "size=boom" in by_value["boom"].failure and by_value["boom"].units == 0


def test_the_pick_command_says_which_configs_failed_and_why(one_failed, monkeypatch):
    import contextlib
    import io

    from cardlab import cli

    _, db, _, outcome = one_failed
    monkeypatch.setenv("CARDLAB_DB", db)
    monkeypatch.setattr(sys, "argv", ["cardlab", "pick", "toy", "--sweep", "s-onefail"])
    out = io.StringIO()
    with pytest.raises(SystemExit) as done, contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main()
        sys.exit(0)
    text = " ".join(out.getvalue().split())
    assert (done.value.code or 0) == 0 and f"(match {outcome.best.match_id};" in text
    assert "not considered: crash_file=" in text and "crash_unit=150 failed: " in text
    assert "RuntimeError: toy crash in unit 150" in text


def test_a_failure_is_counted_even_when_the_sweep_is_then_interrupted(toy, tmp_path):
    """The try is recorded as the failure arrives: an interrupt that follows does not lose it, so a resume
    still retries that config only once."""
    marker = tmp_path / "crash"
    marker.write_text("")
    spec, db = _toy_spec(marker, "s-failstop", grid="crash_unit=50,-1"), str(tmp_path / "h.duckdb")

    def interrupt(units):  # the first chunk to finish: the failing config's chunk 0 failed before it (window 1)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep_flow(spec, db=db, track=False, progress=interrupt, max_in_flight=1)
    assert _read(db, "SELECT match_id, failure IS NOT NULL, options->>'failed_attempts' FROM matches "
                     "WHERE sweep_id = 's-failstop' ORDER BY match_id") == [("s-failstop-c00", True, "1"),
                                                                              ("s-failstop-c01", False, None)]
