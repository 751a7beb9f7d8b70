"""The hand log: append-only Parquet shards under one folder, read through DuckDB views.

Whoever has rows writes them as immutable files (flows.shards): a chunk's tables under the key
(match, chunk), so writing a chunk again replaces it; a match's or sweep's begin and finish as
rows of their tables, the latest value per key winning. Nobody takes a lock, so any number of
processes (and hosts sharing the folder) write while any number read. A reader is an in-memory
DuckDB connection whose raw tables are views over the files of the moment, with the views and
marts of data/sql on top. The schema files a writer applied are copied to `<log>/_sql/`, so a
reader (another process, `cardlab sql`) runs the same ones.

When the log's disk refuses a write (full, read-only), the write goes whole to a fallback folder
on another file system (~/.cache/cardlab/spool/<log>-<hash>, then the temporary folder), which
every reader of the log reads too; `cardlab ingest` moves those files into the log once there
is room. With no room anywhere: NoRoom, one line.
"""

import hashlib
import json
import os
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
from engine.core.errors import BadValue, MissingFile, Unavailable
from engine.core.log import ChunkLog
from flows import shards
from flows.games.base import SQL_DIR, GameSpec
from flows.settings import PROJECT_ROOT, Paths

CORE_TABLES = ("units", "chunks")
SQL_FOLDER = "_sql"  # the schema files writers applied, run by readers
CORE_SQL = "core.sql"
COMPACT_AFTER = 256  # a HandLog that wrote this many files compacts the log when it closes


class NoRoom(Unavailable):
    """Neither the hand log's disk nor any fallback folder could keep a write (one line naming each)."""


class OldHandLog(Unavailable):
    """CARDLAB_DB names a DuckDB file from before the shard log."""


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

    Arrow's Parquet writer releases the GIL, so on two cores logging mostly overlaps with
    play. Whatever waits when the thread is free is written in one go. The queue is
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


def fallback_folders(db: Path) -> list[Path]:
    """Where writes go when the log's disk refuses them: one folder per hand log (named by its absolute
    path) under each folder of CARDLAB_SPOOL_FALLBACK (separated by ':'), by default
    ~/.cache/cardlab/spool and <temporary folder>/cardlab-spool. Readers of the log read them too."""
    key = f"{Path(db).name}-{hashlib.sha256(str(Path(db).absolute()).encode()).hexdigest()[:12]}"
    given = os.environ.get("CARDLAB_SPOOL_FALLBACK")
    if given is not None:
        return [Path(folder) / key for folder in given.split(os.pathsep) if folder]
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return [cache_home / "cardlab" / "spool" / key, Path(tempfile.gettempdir()) / "cardlab-spool" / key]


def _roots(db: Path) -> list[Path]:
    """The log and those of its fallback folders that exist (a reader reads them all)."""
    return [db, *(folder for folder in fallback_folders(db) if folder.is_dir())]


def _check_log_path(path: Path) -> None:
    if path.is_file():
        raise OldHandLog(f"{path} is a file (a DuckDB hand log from before the shard log); move it aside, or copy "
                         f"it into a shard log with `cardlab ingest --from {path}`, and point CARDLAB_DB at a folder")


def sql_files(db: Path) -> list[Path]:
    """The schema files a log's writers applied, core.sql first."""
    folder = db / SQL_FOLDER
    names = sorted(os.listdir(folder)) if folder.is_dir() else []
    return sorted((folder / n for n in names if n.endswith(".sql")), key=lambda p: (p.name != CORE_SQL, p.name))


