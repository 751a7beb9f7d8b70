"""Every mart gives the same bits on every read. DuckDB aggregates a table of more than one row group (122,880
rows) on several threads, and a float sum added in another order differs in the last bits: a resumed or retried
job, or a pick by id and the latest pick, would then disagree with a clean run. The tables here are synthetic
(range()), just big enough to be read in parallel, and every mart is read several times on 2 threads."""

import duckdb
import pytest

from flows.games.base import SQL_DIR

ROWS = 160_000  # per match: two matches make 320,000 rows, three row groups read in parallel
READS = 8  # without the ORDER BY, a read differed in 20 of 20 runs (match results) and 19 of 20 (sweep pairs)
MATCHES = ("m0", "m1")


def _connect(*files: str) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(config={"threads": 2})
    for name in ("core.sql", *files):
        con.execute((SQL_DIR / name).read_text())
    con.executemany("INSERT INTO matches (match_id, game, bot, config, seed, units, sweep_id, source, started_at) "
                    "VALUES (?, 'toy', 'coin', '{}', 1, ?, 's-1', 'sweep', now())", [(m, ROWS) for m in MATCHES])
    return con


def _same_bits_on_every_read(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    """The rows, after checking that every read gave them to the bit (repr tells every double apart)."""
    first = con.execute(sql).fetchall()
    for read in range(1, READS):
        assert repr(con.execute(sql).fetchall()) == repr(first), f"read {read} differs from read 0: {sql}"
    return first


@pytest.fixture(scope="module")
def units():
    con = _connect()
    # Payoffs with full mantissas (sevenths), interleaved so every row group holds both matches.
    con.execute("INSERT INTO units SELECT 'm' || (i % 2), 0, i // 2, ((i * 7919) % 1000) / 7.0 - 70 "
                "FROM range(?) t(i)", [ROWS * len(MATCHES)])
    yield con
    con.close()


def test_the_match_results_are_the_same_bits_on_every_read(units):
    rows = _same_bits_on_every_read(units, "SELECT match_id, units, mean, sd, ci_low, ci_high "
                                           "FROM mart_match_results ORDER BY match_id")
    assert [r[:2] for r in rows] == [(m, ROWS) for m in MATCHES]
    assert all(r[3] > 0 for r in rows)


def test_the_sweep_pairs_are_the_same_bits_on_every_read(units):
    rows = _same_bits_on_every_read(units, "SELECT match_a, match_b, units, mean_diff, se_diff, ci_low, ci_high "
                                           "FROM mart_sweep_pairs ORDER BY match_a")
    assert [r[:3] for r in rows] == [("m0", "m1", ROWS), ("m1", "m0", ROWS)]
    assert rows[0][3] == -rows[1][3] and rows[0][4] > 0
