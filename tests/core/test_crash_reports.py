"""Every judge reports a program's crash as a crash: its exit status or signal and the last lines
of its stderr, whatever the contest then does with the game (verdicts and scores unchanged)."""

import sys
import uuid
from pathlib import Path

import pytest

from engine.core.process import Keep

CALLER = str(Path(__file__).resolve().parents[1] / "cg_holdem" / "data" / "caller.py")


def crasher(tmp_path: Path) -> str:
    """A program that dies at start writing its log into /tmp (read-only for it where the view
    is in force; where it is not, it fails anyway), with a traceback on stderr."""
    path = tmp_path / "crasher.py"
    path.write_text(f"""import sys
with open("/tmp/cardlab-crash-{uuid.uuid4().hex}/bot.log", "w") as log:
    log.write("starting")
""")
    return str(path)


def assert_crash_text(text: str) -> None:
    assert "crashed (exit status 1)" in text and "FileNotFoundError" in text


def test_cg_holdem_names_the_crash_and_keeps_its_stderr(tmp_path):
    from engine.cg_holdem.judge import play_programs
    from engine.cg_holdem.rules import GameConfig

    config = GameConfig(players=2, first_turn_ms=3000, turn_ms=1000)
    keep = Keep(str(tmp_path / "kept"), "seat")
    result = play_programs([[sys.executable, crasher(tmp_path)], [sys.executable, CALLER]], seed=42, config=config,
                           keep=keep)
    first = next(h for h in result.history if h.player == 0)
    assert first.action == "TIMEOUT" and result.positions == (2, 1)  # the contest's rule, as before
    report = result.seat_reports[0]
    assert_crash_text(report["failure"])
    assert "Traceback" in report["stderr_tail"] and report["returncode"] == 1
    assert "FileNotFoundError" in (tmp_path / "kept" / "seat0.stderr").read_text()
    assert (tmp_path / "kept" / "seat1.stderr").exists() and result.seat_reports[1]["failure"] is None


def test_holdem_training_names_the_crash_keeps_stderr_and_the_cli_keeps_it(tmp_path):
    import typer
    from typer.testing import CliRunner

    from cardlab.commands import holdem_training as commands
    from engine.holdem_training.judge import play_external

    result = play_external([sys.executable, crasher(tmp_path)], seed=1, hands=5)
    assert result.status == "ended" and result.hands_played == 0  # as before: the contest's -1
    assert_crash_text(result.reason)
    assert "Traceback" in result.stderr_tail and result.limits.startswith("memory ")
    app = typer.Typer()
    app.command("judge")(commands.judge)
    app.command("other")(lambda: None)  # a group, so that "judge" is a subcommand
    out = CliRunner().invoke(app, ["judge", "--hands", "5", "--no-log", "--keep", str(tmp_path / "kept"),
                                   "--keep-folder", "--", sys.executable, crasher(tmp_path)])
    assert "crashed (exit status 1)" in out.output and "program stderr:" in out.output and "limits memory" in out.output
    assert "FileNotFoundError" in (tmp_path / "kept" / "program.stderr").read_text()
    assert (tmp_path / "kept" / "program.folder").is_dir()


def test_tractor_names_the_runtime_errors_cause(tmp_path):
    from engine.tractor.judge import run_program

    case = Path(__file__).resolve().parents[1] / "tractor" / "data" / "core" / "21_multi_case_4cases.in"
    verdict = run_program([sys.executable, crasher(tmp_path)], case.read_text(), case.with_suffix(".out").read_text(),
                          keep=Keep(str(tmp_path / "kept"), "program"))
    assert verdict.verdict == "runtime error" and verdict.matched == 0  # the verdict as before
    assert verdict.ended == "exit status 1" and "FileNotFoundError" in verdict.detail
    assert "FileNotFoundError" in (tmp_path / "kept" / "program.stderr").read_text()


def test_splendor_names_the_crash_and_the_move_still_counts(tmp_path):
    from engine.splendor.agents import ExternalAgent
    from tests.splendor.test_external import EXAMPLE

    folder = tmp_path / "crash"
    folder.mkdir()
    (folder / "agent.py").write_text("import sys\nprint('1 3 0 1 2', flush=True)\nsys.exit('out of ideas')\n")
    bot = ExternalAgent("crash", f"{sys.executable} {folder / 'agent.py'}", keep=Keep(str(tmp_path / "kept"), "x"))
    first, second = bot.respond(EXAMPLE), bot.respond(EXAMPLE)
    assert first.stdout.strip() == "1 3 0 1 2" and first.returncode == 1  # the arbiter's rule: the move counts
    assert first.crash == "exit status 1: out of ideas" and second.crash == first.crash
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["crash.2.stderr", "crash.stderr"]
    fine = (folder / "agent.py").write_text("print('1 3 0 1 2')\n")
    assert fine and bot.respond(EXAMPLE).crash == ""


def test_twocarddraw_names_the_bot_process_crash(tmp_path):
    from engine.twocarddraw import judge as J
    from engine.twocarddraw.program import play_program
    from tests.twocarddraw.conftest import generated_12
    from tests.twocarddraw.test_bot_file import user_file

    path = user_file(tmp_path, """
        class Faulter(Bot):
            def draw(self, card1, card2, bets):
                import ctypes
                ctypes.string_at(0)
        """)
    result, _ = play_program(path, "Faulter", generated_12.__wrapped__(), seed=4, count=50, wall_seconds=60)
    assert result.status == J.CRASH and "crashed (killed by signal SIGSEGV)" in result.record.message


@pytest.mark.parametrize("game", ["cg_holdem", "holdem_training", "tractor", "splendor"])
def test_keep_folder_without_keep_is_refused(game):
    import typer
    from typer.testing import CliRunner

    module = __import__(f"cardlab.commands.{game}", fromlist=["judge"])
    app = typer.Typer()
    app.command("judge")(module.judge)
    app.command("other")(lambda: None)
    program = f"{sys.executable} -c pass"
    args = {"cg_holdem": ["--seed", "42", program, program], "holdem_training": ["--", sys.executable],
            "tractor": [], "splendor": [program]}[game]
    out = CliRunner().invoke(app, ["judge", "--keep-folder", *args])
    assert out.exit_code == 2 and "--keep-folder needs --keep DIR" in out.output
