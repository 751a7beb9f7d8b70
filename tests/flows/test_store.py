import time

import numpy as np
import pytest

from engine.core.errors import BadValue
from engine.core.log import ChunkLog
from flows.match import MatchPlan, play_chunk, run_match
from flows.store import HandLog, log_judged_match, read_only


def _rows(db, match_id):
    con = read_only(str(db))
    try:
        units = con.execute("SELECT unit, payoff FROM units WHERE match_id = ? ORDER BY unit", [match_id]).fetchall()
        flips = con.execute("SELECT unit, heads FROM toy_flips WHERE match_id = ? ORDER BY unit", [match_id]).fetchall()
        chunks = con.execute("SELECT count(*) FROM chunks WHERE match_id = ?", [match_id]).fetchall()[0][0]
    finally:
        con.close()
    return units, flips, chunks


def test_writing_the_same_chunk_twice_keeps_one_copy(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    plan = MatchPlan(game="toy", bot="coin", seed=3, units=300, chunk_size=100)
    with HandLog(db) as store:
        result = run_match(plan, store)
        log, _ = play_chunk(plan, 100, 100)
        store.write_chunk(result.match_id, 1, log)  # chunk 1 again, e.g. a retried task
    units, flips, chunks = _rows(db, result.match_id)
    assert [u for u, _ in units] == list(range(300))
    assert [u for u, _ in flips] == list(range(300))
    assert chunks == 3


def test_a_failed_chunk_write_leaves_nothing_half_written(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    with HandLog(db) as store:
        store.ensure_game(toy)
        bad = ChunkLog(first=0, payoffs=np.ones(3), tables={"toy_flips": {"unit": [0, 1, 2], "no_such": [1, 2, 3]}})
        with pytest.raises(KeyError, match="no_such"):
            store.write_chunk("m-x", 0, bad)
        assert store.query("SELECT count(*) AS n FROM units")["n"][0] == 0


def test_a_chunk_whose_values_do_not_fit_their_column_writes_nothing(toy, tmp_path):
    with HandLog(tmp_path / "h.duckdb") as store:
        store.ensure_game(toy)
        bad = ChunkLog(first=0, payoffs=np.ones(2), tables={"toy_flips": {"unit": [0, 1], "heads": ["yes", "maybe"]}})
        with pytest.raises(BadValue, match="heads"):
            store.write_chunk("m-y", 0, bad)  # 'maybe' is no BOOLEAN
        assert store.query("SELECT count(*) AS n FROM units")["n"][0] == 0
        assert store.written_chunks("m-y") == set()
        good = ChunkLog(first=0, payoffs=np.ones(2), tables={"toy_flips": {"unit": [0, 1], "heads": [True, False]}})
        assert store.write_chunk("m-y", 0, good) == 2
        assert store.query("SELECT count(*) AS n FROM toy_flips")["n"][0] == 2


def test_same_seed_gives_identical_rows_and_chunking_does_not_matter(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    with HandLog(db) as store:
        a = run_match(MatchPlan(game="toy", bot="coin", seed=9, units=250, chunk_size=250), store)
        b = run_match(MatchPlan(game="toy", bot="coin", seed=9, units=250, chunk_size=70), store)
        c = run_match(MatchPlan(game="toy", bot="coin", seed=10, units=250, chunk_size=250), store)
    rows_a, rows_b, rows_c = (_rows(db, r.match_id)[:2] for r in (a, b, c))
    assert rows_a == rows_b
    assert rows_a != rows_c


def test_read_only_connection_names_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no hand log"):
        read_only(tmp_path / "missing.duckdb")


def test_background_writer_raises_the_first_error_and_keeps_chunks_before_it(toy, tmp_path):
    from flows.store import BackgroundWriter

    plan = MatchPlan(game="toy", bot="coin", seed=4, units=200, chunk_size=100)
    good, _ = play_chunk(plan, 0, 100)
    bad = ChunkLog(first=100, payoffs=np.ones(2), tables={"toy_flips": {"unit": [100, 101], "no_such": [1, 2]}})
    with HandLog(tmp_path / "h.duckdb") as store:
        store.ensure_game(toy)
        writer = BackgroundWriter(store)
        writer.add("m-bg", 0, good)
        deadline = time.monotonic() + 30
        while writer.written < 100 and time.monotonic() < deadline:  # the good chunk commits on its own
            time.sleep(0.01)
        writer.add("m-bg", 1, bad)
        with pytest.raises(KeyError, match="no_such"):
            writer.close()
        assert store.written_chunks("m-bg") == {0}
        assert store.query("SELECT count(*) AS n FROM units WHERE match_id = 'm-bg'")["n"][0] == 100


# units per game: small, every game's event tables still filled
EVENT_UNITS = {"holdem-training": 40, "twocarddraw": 40, "tractor": 2, "splendor": 2, "cg-holdem": 3}


@pytest.mark.parametrize("game", sorted(EVENT_UNITS))
def test_every_games_encoded_events_are_stored_with_the_tables_columns_and_types_of_its_sql(game, tmp_path):
    """The shard log holds a chunk's event tables as the DuckDB file log did: its rows inserted BY NAME
    into the tables of core.sql and the game's SQL (the oracle below), same columns, types and values."""
    import duckdb

    from flows import games
    from flows.games.base import SQL_DIR

    adapter = games.get(game)
    assert set(EVENT_UNITS) == set(games.installed())  # a new game gets a line here
    n = EVENT_UNITS[game]
    log, _ = play_chunk(MatchPlan(game=game, bot=adapter.default_bot, seed=3, units=n, chunk_size=n), 0, n)
    assert log.events is None and log.tables  # play_chunk encoded them (flows.events)
    with HandLog(tmp_path / "h") as store:
        store.ensure_game(adapter)
        store.write_chunk("m1", 0, log)
    oracle = duckdb.connect()
    for sql in (SQL_DIR / "core.sql", adapter.sql_path()):
        oracle.execute(sql.read_text())
    con = read_only(tmp_path / "h")
    try:
        for table, columns in log.tables.items():
            oracle.register("incoming", pa_table(columns))
            oracle.execute(f"INSERT INTO {table} BY NAME SELECT 'm1'::VARCHAR AS match_id, 0::INTEGER AS chunk, * "
                           f"FROM incoming")
            oracle.unregister("incoming")
            kinds = "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? ORDER BY ALL"
            assert con.execute(kinds, [table]).fetchall() == oracle.execute(kinds, [table]).fetchall(), table
            rows = f"SELECT * FROM {table} ORDER BY ALL"
            got = con.execute(rows).fetchall()
            assert got == oracle.execute(rows).fetchall() and len(got) == len(next(iter(columns.values()))), table
    finally:
        con.close()
        oracle.close()


def pa_table(columns: dict):
    import pyarrow as pa

    from flows.store import _arrow_column

    return pa.table({name: _arrow_column(values) for name, values in columns.items()})


def test_a_chunk_with_events_not_encoded_is_refused_not_stored_without_them(toy, tmp_path):
    from engine.core import events as ev

    flips = ev.EventSpec("toy", {"flips": {"unit": ev.INT, "heads": ev.BOOL}})
    raw = ChunkLog(first=0, payoffs=np.ones(2), events=flips.batch(flips={"unit": [0, 1], "heads": [True, False]}))
    with HandLog(tmp_path / "h") as store:
        store.ensure_game(toy)
        with pytest.raises(ValueError, match="must be encoded"):
            store.write_chunk("m1", 0, raw)
        assert store.written_chunks("m1") == set()
        match_id = log_judged_match(toy, bot="coin", config={}, seed=1, log=raw, db=tmp_path / "h")
        assert store.query("SELECT unit, heads FROM toy_flips WHERE match_id = ? ORDER BY unit",
                           [match_id]).rows() == [(0, True), (1, False)]  # log_judged_match encodes them