class HandLog:
    """The hand log's writer (and reader of what it and others wrote): schemas, matches, chunks, sweeps.

    Writes are files, so there is nothing to wait for and nothing held between writes. A write the
    log's disk refuses goes whole to a fallback folder (see fallback_folders), which reads include."""

    def __init__(self, path: Path | str | None = None, *, wait: float | None = None,
                 notify: Callable[[str], None] | None = None):
        self.path = Path(path) if path is not None else Paths.from_env().db
        _check_log_path(self.path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)  # fail early on a bad path
        except OSError as exc:
            raise Unavailable(f"cannot create the hand log folder {self.path} ({exc.strerror or exc})") from None
        self._notify = notify or to_stderr
        self._lock = threading.RLock()  # a sweep's writer thread and the flow share one HandLog
        self._sql: dict[str, str] = {}  # schema file name -> text, in the order applied (core first)
        self._games: set[str] = set()
        self._writers: dict[Path, shards.ShardLog] = {}
        self._schema: shards.Schema | None = None
        self._con: duckdb.DuckDBPyConnection | None = None
        self._bare: duckdb.DuckDBPyConnection | None = None  # for lookups in one table (no views)
        self._fallback_noted = False
        self.written_files = 0
        self.apply_sql(SQL_DIR / CORE_SQL)
        for path in sql_files(self.path):  # what other writers applied: their tables read too
            self._sql.setdefault(path.name, path.read_text())

    def close(self) -> None:
        with self._lock:
            if self.written_files >= COMPACT_AFTER:
                try:
                    shards.compact(self.path, self.schema)
                except (Unavailable, OSError) as exc:  # another compaction runs, or the disk is full: later
                    self._notify(f"note: the hand log was not compacted ({str(exc).splitlines()[0]})")
                self.written_files = 0
            self._drop_reader()
            if self._bare is not None:
                self._bare.close()
                self._bare = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- schema ------------------------------------------------------------------------
    @property
    def schema(self) -> shards.Schema:
        if self._schema is None:
            self._schema = shards.schema_of_texts(tuple(self._sql.values()))
        return self._schema

    def ensure_game(self, game: GameSpec) -> None:
        """The game's tables and views."""
        with self._lock:
            if game.name in self._games:
                return
            sql = game.sql_path()
            if sql.exists():
                self.apply_sql(sql)
            self._games.add(game.name)

    def apply_sql(self, path: Path) -> None:
        """Use a schema file's tables and views, and leave a copy in the log for its readers."""
        path = Path(path)
        text = path.read_text()
        with self._lock:
            if self._sql.get(path.name) == text:
                return
            self._sql[path.name] = text
            self._schema = None
            self._writers.clear()
            self._drop_reader()
            folder = self.path / SQL_FOLDER
            copy = folder / path.name
            try:
                if not copy.exists() or copy.read_text() != text:
                    folder.mkdir(exist_ok=True)
                    temporary = folder / f".tmp-{uuid.uuid4().hex}"
                    try:
                        temporary.write_text(text)
                        os.replace(temporary, copy)
                    finally:
                        temporary.unlink(missing_ok=True)
            except OSError:
                pass  # a full disk: this writer still knows the schema; its next run leaves the copy

    def table_columns(self, table: str) -> list[str]:
        return self._writer(self.path).table(table).columns

    def _writer(self, root: Path) -> shards.ShardLog:
        if root not in self._writers:
            self._writers[root] = shards.ShardLog(root, self.schema)
        return self._writers[root]

    # -- writing -----------------------------------------------------------------------
    def _write(self, items: list[tuple[str, pa.Table, str | None]]) -> None:
        """Write these shards all to the log or, when its disk refuses one, all to a fallback folder.
        Checks every frame first, so a bad one writes nothing. An ending signal arriving meanwhile ends
        the command once the write is done (ending.held): raised inside Arrow's writer it would cut the
        write short, and a chunk's files would land without its `chunks` row."""
        with self._lock, ending.held():
            log = self._writer(self.path)
            items = [(table, shards.conform(log.table(table), frame), key) for table, frame, key in items]
            failures: list[tuple[Path, str]] = []
            for root in [self.path, *fallback_folders(self.path)]:
                written: list[Path] = []
                try:
                    root.mkdir(parents=True, exist_ok=True)
                    writer = self._writer(root)
                    for table, frame, key in items:
                        written.append(writer.write(table, frame, key=key))
                except (shards.ShardWriteFailed, OSError) as exc:
                    for path in written:  # all of a write or nothing of it in one folder
                        path.unlink(missing_ok=True)
                    reason = exc.reason if isinstance(exc, shards.ShardWriteFailed) else shards.disk_words(exc)
                    failures.append((root, reason))
                    continue
                self.written_files += len(written)
                if root != self.path and not self._fallback_noted:  # reads list fallback folders at each query
                    self._fallback_noted = True
                    self._notify(f"note: the hand log {self.path} could not be written ({failures[0][1]}); its "
                                 f"writes go to {root} instead, and reads include them: free space on its disk, "
                                 f"then `cardlab ingest` moves them into the hand log")
                return
            tried = "; ".join(f"{root}: {reason}" for root, reason in failures[1:])
            raise NoRoom(f"the hand log {self.path} could not be written ({failures[0][1]}), and no fallback folder "
                         f"could keep the write ({tried}): free space on one of these disks; this write is not kept")

    def put(self, table: str, rows: list[dict] | pa.Table, *, key: str | None = None,
            cleared: Iterable[str] = ()) -> None:
        """Append rows to a table. With `key`, they replace the rows written before under that key;
        in a table with a primary key, a later row's non-NULL values win per key, and `cleared` names
        columns these rows set back to NULL."""
        frame = rows if isinstance(rows, pa.Table) else pa.Table.from_pylist(rows)
        cleared = tuple(cleared)
        self._write([(table, shards.cleared(frame, cleared) if cleared else frame, key)])

    def begin_match(self, *, match_id: str, game: str, bot: str, config: dict, seed: int, units: int, source: str,
                    options: dict | None = None, sweep_id: str | None = None) -> None:
        """Record a match once; a re-run with the same id keeps the first record."""
        if self._lookup("matches", "1", "match_id = ?", [match_id]):
            return
        self.put("matches", [{"match_id": match_id, "game": game, "bot": bot,
                              "config": json.dumps(config, sort_keys=True),
                              "options": json.dumps(options or {}, sort_keys=True), "seed": seed, "units": units,
                              "sweep_id": sweep_id, "source": source, "code_version": code_version(),
                              "started_at": _now()}])

    def finish_match(self, match_id: str, seconds: float, *, units: int | None = None,
                     status: str | None = None) -> None:
        """Close a match. `units` and `status`: one that stopped early (e.g. interrupted) then claims
        the units it stored, and its options say why."""
        row = {"match_id": match_id, "finished_at": _now(), "seconds": float(seconds), "units": units}
        if status is not None:
            row["options"] = json.dumps(self.match_options(match_id) | {"status": status}, sort_keys=True)
        self.put("matches", [row])

    def match_options(self, match_id: str) -> dict:
        """The match's options as stored now ({} for a match with none): to append a changed copy."""
        found = self._lookup("matches", "options", "match_id = ?", [match_id])
        return json.loads((found[0][0] if found else None) or "{}")

    def set_match_units(self, match_id: str, units: int) -> None:
        self.put("matches", [{"match_id": match_id, "units": int(units)}])

    def units_stored(self, match_id: str) -> int:
        """Units of the match's stored chunks."""
        return int(self._lookup("chunks", "coalesce(sum(n_units), 0)", "match_id = ?", [match_id])[0][0])

    def written_chunks(self, match_id: str) -> set[int]:
        """Chunks stored for the match."""
        return {row[0] for row in self._lookup("chunks", "chunk", "match_id = ?", [match_id])}

    def write_chunk(self, match_id: str, chunk: int, log: ChunkLog, *, seconds: float | None = None) -> int:
        """Write one chunk, replacing any earlier copy. Returns units written."""
        return self.write_chunks([PendingChunk(match_id, chunk, log, seconds)])

    def write_chunks(self, pending: list["PendingChunk"]) -> int:
        """Write whole chunks: each table's rows of a chunk are one file keyed by (match, chunk), its
        `chunks` row last (a chunk is stored once that row is). Nothing is written when a frame of
        the batch does not fit its table."""
        items = []
        for item in pending:
            key = shards.safe_key(item.match_id, int(item.chunk))
            for table, frame in _frames(item.log).items():
                n = frame.num_rows
                keyed = frame.add_column(0, "chunk", pa.array(np.full(n, int(item.chunk), dtype=np.int32)))
                keyed = keyed.add_column(0, "match_id", pa.array([item.match_id] * n, pa.string()))
                items.append((table, keyed, key))
            items.append(("chunks", pa.Table.from_pylist([{
                "match_id": item.match_id, "chunk": int(item.chunk), "first_unit": int(item.log.first),
                "n_units": int(item.log.count), "seconds": item.seconds, "stats": json.dumps(item.log.stats),
                "written_at": _now()}]), key))
        self._write(items)
        return sum(int(item.log.count) for item in pending)

    # -- sweeps ------------------------------------------------------------------------
    def begin_sweep(self, *, sweep_id: str, game: str, bot: str, grid: dict, units: int, seed: int,
                    spec: str) -> None:
        """Record a sweep with its spec once. Resuming brings the same id and must bring the very
        same spec: chunks played under another chunk size or seed would mix into this sweep."""
        found = self._lookup("sweeps", "spec", "sweep_id = ?", [sweep_id])
        if found:
            if found[0][0] != spec:
                raise BadValue(f"sweep {sweep_id} was started with another spec ({found[0][0]}); "
                               f"it can only be resumed with its own")
            return
        self.put("sweeps", [{"sweep_id": sweep_id, "game": game, "bot": bot, "grid": json.dumps(grid),
                             "units": units, "seed": seed, "started_at": _now(), "spec": spec}])

    def finish_sweep(self, sweep_id: str, *, best_match: str | None, mlflow_run: str | None,
                     baseline_match: str | None = None) -> None:
        self.put("sweeps", [{"sweep_id": sweep_id, "finished_at": _now(), "best_match": best_match,
                             "mlflow_run": mlflow_run, "baseline_match": baseline_match}])

    # -- reading -----------------------------------------------------------------------
    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """A reading connection on the log as it is now (its raw tables' files listed again at each call)."""
        with self._lock:
            if self._con is None:
                self._con, damaged = shards.reader(_roots(self.path), self.schema)
            else:
                damaged = shards.refresh(self._con, _roots(self.path), self.schema)
            for line in damaged:
                self._notify(f"note: a damaged hand log file was skipped: {line}")
            return self._con

    def _lookup(self, table: str, select: str, where: str, params: list) -> list[tuple]:
        """Rows of one table, read from its files now: a few ms, where a query's connection with
        every view costs ~0.1 s to set up (what a match's first write would pay)."""
        with self._lock:
            spec = self._writer(self.path).table(table)
            resolved = shards.resolve([root / table for root in _roots(self.path)])
            for line in resolved.damaged:
                self._notify(f"note: a damaged hand log file was skipped: {line}")
            if self._bare is None:
                self._bare = duckdb.connect()
            return self._bare.execute(f"SELECT {select} FROM ({shards.table_sql(spec, resolved)}) WHERE {where}",
                                      params).fetchall()

    def _drop_reader(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def query(self, sql: str, params: Iterable | None = None) -> pl.DataFrame:
        """Read the hand log (what every writer has written so far)."""
        with self._lock:
            return pl.from_arrow(self.con.sql(sql, params=list(params or [])).to_arrow_table())


def to_stderr(text: str) -> None:
    sys.stderr.write(text + "\n")  # not print(): inside a flow Prefect turns prints into log records
    sys.stderr.flush()


SANDBOX_KEYS = ("enable_external_access", "lock_configuration", "autoload_known_extensions",
                "autoinstall_known_extensions", "allow_community_extensions", "allow_persistent_secrets")


def read_only(path: Path | str | None = None, *, wait: float | None = None, config: dict | None = None,
              notify: Callable[[str], None] | None = None) -> duckdb.DuckDBPyConnection:
    """A connection for analysis and reports: the log's tables and views as they are now. Nothing
    is locked, so it never waits (`wait` is kept for callers of the old file log) and writers never
    wait for it. Given DuckDB's sandbox settings in `config` (enable_external_access=false), it may
    read the log's files and no other file. Damaged files are skipped, each named in one line."""
    path = Path(path) if path is not None else Paths.from_env().db
    _check_log_path(path)
    files = sql_files(path)
    if not path.is_dir() or not files:
        raise MissingFile(f"no hand log at {path}; run a match or a sweep first")
    texts = tuple(p.read_text() for p in files)
    schema = shards.schema_of_texts(texts)
    if config:  # settings of its own (the sandbox, a memory limit): a database of its own
        config = dict(config)
        sandbox = {k: config.pop(k) for k in SANDBOX_KEYS if k in config}
        con, damaged = shards.reader(_roots(path), schema, config=config, sandbox=sandbox)
    else:  # a process that reads again and again (a report, a notebook) makes the views once
        with _shared_lock:
            key = (str(path.absolute()), texts)
            if key in _shared:
                damaged = shards.refresh(_shared[key], _roots(path), schema)
            else:
                _shared[key], damaged = shards.reader(_roots(path), schema)
            con = _shared[key].cursor()  # closing it leaves the shared database open
    for line in damaged:
        (notify or to_stderr)(f"note: a damaged hand log file was skipped: {line}")
    return con


_shared: dict[tuple[str, tuple[str, ...]], duckdb.DuckDBPyConnection] = {}  # in-memory databases with the views
_shared_lock = threading.Lock()


def ingest(path: Path | str | None = None, *, wait: float | None = None,
           source: Path | str | None = None) -> tuple[int, int]:
    """Move the files of the log's fallback folders (or copy those of `source`, another shard log,
    or a DuckDB hand log file from before the shard log) into the log: (files stored, files left).
    A file is copied under a temporary name and renamed, then removed from where it was: stopped
    at any point, a file is in one place or both, and a reader reads one copy."""
    path = Path(path) if path is not None else Paths.from_env().db
    if source is not None and Path(source).is_file():
        return _import_duckdb(Path(source), path), 0
    stored = 0
    sources = [Path(source)] if source is not None else fallback_folders(path)
    for root in sources:
        for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
            target = path / folder.name
            for file in sorted(folder.iterdir()):
                if file.name.startswith("."):
                    continue
                try:
                    target.mkdir(parents=True, exist_ok=True)
                    if folder.name != SQL_FOLDER or not (target / file.name).exists():  # the log's own stays
                        temporary = target / f".tmp-{uuid.uuid4().hex}{file.suffix}"
                        try:
                            shutil.copyfile(file, temporary)
                            os.replace(temporary, target / file.name)  # the same name: twice is one copy
                        finally:
                            temporary.unlink(missing_ok=True)
                except OSError as exc:
                    left = sum(1 for r in sources if r.is_dir() for f in r.rglob("*") if f.is_file())
                    raise NoRoom(f"the hand log {path} could not be written ({shards.disk_words(exc)}): free space "
                                 f"on its disk, then run `cardlab ingest` again ({left} file(s) wait in "
                                 f"{', '.join(str(r) for r in sources if r.is_dir())}; reads include them)") from None
                stored += 1
                if source is None:
                    file.unlink()
    return stored, 0


def _import_duckdb(source: Path, path: Path) -> int:
    """Every table of a DuckDB hand log file as one shard per table (views come from data/sql)."""
    from flows import games

    con = duckdb.connect(str(source), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() WHERE table_name <> "
                                            "'schema_files' ORDER BY 1").fetchall()]
        with HandLog(path) as store:
            for name in games.names():
                store.ensure_game(games.get(name))
            for sql in sorted(SQL_DIR.glob("*.sql")):  # leagues, decisions, opponent models, ...
                store.apply_sql(sql)
            known = store.schema.tables
            for table in tables:
                if table in known:
                    frame = con.sql(f'SELECT * FROM "{table}"').to_arrow_table()
                    store.put(table, frame, key="imported")
    finally:
        con.close()
    return len(tables)


