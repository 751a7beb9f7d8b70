"""A damaged file in the hand log (a copy of a real one with a shard cut short, or bytes overwritten
inside it): a shard whose ends are not Parquet's is skipped by every reader with one note naming
it (its rows are missing, the rest answers); one whose ends are whole but whose inside is not is
found by the query that reads it, and the command stops with one line naming the file and what to
do; exit 2, no traceback. An old DuckDB hand log file is refused in one line."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
ROOT = Path(__file__).resolve().parents[2]


def env_for(folder: Path, db: Path) -> dict:
    env = dict(os.environ)
    env.update(CARDLAB_HOME=str(folder), CARDLAB_DB=str(db), CARDLAB_OUT=str(folder / "out"),
               MLFLOW_TRACKING_URI=f"sqlite:///{folder / 'mlflow.db'}", CARDLAB_ARTIFACT_ROOT=str(folder / "artifacts"),
               CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game", PYTHONPATH=str(ROOT))
    return env


def cardlab(folder: Path, db: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([CARDLAB, *args], env=env_for(folder, db), capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A real hand log: a match of 2,000 hands in four chunks."""
    folder = tmp_path_factory.mktemp("good")
    db = folder / "handlog"
    made = cardlab(folder, db, "match", "toy", "--hands", "2000", "--chunk", "500")
    assert made.returncode == 0, made.stderr
    return db


def damaged_copy(good: Path, tmp_path: Path, damage) -> tuple[Path, Path]:
    db = tmp_path / "handlog"
    shutil.copytree(good, db)
    shard = sorted((db / "units").glob("*~*.parquet"))[1]
    shard.write_bytes(damage(shard.read_bytes()))
    return db, shard


def test_a_shard_cut_short_is_skipped_by_every_reader_with_one_note_naming_it(good, tmp_path):
    db, shard = damaged_copy(good, tmp_path, lambda data: data[: len(data) // 2])
    done = cardlab(tmp_path, db, "sql", "SELECT count(*) AS n FROM units", "--format", "csv")
    assert done.returncode == 0 and done.stdout.split() == ["n", "1500"], done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("note: a damaged hand log file was skipped: ")
    assert str(shard) in lines[0] and "not a whole Parquet file" in lines[0]
    # a writer goes on beside it, and the file is left for the user to look at
    assert cardlab(tmp_path, db, "match", "toy", "--hands", "10").returncode == 0
    assert shard.exists()


def test_a_shard_whose_footer_is_overwritten_is_skipped_with_one_note(good, tmp_path):
    def overwrite_footer(data: bytes) -> bytes:
        return data[:-60] + bytes(b ^ 0xFF for b in data[-60:-8]) + data[-8:]

    db, shard = damaged_copy(good, tmp_path, overwrite_footer)
    done = cardlab(tmp_path, db, "sql", "SELECT count(*) AS n FROM units", "--format", "csv")
    assert done.returncode == 0 and done.stdout.split() == ["n", "1500"], done.stderr
    assert done.stderr.count("\n") == 1 and str(shard) in done.stderr and "footer cannot be read" in done.stderr


def test_check_names_a_shard_whose_data_page_is_overwritten(good, tmp_path):
    def overwrite_inside(data: bytes) -> bytes:  # the ends are whole: only the page checksum tells
        middle = len(data) // 3
        return data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 64]) + data[middle + 64:]

    db, shard = damaged_copy(good, tmp_path, overwrite_inside)
    done = cardlab(tmp_path, db, "handlog", "check")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 1 and lines[0].startswith(f"damaged: {shard}: "), done.stdout
    shard.rename(tmp_path / "aside.parquet")  # its chunk is then missing, as a resumed sweep would replay
    done = cardlab(tmp_path, db, "handlog", "check")
    assert done.returncode == 0 and "every file reads whole" in done.stdout, done.stdout


def test_an_old_duckdb_hand_log_file_is_refused_in_one_line_and_can_be_copied_in(good, tmp_path):
    old = tmp_path / "handlog.duckdb"
    con = duckdb.connect(str(old))
    con.execute((ROOT / "data" / "sql" / "core.sql").read_text())
    con.execute("INSERT INTO units VALUES ('old', 0, 0, 1.5), ('old', 0, 1, -0.5)")
    con.close()
    done = cardlab(tmp_path, old, "sql")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "a DuckDB hand log from before the shard log" in done.stderr and "cardlab ingest --from" in done.stderr
    db = tmp_path / "handlog"
    assert cardlab(tmp_path, db, "ingest", "--from", str(old)).returncode == 0
    done = cardlab(tmp_path, db, "sql", "SELECT sum(payoff) AS s FROM units", "--format", "csv")
    assert done.returncode == 0 and done.stdout.split() == ["s", "1.0"], done.stderr
