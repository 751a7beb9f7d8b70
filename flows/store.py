"""The only writer of the DuckDB hand log (DuckDB allows one writing process per file).

Workers never open the database: they return ChunkLogs, and the process that owns the
HandLog appends them in bulk through Arrow. A chunk is written in one transaction that
first removes any earlier copy of the same (match_id, chunk), so writing it again, e.g.
after a crashed sweep is re-run, neither duplicates nor loses a row.
"""

import contextlib
import hashlib
import json
import math
import subprocess
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa

from engine.core.log import ChunkLog
from flows.games.base import SQL_DIR, GameAdapter
from flows.settings import PROJECT_ROOT, Paths

CORE_TABLES = ("units", "chunks")
# Which schema file text each database last ran (see HandLog.apply_sql).
SCHEMA_FILES_DDL = ("CREATE TABLE IF NOT EXISTS schema_files (file VARCHAR PRIMARY KEY, sha256 VARCHAR NOT NULL, "
                    "applied_at TIMESTAMP NOT NULL)")


@cache
def code_version() -> str:
    """The commit the code runs from, with '+dirty' when the work tree has changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=5
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def _arrow_column(values) -> pa.Array:
    """Numeric numpy columns pass to Arrow without a copy; lists go through Arrow's inference."""
    return pa.array(values) if not isinstance(values, np.ndarray) or values.dtype != object else pa.array(list(values))


def _sql_text(value: str) -> str:
    """A string literal (the batch script has no parameters)."""
    return "'" + str(value).replace("'", "''") + "'"


def _sql_number(value: float | None) -> str:
    return "NULL" if value is None or not math.isfinite(value) else repr(float(value))


def new_match_id(prefix: str = "m") -> str:
    return f"{prefix}-{datetime.now(UTC):%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:8]}"


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class PendingChunk:
    match_id: str
    chunk: int
    log: ChunkLog
    seconds: float | None = None


