"""The exported single-file submission: standard library only, and it plays through the judge."""

import ast
import sys

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.export import write_submission
from engine.cg_holdem.judge import BotSeat, ProgramSeat, play_game
from engine.cg_holdem.rules import GameConfig


@pytest.mark.parametrize("name", sorted(BOTS))
def test_submission_imports_only_the_standard_library(tmp_path, name):
    path = write_submission(tmp_path / f"{name}.py", BOTS[name], BOTS[name].default_config())
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import | ast.ImportFrom):
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            assert module.split(".")[0] in sys.stdlib_module_names, module


def test_exported_pushfold_plays_exactly_like_the_in_process_bot(tmp_path):
    spec = BOTS["pushfold"]
    path = write_submission(tmp_path / "pf.py", spec, spec.config_from(["multiway_tighten=1.2"]))
    config = GameConfig(players=3, first_turn_ms=5000, turn_ms=2000)
    program = ProgramSeat([sys.executable, str(path)], first_turn_ms=5000, turn_ms=2000)
    others = [BotSeat(BOTS["station"].make()), BotSeat(BOTS["montecarlo"].make())]
    exported = play_game([program, *others], seed=31, config=config)
    assert exported.seat_reports[0]["failure"] is None
    in_process = play_game([BotSeat(spec.make(spec.config_from(["multiway_tighten=1.2"]))),
                            BotSeat(BOTS["station"].make()), BotSeat(BOTS["montecarlo"].make())],
                           seed=31, config=config)
    assert len(exported.history) > 20 and exported.history == in_process.history
    assert exported.scores == in_process.scores


def test_exported_aggressive_bot_finishes_a_game_without_faults(tmp_path):
    spec = BOTS["aggressive"]
    path = write_submission(tmp_path / "agg.py", spec, spec.config_from(["samples=100"]))
    config = GameConfig(players=2, first_turn_ms=5000, turn_ms=1000)
    program = ProgramSeat([sys.executable, str(path)], first_turn_ms=5000, turn_ms=1000)
    result = play_game([program, BotSeat(BOTS["montecarlo"].make())], seed=8, config=config)
    assert result.seat_reports[0]["failure"] is None and result.seat_reports[0]["answers"] > 10
    assert "TIMEOUT" not in {h.action for h in result.history}
