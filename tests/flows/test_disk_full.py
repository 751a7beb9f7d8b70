"""A full disk under the hand log: `match`, `sweep` and `judge` write what they played to a fallback
folder on another file system (which reads include) and say so in one line naming the hand log, the
cause and what to do; with no room anywhere they stop with one `error:` line (a sweep's names its
--resume command). After every fault no row claims units the hand log does not hold
(flows.store.claim_problems), and once there is room `cardlab ingest` moves the files in.

The disk is a small tmpfs mounted for the test (root only) and filled to the last byte."""

import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from flows.store import claim_problems, read_only

pytestmark = pytest.mark.slow  # whole commands on a small full file system

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tests" / "holdem_training" / "data" / "contestant.py"  # `check`: checks every round


@pytest.fixture
def disk(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)], capture_output=True,
                             text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=True)


@pytest.fixture
def env(tmp_path, disk):
    env = dict(os.environ)
    env.update(CARDLAB_HOME=str(tmp_path), CARDLAB_DB=str(disk / "handlog.duckdb"), CARDLAB_OUT=str(tmp_path / "out"),
               MLFLOW_TRACKING_URI=f"sqlite:///{tmp_path / 'mlflow.db'}",
               CARDLAB_ARTIFACT_ROOT=str(tmp_path / "artifacts"), CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game",
               CARDLAB_SPOOL_FALLBACK=str(tmp_path / "fallback"), PYTHONPATH=str(ROOT))
    return env


def run(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([CARDLAB, *args], env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)


def fill(folder: Path, leave: int = 0) -> Path:
    """Take every byte left on the disk of `folder` but `leave`; removing the file frees them."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for block in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, b"\0" * block)
            except OSError:
                pass
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    os.truncate(filler, filler.stat().st_size - leave)
    return filler


def consistent(env) -> duckdb.DuckDBPyConnection:
    before = os.environ["CARDLAB_SPOOL_FALLBACK"]
    os.environ["CARDLAB_SPOOL_FALLBACK"] = env["CARDLAB_SPOOL_FALLBACK"]  # read what the commands' fallback holds
    try:
        con = read_only(env["CARDLAB_DB"])
    finally:
        os.environ["CARDLAB_SPOOL_FALLBACK"] = before
    assert claim_problems(con) == []
    return con


def start_full(env, disk) -> Path:
    """A hand log with the toy game's tables, on a disk with no byte left."""
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    return fill(disk)


def note_line(stderr: str, env) -> str:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("note:")]
    assert len(lines) == 1, stderr[-3000:]
    assert lines[0].startswith(f"note: the hand log {env['CARDLAB_DB']} could not be written (no space left on "
                               f"device); ")
    assert env["CARDLAB_SPOOL_FALLBACK"] in lines[0] and "reads include them" in lines[0]
    assert "free space on its disk, then `cardlab ingest`" in lines[0]
    return lines[0]


def error_line(stderr: str, env) -> str:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, stderr[-3000:]
    assert f"the hand log {env['CARDLAB_DB']} could not be written (no space left on device)" in lines[0]
    assert "no fallback folder could keep the write" in lines[0] and "free space" in lines[0]
    return lines[0]


def ingest_after_freeing(env, filler: Path) -> duckdb.DuckDBPyConnection:
    filler.unlink()
    done = run(env, "ingest")
    assert done.returncode == 0 and "stored " in done.stdout, done.stderr
    assert not any(Path(env["CARDLAB_SPOOL_FALLBACK"]).rglob("*.parquet"))
    return consistent(env)


def test_match_spools_to_the_fallback_folder_and_ingest_stores_it_once_there_is_room(env, disk):
    filler = start_full(env, disk)
    done = run(env, "match", "toy", "--hands", "3000", "--chunk", "500", "--seed", "7")
    assert done.returncode == 0 and "n=3,000" in done.stdout
    note_line(done.stderr, env)
    match_id = done.stdout.split("match id ")[1].split()[0]
    consistent(env).close()
    refused = run(env, "ingest")  # still full: one line, the fallback's files kept
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"error: the hand log {env['CARDLAB_DB']} could not be written (no space left "
                                     f"on device): free space on its disk, then run `cardlab ingest` again")
    con = ingest_after_freeing(env, filler)
    assert con.execute("SELECT units, finished_at IS NOT NULL FROM matches WHERE match_id = ?",
                       [match_id]).fetchall() == [(3000, True)]
    assert con.execute("SELECT count(*) FROM units WHERE match_id = ?", [match_id]).fetchall() == [(3000,)]


def test_match_with_no_room_anywhere_stops_with_one_line(env, disk):
    env["CARDLAB_SPOOL_FALLBACK"] = str(disk / "fallback")  # the same full disk
    start_full(env, disk)
    done = run(env, "match", "toy", "--hands", "3000", "--chunk", "500")
    assert done.returncode == 2
    line = error_line(done.stderr, env)
    assert str(disk / "fallback") in line and "this write is not kept" in line
    consistent(env).close()


def test_judge_keeps_its_hands_in_the_fallback_folder(env, disk):
    filler = start_full(env, disk)
    done = run(env, "judge", "holdem-training", "--hands", "3000", "--log", "--", sys.executable, str(CHECKER),
               "check")
    assert done.returncode == 0 and "hands 3000/3000  status ok" in done.stdout
    note_line(done.stderr, env)
    match_id = re.search(r"logged match as (\S+)", done.stdout).group(1)
    consistent(env).close()
    con = ingest_after_freeing(env, filler)
    assert con.execute("SELECT count(*) FROM units WHERE match_id = ?", [match_id]).fetchall() == [(3000,)]


def test_sweep_completes_on_a_full_disk_and_with_no_room_names_its_resume(env, disk, tmp_path):
    filler = start_full(env, disk)
    done = run(env, "sweep", "toy", "--hands", "2000", "--chunk", "500")
    assert done.returncode == 0, done.stderr[-3000:]
    note_line(done.stderr, env)
    sweep_id = re.search(r"sweep (s-\S+): 6,000 flips logged", done.stdout).group(1)
    consistent(env).close()
    con = ingest_after_freeing(env, filler)
    assert con.execute("SELECT count(*) FROM units WHERE match_id LIKE ?", [f"{sweep_id}%"]).fetchall() == [(6000,)]
    assert con.execute("SELECT finished_at IS NOT NULL FROM sweeps WHERE sweep_id = ?", [sweep_id]).fetchall() == [
        (True,)]
    con.close()

    env["CARDLAB_SPOOL_FALLBACK"] = str(disk / "fallback")  # now no room anywhere once the sweep is recorded
    filler = fill(disk, leave=64 << 10)
    failed = run(env, "sweep", "toy", "--hands", "50000", "--chunk", "5000", "--seed", "3")
    assert failed.returncode == 2
    line = error_line(failed.stderr, env)
    found = re.search(r"sweep (s-\S+) stopped: .*; once there is room, `cardlab sweep toy --resume (s-\S+)` plays "
                      r"only the missing chunks", line)
    assert found and found.group(1) == found.group(2)
    consistent(env).close()
    filler.unlink()
    resumed = run(env, "sweep", "toy", "--resume", found.group(1))
    assert resumed.returncode == 0 and "note:" not in resumed.stderr, resumed.stderr[-3000:]
    con = consistent(env)
    assert con.execute("SELECT count(*) FROM units WHERE match_id LIKE ?", [f"{found.group(1)}%"]).fetchall() == [
        (150_000,)]
