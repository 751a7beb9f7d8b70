"""LineProcess: line exchange (polling or sleeping for answers), end of output and limits."""

import sys

import pytest

from engine.core.process import LimitExceeded, LineProcess, ProgramEnded

ECHO = "import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)\n"
SLOW_ECHO = ("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.03)\n"
             "    print(line.strip().upper(), flush=True)\n")


@pytest.mark.parametrize("spin", [0.0, 0.001])
@pytest.mark.parametrize("program", [ECHO, SLOW_ECHO])
def test_answers_come_back_in_order_whether_polled_or_slept_for(spin, program):
    with LineProcess([sys.executable, "-c", program], spin_seconds=spin) as proc:
        for word in ("one", "two\nthree"):
            proc.send(word)
        assert [proc.read_line(timeout=10) for _ in range(3)] == ["ONE", "TWO", "THREE"]
        report = proc.close()
    assert report.returncode == 0 and report.limit is None


@pytest.mark.parametrize("spin", [0.0, 0.001])
def test_a_program_that_quits_without_answering_ends(spin):
    with LineProcess([sys.executable, "-c", "pass"], spin_seconds=spin) as proc:
        with pytest.raises(ProgramEnded):
            proc.read_line(timeout=10)


def test_a_last_line_without_newline_is_still_read():
    with LineProcess([sys.executable, "-c", "print('tail', end='')"], spin_seconds=0.001) as proc:
        assert proc.read_line(timeout=10) == "tail"


def test_silence_past_the_timeout_is_a_wall_limit():
    with LineProcess([sys.executable, "-c", "import time; time.sleep(5)"], spin_seconds=0.001) as proc:
        with pytest.raises(LimitExceeded) as info:
            proc.read_line(timeout=0.2)
    assert info.value.kind == "wall"


def test_burning_cpu_past_the_limit_is_a_cpu_limit():
    with LineProcess([sys.executable, "-c", "while True: pass"], cpu_seconds=1) as proc:
        with pytest.raises(LimitExceeded) as info:
            proc.read_line(timeout=20)
        report = proc.close()
    assert info.value.kind == "cpu" and report.cpu_seconds >= 1
