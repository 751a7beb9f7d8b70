"""The writer of the DuckDB hand log (DuckDB lets one process at a time open a file).

Workers never open the database: they return ChunkLogs, and the process that owns the
HandLog appends them in bulk through Arrow. A chunk is written in one transaction that
first removes any earlier copy of the same (match_id, chunk), so writing it again, e.g.
after a crashed sweep is re-run, neither duplicates nor loses a row. How the file is
shared with readers and other writers: flows.sharing; writes it could not take: flows.spool.
"""

import contextlib
import hashlib
import json
import math
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa

from engine.core import ending
from engine.core.errors import BadValue, MissingFile
from engine.core.log import ChunkLog
from flows import sharing, spool
from flows.games.base import SQL_DIR, GameSpec
from flows.settings import PROJECT_ROOT, Paths

CORE_TABLES = ("units", "chunks")
WAL_FOLD_BYTES = 16 << 20  # while storing spooled writes (HandLog._fold_wal)
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
    """The hand log's writer: the game schemas, matches, chunks and sweeps.

    It holds the file only while it works: it opens it at a write (waiting, with a bounded
    backoff, while another process has it), and lets it go when another process waits for
    it (see flows.sharing) or when writes come more than LINGER_S apart. A write that still
    cannot get the file after the wait (or meets a disk error) goes to the spool
    (flows.spool) instead of failing; the spool is emptied into the file at the next open,
    by whichever process gets it, or by `cardlab ingest`. Meanwhile reads come from a
    snapshot: a private copy of the file with the spool stored in it, so a sweep still
    ranks its configs and prints them.
    """

    # Writes further apart than this reopen the file each time (~30 ms, under 3%); a match's
    # finish lets it go at once. Not its record: reopening for the first chunk would cost a
    # fast bot's 40,000-hand match ~3% (bench store); a reader then waits one chunk at most.
    LINGER_S = 1.0

    def __init__(self, path: Path | str | None = None, *, wait: float | None = None,
                 notify: Callable[[str], None] | None = None, _spool_of: Path | None = None):
        self.path = Path(path) if path is not None else Paths.from_env().db
        # A snapshot stores the spool of the hand log it copies, and leaves it in place.
        self._spool_of = _spool_of or self.path
        self._seen: set[str] = set()
        self._snapshot: HandLog | None = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.wait = sharing.write_wait() if wait is None else wait
        self._notify = notify or to_stderr
        self._lock = threading.RLock()  # a sweep's writer thread and the flow share one HandLog
        self._con: duckdb.DuckDBPyConnection | None = None
        self._adapters: dict[str, GameSpec] = {}
        self._games: set[str] = set()
        self._columns: dict[str, list[str]] = {}
        self._last_write: float | None = None
        self._gap = 0.0
        self.spooled: list[Path] = []  # entries this HandLog had to spool
        self._busy = ""  # why the last spool happened
        self._unwritable = ""  # why the disk refused a write (then every later write is spooled)
        with self._lock:
            try:
                self._connection()  # fail early on a bad path
            except sharing.HandLogBusy as exc:  # writes will be spooled, not lost
                self._note_busy(str(exc))

    def close(self) -> None:
        with self._lock:
            self._drop_snapshot()
            if self.spooled and self._con is None and spool.pending(self.path):
                with contextlib.suppress(sharing.HandLogBusy):
                    self._connection(wait=min(self.wait, 5.0))  # ingests them if the file is free now
            self._release()
            left = [p for p in self.spooled if p.exists()]
            if left:
                where = ", ".join(sorted({str(p.parent) for p in left}))
                then = ("free space on its disk, then `cardlab ingest` stores them (so does any later write)"
                        if self._unwritable else "they go into the hand log at its next write, or now with "
                                                 "`cardlab ingest`")
                self._notify(f"note: {self._busy}; {len(left)} write(s) kept in {where}: {then}")
            self.spooled = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the file ------------------------------------------------------------------------
    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The open connection (opened if needed, waiting up to `wait`). While the file stays
        taken: a stand-in that reads from the snapshot and spools INSERT, UPDATE and DELETE."""
        with self._lock:
            try:
                return self._connection(self._wait_now())
            except sharing.HandLogBusy as exc:
                self._note_busy(str(exc))
                return _Deferred(self)

    def _note_busy(self, reason: str) -> None:
        """Keep the first reason: it says how long the wait was (later tries do not wait)."""
        self._busy = self._busy or reason

    def _wait_now(self) -> float:
        """After one write had to be spooled, later ones try once rather than wait again."""
        return 0.0 if self._busy and self._con is None else self.wait

    def _reader(self) -> duckdb.DuckDBPyConnection:
        """The file for a read, or the snapshot while it stays taken."""
        try:
            con = self._connection(self._wait_now())
        except sharing.HandLogBusy as exc:
            self._note_busy(str(exc))
            return self._snapshot_connection()
        self._drop_snapshot()
        return con

    def _snapshot_connection(self) -> duckdb.DuckDBPyConnection:
        if self._snapshot is None:
            copy = _copy_of(self.path, self._busy)
            try:
                snapshot = HandLog(copy, wait=0, notify=self._notify, _spool_of=self.path)
                for adapter in self._adapters.values():
                    snapshot.ensure_game(adapter)
            except (OSError, duckdb.Error) as exc:
                shutil.rmtree(copy.parent, ignore_errors=True)
                raise sharing.HandLogBusy(f"{self._busy}, and a copy of it could not be read ({exc})") from None
            self._snapshot = snapshot
        con = self._snapshot.con
        self._snapshot._ingest_spool()  # what was spooled since the last read
        return con

    def _drop_snapshot(self) -> None:
        if self._snapshot is not None:
            snapshot, self._snapshot = self._snapshot, None
            snapshot.close()
            shutil.rmtree(snapshot.path.parent, ignore_errors=True)

    def _connection(self, wait: float | None = None) -> duckdb.DuckDBPyConnection:
        if self._con is not None:
            return self._con
        if self._unwritable:
            raise sharing.HandLogUnwritable(self._unwritable)
        try:
            con = sharing.connect(self.path, read_only=False, wait=self.wait if wait is None else wait)
        except (duckdb.Error, OSError) as exc:
            self._check_disk(exc)
            raise
        self._con = con
        try:
            # Chunks are small appends: checkpoint (compress WAL into the file) rarely, not every 16 MB.
            # (Checkpointing each large chunk as it commits was tried: DuckDB then merges the small
            # row groups every few checkpoints, and a 40,000-hand match paid more CPU in all.)
            con.execute("SET checkpoint_threshold = '256MB'")
            con.execute(SCHEMA_FILES_DDL)
            self.apply_sql(SQL_DIR / "core.sql")
            self._games.clear()
            for adapter in list(self._adapters.values()):
                self._apply_game(adapter)
            self._ingest_spool()
        except BaseException as exc:
            self._release()
            self._check_disk(exc)
            raise
        return con

    def _check_disk(self, exc: BaseException) -> None:
        """A write the disk refused: from now on this writer spools (HandLogUnwritable says why)."""
        problem = sharing.disk_problem(exc)
        if problem is not None:
            self._release()
            self._unwritable = self._unwritable or f"the hand log {self.path} could not be written ({problem})"
            raise sharing.HandLogUnwritable(self._unwritable) from None

    def _release(self) -> None:
        """Let the file go (closing checkpoints the WAL into it, so readers open it quickly)."""
        if self._con is not None:
            con, self._con = self._con, None
            self._columns.clear()
            with contextlib.suppress(duckdb.Error):
                con.close()

    def _write(self, action: Callable[[], int | None], entry: Callable[[], tuple[list[dict], dict]], *,
               idle_next: bool = False):
        """Run a write on the file, or spool it when the file stays taken or the disk fails.
        `idle_next`: nothing of this match follows, so the file is let go at once."""
        with self._lock:
            now = time.monotonic()
            self._gap = now - self._last_write if self._last_write is not None else 0.0
            try:
                try:
                    self._connection(self._wait_now())
                    with ending.held():  # a signal ends the command after this write, never inside it
                        result = action()
                except (duckdb.Error, OSError) as exc:
                    self._check_disk(exc)  # a full disk: HandLogUnwritable
                    raise
            except (sharing.HandLogBusy, duckdb.IOException, OSError) as exc:
                if isinstance(exc, (duckdb.IOException, OSError)) and not sharing.is_lock_error(exc):
                    self._release()  # another disk error: the connection may be unusable
                self._note_busy(str(exc) if isinstance(exc, sharing.HandLogBusy)
                                else f"the hand log {self.path} could not be written ({str(exc).splitlines()[0]})")
                self._spool(*entry())
                return None
            self._last_write = time.monotonic()
            if idle_next or self._gap > self.LINGER_S or sharing.someone_waiting(self.path):
                self._release()
            return result

    def _spool(self, ops: list[dict], frames: dict) -> None:
        try:
            self.spooled.append(spool.write(self.path, ops=ops, frames=frames))
        except spool.SpoolFull as full:
            raise spool.SpoolFull(f"{self._busy}, and {full}: free space on one of these disks; this write "
                                  f"is not kept") from None

    def _spool_statement(self, sql: str, params: list) -> None:
        """A write given as SQL (e.g. a sweep's record) while the file stays taken."""
        self._spool([self._statement_op(sql, params)], {})

    def _statement_op(self, sql: str, params: list) -> dict:
        encoded = [{"timestamp": p.isoformat()} if isinstance(p, datetime) else p for p in params]
        return self._op("sql", sql=sql, params=encoded)

    def _execute_write(self, sql: str, params: list) -> None:
        """A write given as SQL on the file, or to the spool when the file stays taken or its disk is full."""
        self._write(lambda: self.con.execute(sql, params), lambda: ([self._statement_op(sql, params)], {}))

    def _ingest_spool(self) -> None:
        """Store what this or another process had to spool, oldest first."""
        for entry in spool.entries(self._spool_of):
            if entry.path.name in self._seen:
                continue
            try:
                self._store_entry(entry)
            except Exception as exc:  # refused by the database: kept aside with the reason, not lost
                if isinstance(exc, (duckdb.IOException, OSError)) or sharing.disk_problem(exc):
                    raise  # the disk, not the entry: it stays in the spool
                if self._spool_of != self.path:  # a snapshot leaves that to the hand log itself
                    self._seen.add(entry.path.name)
                    continue
                where = spool.reject(entry, f"{type(exc).__name__}: {exc}")
                self._notify(f"note: a spooled write was refused by the hand log ({type(exc).__name__}: "
                             f"{str(exc).splitlines()[0]}); it is kept in {where}")
                continue
            if self._spool_of == self.path:
                spool.remove(entry)
                self._fold_wal()
            else:
                self._seen.add(entry.path.name)
        if self._spool_of == self.path and not spool.pending(self.path):
            self._busy = ""

    def _fold_wal(self) -> None:
        """Entries stored one after another on one connection grow the write-ahead log uncompressed
        (up to checkpoint_threshold, 256 MB: ~110 bytes a unit); folding it into the file now and then
        lets a disk with little room left (the usual reason for a spool) take the spool back."""
        with contextlib.suppress(OSError):
            if self.path.with_name(self.path.name + ".wal").stat().st_size > WAL_FOLD_BYTES:
                self._con.execute("CHECKPOINT")

    def _store_entry(self, entry: spool.Entry) -> None:
        from flows import games

        for name in entry.ops[0].get("games", []):
            if name not in self._adapters:
                self._adapters[name] = games.get(name)
            self._apply_game(self._adapters[name])
        for op in entry.ops:
            if op["op"] == "match":
                self._insert_match(op["row"])
            elif op["op"] == "chunks":
                rows = [_ChunkRows(match_id=c["match_id"], chunk=c["chunk"], first=c["first"], count=c["count"],
                                   seconds=c["seconds"], stats=c["stats"],
                                   frames={t: entry.frame(key) for t, key in c["frames"].items()})
                        for c in op["chunks"]]
                for item in rows:
                    self._check_columns(item.frames)
                self._store_chunks(rows)
            elif op["op"] == "finish":
                self._update_finished(op["match_id"], op["seconds"], datetime.fromisoformat(op["at"]), op.get("units"),
                                      op.get("status"))
            elif op["op"] == "sql":
                self.con.execute(op["sql"], [datetime.fromisoformat(p["timestamp"]) if isinstance(p, dict) else p
                                             for p in op["params"]])

    # -- schema ------------------------------------------------------------------------
    def ensure_game(self, game: GameSpec) -> None:
        """The game's tables and views, now if the file is free, else at the next open."""
        with self._lock:
            self._adapters.setdefault(game.name, game)
            if game.name in self._games or self._con is None:
                return
            try:
                self._apply_game(game)
            except (duckdb.Error, OSError) as exc:
                with contextlib.suppress(sharing.HandLogUnwritable):  # applied at the next open, or in the snapshot
                    self._check_disk(exc)
                    raise

    def _apply_game(self, game: GameSpec) -> None:
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
        con = self.con
        if con.execute("SELECT sha256 FROM schema_files WHERE file = ?", [path.name]).fetchall() == [(digest,)]:
            return
        con.begin()
        try:
            con.execute(text)
            con.execute("INSERT OR REPLACE INTO schema_files VALUES (?, ?, ?)", [path.name, digest, _now()])
            con.commit()
            self._columns.clear()
        except Exception:
            with contextlib.suppress(duckdb.Error):  # a failed commit (a full disk) leaves nothing to roll back
                con.rollback()
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
        row = {"match_id": match_id, "game": game, "bot": bot, "config": json.dumps(config, sort_keys=True),
               "options": json.dumps(options or {}, sort_keys=True), "seed": seed, "units": units,
               "sweep_id": sweep_id, "source": source, "code_version": code_version(),
               "started_at": _now().isoformat()}
        self._write(lambda: self._insert_match(row), lambda: ([self._op("match", row=row)], {}))

    def _insert_match(self, row: dict) -> None:
        self.con.execute(
            "INSERT INTO matches (match_id, game, bot, config, options, seed, units, sweep_id, source,"
            " code_version, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [row["match_id"], row["game"], row["bot"], row["config"], row["options"], row["seed"], row["units"],
             row["sweep_id"], row["source"], row["code_version"], datetime.fromisoformat(row["started_at"])],
        )

    def finish_match(self, match_id: str, seconds: float, *, units: int | None = None,
                     status: str | None = None) -> None:
        """Close a match. `units` and `status`: one that stopped early (e.g. interrupted) then claims
        the units it stored, and its options say why."""
        at = _now()
        self._write(lambda: self._update_finished(match_id, seconds, at, units, status),
                    lambda: ([self._op("finish", match_id=match_id, seconds=seconds, at=at.isoformat(), units=units,
                                       status=status)], {}),
                    idle_next=True)

    def _update_finished(self, match_id: str, seconds: float, at: datetime, units: int | None = None,
                         status: str | None = None) -> None:
        self.con.execute("UPDATE matches SET finished_at = ?, seconds = ?, units = coalesce(?, units), "
                         "options = CASE WHEN ? IS NULL THEN options "
                         "ELSE json_merge_patch(coalesce(options, '{}'), json_object('status', ?)) END "
                         "WHERE match_id = ?", [at, seconds, units, status, status, match_id])

    def units_stored(self, match_id: str) -> int:
        """Units of the match's stored chunks (spooled ones too)."""
        with self._lock:
            row = self._reader().execute("SELECT coalesce(sum(n_units), 0) FROM chunks WHERE match_id = ?",
                                         [match_id]).fetchone()
            return int(row[0])

    def _op(self, kind: str, **fields) -> dict:
        """A spool op; the first op of an entry names the games whose tables it needs."""
        return {"op": kind, "games": sorted(self._adapters), **fields}

    def written_chunks(self, match_id: str) -> set[int]:
        """Chunks stored for the match (spooled ones too, read from the snapshot while the file is taken)."""
        with self._lock:
            rows = self._reader().execute("SELECT chunk FROM chunks WHERE match_id = ?", [match_id]).fetchall()
            return {r[0] for r in rows}

    def write_chunk(self, match_id: str, chunk: int, log: ChunkLog, *, seconds: float | None = None) -> int:
        """Append one chunk in one transaction, replacing any earlier copy. Returns units written
        (spooled ones included: they are kept, and stored at the next open)."""
        return self.write_chunks([PendingChunk(match_id, chunk, log, seconds)])

    def write_chunks(self, pending: list["PendingChunk"]) -> int:
        """Append whole chunks in one transaction (one commit is most of a small chunk's cost)."""
        rows = [_ChunkRows(match_id=item.match_id, chunk=int(item.chunk), first=int(item.log.first),
                           count=int(item.log.count), seconds=item.seconds, stats=item.log.stats,
                           frames=_frames(item.log)) for item in pending]

        def store() -> None:
            for item in rows:  # checks the columns before writing anything
                self._check_columns(item.frames)
            self._store_chunks(rows)

        def entry() -> tuple[list[dict], dict]:
            frames, chunks = {}, []
            for k, item in enumerate(rows):
                keys = {table: f"c{k}_{table}" for table in item.frames}
                frames |= {keys[table]: frame for table, frame in item.frames.items()}
                chunks.append({"match_id": item.match_id, "chunk": item.chunk, "first": item.first,
                               "count": item.count, "seconds": item.seconds, "stats": item.stats, "frames": keys})
            return [self._op("chunks", chunks=chunks)], frames

        self._write(store, entry)
        return sum(item.count for item in rows)

    def _store_chunks(self, rows: list["_ChunkRows"]) -> None:
        """The whole batch is one SQL script, so DuckDB is called a few times per batch rather
        than ten times per chunk (each call costs ~1 ms, and on a sweep's writer thread ends
        by taking the GIL back from the play)."""
        con = self.con
        rewrites = self._already_written(rows)
        script, views = ["BEGIN TRANSACTION"], []
        try:
            for k, item in enumerate(rows):
                key = (item.match_id, item.chunk)
                script += self._chunk_statements(k, item, views, rewrite=key in rewrites)
                rewrites.add(key)  # the same chunk again in this batch replaces this copy
            script += ["COMMIT", *(f"DROP VIEW {view}" for view in views)]
            con.execute(";\n".join(script))
        except Exception:
            with contextlib.suppress(duckdb.Error):
                con.execute("ROLLBACK")
            for view in views:
                with contextlib.suppress(duckdb.Error):
                    con.execute(f"DROP VIEW IF EXISTS {view}")
            raise

    def _chunk_statements(self, k: int, item: "_ChunkRows", views: list[str], *, rewrite: bool) -> list[str]:
        """The statements that store one chunk, its frames registered as views named in `views`."""
        match_id, chunk = _sql_text(item.match_id), int(item.chunk)
        where = f"match_id = {match_id} AND chunk = {chunk}"
        statements = []
        for table, frame in item.frames.items():
            views.append(f"incoming_{k}_{table}")
            self.con.register(views[-1], frame)
            if rewrite:
                statements.append(f"DELETE FROM {table} WHERE {where}")
            # The two key columns are constants of the statement, not columns built in Python.
            statements.append(f"INSERT INTO {table} BY NAME SELECT {match_id}::VARCHAR AS match_id, "
                              f"{chunk}::INTEGER AS chunk, * FROM {views[-1]}")
        if rewrite:
            statements.append(f"DELETE FROM chunks WHERE {where}")
        statements.append(f"INSERT INTO chunks VALUES ({match_id}, {chunk}, {int(item.first)}, {int(item.count)}, "
                          f"{_sql_number(item.seconds)}, {_sql_text(json.dumps(item.stats))}, "
                          f"TIMESTAMP '{_now().isoformat(sep=' ')}')")
        return statements

    def _check_columns(self, frames: dict[str, pa.Table]) -> None:
        for table, frame in frames.items():
            if table == "units":
                continue
            known = self.table_columns(table)
            unknown = set(frame.column_names) - set(known)
            if unknown:
                raise KeyError(f"table {table!r} has no column(s) {sorted(unknown)}; it has {known}")

    def _already_written(self, rows: list["_ChunkRows"]) -> set[tuple[str, int]]:
        """Chunks of the batch already stored. Rows of a chunk exist only if its `chunks` row
        does (both commit together), so a first write skips the deletes, which scan the
        growing raw tables."""
        keys = " OR ".join(f"(match_id = {_sql_text(item.match_id)} AND chunk = {int(item.chunk)})"
                           for item in rows)
        return set(self.con.execute(f"SELECT match_id, chunk FROM chunks WHERE {keys}").fetchall())

    # -- sweeps ------------------------------------------------------------------------
    def begin_sweep(self, *, sweep_id: str, game: str, bot: str, grid: dict, units: int, seed: int,
                    spec: str) -> None:
        """Record a sweep with its spec once. Resuming brings the same id and must bring the very
        same spec: chunks played under another chunk size or seed would mix into this sweep."""
        found = self.con.execute("SELECT spec FROM sweeps WHERE sweep_id = ?", [sweep_id]).fetchall()
        if found:
            if found[0][0] != spec:
                raise BadValue(f"sweep {sweep_id} was started with another spec ({found[0][0]}); "
                                 f"it can only be resumed with its own")
            return
        self._execute_write(
            "INSERT INTO sweeps (sweep_id, game, bot, grid, units, seed, started_at, spec)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [sweep_id, game, bot, json.dumps(grid), units, seed, _now(), spec],
        )

    def finish_sweep(self, sweep_id: str, *, best_match: str | None, mlflow_run: str | None,
                     baseline_match: str | None = None) -> None:
        self._execute_write(
            "UPDATE sweeps SET finished_at = ?, best_match = ?, mlflow_run = ?, baseline_match = ? WHERE sweep_id = ?",
            [_now(), best_match, mlflow_run, baseline_match, sweep_id],
        )

    # -- reading (the writer may read its own data) ----------------------------------------
    def query(self, sql: str, params: Iterable | None = None) -> pl.DataFrame:
        """Read the hand log (spooled writes included, from the snapshot while the file is taken)."""
        with self._lock:
            return pl.from_arrow(self._reader().sql(sql, params=list(params or [])).to_arrow_table())


