"""The nightly regression check: replays the submitted candidate, compares unit by unit with
the previous nightly of the same candidate, records the verdict and fails on a difference."""

import dataclasses
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from flows import games, submissions
from flows.nightly import RegressionFound, candidate_for, nightly_flow, run_check
from flows.serve import schedules
from flows.store import HandLog, read_only


def _checks(db) -> list[dict]:
    con = read_only(str(db))
    try:
        cursor = con.execute("SELECT * FROM nightly_checks ORDER BY checked_at, check_id")
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        con.close()


def _swap_toy(monkeypatch, toy, **changes):
    """Make games.get('toy') return the toy adapter with `changes` (a code change, as seen by play)."""
    changed = dataclasses.replace(toy, **changes)
    original = games.get
    monkeypatch.setattr(games, "get", lambda name: changed if name == "toy" else original(name))


def test_the_same_code_twice_passes_and_both_checks_are_recorded(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    said = []
    first = run_check("toy", units=300, db=str(db), say=said.append)
    second = run_check("toy", units=300, db=str(db), say=said.append)
    assert "no submitted candidate" in said[0] and "default bot coin" in said[0]
    assert (first.verdict, second.verdict) == ("baseline", "same")
    assert second.previous_match == first.match_id and second.differing_units == 0
    rows = _checks(db)
    assert [(r["verdict"], r["candidate"], r["seed"], r["units"]) for r in rows] == [
        ("baseline", "default:coin", 1, 300), ("same", "default:coin", 1, 300)]
    assert rows[1]["previous_match"] == rows[0]["match_id"]


def test_a_changed_bot_is_a_failure_naming_the_first_differing_unit(toy, tmp_path, monkeypatch):
    db = str(tmp_path / "h.duckdb")
    run_check("toy", units=300, db=db, say=lambda _: None)

    def flips_unit_123(spec, config, **kwargs):
        log = toy.play_chunk(spec, config, **kwargs)
        payoffs = np.array(log.payoffs)
        if kwargs["first"] <= 123 < kwargs["first"] + kwargs["count"]:
            payoffs[123 - kwargs["first"]] *= -1
        return dataclasses.replace(log, payoffs=payoffs)

    _swap_toy(monkeypatch, toy, play_chunk=flips_unit_123)
    changed = run_check("toy", units=300, db=db, say=lambda _: None)
    assert changed.changed and changed.differing_units == 1 and changed.first_diff_unit == 123
    recorded = _checks(db)[-1]
    assert (recorded["verdict"], recorded["first_diff_unit"], recorded["differing_units"]) == ("changed", 123, 1)
    assert "unit 123" in recorded["detail"]


def test_a_changed_default_config_is_a_failure_even_where_no_payoff_moves(toy, tmp_path, monkeypatch):
    db = str(tmp_path / "h.duckdb")
    run_check("toy", units=200, db=db, say=lambda _: None)
    config_type = toy.bots["coin"].config_type
    relabelled = dataclasses.make_dataclass("CoinConfig", [("label", str, dataclasses.field(default="renamed"))],
                                            bases=(config_type,), frozen=True)
    _swap_toy(monkeypatch, toy, bots={"coin": dataclasses.replace(toy.bots["coin"], config_type=relabelled)})
    changed = run_check("toy", units=200, db=db, say=lambda _: None)
    assert changed.changed and changed.differing_units == 0
    assert "label 'plain' -> 'renamed'" in changed.detail


def test_the_submitted_candidate_is_played_with_its_full_frozen_config(toy, tmp_path):
    db = str(tmp_path / "h.duckdb")
    with HandLog(db) as store:
        submitted = submissions.record(store, game="toy", bot="coin", source="export",
                                       config=submissions.full_config("toy", "coin", ["edge=0.9"]))
        candidate = candidate_for(store, "toy")
    assert candidate.key == submitted.submission_id and candidate.submitted
    said = []
    first = run_check("toy", units=200, db=db, say=said.append)
    assert said == [] and first.verdict == "baseline" and first.candidate == submitted.submission_id
    con = read_only(db)
    played = json.loads(con.execute("SELECT config FROM matches WHERE match_id = ?", [first.match_id]).fetchone()[0])
    mean = con.execute("SELECT avg(payoff) FROM units WHERE match_id = ?", [first.match_id]).fetchone()[0]
    con.close()
    assert played["edge"] == 0.9 and mean > 0.5


def test_the_flow_passes_then_fails_its_run_on_a_difference(toy, tmp_path, monkeypatch):
    db = str(tmp_path / "h.duckdb")
    assert nightly_flow("toy", units=100, db=db).verdict == "baseline"
    _swap_toy(monkeypatch, toy, play_chunk=lambda spec, config, **kw: dataclasses.replace(
        toy.play_chunk(spec, config, **kw), payoffs=np.zeros(kw["count"])))
    state = nightly_flow("toy", units=100, db=db, return_state=True)
    assert state.is_failed()
    with pytest.raises(RegressionFound, match="CHANGED"):
        state.result()
    assert [r["verdict"] for r in _checks(db)] == ["baseline", "changed"]


def test_games_are_staggered_and_a_bad_cron_is_refused_in_one_line():
    plan = schedules(["holdem-training", "twocarddraw", "splendor"], "50 3 * * *", 10)
    assert [s.cron for s in plan] == ["50 3 * * *", "0 4 * * *", "10 4 * * *"]
    from cardlab.cli import app

    result = CliRunner().invoke(app, ["serve", "--cron", "not a cron", "--dry-run"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: --cron 'not a cron' is not a cron expression; expected five fields 'minute hour day-of-month month "
        "day-of-week', e.g. '0 3 * * *'"]


def test_export_and_pick_record_the_submission_only_when_submitted(tmp_path, monkeypatch):
    from cardlab.cli import app, export_picked

    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "h.duckdb"))
    result = CliRunner().invoke(app, ["export", "twocarddraw", "--bot", "mixture", "--out", str(tmp_path / "plain")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "plain").is_dir() and "not recorded as a submission" in result.output
    with HandLog() as store:  # a bundle for a league or a look is not the game's candidate
        assert submissions.latest(store.con, "twocarddraw") is None
    result = CliRunner().invoke(app, ["export", "twocarddraw", "--bot", "learner", "--set", "prior_scale=2",
                                      "--out", str(tmp_path / "bundle"), "--submit"])
    assert result.exit_code == 0, result.output
    with HandLog() as store:
        exported = submissions.latest(store.con, "twocarddraw")
    assert (exported.bot, exported.source, exported.config["prior_scale"]) == ("learner", "export", 2.0)

    @dataclasses.dataclass(frozen=True)
    class Picked:
        sweep_id: str = "s-1"
        run_id: str = "r-1"
        bot: str = "learner"
        config: dict = dataclasses.field(default_factory=lambda: {"prior_scale": 0.5})

    export_picked("twocarddraw", Picked(), tmp_path / "unsubmitted", submit=False)
    with HandLog() as store:
        assert submissions.latest(store.con, "twocarddraw").source == "export"
    export_picked("twocarddraw", Picked(), tmp_path / "picked", submit=True)
    with HandLog() as store:
        picked = submissions.latest(store.con, "twocarddraw")
        candidate = candidate_for(store, "twocarddraw")
    assert (picked.source, picked.sweep_id, picked.config["prior_scale"]) == ("pick", "s-1", 0.5)
    assert candidate.key == picked.submission_id and ("prior_scale", "0.5") in candidate.overrides



def test_pick_submit_needs_the_bundle_it_records():
    from cardlab.cli import app

    result = CliRunner().invoke(app, ["pick", "twocarddraw", "--submit"])
    assert result.exit_code == 2 and "--submit records the bundle --out writes: give --out DIR too" in result.output
