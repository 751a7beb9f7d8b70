"""DuckDB 2.0's own sandbox settings hold for every escape, even without cardlab's statement filter."""

import duckdb
import pytest

from flows.readonly_sql import SANDBOX
from flows.store import HandLog, read_only


@pytest.mark.parametrize("statement, refusal", [
    ("COPY units TO '{tmp}/stolen.csv'", "file system operations are disabled"),
    ("EXPORT DATABASE '{tmp}/dump'", "file system operations are disabled"),
    ("SELECT * FROM read_csv('/etc/passwd')", "file system operations are disabled"),
    ("SELECT * FROM glob('/root/*')", "file system operations are disabled"),
    ("ATTACH '{tmp}/other.duckdb' AS other", "file system operations are disabled"),
    ("INSTALL httpfs", "file system operations are disabled"),
    ("LOAD httpfs", "Loading external extensions is disabled"),
    ("SET enable_external_access = true", "the configuration has been locked"),
    ("RESET enable_external_access", "the configuration has been locked"),
    ("PRAGMA enable_profiling", "the configuration has been locked"),
    ("SET threads = 1", "the configuration has been locked"),
])
def test_duckdb_refuses_it_on_a_sandboxed_read_only_connection(tmp_path, statement, refusal):
    db = tmp_path / "h.duckdb"
    HandLog(db).close()
    files = set(tmp_path.iterdir())
    con = read_only(str(db), config=SANDBOX)
    try:
        with pytest.raises(duckdb.Error, match=refusal):
            con.execute(statement.format(tmp=tmp_path))
        assert con.execute("SELECT count(*) FROM units").fetchall() == [(0,)]  # the hand log itself still reads
    finally:
        con.close()
    assert set(tmp_path.iterdir()) == files
