"""The command-line interface scripts rely on: JSON fields, files written, one-line errors."""

import json

import typer
from typer.testing import CliRunner

from cardlab.commands import twocarddraw as cmd
from engine.twocarddraw import rules as R
from engine.twocarddraw.best_response import best_response
from engine.twocarddraw.protocol import read_strategy

cli = typer.Typer()
cli.command("judge")(cmd.judge)
cli.command("export")(cmd.export)
cli.add_typer(cmd.app, name="twocarddraw")
runner = CliRunner()


def test_generate_best_response_and_judge(tmp_path):
    path = tmp_path / "s.txt"
    result = runner.invoke(cli, ["twocarddraw", "generate", "--bet1", "3", "--bet2", "7", "--steps", "4000",
                                 "--seed", "2", "--out", str(path), "--json"])
    assert result.exit_code == 0, result.output
    strategy = read_strategy(path).strategy
    assert strategy.bets == R.BetSizes(3, 7)
    result = runner.invoke(cli, ["twocarddraw", "best-response", str(path), "--json"])
    assert json.loads(result.output)["value"] == best_response(strategy).value
    result = runner.invoke(cli, ["judge", "--strategy", str(path), "--bot", "sample", "--hands", "500",
                                 "--seed", "4", "--json"])
    out = json.loads(result.output)
    assert {"profit", "score", "cpu_seconds"} <= set(out) and out["hands_played"] == 500
    assert out["score"] == max(0, out["profit"] + 500) and out["status"] == "ok"


def test_bad_input_is_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2 9\n")
    result = runner.invoke(cli, ["twocarddraw", "best-response", str(bad)])
    assert result.exit_code == 2 and "bad.txt:1: expected 'bet1 bet2'" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(cli, ["judge", "--strategy", str(bad), "--bot", "nobody"])
    assert result.exit_code == 2
    result = runner.invoke(cli, ["twocarddraw", "generate", "--bet1", "6", "--bet2", "6", "--out", str(bad)])
    assert result.exit_code == 2 and "bet1 must be 1..5" in result.output


def test_export_writes_a_frozen_bundle(tmp_path):
    result = runner.invoke(cli, ["export", "--bot", "learner", "--set", "prior_scale=2", "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    frozen = json.loads((tmp_path / "b" / "config.json").read_text())
    assert frozen["bot"] == "learner" and frozen["config"]["prior_scale"] == 2.0
    compile((tmp_path / "b" / "run.py").read_text(), "run.py", "exec")


def test_evaluate_prints_exact_expected_profit_and_the_ratio_to_br(tmp_path):
    path = tmp_path / "s.txt"
    runner.invoke(cli, ["twocarddraw", "generate", "--bet1", "1", "--bet2", "2", "--steps", "30000",
                        "--seed", "3", "--out", str(path)])
    result = runner.invoke(cli, ["twocarddraw", "evaluate", "--strategy", str(path), "--bot", "oracle",
                                 "--seeds", "1,2", "--hands", "200", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    br = best_response(read_strategy(path).strategy).value
    assert out["br_value"] == br and abs(out["expected_per_hand"] - br) < 1e-12 and abs(out["ratio"] - 1) < 1e-12
    assert out["seeds"] == [1, 2] and len(out["segments"]) == 1 and len(out["per_seed"]) == 2
    result = runner.invoke(cli, ["twocarddraw", "evaluate", "--strategy", str(path), "--seeds", "1,-2"])
    assert result.exit_code == 2 and "--seeds" in result.output and "accepted: seeds 0 to 2^63 - 1" in result.output


def test_the_commands_default_bot_is_the_games_declared_default():
    """The CLI names its default bot as a literal (its bots are imported lazily, for start-up): it must be the bot
    the game's declaration calls the strongest, the one sweeps and leagues default to."""
    import inspect

    from flows.games.twocarddraw import SPEC

    for command in (cmd.judge, cmd.evaluate, cmd.export):
        assert inspect.signature(command).parameters["bot"].default.default == SPEC.default_bot, command.__name__