class _Deferred:
    """`HandLog.con` while the file stays taken: reads go to the snapshot, writes to the spool."""

    WRITES = {duckdb.StatementType.INSERT, duckdb.StatementType.UPDATE, duckdb.StatementType.DELETE}

    def __init__(self, store: HandLog):
        self._store = store
        self._rows: list = []

    def execute(self, sql: str, params: list | None = None):
        kinds = {statement.type for statement in duckdb.connect().extract_statements(sql)}
        with self._store._lock:
            if kinds == {duckdb.StatementType.SELECT}:
                return self._store._snapshot_connection().execute(sql, list(params or []))
            if not kinds <= self.WRITES:
                raise sharing.HandLogBusy(self._store._busy)
            self._store._spool_statement(sql, list(params or []))
        return self

    def fetchall(self) -> list:
        return []

    def fetchone(self):
        return None


@dataclass(frozen=True)
class _ChunkRows:
    """A chunk as frames, ready for the database or the spool."""

    match_id: str
    chunk: int
    first: int
    count: int
    seconds: float | None
    stats: dict
    frames: dict[str, pa.Table]


def _frames(log: ChunkLog) -> dict[str, pa.Table]:
    frames = {"units": pa.table({
        "unit": np.arange(log.first, log.first + log.count, dtype=np.int32),
        "payoff": np.asarray(log.payoffs, dtype=np.float64),
    })}
    for table, columns in log.tables.items():
        frames[table] = pa.table({name: _arrow_column(values) for name, values in columns.items()})
    return frames


