"""Another process holding the hand log file, as a notebook or the DuckDB CLI would."""

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "ro")
print("holding", flush=True)
deadline = time.monotonic() + float(sys.argv[3])
import select
while time.monotonic() < deadline:  # until told (a line on stdin) or the time is up
    if select.select([sys.stdin], [], [], 0.05)[0]:
        break
con.close()
"""


class Holder:
    """`with Holder(db, read_only=True, seconds=2):` holds the file until the block ends or the time is up."""

    def __init__(self, db: Path, *, read_only: bool, seconds: float = 60.0):
        self.args = [sys.executable, "-c", SCRIPT, str(db), "ro" if read_only else "rw", str(seconds)]
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

    def wait(self) -> None:
        self.process.wait(timeout=60)

    def __exit__(self, *exc):
        self.release()
