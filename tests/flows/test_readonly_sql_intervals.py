"""`cardlab sql` answers INTERVAL columns (a duration a user subtracts) as DuckDB's own text, which
polars can show; Arrow's month-day-nano type alone made it crash."""

import duckdb
import polars as pl

from flows import readonly_sql

EXPRESSIONS = ["INTERVAL 3 DAY", "INTERVAL 1 MONTH + INTERVAL 90 MINUTE", "INTERVAL 1 DAY - INTERVAL 1 SECOND",
               "TIMESTAMP '2026-01-02 00:00:00.25' - TIMESTAMP '2026-01-02 01:00:00'", "INTERVAL 0 SECOND",
               "INTERVAL 14 MONTH + INTERVAL 2 DAY",
               "INTERVAL (-14) MONTH", "INTERVAL 25 HOUR"]


def test_intervals_read_as_duckdbs_own_text(tmp_path):
    db = tmp_path / "log.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t (i INTEGER, d INTERVAL)")
        for i, expression in enumerate(EXPRESSIONS):
            con.execute(f"INSERT INTO t VALUES ({i}, {expression})")
        con.execute("INSERT INTO t VALUES (99, NULL)")
        expected = [r[0] for r in con.execute("SELECT d::VARCHAR FROM t ORDER BY i").fetchall()]
    answer = readonly_sql.run("SELECT i, d FROM t ORDER BY i", db=db)
    shown = pl.from_arrow(answer.rows)  # what `cardlab sql` prints
    assert shown["d"].to_list() == expected
    assert expected[-1] is None and expected[0] == "3 days"
