"""The hand log's guarantees with many writers (docs/hand-log.md): nothing lost, nothing mixed, a
rewritten chunk replaces its copy, and a reader beside 8 writer processes and a compaction never
fails, never sees a row twice and never sees a chunk without its units."""

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from flows import shards
from flows.match import MatchPlan, play_chunk, run_match
from flows.store import HandLog, read_only

ROOT = Path(__file__).resolve().parents[2]
WRITER = """
import sys
from flows.match import MatchPlan, run_match
from flows.store import HandLog
db, seed = sys.argv[1], int(sys.argv[2])
with HandLog(db) as store:
    run_match(MatchPlan(game="toy", bot="coin", seed=seed, units=3000, chunk_size=100), store)
"""
READER = """
import json, os, sys, time
from flows.store import read_only
db, stop = sys.argv[1], sys.argv[2]
seen, last = 0, 0
while not os.path.exists(stop):
    con = read_only(db)
    claimed, held, rows, distinct = con.execute(
        "SELECT (SELECT coalesce(sum(n_units), 0) FROM chunks),"
        " (SELECT count(*) FROM units u SEMI JOIN chunks c USING (match_id, chunk)),"
        " (SELECT count(*) FROM units), (SELECT count(DISTINCT (match_id, unit)) FROM units)").fetchone()
    con.close()
    assert claimed == held, ("a chunk without its units", claimed, held)
    assert rows == distinct, ("a row seen twice", rows, distinct)
    assert rows >= last, ("rows went missing", rows, last)
    seen, last = seen + 1, rows
    time.sleep(0.05)
print(json.dumps({"reads": seen, "rows": last}))
"""


def _env(toy) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game")


@pytest.mark.slow  # 8 processes writing 24,000 hands in 240 chunks
def test_a_reader_beside_8_writers_and_a_compaction_never_fails_and_nothing_is_lost_or_mixed(toy, tmp_path):
    import json

    db = tmp_path / "handlog"
    with HandLog(db) as store:
        store.ensure_game(toy)  # readers find the schema from the start
    stop = tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), str(stop)], env=_env(toy), cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(seed)], env=_env(toy), cwd=ROOT,
                                stderr=subprocess.PIPE, text=True) for seed in range(8)]
    compactions = 0
    while any(w.poll() is None for w in writers):
        time.sleep(0.5)
        shards.compact(db, HandLog(db).schema)  # merged files stay GRACE_S for connections opened before
        compactions += 1
    for w in writers:
        assert w.wait(timeout=600) == 0, w.stderr.read()[-2000:]
    stop.touch()
    out, err = reader.communicate(timeout=120)
    assert reader.returncode == 0, err[-3000:]
    assert json.loads(out)["reads"] > 5 and compactions > 0
    con = read_only(db)
    rows = con.execute("SELECT m.seed, list(u.payoff ORDER BY u.unit), count(*), count(DISTINCT u.unit), "
                       "min(u.unit), max(u.unit) FROM units u JOIN matches m USING (match_id) GROUP BY m.seed "
                       "ORDER BY m.seed").fetchall()
    assert [r[0] for r in rows] == list(range(8))
    assert all(r[2:] == (3000, 3000, 0, 2999) for r in rows)
    expected = play_chunk(MatchPlan(game="toy", bot="coin", seed=5, units=3000, chunk_size=3000), 0, 3000)[0].payoffs
    assert np.array_equal(rows[5][1], expected)  # the same hands as played in one piece
    assert con.execute("SELECT count(*) FROM matches WHERE finished_at IS NULL").fetchone() == (0,)


def test_a_chunk_written_again_after_a_compaction_replaces_its_copy(toy, tmp_path):
    db = tmp_path / "handlog"
    plan = MatchPlan(game="toy", bot="coin", seed=3, units=300, chunk_size=100)
    with HandLog(db) as store:
        result = run_match(plan, store)
        shards.compact(db, store.schema)
        again, _ = play_chunk(plan, 100, 100)
        store.write_chunk(result.match_id, 1, again)  # a retried task, after the compaction
        assert store.query("SELECT count(*) AS n, count(DISTINCT unit) AS d FROM units").row(0) == (300, 300)
        shards.compact(db, store.schema, grace=0)
        assert store.query("SELECT count(*) AS n, count(DISTINCT unit) AS d FROM toy_flips").row(0) == (300, 300)
        assert store.query("SELECT count(*) AS n FROM chunks")["n"][0] == 3
        assert len(list((db / "units").iterdir())) == 1  # the copies it replaced are gone (grace 0)


def test_a_connection_opened_before_a_compaction_still_reads_every_row_once(toy, tmp_path):
    db = tmp_path / "handlog"
    with HandLog(db) as store:
        run_match(MatchPlan(game="toy", bot="coin", seed=4, units=500, chunk_size=100), store)
        early = read_only(db)
        shards.compact(db, store.schema)  # the files it read stay for GRACE_S
        assert early.execute("SELECT count(*), count(DISTINCT unit) FROM units").fetchone() == (500, 500)
        assert read_only(db).execute("SELECT count(*) FROM units").fetchone() == (500,)
        early.close()


