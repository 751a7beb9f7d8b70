"""Turn limits on the program's CPU clock (`--clock cpu`, issue 30 item 5): waiting for a core on a busy
machine is not the program's time, a program that computes too long still runs out, and one that uses no
CPU at all still meets a wall cap; the wall clock (the contests' rule) is unchanged."""

import sys

import pytest

from engine.core import process
from engine.core.errors import BadValue
from engine.core.process import LimitExceeded, LineProcess

# Answers each line but the first after sleeping (no CPU), or after spinning the CPU, for argv[2] seconds.
PROGRAM = """import sys, time
mode, seconds = sys.argv[1], float(sys.argv[2])
for n, line in enumerate(sys.stdin):
    end = time.monotonic() + seconds
    if n == 0:  # the warm-up: at once
        pass
    elif mode == "sleep":
        time.sleep(seconds)
    else:
        while time.monotonic() < end:
            pass
    print("ok " + line.strip(), flush=True)
"""


def _ask(mode: str, seconds: float, timeout: float, clock: str) -> str:
    with LineProcess([sys.executable, "-c", PROGRAM, mode, str(seconds)]) as proc:
        proc.send("warm-up")
        assert proc.read_line(5.0) == "ok warm-up"  # the interpreter's start-up is not the turn
        proc.send("turn")
        return proc.read_line(timeout, clock=clock)


def test_a_program_waiting_without_cpu_times_out_on_the_wall_clock_only():
    with pytest.raises(LimitExceeded, match=r"no answer within 0.1 s$"):
        _ask("sleep", 0.3, 0.1, "wall")
    assert _ask("sleep", 0.3, 0.1, "cpu") == "ok turn"


def test_a_program_computing_past_its_limit_runs_out_on_the_cpu_clock():
    with pytest.raises(LimitExceeded, match=r"no answer within 0.1 s of CPU time \(--clock cpu; wall \d+\.\d+ s\)"):
        _ask("spin", 30.0, 0.1, "cpu")


def test_a_program_that_never_answers_meets_the_cpu_clocks_wall_cap(monkeypatch):
    monkeypatch.setattr(process, "CPU_CLOCK_WALL_MIN", 1.0)
    with pytest.raises(LimitExceeded, match=r"no answer within 1 s of wall time \(--clock cpu's cap; CPU 0\.0"):
        _ask("sleep", 30.0, 0.05, "cpu")


def test_an_unknown_clock_is_refused():
    with LineProcess([sys.executable, "-c", PROGRAM, "sleep", "0"]) as proc, \
            pytest.raises(BadValue, match="clock 'cpus': accepted: wall, cpu"):
        proc.read_line(1.0, clock="cpus")
