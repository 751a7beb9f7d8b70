"""One read-only query on the hand log, and nothing else (what `cardlab sql` runs).

The connection is opened read-only with DuckDB's sandbox settings (tested on DuckDB 2.0.0):
`enable_external_access=false` refuses every other file (COPY TO, EXPORT DATABASE,
read_csv, glob, ATTACH, INSTALL/LOAD), `lock_configuration=true` refuses SET, RESET and
setting PRAGMAs, and extensions are neither installed nor loaded on demand. On top of
that only one statement of a reading kind is run (an EXPLAIN only of such a statement).

The query has a time limit and a memory limit, and Ctrl-C or SIGTERM stop it: it runs on a
worker thread while this one waits, because a Python signal handler cannot run while the
thread that received the signal is inside DuckDB; the handler (or the deadline) interrupts
the connection, and DuckDB ends the query at its next check.
"""

import re
import signal
import threading
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from engine.core.errors import BadValue, Unavailable
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
ACCEPTED = "SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE or EXPLAIN [ANALYZE] of one of them"
LIST_TABLES = ("SELECT table_name AS name, table_type AS kind FROM information_schema.tables "
               "ORDER BY table_type, table_name")
TIMEOUT_S = 60.0
MEMORY_MB = 2048  # DuckDB's own default is 80% of the machine's memory
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
GRACE_S = 10.0  # how long an interrupted query may take to notice
# EXPLAIN, its ANALYZE/ANALYSE keyword and its parenthesised options, before the statement it explains.
EXPLAIN_PREFIX = re.compile(r"\s*EXPLAIN\s+(?:ANALY[SZ]E\b\s*)?(?:\([^()]*\)\s*)?", re.IGNORECASE)


class QueryRefused(BadValue):
    """The query is not one read-only statement on the hand log (one-line message)."""


class QueryStopped(Unavailable):
    """The query ran past its time limit or was stopped by a signal; `code` is the exit status to end with."""

    def __init__(self, message: str, code: int = 2, running: bool = False):
        super().__init__(message)
        self.code = code
        self.running = running  # the query had not ended GRACE_S after its interrupt


@dataclass(frozen=True)
class Answer:
    rows: pa.Table  # the first `limit` rows
    total: int  # how many rows the query returned in all


def run(query: str, *, db: Path | None = None, limit: int | None = None, timeout: float = TIMEOUT_S,
        memory_mb: int = MEMORY_MB) -> Answer:
    """The query's first `limit` rows (all if None) and its row count, within `timeout` seconds and
    `memory_mb` MiB of DuckDB memory."""
    con = read_only(db, config=SANDBOX | {"memory_limit": f"{memory_mb}MiB"})
    running = False  # a query that ignored its interrupt keeps the connection: closing it would wait on it
    try:
        statement = _one_reading_statement(con, query)
        return _answer(con, statement.query, limit=limit, timeout=timeout, memory_mb=memory_mb)
    except QueryStopped as exc:
        running = exc.running
        raise
    finally:
        if not running:
            con.close()


def _answer(con: duckdb.DuckDBPyConnection, query: str, *, limit: int | None, timeout: float,
            memory_mb: int) -> Answer:
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["answer"] = _fetch(con, query, limit)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = exc

    stopped: list[int] = []  # the signal that stopped the query, if one did

    def stop(signum: int, _frame) -> None:
        stopped.append(signum)
        con.interrupt()

    worker = threading.Thread(target=work, name="cardlab-sql", daemon=True)
    previous = _handle(STOP_SIGNALS, stop)
    try:
        worker.start()
        worker.join(timeout)  # signal handlers run here, in this thread, while the worker queries
        if worker.is_alive():
            con.interrupt()
        worker.join(GRACE_S)
    finally:
        _restore(previous)
    running = worker.is_alive()
    if stopped:
        name = signal.Signals(stopped[0]).name
        raise QueryStopped(f"cardlab sql stopped by {name}: the query was interrupted, nothing was printed",
                           code=128 + stopped[0], running=running)
    error = outcome.get("error")
    if running or isinstance(error, duckdb.InterruptException):
        raise QueryStopped(f"cardlab sql stopped the query after --timeout {timeout:g} s; accepted: a query that "
                           f"answers within the limit (raise --timeout, or narrow the query)", running=running)
    if isinstance(error, duckdb.OutOfMemoryException):
        raise QueryStopped(f"cardlab sql: the query needs more than --memory-mb {memory_mb:,} MiB "
                           f"({_first_line(error)}); raise --memory-mb, or narrow the query")
    if error is not None:
        raise _refusal(error) from None
    return outcome["answer"]