def test_a_later_row_updates_a_keyed_table_and_a_key_replaces_its_rows(toy, tmp_path):
    db = tmp_path / "handlog"
    with HandLog(db) as store:
        store.ensure_game(toy)
        store.begin_sweep(sweep_id="s1", game="toy", bot="coin", grid={}, units=10, seed=1, spec="{}")
        store.finish_sweep("s1", best_match="m9", mlflow_run=None)
        row = store.query("SELECT started_at IS NOT NULL AS s, finished_at IS NOT NULL AS f, best_match FROM sweeps")
        assert row.rows() == [(True, True, "m9")]  # the start's columns kept, the finish's added
        store.put("toy_flips", [{"match_id": "x", "chunk": 0, "unit": 0, "heads": True}], key="k")
        store.put("toy_flips", [{"match_id": "x", "chunk": 0, "unit": 1, "heads": False}], key="k")
        assert store.query("SELECT unit FROM toy_flips WHERE match_id = 'x'")["unit"].to_list() == [1]


def test_a_later_row_sets_named_columns_back_to_null_and_compaction_keeps_it(toy, tmp_path):
    db = tmp_path / "handlog"
    with HandLog(db) as store:
        store.begin_match(match_id="m1", game="toy", bot="coin", config={}, seed=1, units=10, source="sweep")
        store.put("matches", [{"match_id": "m1", "failure": "crashed", "finished_at": "2026-01-01 00:00:00"}])
        store.put("matches", [{"match_id": "m1", "seconds": 2.0}], cleared=("failure", "finished_at"))
        wanted = [("coin", None, None, 2.0)]
        sql = "SELECT bot, failure, finished_at, seconds FROM matches"
        assert store.query(sql).rows() == wanted  # cleared, the other columns kept
        store.put("matches", [{"match_id": "m1", "failure": "again"}])
        assert store.query("SELECT failure FROM matches").rows() == [("again",)]  # a later value wins again
        store.put("matches", [{"match_id": "m1"}], cleared=("failure",))
        assert [c.merged for c in shards.compact(db, store.schema, grace=0) if c.table == "matches"] == [5]
        assert store.query(sql).rows() == wanted
        with pytest.raises(KeyError, match="cannot set \\['match_id'\\] back to NULL"):
            store.put("matches", [{"match_id": "m1"}], cleared=("match_id",))
        with pytest.raises(KeyError, match="cannot set"):
            store.put("units", [{"match_id": "m1", "chunk": 0, "unit": 0, "payoff": 1.0}], cleared=("payoff",))


def test_a_write_lands_whole_or_not_at_all(toy, tmp_path, monkeypatch):
    db = tmp_path / "handlog"
    monkeypatch.setenv("CARDLAB_SPOOL_FALLBACK", "")  # no fallback folder: a refused write stops
    with HandLog(db) as store:
        store.ensure_game(toy)
        written = []
        real = shards._write_file

        def fail_second(folder, name, frame, metadata=None):
            if written:
                raise shards.ShardWriteFailed("could not write (no space left on device)", "no space left on device")
            written.append(name)
            return real(folder, name, frame, metadata)

        monkeypatch.setattr(shards, "_write_file", fail_second)
        log, _ = play_chunk(MatchPlan(game="toy", bot="coin", seed=1, units=50, chunk_size=50), 0, 50)
        with pytest.raises(Exception, match="no space left on device"):
            store.write_chunk("m-1", 0, log)
        monkeypatch.setattr(shards, "_write_file", real)
        assert store.query("SELECT count(*) AS n FROM units")["n"][0] == 0  # the first file was taken back
        assert not [p for p in db.rglob("*.parquet")]


def test_names_of_shards_keep_matches_apart():
    assert shards.safe_key("a b", 1) != shards.safe_key("a_b", 1)
    with pytest.raises(ValueError):
        shards.ShardLog(Path("/nonexistent"), shards.schema_of_texts(("CREATE TABLE t (a INT);",))).write(
            "t", pa.table({"a": [1]}), key="bad/key")


@pytest.mark.slow  # two sweeps
def test_a_sweep_whose_tasks_write_their_own_chunks_stores_the_same_rows(toy, tmp_path, monkeypatch):
    from flows.sweep import SweepSpec, parse_grid, sweep_flow

    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.3,0.7"]), units=600, seed=5, chunk_size=200)
    rows = {}
    for direct in ("0", "1"):
        monkeypatch.setenv("CARDLAB_WORKERS_WRITE", direct)
        db = tmp_path / f"log{direct}"
        result = sweep_flow(spec, db=str(db), track=False, max_in_flight=2)
        assert result.units_written == 1200
        con = read_only(db)
        rows[direct] = con.execute("SELECT m.config, u.unit, u.payoff FROM units u JOIN matches m USING (match_id) "
                                   "ORDER BY 1, 2").fetchall()
        con.close()
    assert len(rows["1"]) == 1200 and rows["1"] == rows["0"]
