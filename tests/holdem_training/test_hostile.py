"""The Hold'em Training judge against hostile programs: each gets the contest's verdict (-1),
within its wall limit plus 5 s, no process of the program's survives, and the hands played
before the fault are in the result."""

import _thread
import signal
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from engine.holdem_training.judge import play_external
from tests.core.test_contestant import HOSTILE, ReportPipe, survivors

CONTESTANT = str(Path(__file__).parent / "data" / "contestant.py")


def judged(argv: list[str], *, wall: float = 3.0, **kwargs):
    started = time.monotonic()
    result = play_external(argv, seed=5, hands=kwargs.pop("hands", 200), wall_seconds=wall, **kwargs)
    assert time.monotonic() - started < wall + 5
    assert result.log.count == result.hands_played == len(result.log.payoffs)
    return result


@pytest.mark.parametrize("mode, status", [("flood", None), ("sleep", "limit"), ("bigline", "limit"),
                                          ("close_stdout", "ended"), ("noread_nonewline", "limit")])
@pytest.mark.slow  # waits out wall limits
def test_programs_that_never_read_get_a_verdict_within_the_wall_limit(mode, status):
    marker = uuid.uuid4().hex
    result = judged([sys.executable, HOSTILE, marker, mode], hands=10000, wall=6)  # slack for a loaded machine
    # A flood of CHECKs is a legal way to play every hand, never reading or not.
    assert result.complete if status is None else result.status == status
    assert survivors(marker) == []


@pytest.mark.slow  # waits out a wall limit
def test_a_rate_flood_that_never_reads_stops_at_the_wall_limit():
    marker = uuid.uuid4().hex
    result = judged([sys.executable, HOSTILE, marker, "flood"], hands=10000, env={"HOSTILE_ANSWER": "RATE 1"})
    assert result.status == "limit" and result.limit == "wall" and result.rate_used > 0
    assert survivors(marker) == []


@pytest.mark.parametrize("mode, limit", [("burn", "cpu"), ("hog", "memory")])
@pytest.mark.slow  # burns CPU / memory to the limit
def test_a_limit_after_good_hands_keeps_those_hands(mode, limit):
    marker = uuid.uuid4().hex
    result = judged([sys.executable, CONTESTANT, mode, "30", marker], cpu_seconds=1, memory_mb=200, wall=20)
    assert result.status == "limit" and result.limit == limit and result.hands_played == 30
    if limit == "cpu":
        assert result.cpu_seconds > 1 and f"{result.cpu_seconds:.2f} s" in result.reason
    assert survivors(marker) == []


def test_a_daemon_child_dies_and_the_secret_stays_hidden(tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    marker = uuid.uuid4().hex
    seen = ReportPipe(tmp_path / "seen.txt")  # a FIFO: files outside its folder are read-only
    result = judged([sys.executable, HOSTILE, marker, "escape", str(seen)], env={"HOSTILE_EXTRA": "given"})
    assert survivors(marker) == []
    text = seen.read_text()
    assert "FOO_TOKEN=unset" in text and "HOSTILE_EXTRA=given" in text
    assert result.isolation in ("namespaces+readonly-fs", "namespaces", "subreaper")


@pytest.fixture
def python_sigint():
    """Python's own Ctrl-C handler for the test: a test run started in the background by a
    non-interactive shell inherits SIGINT ignored, Python then keeps it ignored, and the
    simulated Ctrl-C does nothing (the match plays to its end)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_keeps_the_hands_played_and_kills_the_program(python_sigint):
    marker = uuid.uuid4().hex
    lines: list[str] = []
    stop = threading.Event()

    def interrupt_mid_match():  # Ctrl-C once some hands are played, as a user would press it
        while len(lines) < 2000 and not stop.is_set():
            time.sleep(0.001)
        if not stop.is_set():
            _thread.interrupt_main()

    watcher = threading.Thread(target=interrupt_mid_match)
    watcher.start()
    try:
        result = judged([sys.executable, CONTESTANT, "check", "1000000000", marker], hands=10000, wall=60,
                        transcript=lines)
    finally:
        stop.set()
        watcher.join()
    assert result.status == "interrupted" and 0 < result.hands_played < 10000
    assert survivors(marker) == []