class BackgroundWriter:
    """Writes chunks on a thread of its own while the caller plays the next ones.

    DuckDB releases the GIL while it executes, so on two cores logging mostly overlaps with
    play. Whatever waits when the thread is free goes in one transaction. The queue is
    short, which bounds memory; the first write error is raised again by ``add`` or
    ``close``, and chunks after it are not written (nor marked written).
    """

    def __init__(self, store: "HandLog", depth: int = 4):
        import queue
        import threading

        self._store = store
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self.written = 0
        self._thread = threading.Thread(target=self._run, name="handlog-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import queue

        done = False
        while not done:
            batch = [self._queue.get()]
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            done = batch[-1] is None
            pending = [item for item in batch if item is not None]
            if pending and self._error is None:
                try:
                    self.written += self._store.write_chunks(pending)
                except BaseException as exc:  # handed to the caller's thread
                    self._error = exc

    def add(self, match_id: str, chunk: int, log: ChunkLog, seconds: float | None = None) -> None:
        if self._error is not None:
            raise self._error
        self._queue.put(PendingChunk(match_id, chunk, log, seconds))

    def close(self) -> int:
        """Write what is left, wait for it, and return the units written."""
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self.written


class HandLog:
    """A read-write connection to the hand log with the schema of every game it has seen."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else Paths.from_env().db
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect(str(self.path))
        # Chunks are small appends: checkpoint (compress WAL into the file) rarely, not every 16 MB.
        # (Checkpointing each large chunk as it commits was tried: DuckDB then merges the small
        # row groups every few checkpoints, and a 40,000-hand match paid more CPU in all.)
        self.con.execute("SET checkpoint_threshold = '256MB'")
        self._games: set[str] = set()
        self._columns: dict[str, list[str]] = {}
        self.con.execute(SCHEMA_FILES_DDL)
        self.apply_sql(SQL_DIR / "core.sql")

    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- schema ------------------------------------------------------------------------
    def ensure_game(self, game: GameAdapter) -> None:
        if game.name in self._games:
            return
        sql = game.sql_path()
        if sql.exists():
            self.apply_sql(sql)
        self._games.add(game.name)

    def apply_sql(self, path: Path) -> None:
        """Run a schema file (in one transaction) unless this database last ran the very same
        text: binding a game's views again takes ~0.1 s, more than logging a fast match."""
        text = path.read_text()
        digest = hashlib.sha256(text.encode()).hexdigest()
        if self.con.execute("SELECT sha256 FROM schema_files WHERE file = ?", [path.name]).fetchall() == [(digest,)]:
            return
        self.con.begin()
        try:
            self.con.execute(text)
            self.con.execute("INSERT OR REPLACE INTO schema_files VALUES (?, ?, ?)", [path.name, digest, _now()])
            self.con.commit()
            self._columns.clear()
        except Exception:
            self.con.rollback()
            raise

    def table_columns(self, table: str) -> list[str]:
        if table not in self._columns:
            try:  # an empty scan's description: a few times faster than information_schema
                found = self.con.execute(f'SELECT * FROM "{table.replace(chr(34), chr(34) * 2)}" LIMIT 0').description
            except duckdb.CatalogException:
                raise KeyError(f"the hand log has no table {table!r}; is it created in data/sql/?") from None
            self._columns[table] = [column[0] for column in found]
        return self._columns[table]

    # -- writing -----------------------------------------------------------------------
    def begin_match(
        self,
        *,
        match_id: str,
        game: str,
        bot: str,
        config: dict,
        seed: int,
        units: int,
        source: str,
        options: dict | None = None,
        sweep_id: str | None = None,
    ) -> None:
        """Record a match once; a re-run with the same id keeps the first record."""
        self.con.execute(
            "INSERT INTO matches (match_id, game, bot, config, options, seed, units, sweep_id, source,"
            " code_version, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [match_id, game, bot, json.dumps(config, sort_keys=True), json.dumps(options or {}, sort_keys=True),
             seed, units, sweep_id, source, code_version(), _now()],
        )

    def finish_match(self, match_id: str, seconds: float) -> None:
        self.con.execute(
            "UPDATE matches SET finished_at = ?, seconds = ? WHERE match_id = ?", [_now(), seconds, match_id]
        )

    def written_chunks(self, match_id: str) -> set[int]:
        rows = self.con.execute("SELECT chunk FROM chunks WHERE match_id = ?", [match_id]).fetchall()
        return {r[0] for r in rows}

    def write_chunk(self, match_id: str, chunk: int, log: ChunkLog, *, seconds: float | None = None) -> int:
        """Append one chunk in one transaction, replacing any earlier copy. Returns units written."""
        return self.write_chunks([PendingChunk(match_id, chunk, log, seconds)])

    def write_chunks(self, pending: list["PendingChunk"]) -> int:
        """Append whole chunks in one transaction (one commit is most of a small chunk's cost).

        The whole batch is one SQL script, so DuckDB is called a few times per batch rather
        than ten times per chunk (each call costs ~1 ms, and on a sweep's writer thread ends
        by taking the GIL back from the play)."""
        frames = [self._frames(item.log) for item in pending]  # checks the columns before writing anything
        rewrites = self._already_written(pending)
        script, views = ["BEGIN TRANSACTION"], []
        try:
            for k, (item, tables) in enumerate(zip(pending, frames, strict=True)):
                key = (item.match_id, item.chunk)
                script += self._chunk_statements(k, item, tables, views, rewrite=key in rewrites)
                rewrites.add(key)  # the same chunk again in this batch replaces this copy
            script += ["COMMIT", *(f"DROP VIEW {view}" for view in views)]
            self.con.execute(";\n".join(script))
        except Exception:
            with contextlib.suppress(duckdb.Error):
                self.con.execute("ROLLBACK")
            for view in views:
                self.con.execute(f"DROP VIEW IF EXISTS {view}")
            raise
        return sum(item.log.count for item in pending)

    def _chunk_statements(self, k: int, item: "PendingChunk", tables: dict[str, pa.Table], views: list[str], *,
                          rewrite: bool) -> list[str]:
        """The statements that store one chunk, its frames registered as views named in `views`."""
        match_id, chunk, log = _sql_text(item.match_id), int(item.chunk), item.log
        where = f"match_id = {match_id} AND chunk = {chunk}"
        statements = []
        for table, frame in tables.items():
            views.append(f"incoming_{k}_{table}")
            self.con.register(views[-1], frame)
            if rewrite:
                statements.append(f"DELETE FROM {table} WHERE {where}")
            # The two key columns are constants of the statement, not columns built in Python.
            statements.append(f"INSERT INTO {table} BY NAME SELECT {match_id}::VARCHAR AS match_id, "
                              f"{chunk}::INTEGER AS chunk, * FROM {views[-1]}")
        if rewrite:
            statements.append(f"DELETE FROM chunks WHERE {where}")
        statements.append(f"INSERT INTO chunks VALUES ({match_id}, {chunk}, {int(log.first)}, {int(log.count)}, "
                          f"{_sql_number(item.seconds)}, {_sql_text(json.dumps(log.stats))}, "
                          f"TIMESTAMP '{_now().isoformat(sep=' ')}')")
        return statements

    def _frames(self, log: ChunkLog) -> dict[str, pa.Table]:
        frames = {"units": pa.table({
            "unit": np.arange(log.first, log.first + log.count, dtype=np.int32),
            "payoff": np.asarray(log.payoffs, dtype=np.float64),
        })}
        for table, columns in log.tables.items():
            frames[table] = pa.table({name: _arrow_column(values) for name, values in columns.items()})
            known = self.table_columns(table)
            unknown = set(frames[table].column_names) - set(known)
            if unknown:
                raise KeyError(f"table {table!r} has no column(s) {sorted(unknown)}; it has {known}")
        return frames

    def _already_written(self, pending: list["PendingChunk"]) -> set[tuple[str, int]]:
        """Chunks of the batch already stored. Rows of a chunk exist only if its `chunks` row
        does (both commit together), so a first write skips the deletes, which scan the
        growing raw tables."""
        keys = " OR ".join(f"(match_id = {_sql_text(item.match_id)} AND chunk = {int(item.chunk)})"
                           for item in pending)
        return set(self.con.execute(f"SELECT match_id, chunk FROM chunks WHERE {keys}").fetchall())

    # -- sweeps ------------------------------------------------------------------------
    def begin_sweep(self, *, sweep_id: str, game: str, bot: str, grid: dict, units: int, seed: int) -> None:
        self.con.execute(
            "INSERT INTO sweeps (sweep_id, game, bot, grid, units, seed, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            [sweep_id, game, bot, json.dumps(grid), units, seed, _now()],
        )

    def finish_sweep(self, sweep_id: str, *, best_match: str | None, mlflow_run: str | None) -> None:
        self.con.execute(
            "UPDATE sweeps SET finished_at = ?, best_match = ?, mlflow_run = ? WHERE sweep_id = ?",
            [_now(), best_match, mlflow_run, sweep_id],
        )

    # -- reading (the writer may read its own data) ----------------------------------------
    def query(self, sql: str, params: Iterable | None = None) -> pl.DataFrame:
        return pl.from_arrow(self.con.sql(sql, params=list(params or [])).to_arrow_table())


def read_only(path: Path | str | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection for analysis and reports (fails while a writer holds the file)."""
    path = Path(path) if path is not None else Paths.from_env().db
    if not path.exists():
        raise FileNotFoundError(f"no hand log at {path}; run a match or a sweep first")
    return duckdb.connect(str(path), read_only=True)


def log_judged_match(
    game: GameAdapter | str,
    *,
    bot: str,
    config: dict,
    seed: int,
    log: ChunkLog,
    options: dict | None = None,
    seconds: float | None = None,
    db: Path | str | None = None,
) -> str:
    """Log a whole judged match (e.g. an external program through a judge) as chunk 0."""
    from flows import games

    adapter = games.get(game) if isinstance(game, str) else game
    match_id = new_match_id("j")
    started = time.perf_counter()
    with HandLog(db) as store:
        store.ensure_game(adapter)
        store.begin_match(match_id=match_id, game=adapter.name, bot=bot, config=config, seed=seed,
                          units=log.count, source="judge", options=options)
        store.write_chunk(match_id, 0, log, seconds=seconds)
        store.finish_match(match_id, seconds if seconds is not None else time.perf_counter() - started)
    return match_id
