"""A decided sweep (`--until-decided`) where a config fails (its program crashes) goes on like a plain sweep: the
failed config leaves the race with its reason recorded, the others are decided; only a failing baseline, which
every decision is made against, stops it (issue 30 item 3)."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.errors import BadValue
from flows import sweep_record
from flows.decide import decided_sweep_flow
from flows.store import read_only
from flows.sweep import ResumeRefused, SweepFailed, SweepSpec, parse_grid, resume_spec
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
        rows = con.execute("SELECT config, failure, options->>'status', options->>'failed_attempts' FROM matches "
                           "WHERE sweep_id = 's-decfail' ORDER BY match_id").fetchall()
    failed = [(json.loads(config)["crash_unit"], status, tries) for config, failure, status, tries in rows if failure]
    assert failed == [(150, "failed", "1"), (150, "failed", "1")]  # one try each, counted once
    assert all("toy crash in unit 150" in row[1] for row in rows if row[1])


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


def test_a_resume_retries_a_failed_baseline_once_and_then_only_when_asked(toy, tmp_path):
    """As a plain sweep (tests/flows/test_sweep_failures.py): each try of a failed config is counted, a resume
    plays it again once, and after that only --retry-failed does; the line says so."""
    marker = tmp_path / "crash"
    marker.write_text("")
    spec = replace(_spec(["edge=0.3,0.6"], marker, "s-baseagain"),  # two challengers: the race plays
                   baseline=(("crash_unit", "150"), ("crash_file", str(marker))))
    db = str(tmp_path / "h.duckdb")
    base = "s-baseagain-c00"  # the baseline is not in the grid: the sweep's first config

    def tried() -> tuple:
        with read_only(db) as con:
            return con.execute("SELECT options->>'failed_attempts', (SELECT count(*) FROM units u WHERE "
                               "u.match_id = m.match_id) FROM matches m WHERE match_id = ?", [base]).fetchone()

    with pytest.raises(SweepFailed, match=r"the baseline .* failed \(.*plays it again once \(later: add --retry"):
        decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2)
    assert tried()[0] == "1"
    with pytest.raises(SweepFailed, match=r"failed 2 times .*--resume s-baseagain --retry-failed`$"):
        decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2)  # the one retry
    attempts, units = tried()
    assert attempts == "2" and 0 < units < 150
    with pytest.raises(SweepFailed, match=r"failed 2 times .*--resume plays a failed config again only once"):
        decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2)  # not tried again
    assert tried() == (attempts, units)
    marker.unlink()  # the cause is fixed
    got = decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2, retry_failed=True)
    assert got.failed == {} and got.decision == "switch"
    assert tried()[0] == "2"  # the tries stay counted
    with read_only(db) as con:
        assert con.execute("SELECT failure FROM matches WHERE match_id = ?", [base]).fetchone() == (None,)


def test_a_decided_sweep_plays_no_failed_config_again_after_its_decision(decided):
    db, got = decided
    spec = _spec(["edge=0.3,0.6", "crash_unit=-1,150"], Path(db).with_name("crash"), got.sweep_id)
    with pytest.raises(BadValue, match=r"sweep s-decfail is decided: --retry-failed .*only before the decision"):
        decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2, retry_failed=True)
    with read_only(db) as con:  # nothing was opened again
        assert len(sweep_record.failures(con, got.sweep_id)) == 2


@pytest.mark.parametrize("retry_failed", [False, True])
def test_resuming_a_decided_sweep_with_failures_names_what_works(decided, retry_failed):
    """Complete with failed configs: the refusal does not suggest --retry-failed, which a decided sweep refuses
    (test above); it names a new sweep."""
    db, got = decided
    with read_only(db) as con, pytest.raises(ResumeRefused) as refused:
        resume_spec(con, got.sweep_id, {"game": "toy"}, retry_failed=retry_failed)
    message = str(refused.value)
    assert message.startswith(f"sweep {got.sweep_id} is decided: nothing to resume (`cardlab report {got.sweep_id}`)")
    assert "its 2 failed config(s) are not played again once decided" in message and "start a new sweep" in message
    assert "--retry-failed" not in message and "\n" not in message


def test_a_resume_that_chooses_another_challenger_confirms_it_alone_on_fresh_deals(toy, tmp_path, capsys):
    """A resume plays a failed challenger again; if it now works, the race can choose it instead of the one an
    interrupted confirmation had begun: that confirmation's chunks are set aside (said so), and the chosen
    config's confirmation is its own match, played whole on fresh deals (never two configs in one)."""
    marker = tmp_path / "crash"
    marker.write_text("")
    # c01 crashes in unit 150 while the marker exists; c02 plays the same flips: once c01 works the two tie
    # and the race takes the earlier, c01
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["crash_unit=150,-1"]), units=3000, seed=9,
                     chunk_size=100, baseline=(), fixed=(("crash_file", str(marker)), ("edge", "0.9")),
                     sweep_id="s-rechoose")
    db = str(tmp_path / "h.duckdb")
    calls = []

    def interrupt(units):  # window 1: 5 selection chunks (c01 failed in its second), then the confirmation's
        calls.append(units)
        if len(calls) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        decided_sweep_flow(spec, RULE, db=db, track=False, progress=interrupt, max_in_flight=1)
    with read_only(db) as con:
        begun = con.execute("SELECT match_id, config FROM matches WHERE source = 'confirm' AND match_id IN (SELECT "
                            "match_id FROM chunks) ORDER BY match_id").fetchall()
    assert [(json.loads(config)["edge"], json.loads(config)["crash_unit"]) for _, config in begun] == [
        (0.9, -1), (0.5, -1)]  # c02 against the baseline
    earlier = begun[0][0]
    capsys.readouterr()

    marker.unlink()  # c01 is fixed: the resume plays it again, and the race now chooses it
    got = decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=1)
    assert got.challenger == {"crash_file": str(marker), "edge": "0.9", "crash_unit": "150"}
    assert got.decision == "switch" and got.failed == {}
    with read_only(db) as con:
        chosen, base_cid = con.execute("SELECT confirm_challenger, confirm_baseline FROM decisions").fetchone()
        config, units, status = con.execute(
            "SELECT m.config, (SELECT count(*) FROM units u WHERE u.match_id = m.match_id), m.options->>'status' "
            "FROM matches m WHERE match_id = ?", [chosen]).fetchone()
        aside = con.execute("SELECT units, options->>'status', (SELECT count(*) FROM units u WHERE u.match_id = m"
                            ".match_id) FROM matches m WHERE match_id = ?", [earlier]).fetchone()
    assert chosen != earlier and base_cid == begun[1][0]  # the baseline's deals are the same for any challenger
    assert json.loads(config)["crash_unit"] == 150 and status is None  # of the chosen config only
    assert units == got.confirm_units // 2  # every unit of it played for this decision
    assert aside[1] == "discarded" and aside[0] == aside[2] > 0  # kept, closed, and in no decision
    with read_only(db) as con:  # but played: every unit the sweep stored is counted once
        stored, hands = con.execute("SELECT (SELECT count(*) FROM units), hands FROM decisions").fetchone()
    assert got.set_aside_units == aside[0] and json.loads(got.to_json())["set_aside_units"] == aside[0]
    assert got.hands == hands == stored == got.selection_units + got.confirm_units + aside[0]
    err = capsys.readouterr().err
    assert f"the earlier confirmation {earlier} (crash_file=" in err
    assert f", edge=0.9, crash_unit=-1, {aside[0]} flips) is set aside (status discarded)" in err
