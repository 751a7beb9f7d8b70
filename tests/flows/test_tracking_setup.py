"""Two commands starting at once on a new MLflow store both get it (issue 29: one of them used to die
with alembic's CommandError while both created and migrated the same SQLite store)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Imports first (they take seconds), then a ready file, then the store is opened at the go signal.
OPENER = """
import sys, time
from pathlib import Path
from flows.tracking import experiment_id
folder = Path(sys.argv[1])
(folder / f"ready-{sys.argv[2]}").touch()
while not (folder / "go").exists():
    time.sleep(0.001)
print(experiment_id("race"))
"""
ROUNDS = 3  # before the fix every round with this start line failed (6 of 6 by hand)


def _wait_for(paths: list[Path], procs: list[subprocess.Popen], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not all(path.exists() for path in paths):
        assert time.monotonic() < deadline, "the openers did not get ready"
        assert all(proc.poll() is None for proc in procs), [proc.communicate() for proc in procs]
        time.sleep(0.02)


@pytest.mark.slow  # three rounds of two fresh interpreters migrating a new store
def test_two_commands_opening_a_new_store_at_once_both_succeed(tmp_path):
    for round_ in range(ROUNDS):
        folder = tmp_path / f"round-{round_}"
        folder.mkdir()
        env = os.environ | {"CARDLAB_HOME": str(folder), "MLFLOW_TRACKING_URI": f"sqlite:///{folder / 'mlflow.db'}",
                            "CARDLAB_ARTIFACT_ROOT": str(folder / "artifacts"), "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(folder), str(i)], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
        try:
            _wait_for([folder / "ready-0", folder / "ready-1"], procs, 120)
            (folder / "go").touch()
            answers = [proc.communicate(timeout=180) for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        codes = [proc.returncode for proc in procs]
        assert codes == [0, 0], (round_, codes, [err.strip().splitlines()[-1:] for _, err in answers])
        ids = {out.strip() for out, _ in answers}
        assert len(ids) == 1 and ids != {""}, (round_, ids)  # one experiment, found by both