def to_stderr(text: str) -> None:
    sys.stderr.write(text + "\n")  # not print(): inside a flow Prefect turns prints into log records
    sys.stderr.flush()


def read_only(path: Path | str | None = None, *, wait: float | None = None, config: dict | None = None,
              notify: Callable[[str], None] | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection for analysis and reports. While a writer works, it waits its
    turn (up to CARDLAB_READ_WAIT, 10 s); close it soon: the writer waits for it in turn.
    When the file stays taken it reads a copy taken now, with the spooled writes stored in it,
    and says so in one line."""
    path = Path(path) if path is not None else Paths.from_env().db
    if not path.exists():
        raise MissingFile(f"no hand log at {path}; run a match or a sweep first")
    if path.is_dir():
        raise MissingFile(f"{path} is a folder, not a hand log file")
    try:
        return sharing.connect(path, read_only=True, wait=sharing.read_wait() if wait is None else wait,
                               config=config)
    except sharing.HandLogBusy as exc:
        busy = str(exc)
    copy = _copy_of(path, busy)
    try:
        if spool.pending(path):
            HandLog(copy, wait=0, notify=notify, _spool_of=path).close()
        con = duckdb.connect(str(copy), read_only=True, config=config or {})
    except (OSError, duckdb.Error) as exc:
        raise sharing.HandLogBusy(f"{busy}, and a copy of it could not be read ({exc})") from None
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)  # the open connection keeps what it needs
    (notify or to_stderr)(f"note: {busy}; read a copy of it taken now, spooled writes included")
    return con


def _copy_of(path: Path, busy: str) -> Path:
    """A private copy of the hand log (its file and write-ahead log) in a temporary folder."""
    copy = Path(tempfile.mkdtemp(prefix="handlog-snapshot-")) / path.name
    try:
        for suffix in ("", ".wal"):
            source = path.with_name(path.name + suffix)
            if source.exists():
                shutil.copyfile(source, copy.with_name(copy.name + suffix))
    except OSError as exc:
        shutil.rmtree(copy.parent, ignore_errors=True)
        raise sharing.HandLogBusy(f"{busy}, and it could not be copied ({exc})") from None
    return copy


def claim_problems(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Rows that claim units the hand log does not hold; none when it is consistent. A chunk holds
    exactly its n_units units, a finished match exactly its `units`, an unfinished one (a sweep's,
    to be resumed) no more than it plans; no units or chunks without their chunk or match row."""
    checks = {
        "chunk claims {1} units but holds {2}": """
            SELECT c.match_id || ' chunk ' || c.chunk, c.n_units, count(u.unit) FROM chunks c
            LEFT JOIN units u ON u.match_id = c.match_id AND u.chunk = c.chunk
            GROUP BY ALL HAVING count(u.unit) <> c.n_units""",
        "units without a chunk row: {1}": """
            SELECT u.match_id || ' chunk ' || u.chunk, count(*), 0 FROM units u
            ANTI JOIN chunks c ON u.match_id = c.match_id AND u.chunk = c.chunk GROUP BY ALL""",
        "match claims {1} units but holds {2}": """
            SELECT m.match_id, m.units, coalesce(sum(c.n_units), 0) FROM matches m
            LEFT JOIN chunks c USING (match_id) GROUP BY m.match_id, m.units, m.finished_at
            HAVING coalesce(sum(c.n_units), 0) <> m.units AND m.finished_at IS NOT NULL
                OR coalesce(sum(c.n_units), 0) > m.units""",
        "chunks of a match with no row: {1} units": """
            SELECT c.match_id, sum(c.n_units), 0 FROM chunks c ANTI JOIN matches m USING (match_id) GROUP BY ALL""",
    }
    return [f"{row[0]}: {text.format(*row)}" for text, sql in checks.items() for row in con.execute(sql).fetchall()]


def ingest(path: Path | str | None = None, *, wait: float | None = None) -> tuple[int, int]:
    """Store every spooled write in the hand log now: (entries stored, entries set aside)."""
    path = Path(path) if path is not None else Paths.from_env().db
    before, aside = spool.pending(path), spool.rejected(path)
    with HandLog(path, wait=wait) as store:  # opening the file stores the spool
        if store._unwritable:
            raise sharing.HandLogUnwritable(f"{store._unwritable}: free space on its disk, then run `cardlab ingest` "
                                            f"again ({spool.pending(path)} write(s) wait in the spool)")
        if store._con is None:
            raise sharing.HandLogBusy(store._busy)
    now_aside = spool.rejected(path)
    return before - spool.pending(path) - (now_aside - aside), now_aside - aside


def log_judged_match(
    game: GameSpec | str,
    *,
    bot: str,
    config: dict,
    seed: int,
    log: ChunkLog,
    options: dict | None = None,
    seconds: float | None = None,
    db: Path | str | None = None,
) -> str:
    """Log a whole judged match (e.g. an external program through a judge) as chunk 0.

    A busy hand log does not lose it: the match is spooled and a note says so."""
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
