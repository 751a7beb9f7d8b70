"""One read-only query on the hand log, and nothing else (what `cardlab sql` runs).

The connection is opened read-only with DuckDB's sandbox settings (tested on DuckDB 2.0.0):
`enable_external_access=false` refuses every other file (COPY TO, EXPORT DATABASE,
read_csv, glob, ATTACH, INSTALL/LOAD), `lock_configuration=true` refuses SET, RESET and
setting PRAGMAs, and extensions are neither installed nor loaded on demand. On top of
that only one statement of a reading kind is run.
"""

from pathlib import Path

import duckdb
import pyarrow as pa

from engine.core.errors import BadValue
from flows.store import read_only

SANDBOX = {
    "enable_external_access": False,
    "lock_configuration": True,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "allow_community_extensions": False,
    "allow_persistent_secrets": False,
}
READING = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
ACCEPTED = "SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE or EXPLAIN"
LIST_TABLES = ("SELECT table_name AS name, table_type AS kind FROM information_schema.tables "
               "ORDER BY table_type, table_name")


class QueryRefused(BadValue):
    """The query is not one read-only statement on the hand log (one-line message)."""


def run(query: str, *, db: Path | None = None) -> pa.Table:
    con = read_only(db, config=SANDBOX)
    try:
        statement = _one_reading_statement(con, query)
        try:
            return con.sql(statement.query).to_arrow_table()
        except duckdb.PermissionException as exc:
            raise QueryRefused(f"cardlab sql reads only the hand log: {_first_line(exc)}") from None
        except duckdb.InvalidInputException as exc:
            if "configuration has been locked" in str(exc):
                raise QueryRefused(f"cardlab sql cannot change settings: {_first_line(exc)}") from None
            raise QueryRefused(_first_line(exc)) from None
        except duckdb.Error as exc:  # DuckDB's first line names the problem precisely
            raise QueryRefused(_first_line(exc)) from None
    finally:
        con.close()


def _one_reading_statement(con: duckdb.DuckDBPyConnection, query: str):
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise QueryRefused(_first_line(exc)) from None
    if len(statements) != 1:
        raise QueryRefused(f"cardlab sql runs exactly one statement; got {len(statements)} "
                           f"(run them one at a time)")
    statement = statements[0]
    if statement.type not in READING:
        kind = str(statement.type).rsplit(".", 1)[-1]
        raise QueryRefused(f"cardlab sql only reads: {kind} is refused; accepted: {ACCEPTED}")
    return statement


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
