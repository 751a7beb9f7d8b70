"""LineProcess: line exchange (polling or sleeping for answers), end of output and limits."""

import os
import sys

import pytest

from engine.core.process import LimitExceeded, LineProcess, ProgramEnded, SpinBudget, poll_read

ECHO = "import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)\n"
SLOW_ECHO = ("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.03)\n"
             "    print(line.strip().upper(), flush=True)\n")


@pytest.mark.parametrize("spin", [False, True])
@pytest.mark.parametrize("program", [ECHO, SLOW_ECHO])
def test_answers_come_back_in_order_whether_polled_or_slept_for(spin, program):
    with LineProcess([sys.executable, "-c", program], spin=spin) as proc:
        for word in ("one", "two\nthree"):
            proc.send(word)
        assert [proc.read_line(timeout=10) for _ in range(3)] == ["ONE", "TWO", "THREE"]
        report = proc.close()
    assert report.returncode == 0 and report.limit is None


@pytest.mark.parametrize("spin", [False, True])
def test_a_program_that_quits_without_answering_ends(spin):
    with LineProcess([sys.executable, "-c", "pass"], spin=spin) as proc:
        with pytest.raises(ProgramEnded):
            proc.read_line(timeout=10)


def test_a_last_line_without_newline_is_still_read():
    with LineProcess([sys.executable, "-c", "print('tail', end='')"], spin=True) as proc:
        assert proc.read_line(timeout=10) == "tail"


@pytest.mark.slow  # waits out a wall limit
def test_silence_past_the_timeout_is_a_wall_limit():
    with LineProcess([sys.executable, "-c", "import time; time.sleep(5)"], spin=True) as proc:
        with pytest.raises(LimitExceeded) as info:
            proc.read_line(timeout=0.2)
    assert info.value.kind == "wall"


def test_burning_cpu_past_the_limit_is_a_cpu_limit():
    with LineProcess([sys.executable, "-c", "while True: pass"], cpu_seconds=1) as proc:
        with pytest.raises(LimitExceeded) as info:
            proc.read_line(timeout=20)
        report = proc.close()
    # The kernel checks RLIMIT_CPU on its clock ticks, so the signal can come a tick early.
    assert info.value.kind == "cpu" and report.cpu_seconds >= 0.9 and report.limit == "cpu"


def test_the_spin_budget_follows_what_sleeping_costs_within_its_cap():
    budget = SpinBudget(initial=0.00008, cap=0.0002)
    for _ in range(50):
        budget.slept(0.00001)  # a busy machine: sleeping is cheap, so polling long is waste
    assert budget.seconds == pytest.approx(0.00001, rel=0.01)
    for _ in range(50):
        budget.slept(0.001)  # expensive sleeps: poll longer, but never past the cap
    assert budget.seconds == 0.0002


def test_poll_read_returns_waiting_bytes_none_on_silence_and_empty_at_the_end():
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    assert poll_read(read_end, 0.0005) is None
    os.write(write_end, b"STATE\n")
    assert poll_read(read_end, 0.0005) == b"STATE\n"
    os.close(write_end)
    assert poll_read(read_end, 0.0005) == b""
    os.close(read_end)
