"""A decided sweep (`--until-decided`) where a config fails (its program crashes) goes on like a plain sweep: the
failed config leaves the race with its reason recorded, the others are decided; only a failing baseline, which
every decision is made against, stops it (issue 30 item 3)."""

import json
from dataclasses import replace

import pytest

from flows.decide import decided_sweep_flow
from flows.store import read_only
from flows.sweep import SweepFailed, SweepSpec, parse_grid
from tests.flows.test_decide import RULE


def _spec(grids: list[str], marker, sweep_id: str) -> SweepSpec:
    # the configs whose crash_unit is 150 crash while `marker` exists; the baseline is the bot's defaults
    return SweepSpec(game="toy", bot="coin", grid=parse_grid(grids), units=3000, seed=9, chunk_size=100,
                     baseline=(), fixed=(("crash_file", str(marker)),), sweep_id=sweep_id)


@pytest.fixture(scope="module")
def decided(toy, tmp_path_factory):
    folder = tmp_path_factory.mktemp("decide-fail")
    marker = folder / "crash"
    marker.write_text("")
    db = str(folder / "h.duckdb")
    spec = _spec(["edge=0.3,0.6", "crash_unit=-1,150"], marker, "s-decfail")
    return db, decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2)


def test_the_failed_configs_leave_the_race_and_the_working_ones_are_decided(decided):
    _, got = decided
    assert got.decision == "switch" and (got.best["edge"], got.best["crash_unit"]) == ("0.6", "-1")
    assert sorted(label.split(", ", 1)[1] for label in got.failed) == ["edge=0.3, crash_unit=150",
                                                                        "edge=0.6, crash_unit=150"]
    assert all("RuntimeError: toy crash in unit 150" in why for why in got.failed.values())
    assert json.loads(got.to_json())["failed"] == got.failed


def test_each_failure_is_recorded_with_its_reason_and_status(decided):
    db, _ = decided
    with read_only(db) as con:
        rows = con.execute("SELECT config, failure, options->>'status' FROM matches WHERE sweep_id = 's-decfail' "
                           "ORDER BY match_id").fetchall()
    failed = [(json.loads(config)["crash_unit"], status) for config, failure, status in rows if failure]
    assert failed == [(150, "failed"), (150, "failed")]
    assert all("toy crash in unit 150" in failure for _, failure, _ in rows if failure)


def test_a_failing_baseline_stops_the_decision_in_one_line(toy, tmp_path):
    marker = tmp_path / "crash"
    marker.write_text("")
    spec = replace(_spec(["edge=0.6"], marker, "s-basefail"),  # the baseline is the config that crashes
                   baseline=(("crash_unit", "150"), ("crash_file", str(marker))))
    with pytest.raises(SweepFailed) as raised:
        decided_sweep_flow(spec, RULE, db=str(tmp_path / "h.duckdb"), track=False, max_in_flight=2)
    message = str(raised.value)
    assert "the baseline crash_unit=150, crash_file=" in message and "toy crash in unit 150" in message
    assert "--resume s-basefail" in message and "\n" not in message