def _frames(log: ChunkLog) -> dict[str, pa.Table]:
    if log.events is not None:  # flows.events.encode: the one encoder from events to tables
        raise ValueError("a chunk's events must be encoded into tables (flows.events.encode) before the hand log "
                         "stores it; they would be lost")
    frames = {"units": pa.table({
        "unit": np.arange(log.first, log.first + log.count, dtype=np.int32),
        "payoff": np.asarray(log.payoffs, dtype=np.float64),
    })}
    for table, columns in log.tables.items():
        frames[table] = pa.table({name: _arrow_column(values) for name, values in columns.items()})
    return frames




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

    A full disk does not lose it: the match goes to a fallback folder and a note says so."""
    from flows import events, games

    adapter = games.get(game) if isinstance(game, str) else game
    log = events.encode(log, adapter)  # as it is when the caller encoded it already
    match_id = new_match_id("j")
    started = time.perf_counter()
    with HandLog(db) as store:
        store.ensure_game(adapter)
        store.begin_match(match_id=match_id, game=adapter.name, bot=bot, config=config, seed=seed,
                          units=log.count, source="judge", options=options)
        store.write_chunk(match_id, 0, log, seconds=seconds)
        store.finish_match(match_id, seconds if seconds is not None else time.perf_counter() - started)
    return match_id
