"""The judge with external programs: persistent processes fed one turn at a time."""

import sys
from pathlib import Path

import pytest

from engine.cg_holdem.judge import play_programs
from engine.cg_holdem.rules import GameConfig

CALLER = str(Path(__file__).parent / "data" / "caller.py")


def test_three_calling_programs_match_the_in_process_game():
    config = GameConfig(players=3, first_turn_ms=5000, turn_ms=2000)
    result = play_programs([[sys.executable, CALLER]] * 3, seed=42, config=config)
    assert result.scores == (1970, 1790, 1040)
    assert result.messages[0] == (1, 0, "calling")
    assert all(r["failure"] is None for r in result.seat_reports)


@pytest.mark.slow  # waits out a time limit
def test_a_slow_program_times_out_and_is_ranked_out():
    config = GameConfig(players=3, first_turn_ms=5000, turn_ms=100)
    slow = [sys.executable, CALLER, "0.6", "4"]  # first answers fine, then too slow at round 4
    result = play_programs([slow, [sys.executable, CALLER], [sys.executable, CALLER]], seed=42, config=config)
    mine = [h for h in result.history if h.player == 0]
    assert mine[0].round == 1 and mine[0].action == "CALL"
    assert next(h for h in mine if h.round >= 4).action == "TIMEOUT" and mine[-1].action == "TIMEOUT"
    assert result.scores[0] == -3 and result.ranks[0] == 0
    assert "wall" in result.seat_reports[0]["failure"]


def test_a_program_that_dies_is_a_timeout():
    config = GameConfig(players=2, first_turn_ms=3000, turn_ms=1000)
    dead = [sys.executable, "-c", "pass"]
    result = play_programs([dead, [sys.executable, CALLER]], seed=42, config=config)
    first = next(h for h in result.history if h.player == 0)
    assert first.action == "TIMEOUT" and result.positions == (2, 1)
