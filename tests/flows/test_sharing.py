"""The hand log shared with other processes: writers wait or spool, readers wait their turn, nothing is lost."""

import subprocess
import sys
import threading
import time

import duckdb
import numpy as np
import pytest

from engine.core.log import ChunkLog
from flows import spool
from flows.match import MatchPlan, play_chunk, run_match
from flows.sharing import HandLogBusy
from flows.store import HandLog, ingest, read_only
from tests.flows.holders import Holder


def _count(db, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()[0][0]
    finally:
        con.close()


def _fresh(db, toy) -> None:
    with HandLog(db) as store:
        store.ensure_game(toy)


def test_a_write_waits_for_a_reader_that_lets_go_within_the_wait(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    notes = []
    with Holder(db, read_only=True, seconds=1.0) as holder:
        with HandLog(db, wait=30, notify=notes.append) as store:  # opens once the reader is done
            result = run_match(MatchPlan(game="toy", bot="coin", seed=2, units=300, chunk_size=100), store)
        holder.wait()
    assert notes == []
    assert spool.pending(db) == 0
    assert _count(db, f"SELECT count(*) FROM units WHERE match_id = '{result.match_id}'") == 300


def test_a_file_held_past_the_wait_spools_the_match_and_the_next_open_stores_it_whole(toy, tmp_path):
    db, twin = tmp_path / "h.duckdb", tmp_path / "twin.duckdb"
    _fresh(db, toy)
    plan = MatchPlan(game="toy", bot="coin", seed=5, units=300, chunk_size=100)
    notes = []
    with Holder(db, read_only=False) as holder:
        with HandLog(db, wait=0.3, notify=notes.append) as store:
            result = run_match(plan, store, match_id="m-spooled")
        assert spool.pending(db) == 5  # the match record, three chunks, the finish
        assert len(notes) == 1 and f"held by PID {holder.pid}" in notes[0]
        assert str(spool.spool_folder(db)) in notes[0] and "cardlab ingest" in notes[0]
    assert result.summary.n == 300  # the caller got its result all the same
    with HandLog(twin) as store:
        run_match(plan, store, match_id="m-spooled")
    assert ingest(db) == (5, 0)
    assert spool.pending(db) == 0
    rows = "SELECT unit, payoff FROM units WHERE match_id = 'm-spooled' ORDER BY unit"
    flips = "SELECT unit, heads FROM toy_flips WHERE match_id = 'm-spooled' ORDER BY unit"
    for sql in (rows, flips):
        a, b = (duckdb.connect(str(p), read_only=True) for p in (db, twin))
        assert a.execute(sql).fetchall() == b.execute(sql).fetchall()
        a.close(), b.close()
    assert _count(db, "SELECT count(*) FROM matches WHERE match_id = 'm-spooled' AND finished_at IS NOT NULL") == 1


def test_a_spooled_write_is_stored_by_the_next_writer_before_its_own(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    plan = MatchPlan(game="toy", bot="coin", seed=6, units=100, chunk_size=100)
    with Holder(db, read_only=True), HandLog(db, wait=0.2, notify=lambda _: None) as store:
        run_match(plan, store, match_id="m-first")
    with HandLog(db) as store:
        run_match(plan, store, match_id="m-second")
        assert store.written_chunks("m-first") == {0}
    assert spool.pending(db) == 0


def test_a_spooled_write_the_database_refuses_is_set_aside_with_its_reason(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    bad = ChunkLog(first=0, payoffs=np.ones(2), tables={"toy_flips": {"unit": [0, 1], "no_such": [1, 2]}})
    with Holder(db, read_only=False), HandLog(db, wait=0.2, notify=lambda _: None) as store:
        store.ensure_game(toy)
        store.write_chunk("m-bad", 0, bad)  # cannot be checked while the file is held: spooled as it is
    notes = []
    with HandLog(db, notify=notes.append):
        pass
    assert len(notes) == 1 and "no_such" in notes[0]
    rejected = spool.spool_folder(db) / spool.REJECTED
    assert "no_such" in next(rejected.iterdir()).joinpath("error.txt").read_text()
    assert _count(db, "SELECT count(*) FROM units") == 0


def test_a_reader_gets_its_turn_while_a_writer_keeps_writing(toy, tmp_path):
    """The writer lets the file go at its next write when a reader waits (no starvation)."""
    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    plan = MatchPlan(game="toy", bot="coin", seed=7, units=50, chunk_size=50)
    log, _ = play_chunk(plan, 0, 50)
    stop, written = threading.Event(), []

    def keep_writing():
        with HandLog(db) as store:
            chunk = 0
            while not stop.is_set():
                store.write_chunk("m-busy", chunk, log)
                written.append(chunk)
                chunk += 1
                time.sleep(0.02)

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        while len(written) < 3:
            time.sleep(0.01)
        reader = subprocess.run(
            [sys.executable, "-c", "import sys; from flows.store import read_only; con = read_only(sys.argv[1], "
             "wait=20); print(con.execute('SELECT count(*) FROM chunks').fetchall()[0][0])", str(db)],
            capture_output=True, text=True, timeout=120)
    finally:
        stop.set()
        writer.join()
    assert reader.returncode == 0, reader.stderr
    assert int(reader.stdout) >= 3
    assert _count(db, "SELECT count(*) FROM chunks WHERE match_id = 'm-busy'") == len(written)


def test_a_reader_past_its_wait_reads_a_copy_with_the_spooled_writes_and_says_so(toy, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    notes = []
    with Holder(db, read_only=False) as holder:
        with HandLog(db, wait=0.2, notify=lambda _: None) as store:
            run_match(MatchPlan(game="toy", bot="coin", seed=3, units=100, chunk_size=100), store, match_id="m-x")
        con = read_only(db, wait=0.3, notify=notes.append)
        try:
            assert con.execute("SELECT count(*) FROM units WHERE match_id = 'm-x'").fetchall() == [(100,)]
        finally:
            con.close()
    assert notes == [f"note: the hand log {db} is held by PID {holder.pid} (still after 0.3 s); "
                     f"read a copy of it taken now, spooled writes included"]
    assert spool.pending(db) == 3  # still there for the hand log itself
    assert list((tmp_path / "tmp").iterdir()) == []  # the copy is gone


def test_the_background_writer_spools_while_the_file_is_held_and_keeps_going(toy, tmp_path):
    from flows.store import BackgroundWriter

    db = tmp_path / "h.duckdb"
    _fresh(db, toy)
    plan = MatchPlan(game="toy", bot="coin", seed=8, units=400, chunk_size=100)
    with HandLog(db, wait=0.3, notify=lambda _: None) as store:
        store.ensure_game(toy)
        writer = BackgroundWriter(store)
        writer.add("m-bg", 0, play_chunk(plan, 0, 100)[0])
        deadline = time.monotonic() + 30
        while writer.written < 100 and time.monotonic() < deadline:
            time.sleep(0.01)
        store.close()  # lets the file go so the other process can take it, as between two slow writes
        with Holder(db, read_only=True) as _:
            for chunk in (1, 2):
                writer.add("m-bg", chunk, play_chunk(plan, chunk * 100, 100)[0])
            time.sleep(1.0)  # both spooled while held
            pending_while_held = spool.pending(db)
        writer.add("m-bg", 3, play_chunk(plan, 300, 100)[0])
        assert writer.close() == 400
    assert pending_while_held >= 1
    assert spool.pending(db) == 0
    assert _count(db, "SELECT count(*) FROM units WHERE match_id = 'm-bg'") == 400


def test_while_the_file_stays_held_reads_see_a_snapshot_with_the_spooled_writes(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    with HandLog(db) as store:
        run_match(MatchPlan(game="toy", bot="coin", seed=1, units=100, chunk_size=100), store, match_id="m-before")
    plan = MatchPlan(game="toy", bot="coin", seed=2, units=200, chunk_size=100)
    with Holder(db, read_only=False), HandLog(db, wait=0.2, notify=lambda _: None) as store:
        run_match(plan, store, match_id="m-during")
        assert store.written_chunks("m-during") == {0, 1}
        counts = store.query("SELECT match_id, count(*) AS n FROM units GROUP BY match_id ORDER BY match_id")
        assert counts.rows() == [("m-before", 100), ("m-during", 200)]
        # What flows write through `con` directly (a sweep's record) is spooled too, and read back.
        store.con.execute("INSERT INTO sweeps (sweep_id, game, bot, grid, units, seed, started_at) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)", ["s-held", "toy", "coin", "{}", 200, 2, _now()])
        assert store.con.execute("SELECT sweep_id FROM sweeps").fetchall() == [("s-held",)]
        with pytest.raises(HandLogBusy):
            store.con.execute("CHECKPOINT")  # neither a read nor a row write: refused, not silently dropped
    assert _count(db, "SELECT count(*) FROM units WHERE match_id = 'm-during'") == 0  # the snapshot was a copy
    assert ingest(db)[0] >= 5
    assert _count(db, "SELECT count(*) FROM units WHERE match_id = 'm-during'") == 200
    assert _count(db, "SELECT count(*) FROM sweeps WHERE sweep_id = 's-held'") == 1
    assert list(tmp_path.glob("handlog-snapshot-*")) == []


def _now():
    from datetime import datetime

    return datetime(2026, 1, 2, 3, 4, 5)


def test_a_reader_past_its_wait_while_a_first_chunk_plays_reads_what_was_committed(toy, tmp_path):
    """The file is held from a match's record to its first chunk; a reader that cannot wait
    that long reads a copy, which holds everything committed (the writer is not writing)."""
    db = tmp_path / "h.duckdb"
    plan = MatchPlan(game="toy", bot="coin", seed=1, units=100, chunk_size=100)
    with HandLog(db) as store:
        from flows.match import record_match

        record_match(store, plan, "m-slow", source="match")
        reader = subprocess.run(
            [sys.executable, "-c", "import sys; from flows.store import read_only; con = read_only(sys.argv[1], "
             "wait=0.2); print(con.execute('SELECT count(*) FROM matches').fetchall()[0][0])", str(db)],
            capture_output=True, text=True, timeout=120)
        store.write_chunk("m-slow", 0, play_chunk(plan, 0, 100)[0])
    assert reader.returncode == 0, reader.stderr
    assert reader.stdout.strip() == "1" and "read a copy" in reader.stderr
