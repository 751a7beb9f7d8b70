"""`judge tractor --program` against hostile simulators: each gets the contest's verdict within
its wall limit plus 5 s, however much input it leaves unread, and no process of its survives."""

import sys
import time
import uuid

import pytest

from engine.tractor.judge import run_program
from tests.core.test_contestant import HOSTILE, ReportPipe, survivors
from tests.tractor.test_program import CASE

WALL = 3.0


def judged(mode: str, *extra: str, text: str | None = None, **kwargs):
    marker = uuid.uuid4().hex
    expected = CASE.with_suffix(".out").read_text()
    wall = 30 if mode == "burn" else WALL  # a loaded machine gives it a fraction of a core
    started = time.monotonic()
    verdict = run_program([sys.executable, HOSTILE, marker, mode, *extra], text or CASE.read_text() * 300, expected,
                          cpu_seconds=1, memory_mb=200, wall_seconds=wall, **kwargs)
    assert time.monotonic() - started < wall + 5
    assert survivors(marker) == []
    return verdict


@pytest.mark.parametrize("mode, verdict", [("sleep", "time limit"), ("flood", "output limit"),
                                           ("bigline", "output limit"), ("noread_nonewline", "output limit"),
                                           ("burn", "time limit"), ("alloc", "memory limit"),
                                           ("close_stdout", "time limit"), ("garbage", "time limit")])
@pytest.mark.slow  # waits out each limit
def test_a_simulator_that_never_reads_its_large_input_gets_a_verdict(mode, verdict):
    assert judged(mode).verdict == verdict


@pytest.mark.slow  # burns CPU to the limit
def test_a_burned_cpu_figure_is_past_the_limit():
    result = judged("burn")
    assert result.verdict == "time limit" and result.cpu_seconds > 1


def test_a_daemon_dies_and_secrets_stay_hidden(tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    seen = ReportPipe(tmp_path / "seen.txt")  # a FIFO: files outside its folder are read-only
    verdict = judged("escape_exit", str(seen), env={"HOSTILE_EXTRA": "given"})
    assert verdict.verdict == "wrong answer"
    text = seen.read_text()
    assert "FOO_TOKEN=unset" in text and "HOSTILE_EXTRA=given" in text
    assert "/cardlab-contestant-" in text.split("cwd=")[1].split()[0]  # a private folder
