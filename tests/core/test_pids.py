"""engine.core.pids.alive: what pidfiles and waiting markers are checked with."""

import os
import subprocess
import sys

from engine.core.pids import alive, stat_field


def test_a_running_process_is_alive_and_an_ended_one_is_not():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert alive(child.pid) and stat_field(child.pid, 0) in ("R", "S", "D")
    finally:
        child.kill()
        child.wait()
    assert not alive(child.pid)  # reaped: the pid is gone
    assert alive(os.getpid())


def test_a_zombie_is_not_alive():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, not yet reaped: a zombie
    try:
        assert stat_field(child.pid, 0) == "Z" and not alive(child.pid)
    finally:
        child.wait()
