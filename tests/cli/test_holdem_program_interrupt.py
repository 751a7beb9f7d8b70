"""Ctrl-C, SIGTERM or SIGHUP while a Hold'em Training program plays is an interrupt, not the program's
failure: a judged match keeps the hands finished (keep_on_interrupt), and a match's chunk in play is
dropped as interrupted instead of being reported as a failed chunk (MatchAborted, ChunkFailed)."""

import json
import shutil
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bots.program import PROGRAM_BOT
from engine.core.log import ChunkLog
from engine.holdem_training.judge import MatchResult
from flows.games import holdem_training
from flows.match import MatchPlan, run_match


@pytest.fixture
def interrupted_after(monkeypatch):
    """play_external as it returns when an ending signal lands after `kept` hands (it keeps them)."""
    kept = 7

    def play_external(argv, *, seed, first, hands, **_):
        return MatchResult(log=ChunkLog(first=first, payoffs=np.arange(first, first + kept, dtype=np.float64)),
                           hands_requested=hands, status="interrupted", reason="stopped by Ctrl-C (SIGINT)")

    monkeypatch.setattr(holdem_training.judge, "play_external", play_external)
    return kept


def test_a_judged_match_keeps_the_hands_played_when_interrupted(interrupted_after):
    from bots.program import ProgramConfig

    log = holdem_training.play_program(ProgramConfig("prog"), seed=3, first=0, count=500, keep_on_interrupt=True)
    assert log.count == interrupted_after and log.payoffs.tolist() == list(range(interrupted_after))


def test_a_match_of_a_program_stops_as_interrupted_not_as_a_failed_chunk(interrupted_after, capsys):
    plan = MatchPlan(game="holdem-training", bot=PROGRAM_BOT, program="prog", seed=3, units=500, chunk_size=100)
    with pytest.raises(KeyboardInterrupt):  # before: ChunkFailed ("MatchAborted: interrupted after 7 of 100")
        run_match(plan, None)
    assert "interrupted by Ctrl-C (SIGINT): match " in capsys.readouterr().err


def _playing_for(program: str, seconds: float):
    """ready() for test_signals.signalled: True once `python PROGRAM ...` (under the judge, whose own command
    line names it too) has run for `seconds`: the generic judge shows no progress until the match returns."""
    seen: list[float] = []

    def running() -> bool:
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if cmdline.read_bytes().split(b"\0")[1:2] == [program.encode()]:
                    return True
            except OSError:  # ended while we looked
                continue
        return False

    def ready() -> bool:
        if not seen and running():
            seen.append(time.monotonic())
        return bool(seen) and time.monotonic() - seen[0] >= seconds

    return ready


@pytest.mark.slow  # a real cardlab process and program, signalled mid-match
def test_ctrl_c_in_the_generic_judge_keeps_the_hands_played(env, tmp_path):
    from tests.cli.test_signals import CHECKER, query, signalled, stopped_cleanly

    program = tmp_path / "contestant_for_this_test.py"  # its own path: no other test's program matches
    shutil.copy(CHECKER, program)
    env = env | {"CARDLAB_EXTRA_GAMES": f"{env['CARDLAB_EXTRA_GAMES']},holdem-plain=tests.cli.holdem_plain_game"}
    hands = 100_000
    done = signalled(env, tmp_path, ["judge", "holdem-plain", "--hands", str(hands), "--log", "--json", "--",
                                     sys.executable, str(program), "check"], signal.SIGINT,
                     ready=_playing_for(str(program), 2.0))  # a few hundred hands
    note = stopped_cleanly(done, signal.SIGINT)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    kept = found["units"]
    assert found["status"] == "interrupted" and 0 < kept < hands, done.stderr[-2000:]
    assert note.startswith(f"interrupted by Ctrl-C (SIGINT): the {kept:,} hands played are logged as "
                           f"{found['match_id']}")
    assert query(env, f"SELECT count(*), json_extract_string(any_value(m.options), '$.status') FROM units u "
                      f"JOIN matches m USING (match_id) WHERE match_id = '{found['match_id']}'") == [
        (kept, "interrupted")]
