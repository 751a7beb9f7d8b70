"""Another process holding the hand log file, as a notebook or the DuckDB CLI would."""

import subprocess
import sys
import time
from pathlib import Path

from flows.sharing import someone_waiting

SCRIPT = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "ro")
print("holding", flush=True)
deadline = time.monotonic() + float(sys.argv[3])
import select
while time.monotonic() < deadline:  # until told (a line on stdin, or EOF if the test is gone) or the time is up
    if select.select([sys.stdin], [], [], 0.05)[0]:
        break
con.close()
"""


class Holder:
    """`with Holder(db, read_only=True):` holds the file until the block ends (or, with `seconds`,
    until that time is up: only for a holder that must go away by itself while the test waits).

    A holder that must hold throughout has no deadline: on a loaded machine a command can run past
    any fixed one, and the file would be let go halfway through (the cause of a test that failed
    only under load)."""

    def __init__(self, db: Path, *, read_only: bool, seconds: float | None = None):
        self.db = Path(db)
        self.args = [sys.executable, "-c", SCRIPT, str(db), "ro" if read_only else "rw",
                     "inf" if seconds is None else str(seconds)]
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Holder":
        self.process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "holding"
        return self

    @property
    def pid(self) -> int:
        return self.process.pid

    def release(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.write("go\n")
            self.process.stdin.flush()
        self.process.wait(timeout=30)

    def release_when_waited_for(self, other: subprocess.Popen, timeout: float = 300.0) -> bool:
        """Let go once another process waits for the file (its marker in <db>.waiting/), or when `other`
        ends first; True if someone waited. However slow the machine, the wait then surely happened."""
        deadline = time.monotonic() + timeout
        waited = False
        while not waited and other.poll() is None and time.monotonic() < deadline:
            waited = someone_waiting(self.db)
            time.sleep(0.02)
        self.release()
        return waited

    def wait(self) -> None:
        self.process.wait(timeout=60)

    def __exit__(self, *exc):
        self.release()
