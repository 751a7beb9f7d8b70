"""A user's bot class from a file (--bot-file PATH.py:ClassName), run in its own process: it
plays exactly as the same class does in process, its faults get the in-process verdicts, and
it cannot outlive the test or see the judge's variables."""

import importlib.util
import textwrap

import numpy as np
import pytest

from engine.twocarddraw import judge as J
from engine.twocarddraw import rules as R
from engine.twocarddraw.program import parse_bot_file, play_program
from tests.core.test_contestant import ReportPipe, survivors

USER_BOT = f"""
    import os, random

    class Bot:
        def __init__(self):
            self.rng = random.Random(5)
            self.hands = 0

        def init(self, bet1, bet2):
            print("debug output must not be taken for an answer")
            return 0

        def new_hand(self, card1, card2, winnings):
            self.hands += 1
            return 1 if card1 % 13 == card2 % 13 else 0

        def round1(self, card1, card2, bets):
            return self.rng.choice([0, 1, 2] if bets < {R.MAX_BETS} else [0, 1])

        def draw(self, card1, card2, bets):
            return self.rng.choice([0, 1, 2])

        def round2(self, card1, card2, bets1, bets2, drew):
            return self.rng.choice([1, 2] if bets2 < {R.MAX_BETS} else [0, 1])

        def showdown(self, card1, card2, opp1, opp2):
            return 0
"""


def user_file(tmp_path, extra: str = "", name: str = "bot.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(USER_BOT) + textwrap.dedent(extra))
    return str(path)


def in_process(path: str, name: str):
    spec = importlib.util.spec_from_file_location("user_bot_in_process", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)()


def test_a_user_class_plays_exactly_as_it_does_in_process(generated_12, tmp_path):
    path = user_file(tmp_path)
    result, isolation = play_program(path, "Bot", generated_12, seed=4, count=2_000)
    alone = J.play_match(in_process(path, "Bot"), generated_12, seed=4, hands=2_000)
    assert result.status == alone.status == J.OK and isolation in ("namespaces+readonly-fs", "namespaces", "subreaper")
    assert np.array_equal(result.profits, alone.profits) and result.record.columns == alone.record.columns
    assert 0 < result.cpu_seconds < 5
    assert survivors(str(tmp_path)) == []


@pytest.mark.parametrize("extra, status, message", [
    ("""
     class Crashing(Bot):
         def draw(self, card1, card2, bets):
             raise ValueError("no idea")
     """, J.CRASH, "raised ValueError: no idea"),
    ("""
     class Wordy(Bot):
         def draw(self, card1, card2, bets):
             return "two"
     """, J.INVALID, "draw returned 'two'; accepted: [0, 1, 2]"),
    ("""
     class Boolean(Bot):
         def new_hand(self, card1, card2, winnings):
             return True
     """, J.INVALID, "new_hand returned True; accepted: [0, 1]"),
    ("""
     class Burner(Bot):
         def draw(self, card1, card2, bets):
             while True:
                 pass
     """, J.TIME_LIMIT, "bot CPU time"),
])
def test_faults_get_the_in_process_verdicts(generated_12, tmp_path, extra, status, message):
    name = extra.split("class ")[1].split("(")[0]
    path = user_file(tmp_path, extra)
    result, _ = play_program(path, name, generated_12, seed=4, count=300, cpu_limit=0.5, wall_seconds=60)
    assert result.status == status and message in result.record.message
    if status != J.TIME_LIMIT:  # the same verdict, message and hands as the class in process
        alone = J.play_match(in_process(path, name), generated_12, seed=4, hands=300, cpu_limit=0.5)
        assert (alone.status, alone.record.message, len(alone.profits)) == (
            result.status, result.record.message, len(result.profits))
    assert survivors(str(tmp_path)) == []


@pytest.mark.slow  # waits out a wall limit
def test_a_call_that_never_returns_ends_at_the_wall_limit(generated_12, tmp_path):
    path = user_file(tmp_path, """
        class Sleeper(Bot):
            def draw(self, card1, card2, bets):
                import time
                time.sleep(1000)
        """)
    result, _ = play_program(path, "Sleeper", generated_12, seed=4, count=300, wall_seconds=2)
    assert result.status == J.TIME_LIMIT and "wall" in result.record.message
    assert survivors(str(tmp_path)) == []


def test_a_bot_that_cannot_load_scores_zero(generated_12, tmp_path):
    path = user_file(tmp_path, "raise ImportError('missing helper')\n")
    result, _ = play_program(path, "Bot", generated_12, seed=4, count=10)
    assert result.status == J.CRASH and "missing helper" in result.record.message and result.score == 0
    missing, _ = play_program(user_file(tmp_path, name="b2.py"), "Nope", generated_12, seed=4, count=10)
    assert missing.status == J.CRASH and "Nope" in missing.record.message


def test_secrets_and_daemons(generated_12, tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    seen = ReportPipe(tmp_path / "seen.txt")  # a FIFO: files outside its folder are read-only
    path = user_file(tmp_path, f"""
        class Snoop(Bot):
            def init(self, bet1, bet2):
                with open({str(seen)!r}, "w") as f:
                    f.write(os.environ.get("FOO_TOKEN", "unset") + " " + os.environ.get("GIVEN", "unset"))
                if os.fork() == 0:
                    os.setsid()
                    import time
                    time.sleep(1000)
                return 0
        """)
    result, _ = play_program(path, "Snoop", generated_12, seed=4, count=50, env={"GIVEN": "yes"})
    assert result.status == J.OK and seen.read_text() == "unset yes"
    assert survivors(str(tmp_path)) == []


def test_bot_file_names_are_checked(tmp_path):
    path = user_file(tmp_path)
    assert parse_bot_file(f"{path}:Bot") == (path, "Bot")
    for bad in (path, f"{path}:1x", f"{tmp_path}/none.py:Bot", f"{tmp_path}:Bot"):
        with pytest.raises(ValueError, match="PATH.py:ClassName|is not a file"):
            parse_bot_file(bad)


def test_judge_bot_file_on_the_command_line(generated_12, tmp_path):
    import json

    from engine.twocarddraw.protocol import write_strategy
    from tests.twocarddraw.test_commands import cli, runner

    write_strategy(generated_12, tmp_path / "s.txt")
    path = user_file(tmp_path)
    args = ["judge", "--strategy", str(tmp_path / "s.txt"), "--hands", "500", "--seed", "4", "--json"]
    result = runner.invoke(cli, args + ["--bot-file", f"{path}:Bot"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output.strip().splitlines()[-1])
    alone = J.play_match(in_process(path, "Bot"), generated_12, seed=4, hands=500)
    assert out["status"] == "ok" and out["profit"] == alone.profit
    assert out["isolation"] in ("namespaces+readonly-fs", "namespaces", "subreaper")
    bad = runner.invoke(cli, args + ["--bot-file", path])
    assert bad.exit_code == 2 and "accepted: PATH.py:ClassName" in bad.output
