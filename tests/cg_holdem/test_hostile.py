"""The CodinGame Hold'em referee against hostile programs: each is deactivated as the SDK does
(TIMEOUT: folded, ranked out), the game goes on to its end with every hand kept, no process of
the program's survives and it sees none of the judge's variables."""

import sys
import uuid

import pytest

from bots.cg_holdem import BOTS
from engine.cg_holdem.judge import BotSeat, ProgramSeat, play_game
from engine.cg_holdem.rules import GameConfig
from tests.core.test_contestant import HOSTILE, ReportPipe, survivors


def game_with(mode: str, *extra: str, answer: str = "CALL", first_turn_ms: int = 2000, turn_ms: int = 300):
    marker = uuid.uuid4().hex
    seat = ProgramSeat([sys.executable, HOSTILE, marker, mode, *extra], first_turn_ms=first_turn_ms, turn_ms=turn_ms,
                       env={"HOSTILE_ANSWER": answer, "HOSTILE_EXTRA": "given"})
    others = [BotSeat(BOTS["station"].make()), BotSeat(BOTS["station"].make())]
    result = play_game([seat, *others], seed=7,
                       config=GameConfig(players=3, first_turn_ms=first_turn_ms, turn_ms=turn_ms))
    assert survivors(marker) == []
    assert [h.hand for h in result.hands] == list(range(1, len(result.hands) + 1))  # every hand kept
    return result


@pytest.mark.parametrize("mode", ["sleep", "bigline", "close_stdout", "noread_nonewline", "burn", "alloc"])
@pytest.mark.slow  # waits out each limit
def test_a_faulty_program_is_timed_out_and_the_game_is_played_out(mode):
    result = game_with(mode)
    report = result.seat_reports[0]
    assert report["failure"] and report["answers"] == 0
    assert result.ranks[0] is not None  # ranked out, while the game went on
    assert len(result.hands) >= 1


def test_a_flood_is_read_as_answers_and_its_daemon_dies(tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    seen = ReportPipe(tmp_path / "seen.txt")  # a FIFO: files outside its folder are read-only
    result = game_with("escape", str(seen), first_turn_ms=10000, turn_ms=2000)  # slack for a loaded machine
    assert result.seat_reports[0]["failure"] is None and result.seat_reports[0]["answers"] > 0
    text = seen.read_text()
    assert "FOO_TOKEN=unset" in text and "HOSTILE_EXTRA=given" in text
    flood = game_with("flood", first_turn_ms=10000, turn_ms=2000)
    assert flood.seat_reports[0]["answers"] > 0
