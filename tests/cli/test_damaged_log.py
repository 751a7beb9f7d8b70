"""A damaged hand log (copies of a real one, cut short or with bytes overwritten): `pick`, `report`,
`ingest`, `sql` and `match` each refuse with one line naming the file, that it is damaged (or not a
DuckDB file) and what to do; exit 2, no traceback."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [("pick", "toy"), ("report", "latest"), ("ingest",), ("sql",), ("match", "toy", "--hands", "10")]


def env_for(folder: Path, db: Path) -> dict:
    env = dict(os.environ)
    env.update(CARDLAB_HOME=str(folder), CARDLAB_DB=str(db), CARDLAB_OUT=str(folder / "out"),
               MLFLOW_TRACKING_URI=f"sqlite:///{folder / 'mlflow.db'}", CARDLAB_ARTIFACT_ROOT=str(folder / "artifacts"),
               CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game", CARDLAB_LOCK_WAIT="1", CARDLAB_READ_WAIT="1",
               PYTHONPATH=str(ROOT))
    return env


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    """The bytes of a real hand log: a short match, closed (so its write-ahead log is folded in)."""
    folder = tmp_path_factory.mktemp("good")
    db = folder / "handlog.duckdb"
    made = subprocess.run([CARDLAB, "match", "toy", "--hands", "2000", "--chunk", "500"], env=env_for(folder, db),
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert made.returncode == 0 and not db.with_name(db.name + ".wal").exists(), made.stderr
    return db.read_bytes()


def cut(at: int):
    return lambda data: data[:at]


def flipped(start: int, length: int):
    return lambda data: data[:start] + bytes(b ^ 0xFF for b in data[start:start + length]) + data[start + length:]


# DuckDB's file: a main header (its magic at byte 8), two database headers at 4 KiB and 8 KiB, then blocks.
DAMAGES = {"cut in the main header": cut(100), "cut after the headers": cut(12288),
           "magic overwritten": flipped(8, 4), "database header overwritten": flipped(4096 + 8, 32),
           "first block overwritten": flipped(12288, 4096)}
# Bytes overwritten inside a data block are found (by DuckDB's checksum) only when a query reads that
# block, and then the CLI says so in the same one line (cardlab.errors.run_guarded); a cut is found
# when the file opens if it takes away a block in use (flows.sharing compares the file's size with
# the blocks in use its header counts): a cut within free blocks at the end goes unseen (and harms nothing).
MORE_DAMAGES = {"cut at 5000": cut(5000), "cut in the second header": cut(9000), "cut at 300 KiB": cut(300 << 10),
                "both headers overwritten": lambda data: flipped(8192, 64)(flipped(4096, 64)(data))}


def refuses_each_command(tmp_path: Path, data: bytes) -> None:
    for args in COMMANDS:
        folder = tmp_path / args[0]
        folder.mkdir()
        db = folder / "handlog.duckdb"
        db.write_bytes(data)
        done = subprocess.run([CARDLAB, *args], env=env_for(folder, db), capture_output=True, text=True, timeout=300,
                              cwd=ROOT)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert done.returncode == 2 and "Traceback" not in done.stderr, (args, done.stderr[-2000:])
        assert len(lines) == 1 and lines[0].startswith(f"error: the hand log {db}") or \
            lines[0].startswith(f"error: the hand log (CARDLAB_DB) {db}"), (args, lines)
        # what is wrong, and what to do about it
        assert (" is damaged (" in lines[0] and "move it aside (or restore it from a backup)" in lines[0]) or \
            (" is not a DuckDB database; accepted: a DuckDB hand log file" in lines[0]), (args, lines[0])
        assert db.read_bytes() == data  # refused, not overwritten
        shutil.rmtree(folder)


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.slow  # every command, per damage
def test_a_damaged_hand_log_is_one_line_for_every_command(good, tmp_path, damage):
    refuses_each_command(tmp_path, DAMAGES[damage](good))


@pytest.mark.slow
@pytest.mark.parametrize("damage", MORE_DAMAGES)
def test_more_damaged_copies(good, tmp_path, damage):
    data = MORE_DAMAGES[damage](good)
    assert data != good
    refuses_each_command(tmp_path, data)


def test_damage_found_by_a_later_query_is_the_same_one_line(tmp_path, monkeypatch, capsys):
    import duckdb

    from cardlab.errors import run_guarded
    from flows import sharing

    monkeypatch.delenv("CARDLAB_DEBUG", raising=False)
    monkeypatch.setattr(sharing, "last_opened", tmp_path / "handlog.duckdb")
    monkeypatch.setattr("cardlab.errors.ending.install", lambda: None)  # pytest keeps its own signal handlers

    def query_meets_a_bad_block():
        raise duckdb.Error("Corrupt database file: computed checksum 1 does not match stored checksum 2 in block")

    with pytest.raises(SystemExit) as stopped:
        run_guarded(query_meets_a_bad_block)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: the hand log {tmp_path / 'handlog.duckdb'} is damaged "
                                                   f"(a block's checksum does not match its data); move it aside")

    def a_bug():
        raise duckdb.Error("Binder Error: a query of ours is wrong")

    with pytest.raises(duckdb.Error, match="Binder Error"):  # not damage: a bug keeps its traceback
        run_guarded(a_bug)


def test_a_damaged_write_ahead_log_says_to_move_it_aside(good, tmp_path):
    db = tmp_path / "handlog.duckdb"
    db.write_bytes(good)
    left_open = ("import duckdb, os, sys; c = duckdb.connect(sys.argv[1]);"
                 "c.execute('PRAGMA disable_checkpoint_on_shutdown'); c.execute(\"SET checkpoint_threshold = '1GB'\");"
                 "c.execute(\"INSERT INTO units SELECT 'x', 0, i, 1.0 FROM range(50000) t(i)\"); os._exit(0)")
    subprocess.run([sys.executable, "-c", left_open, str(db)], check=True, timeout=120)  # a process that died
    wal = db.with_name(db.name + ".wal")
    data = bytearray(wal.read_bytes())
    data[len(data) // 2:len(data) // 2 + 64] = bytes(b ^ 0xFF for b in data[len(data) // 2:len(data) // 2 + 64])
    wal.write_bytes(bytes(data))
    for args in (("sql",), ("match", "toy", "--hands", "10")):
        done = subprocess.run([CARDLAB, *args], env=env_for(tmp_path, db), capture_output=True, text=True, timeout=300,
                              cwd=ROOT)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.strip() == (
            f"error: the hand log {db} is damaged (its write-ahead log (.wal) cannot be replayed); move "
            f"handlog.duckdb.wal aside (the hand log then opens as of its last checkpoint, without the writes since) "
            f"or restore both from a backup, and run the command again")
    wal.rename(tmp_path / "aside.wal")  # as the line says: the file opens again, as of its last checkpoint
    done = subprocess.run([CARDLAB, "sql", "SELECT count(*) AS n FROM units", "--format", "csv"],
                          env=env_for(tmp_path, db), capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.split() == ["n", "2000"], done.stderr
