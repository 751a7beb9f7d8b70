"""A sweep's spec is stored with it: --resume reloads it, refuses what contradicts it, and a
failing chunk is never recorded, so a resumed sweep equals a clean one."""

import json
from dataclasses import replace

import pytest
from mlflow.tracking import MlflowClient

from flows import sweep_record, tracking
from flows.settings import Paths
from flows.store import read_only
from flows.sweep import ResumeRefused, SweepFailed, SweepSpec, parse_grid, resume_spec, sweep_flow


def _counts(db) -> tuple:
    con = read_only(str(db))
    try:
        return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
                     for t in ("units", "chunks", "matches", "sweeps"))
    finally:
        con.close()


def _crashing(tmp_path, text: str, **changes) -> tuple[SweepSpec, str]:
    marker = tmp_path / "crash"
    marker.write_text(text)
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.4,0.6"]), units=1000, seed=3, chunk_size=100,
                     fixed=(("crash_unit", "550"), ("crash_file", str(marker))), sweep_id="s-crash")
    return replace(spec, **changes), str(tmp_path / "h.duckdb")


def _crash(tmp_path) -> tuple[SweepSpec, str, object]:
    spec, db = _crashing(tmp_path, "")
    with pytest.raises(SweepFailed):
        sweep_flow(spec, db=db, track=False, max_in_flight=2)
    return spec, db, tmp_path / "crash"


@pytest.fixture
def crashed(toy, tmp_path):
    return _crash(tmp_path)


@pytest.fixture(scope="module")
def crashed_once(toy, tmp_path_factory):
    """One crashed sweep for the tests that only read it (a crashed sweep per test costs a second each)."""
    return _crash(tmp_path_factory.mktemp("crashed"))


def test_the_spec_is_stored_and_resume_reloads_it(crashed_once):
    spec, db, _ = crashed_once
    con = read_only(db)
    stored = json.loads(con.execute("SELECT spec FROM sweeps WHERE sweep_id = 's-crash'").fetchall()[0][0])
    assert SweepSpec.from_stored(stored, "s-crash") == spec
    assert resume_spec(con, "s-crash", {"game": "toy"}) == spec
    assert resume_spec(con, "s-crash", {"game": "toy", "chunk_size": 100, "seed": 3}) == spec  # agreeing flags
    con.close()


@pytest.mark.parametrize(("field", "value", "flag"), [
    ("chunk_size", 50, "--chunk 100, not 50"),
    ("seed", 8, "--seed 3, not 8"),
    ("units", 2000, "--hands 1000, not 2000"),
    ("bot", "other", "--bot coin, not other"),
    ("grid", (("edge", ("0.5",)),), "--grid edge=0.4,0.6, not edge=0.5"),
    ("fixed", (), "--set crash_unit=550"),
    ("game", "tractor", "GAME toy, not tractor"),
])
def test_resume_refuses_a_flag_that_contradicts_the_stored_spec(crashed_once, field, value, flag):
    _, db, _ = crashed_once
    con = read_only(db)
    with pytest.raises(ResumeRefused, match=flag):
        resume_spec(con, "s-crash", {"game": "toy", field: value})
    con.close()


def test_resume_refuses_an_unknown_id_and_a_finished_sweep(crashed):
    spec, db, marker = crashed
    con = read_only(db)
    with pytest.raises(sweep_record.SweepNotFound, match="no sweep 's-nope' in the hand log; recent sweeps: s-crash"):
        resume_spec(con, "s-nope", {"game": "toy"})
    con.close()
    marker.unlink()
    sweep_flow(spec, db=db, track=False)
    con = read_only(db)
    with pytest.raises(ResumeRefused, match="is complete: nothing to resume"):
        resume_spec(con, "s-crash", {"game": "toy"})
    con.close()


def test_the_flow_itself_refuses_a_different_spec_under_the_same_id(crashed):
    spec, db, _ = crashed
    before = _counts(db)
    with pytest.raises(ValueError, match="started with another spec"):
        sweep_flow(replace(spec, chunk_size=50), db=db, track=False)
    assert _counts(db) == before


