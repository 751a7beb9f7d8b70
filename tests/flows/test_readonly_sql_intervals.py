"""`cardlab sql` answers INTERVAL columns (a duration a user subtracts) as DuckDB's own text, which
polars can show; Arrow's month-day-nano type alone made it crash."""

import duckdb
import polars as pl

from flows import readonly_sql
from flows.store import HandLog

EXPRESSIONS = ["INTERVAL 3 DAY", "INTERVAL 1 MONTH + INTERVAL 90 MINUTE", "INTERVAL 1 DAY - INTERVAL 1 SECOND",
               "TIMESTAMP '2026-01-02 00:00:00.25' - TIMESTAMP '2026-01-02 01:00:00'", "INTERVAL 0 SECOND",
               "INTERVAL 14 MONTH + INTERVAL 2 DAY",
               "INTERVAL (-14) MONTH", "INTERVAL 25 HOUR"]


def test_intervals_read_as_duckdbs_own_text(tmp_path):
    db = tmp_path / "log"
    HandLog(db).close()  # an empty hand log: the query brings its own rows
    values = ", ".join(f"({i}, {expression})" for i, expression in enumerate(EXPRESSIONS))
    query = f"SELECT i, d FROM (VALUES {values}, (99, NULL)) t(i, d) ORDER BY i"
    with duckdb.connect() as con:
        expected = [r[0] for r in con.execute(f"SELECT d::VARCHAR FROM ({query})").fetchall()]
    answer = readonly_sql.run(query, db=db)
    shown = pl.from_arrow(answer.rows)  # what `cardlab sql` prints
    assert shown["d"].to_list() == expected
    assert expected[-1] is None and expected[0] == "3 days"
