"""Which ending signals a command takes over: SIGINT and SIGTERM always (a non-interactive shell
starts background jobs with SIGINT ignored, and `kill -INT` must still stop them cleanly); SIGHUP
not when it came in ignored (nohup). And `held()`: a signal inside the block ends the command when the
block ends, so a write that must land whole is never cut by it."""

import os
import signal
import subprocess
import sys

from engine.core import ending


def test_sigint_is_taken_even_when_inherited_ignored_but_nohups_sighup_stays_ignored():
    saved = {s: signal.getsignal(s) for s in ending.ENDING}
    try:
        for s in ending.ENDING:
            signal.signal(s, signal.SIG_IGN)
        ending.install()
        taken = signal.getsignal(signal.SIGINT)
        assert callable(taken) and taken is signal.getsignal(signal.SIGTERM)  # the one handler of both
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


SCRIPT = """
import os, signal, sys
from engine.core import ending
ending.install()
done = []
try:
    with ending.held():
        os.kill(os.getpid(), signal.SIGTERM)  # delivered at once, in the middle of the block
        done.append("rest of the block")
    done.append("after the block")
except ending.Ended as exc:
    print("|".join(done), exc.signum, ending.exit_code(), flush=True)
"""


def test_a_signal_inside_a_held_block_waits_for_its_end():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.stdout.split() == ["rest", "of", "the", "block", str(int(signal.SIGTERM)), str(128 + signal.SIGTERM)]


def test_outside_a_held_block_the_signal_still_ends_at_once():
    script = SCRIPT.replace("with ending.held():", "if True:")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.stdout.split() == [str(int(signal.SIGTERM)), str(128 + signal.SIGTERM)]  # nothing after the kill ran