def _fetch(con: duckdb.DuckDBPyConnection, query: str, limit: int | None) -> Answer:
    """The first `limit` rows, counting the rest batch by batch so a huge answer is never held whole."""
    reader = con.sql(query).to_arrow_reader()
    kept: list[pa.RecordBatch] = []
    held = total = 0
    for batch in reader:
        total += batch.num_rows
        if limit is None or held < limit:
            part = batch if limit is None else batch.slice(0, limit - held)
            kept.append(part)
            held += part.num_rows
    return Answer(rows=_intervals_as_text(pa.Table.from_batches(kept, schema=reader.schema)), total=total)


def _intervals_as_text(table: pa.Table) -> pa.Table:
    """INTERVAL columns as DuckDB writes them ("1 month 3 days 02:00:00"): polars cannot read Arrow's
    month-day-nano type, and a duration a user subtracted should still print."""
    for i, column in enumerate(table.schema):
        if pa.types.is_interval(column.type):
            values = table.column(i).to_pylist()
            text = pa.array([None if v is None else _interval_text(v) for v in values], pa.string())
            table = table.set_column(i, column.name, text)
    return table


def _interval_text(value) -> str:
    years, months = int(value.months / 12), value.months - 12 * int(value.months / 12)  # toward zero, as DuckDB
    days, nanos = value.days, value.nanoseconds
    parts = [f"{n} {unit}{'' if abs(n) == 1 else 's'}" for n, unit in ((years, "year"), (months, "month"),
                                                                         (days, "day")) if n]
    if nanos or not parts:
        sign, nanos = ("-" if nanos < 0 else ""), abs(nanos)
        seconds, rest = divmod(nanos, 10**9)
        clock = f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        parts.append(clock + (f".{rest:09d}".rstrip("0") if rest else ""))
    return " ".join(parts)


def _handle(signals, handler) -> dict:
    """Install `handler` for `signals` where Python allows it (the main thread); the previous handlers."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum in signals}


def _restore(previous: dict) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def _refusal(exc: BaseException) -> QueryRefused:
    if isinstance(exc, duckdb.PermissionException):
        return QueryRefused(f"cardlab sql reads only the hand log: {_first_line(exc)}")
    if isinstance(exc, duckdb.InvalidInputException) and "configuration has been locked" in str(exc):
        return QueryRefused(f"cardlab sql cannot change settings: {_first_line(exc)}")
    if isinstance(exc, duckdb.Error):  # DuckDB's first line names the problem precisely
        return QueryRefused(_first_line(exc))
    raise exc


def _one_reading_statement(con: duckdb.DuckDBPyConnection, query: str):
    statements = _statements(con, query)
    if len(statements) != 1:
        raise QueryRefused(f"cardlab sql runs exactly one statement; got {len(statements)} "
                           f"(run them one at a time)")
    _check_reading(con, statements[0])
    return statements[0]


def _statements(con: duckdb.DuckDBPyConnection, query: str) -> list:
    try:
        return con.extract_statements(query)
    except duckdb.Error as exc:
        raise QueryRefused(_first_line(exc)) from None


def _check_reading(con: duckdb.DuckDBPyConnection, statement) -> None:
    """A reading kind; an EXPLAIN (which EXPLAIN ANALYZE runs) only of one reading statement."""
    if statement.type not in READING:
        kind = str(statement.type).rsplit(".", 1)[-1]
        raise QueryRefused(f"cardlab sql only reads: {kind} is refused; accepted: {ACCEPTED}")
    if statement.type is duckdb.StatementType.EXPLAIN:
        prefix = EXPLAIN_PREFIX.match(statement.query)
        inner = _statements(con, statement.query[prefix.end():]) if prefix else []
        if len(inner) != 1:
            raise QueryRefused(f"cardlab sql cannot tell what this EXPLAIN explains; accepted: {ACCEPTED}")
        _check_reading(con, inner[0])


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
