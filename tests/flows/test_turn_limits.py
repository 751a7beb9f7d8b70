"""Turn limits for sweeps and leagues (`--turn-ms`, `--first-turn-ms`, `--clock`, the contest's values by
default) and fault reasons on the league's page and in its JSON (issue 30 item 5)."""

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from engine.cg_holdem.rules import FIRST_TURN_MS, TURN_MS
from flows import games
from flows.league import run_league
from flows.league_ratings import board_from_log
from flows.league_spec import build
from reports.leaderboard import write_page

CALLER = Path(__file__).parents[1] / "cg_holdem" / "data" / "caller.py"


def _cardlab(monkeypatch, *args) -> tuple[int, str, str]:
    from cardlab import cli

    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "argv", ["cardlab", *args])
    with pytest.raises(SystemExit) as done, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        cli.main()
        sys.exit(0)
    return done.value.code or 0, out.getvalue(), err.getvalue()


def test_a_sweeps_turn_limits_are_the_contests_unless_given():
    adapter = games.get("cg-holdem")
    default = adapter.options({})
    assert (default.turn_ms, default.first_turn_ms, default.clock) == (TURN_MS, FIRST_TURN_MS, "wall")
    given = adapter.options({"turn_ms": "200", "first_turn_ms": "3000", "clock": "cpu"})
    assert (given.turn_ms, given.first_turn_ms, given.clock) == (200, 3000, "cpu")
    with pytest.raises(ValueError, match="clock"):
        adapter.options({"clock": "sundial"})


@pytest.mark.parametrize(("args", "says"), [
    (("sweep", "holdem-training", "--turn-ms", "200"),
     "--turn-ms: holdem-training has no per-turn time limit here; accepted for: cg-holdem"),
    (("league", "holdem-training", "--program", "a=python3 x.py", "--clock", "cpu"),
     "--clock: holdem-training has no per-turn time limit here; accepted for: cg-holdem"),
    (("sweep", "cg-holdem", "--program", f"{sys.executable} {CALLER} {{a}}", "--grid", "a=1", "--clock", "sundial"),
     "--clock 'sundial': accepted: wall, cpu"),
])
def test_turn_limit_flags_a_game_cannot_take_are_refused_in_one_line(monkeypatch, args, says):
    code, _, err = _cardlab(monkeypatch, *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow  # a league of programs
def test_a_leagues_turn_limit_applies_and_its_fault_reasons_are_on_the_page_and_in_the_json(tmp_path):
    slow = f"{sys.executable} {CALLER} 0.3 1"  # 0.3 s before each answer, from round 1
    quick = f"{sys.executable} {CALLER}"
    league = build(name="limits", game="cg-holdem", programs=[("slow", slow), ("quick", quick)], games=1,
                   options={"first_turn_ms": 100})
    db = str(tmp_path / "h.duckdb")
    run_league(league, db=db, workers=1)
    board = board_from_log("limits", db)
    by_name = {s.name: s for s in board.standings}
    assert by_name["slow"].faults == by_name["slow"].games > 0 and by_name["quick"].faults == 0
    ((reason, count),) = by_name["slow"].fault_reasons
    assert "no answer within 0.1 s (its CPU time in the turn: " in reason and count == by_name["slow"].games
    doc = json.loads(json.dumps(board.to_json()))
    listed = {row["name"]: row["fault_reasons"] for row in doc["leaderboard"]}
    assert listed["slow"] == [[reason, count]] and listed["quick"] == []
    page = write_page(board, tmp_path / "out").read_text()
    assert "Faults" in page and "no answer within 0.1 s" in page


@pytest.mark.parametrize(("clock", "fails"), [("wall", True), ("cpu", False)])
def test_judge_with_the_cpu_clock_forgives_a_stall_and_reports_both_clocks(monkeypatch, clock, fails):
    # Asleep (no CPU) for 1 s once, at round 3. A line that has arrived when the judge next looks is taken, so a
    # judge held up past the stall forgives it (most likely why a loaded CI run once let a 0.3 s stall pass): 20x.
    pause = f"{sys.executable} {CALLER} 1.0 3 CALL once"
    code, out, err = _cardlab(monkeypatch, "judge", "cg-holdem", "--seed", "42", "--json", "--clock", clock, "--",
                              pause, f"{sys.executable} {CALLER}")
    assert code == 0, err
    seat = json.loads(out)["seats"][0]
    assert seat["clock"] == clock and bool(seat["failure"]) == fails
    if fails:
        assert "no answer within 0.05 s (its CPU time in the turn: 0." in seat["failure"]
    else:
        assert seat["slowest_turn_wall"] >= 1.0 > seat["slowest_turn_cpu"]
