"""The CLI silences what native modules print while the interpreter tears down, unless debugging."""

import os
import subprocess
import sys

PROGRAM = """
import os
from cardlab.errors import quiet_teardown

class Noisy:
    def __del__(self):
        os.write(2, b"torn down late\\n")

quiet_teardown()
keep = Noisy()  # collected with the module's globals, after every atexit handler
os.write(2, b"while running\\n")
"""


def _stderr(debug: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CARDLAB_DEBUG"}
    if debug:
        env["CARDLAB_DEBUG"] = "1"
    return subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True,
                          check=True).stderr


def test_lines_printed_during_teardown_are_dropped_but_not_earlier_ones():
    assert _stderr(debug=False) == "while running\n"


def test_cardlab_debug_keeps_them():
    assert _stderr(debug=True) == "while running\ntorn down late\n"
