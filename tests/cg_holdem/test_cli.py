"""The CLI commands: judge external programs, export, and clear one-line errors."""

import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

from cardlab.commands import cg_holdem as commands

CALLER = str(Path(__file__).parent / "data" / "caller.py")
app = typer.Typer()
app.command("judge")(commands.judge)
app.command("export")(commands.export)
runner = CliRunner()


def test_judge_prints_scores_and_ranks_of_external_programs():
    caller = f"{sys.executable} {CALLER}"
    result = runner.invoke(app, ["judge", "--seed", "42", "--turn-ms", "2000", "--", caller, caller, caller])
    assert result.exit_code == 0, result.output
    for score in ("1970", "1790", "1040"):
        assert score in result.output


def test_export_then_judge_the_exported_file(tmp_path):
    out = tmp_path / "bot.py"
    result = runner.invoke(app, ["export", "--out", str(out), "--bot", "pushfold", "--set", "multiway_tighten=1.2"])
    assert result.exit_code == 0 and out.exists(), result.output
    result = runner.invoke(app, ["judge", "--seed", "9", "--turn-ms", "2000", "--json", "--",
                                 f"{sys.executable} {out}", f"{sys.executable} {CALLER}"])
    assert result.exit_code == 0, result.output
    assert '"failure": null' in result.output and '"rank": 1' in result.output


def test_bad_input_is_one_line_not_a_traceback():
    for args in (["judge", "--seed", "0", "--", "a", "b"], ["judge", "--seed", "1", "--", "a"],
                 ["export", "--out", "x.py", "--bot", "nope"], ["export", "--out", "x.py", "--set", "foo=1"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert "error:" in result.output