def test_a_failure_names_config_chunk_cause_and_resume_command_and_stops_submitting(toy, tmp_path):
    spec, db = _crashing(tmp_path, "", fixed=(("crash_unit", "50"), ("crash_file", str(tmp_path / "crash"))),
                         units=2000)
    with pytest.raises(SweepFailed) as failed:
        sweep_flow(spec, db=db, track=False, max_in_flight=1)  # one in flight: what follows a failure is exact
    message = str(failed.value)
    assert "coin crash_unit=50" in message and "edge=0.4" in message and "chunk 0 (flips 0-99)" in message
    assert "RuntimeError: toy crash in unit 50" in message
    assert "`cardlab sweep toy --resume s-crash`" in message
    assert "\n" not in message
    units, chunks, _, _ = _counts(db)
    # Each config crashes in its first chunk and nothing more of it is submitted. (With 2 in flight the count
    # was a race: a config's next chunks may finish before its first one fails, and they are kept.)
    assert chunks == 0 and units == 0


@pytest.mark.slow  # a sweep run twice
def test_a_partial_chunk_is_refused_not_stored_and_resume_completes_it(toy, tmp_path):
    spec, db = _crashing(tmp_path, "short")
    with pytest.raises(SweepFailed, match=r"chunk 5 \(flips 500-599\): played 50 of 100 flips"):
        sweep_flow(spec, db=db, track=False, max_in_flight=2)
    con = read_only(db)
    stored = con.execute("SELECT match_id, chunk, n_units FROM chunks").fetchall()
    con.close()
    assert all(n == 100 for _, _, n in stored)
    assert ("s-crash-c00", 5) not in {(m, c) for m, c, _ in stored}
    (tmp_path / "crash").unlink()
    resumed = sweep_flow(spec, db=db, track=False)
    fresh = sweep_flow(replace(spec, sweep_id="s-fresh"), db=db, track=False)
    assert resumed.units_written == 2000 - 100 * len(stored)
    assert [(r.units, r.mean) for r in resumed.runs] == [(r.units, r.mean) for r in fresh.runs]


def test_a_crashing_holdem_training_bot_fails_its_chunk_instead_of_storing_it_empty():
    from engine.holdem_training import judge

    class Crashing:
        def start_match(self, hands, budget):
            pass

        def act(self, view, rate):
            raise MemoryError("no room")

        observe = end_hand = start_match

    with pytest.raises(judge.MatchAborted, match="after 0 of 20 hands: bot raised MemoryError: no room"):
        judge.play_chunk(Crashing(), seed=1, first=0, count=20)


def test_pick_refuses_an_incomplete_sweep_and_a_sweep_whose_mlflow_logging_was_killed(crashed, monkeypatch):
    spec, db, marker = crashed
    con = read_only(db)
    with pytest.raises(sweep_record.SweepIncomplete, match="sweep s-crash is incomplete .* --resume s-crash"):
        sweep_record.pick(con, "toy")
    con.close()
    marker.unlink()
    real_start = tracking.mlflow.start_run
    started = []

    def killed_after_one_child(*args, **kwargs):  # the process dies while logging the second child run
        started.append(1)
        if len(started) == 3:
            raise KeyboardInterrupt
        return real_start(*args, **kwargs)

    monkeypatch.setattr(tracking.mlflow, "start_run", killed_after_one_child)
    with pytest.raises(KeyboardInterrupt):
        sweep_flow(spec, db=db)
    con = read_only(db)
    with pytest.raises(sweep_record.SweepIncomplete, match="never closed"):
        sweep_record.pick(con, "toy")
    con.close()
    monkeypatch.setattr(tracking.mlflow, "start_run", real_start)
    done = sweep_flow(spec, db=db)
    con = read_only(db)
    picked = sweep_record.pick(con, "toy")
    con.close()
    assert picked.match_id == done.best.match_id and picked.run_id == done.mlflow_run_id
    client = MlflowClient(Paths.from_env().tracking_uri)
    runs = client.search_runs([tracking.experiment_id("toy")], "tags.`cardlab.sweep_id` = 's-crash'")
    assert sorted(r.data.tags["cardlab.kind"] for r in runs) == ["config", "config", "sweep"]
