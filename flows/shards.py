"""The hand log as append-only Parquet shards: any number of writers, and readers that never wait.

A write is one immutable Parquet file, `<log>/<table>/<key>~<stamp>.parquet`, written under a
hidden temporary name in the same folder, fsynced and renamed (atomic), by whoever has the rows
(a flow, a Dask worker, a judge). Nobody locks anything: a reader lists the folders and reads the
files through DuckDB views named like the raw tables of data/sql/*.sql, so every view and mart
of those files works unchanged.

- **Idempotence**: a chunk's shards are keyed by (match, chunk). Writing the key again adds a
  newer stamp; a reader takes the newest stamp of each key only, so a retried chunk replaces the
  old copy rather than adding to it, whatever the order the files are seen in.
- **Updates**: a table with a primary key (matches, sweeps, ...) takes, per key and column, the
  latest non-NULL value written (hidden column `_written`, ns). So finishing a match appends a
  row with the key and the new columns only. A row sets a column back to NULL by naming it in
  its hidden column `_cleared` (e.g. a failed config opened again: failure, finished_at).
- **Compaction** (`compact`) merges a table's files into `_c-<stamp>.parquet`, whose footer
  lists the files it covers. A reader drops every file a present compacted file covers, so it
  sees each row once while both exist; covered files are deleted only GRACE_S later, so a
  connection opened before the compaction still finds its files. One compaction at a time
  (an flock on `<log>/.compact.lock`).
- **A damaged file** (cut short, not Parquet) is skipped by readers and named in one line
  (`Resolved.damaged`); `check` reads every file fully.
"""

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from engine.core.errors import BadValue, Unavailable

SUFFIX = ".parquet"
COMPACT = "_c-"
WRITTEN = "_written"  # hidden: ns when a row of a keyed table was written (the latest wins)
CLEARED = "_cleared"  # hidden, in keyed tables: the columns a row sets back to NULL (a list of names)
KEY_COLUMN = "_key"  # hidden, in compacted files: the key of the shard a row came from
RAW_TABLE = "raw table"  # the comment on a raw table's view (duckdb_views().comment)
BIG_FILE = 64 << 20  # a compacted file this big is not merged again
GRACE_S = 600.0  # covered and superseded files stay this long for connections opened before
KEY = re.compile(r"^[A-Za-z0-9._=+-]+$")
MAGIC = b"PAR1"


class ShardWriteFailed(Unavailable):
    """A shard could not be written (full disk, read-only folder); nothing of it is visible.
    `reason`: what the disk said, in a user's words (no space left on device, ...)."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason or message


class ShardDamaged(Unavailable):
    """A shard file is not readable Parquet (one line naming it)."""


def stamp() -> str:
    """Sortable by time first; the pid and a tag keep two writers' stamps apart."""
    return f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def safe_key(*parts) -> str:
    """A shard key from parts such as (match_id, chunk). Characters outside KEY become '_', and then
    a hash of the parts keeps two keys that differ only there apart."""
    text = "=".join(str(part) for part in parts)
    clean = re.sub(r"[^A-Za-z0-9._=+-]", "_", text)
    return clean if clean == text else f"{clean}+{hashlib.sha256(text.encode()).hexdigest()[:10]}"


# -- the schema, from the SQL files ------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    name: str
    schema: pa.Schema
    key: tuple[str, ...]  # primary key columns; empty for append-only tables
    types: tuple[str, ...]  # DuckDB's name of each column's type

    @property
    def columns(self) -> list[str]:
        return self.schema.names


@dataclass(frozen=True)
class Schema:
    tables: dict[str, Table]
    views: tuple[str, ...]  # the other statements (views, macros) in file order


@cache
def schema_of_texts(texts: tuple[str, ...]) -> Schema:
    """The raw tables (with their columns after every ALTER) and the views of these SQL texts."""
    con = duckdb.connect()
    views = []
    for text in texts:
        for statement in con.extract_statements(text):
            if re.match(r"\s*(CREATE\s+(OR\s+REPLACE\s+)?(TEMP\w*\s+)?TABLE|ALTER|INSERT|UPDATE|DELETE)\b",
                        statement.query, re.IGNORECASE):
                con.execute(statement.query)
            else:  # views and macros: only readers need them (binding them all costs a writer ~0.1 s)
                views.append(statement.query)
    keys = {name: tuple(cols) for name, cols in con.execute(
        "SELECT table_name, constraint_column_names FROM duckdb_constraints() "
        "WHERE constraint_type = 'PRIMARY KEY'").fetchall()}
    tables = {}
    for (name,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY table_name").fetchall():
        arrow = con.sql(f'SELECT * FROM "{name}" LIMIT 0').to_arrow_table().schema
        types = tuple(r[0] for r in con.execute("SELECT data_type FROM duckdb_columns() WHERE table_name = ? "
                                                "ORDER BY column_index", [name]).fetchall())
        tables[name] = Table(name, arrow.remove_metadata(), keys.get(name, ()), types)
    con.close()
    return Schema(tables, tuple(views))


def schema_of(paths: Iterable[Path]) -> Schema:
    """The raw tables (with their columns after every ALTER) and the views of these SQL files."""
    return schema_of_texts(tuple(Path(p).read_text() for p in paths))


# -- writing -------------------------------------------------------------------------------------
class ShardLog:
    """Writes shards under `root` for the tables of `schema`."""

    def __init__(self, root: Path | str, schema: Schema):
        self.root = Path(root)
        self.schema = schema
        self._ready: set[str] = set()

    def table(self, name: str) -> Table:
        try:
            return self.schema.tables[name]
        except KeyError:
            raise KeyError(f"the hand log has no table {name!r}; is it created in data/sql/?") from None

    def _ensure(self, table: Table) -> Path:
        folder = self.root / table.name
        if table.name not in self._ready:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ShardWriteFailed(f"could not create {folder} ({disk_words(exc)})", disk_words(exc)) from None
            self._ready.add(table.name)
        return folder

    def write(self, table: str, frame: pa.Table, *, key: str | None = None) -> Path:
        """One shard with these rows. With `key`, it replaces the rows written before under that key.
        In a keyed table a frame may carry CLEARED (see `cleared`)."""
        spec = self.table(table)
        if key is not None and not KEY.match(key):
            raise BadValue(f"shard key {key!r} has characters other than letters, digits and ._=+-")
        frame = conform(spec, frame)
        if spec.key:
            frame = frame.append_column(WRITTEN, pa.array([time.time_ns()] * frame.num_rows, pa.int64()))
        folder = self._ensure(spec)
        name = f"{key or 'r' + uuid.uuid4().hex[:12]}~{stamp()}{SUFFIX}"
        return _write_file(folder, name, frame)  # older copies of the key: see _sweep

    def write_many(self, items: Iterable[tuple[str, pa.Table, str | None]]) -> list[Path]:
        return [self.write(table, frame, key=key) for table, frame, key in items]


def cleared(frame: pa.Table, columns: Iterable[str]) -> pa.Table:
    """`frame` with every row setting `columns` back to NULL (in a keyed table): an update that
    clears a value is an appended row like any other."""
    names = sorted(columns)
    return frame.append_column(CLEARED, pa.array([names] * frame.num_rows, pa.list_(pa.string())))


def conform(table: Table, frame: pa.Table) -> pa.Table:
    """The frame's columns cast to the table's types, in the table's order (missing ones stay out);
    a keyed table's CLEARED column, naming its own non-key columns, last."""
    if CLEARED in frame.column_names:
        names = {n for row in frame.column(CLEARED).to_pylist() for n in row or ()}
        wrong = sorted(names - set(table.columns) | names & set(table.key)) if table.key else sorted(names)
        if wrong or not table.key:
            raise KeyError(f"table {table.name!r} cannot set {wrong} back to NULL; accepted: its columns outside "
                           f"its primary key {list(table.key)}")
        clear = frame.column(CLEARED).cast(pa.list_(pa.string()))
        return conform(table, frame.drop_columns([CLEARED])).append_column(CLEARED, clear)
    unknown = [name for name in frame.column_names if name not in table.schema.names]
    if unknown:
        raise KeyError(f"table {table.name!r} has no column(s) {sorted(unknown)}; it has {table.columns}")
    fields = [f for f in table.schema if f.name in frame.column_names]
    columns = []
    for f in fields:
        try:
            columns.append(frame.column(f.name).cast(f.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise BadValue(f"table {table.name!r} column {f.name!r} ({f.type}) cannot hold these values: "
                           f"{str(exc).splitlines()[0]}") from None
    return pa.table(columns, schema=pa.schema(fields))


def _write_file(folder: Path, name: str, frame: pa.Table, metadata: dict | None = None) -> Path:
    """Write `folder/name` whole or not at all (hidden temporary name, fsync, rename)."""
    temporary = folder / f".tmp-{uuid.uuid4().hex}{SUFFIX}"
    if metadata:
        frame = frame.replace_schema_metadata({k.encode(): v.encode() for k, v in metadata.items()})
    try:
        with open(temporary, "wb") as sink:
            pq.write_table(frame, sink, write_page_checksum=True)  # `check` finds a page damaged since
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(temporary, folder / name)
    except BaseException as exc:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        if isinstance(exc, OSError):
            reason = disk_words(exc)
            raise ShardWriteFailed(f"could not write {folder / name} ({reason}); nothing of it was stored",
                                   reason) from None
        raise
    return folder / name


def disk_words(exc: OSError) -> str:
    words = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
             errno.EROFS: "read-only file system", errno.EIO: "input/output error", errno.EACCES: "permission denied"}
    text = str(exc).lower()
    return words.get(exc.errno) or next((w for w in words.values() if w in text), exc.strerror or str(exc))


# -- reading -------------------------------------------------------------------------------------
@dataclass
class Resolved:
    """What a reader reads of one table: files, and keys to drop from compacted files."""

    files: list[Path] = field(default_factory=list)
    dropped: dict[str, set[str]] = field(default_factory=dict)  # compacted file name -> superseded keys
    damaged: list[str] = field(default_factory=list)  # one line per file skipped


def _split(name: str) -> tuple[str, str]:
    key, _, rest = name[: -len(SUFFIX)].rpartition("~")
    return key, rest


def covers_of(path: Path) -> list[str]:
    meta = pq.read_metadata(path).metadata or {}
    return json.loads(meta.get(b"cardlab.covers", b"[]"))


def _whole(path: Path) -> str:
    """'' when the file ends like Parquet, else what is wrong (checks the ends only: cheap)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as source:
            head = source.read(4)
            source.seek(max(0, size - 4))
            tail = source.read(4)
    except FileNotFoundError:
        return "gone"
    if size < 12 or head != MAGIC or tail != MAGIC:
        return f"not a whole Parquet file ({size} bytes)"
    return ""


_whole_seen: set[tuple[str, int, int]] = set()  # files found whole (they never change once renamed in)


def _checked(path: Path) -> str:
    try:
        st = path.stat()
    except FileNotFoundError:
        return "gone"
    mark = (str(path), st.st_size, st.st_mtime_ns)
    if mark in _whole_seen:
        return ""
    problem = _whole(path)
    if not problem:
        try:  # the footer too (~0.1 ms a file, once per file and process): DuckDB's own error names no file
            pq.read_metadata(path)
        except (OSError, pa.ArrowException) as exc:
            problem = f"its footer cannot be read ({str(exc).splitlines()[0]})"
    if not problem:
        _whole_seen.add(mark)
    return problem


def resolve(folders: Path | list[Path]) -> Resolved:
    """The files a reader reads now: the newest copy of each key, no file a compacted one covers.
    Several folders (a log and its fallback folders) are read as one."""
    out = Resolved()
    where: dict[str, Path] = {}
    for folder in [folders] if isinstance(folders, Path) else folders:
        try:
            found = os.listdir(folder)
        except FileNotFoundError:
            continue
        for name in found:
            if name.endswith(SUFFIX) and not name.startswith("."):
                where[name] = folder
    compacted, loose = [], []
    for name in sorted(where):
        problem = _checked(where[name] / name)
        if problem == "gone":
            continue
        if problem:
            out.damaged.append(f"{where[name] / name}: {problem}; skipped")
            continue
        (compacted if name.startswith(COMPACT) else loose).append(name)
    covered: dict[str, set[str]] = {}
    for name in compacted:
        try:
            covered[name] = set(covers_of(where[name] / name))
        except (OSError, pa.ArrowInvalid, ValueError) as exc:
            out.damaged.append(f"{where[name] / name}: {str(exc).splitlines()[0]}; skipped")
    every_cover = set().union(*covered.values()) if covered else set()
    newest: dict[str, str] = {}  # key -> newest stamp, loose or inside a compacted file
    for name in loose + [n for names in covered.values() for n in names if not n.startswith(COMPACT)]:
        key, when = _split(name)
        newest[key] = max(newest.get(key, ""), when)
    for name in covered:
        if name in every_cover:  # an older compacted file a newer one covers
            continue
        out.files.append(where[name] / name)
        held: dict[str, str] = {}  # the copy of each key whose rows it holds: the newest it covers
        for key, when in (_split(n) for n in covered[name] if not n.startswith(COMPACT)):
            held[key] = max(held.get(key, ""), when)
        stale = {key for key, when in held.items() if newest[key] > when}
        if stale:
            out.dropped[str(where[name] / name)] = stale
    for name in loose:
        key, when = _split(name)
        if name not in every_cover and newest[key] == when:
            out.files.append(where[name] / name)
    return out


def _sql_list(items: Iterable[str]) -> str:
    return "[" + ", ".join("'" + str(i).replace("'", "''") + "'" for i in items) + "]"


def _empty(table: Table, extra: tuple[tuple[str, str], ...] = ()) -> str:
    """No rows, every column with its type: what a table's files are read together with, so a table
    with no file, or files from before a column was added, still has every column."""
    columns = [*zip(table.columns, table.types, strict=True), *extra]
    return "SELECT " + ", ".join(f'CAST(NULL AS {t}) AS "{c}"' for c, t in columns) + " LIMIT 0"


def _rows(table: Table, resolved: Resolved, extra: tuple[tuple[str, str], ...] = ()) -> str:
    """Every row of the resolved files (with the hidden columns) and every column of the table."""
    hidden = ((WRITTEN, "BIGINT"), (CLEARED, "VARCHAR[]")) if table.key else ()
    empty = _empty(table, hidden + extra)
    if not resolved.files:
        return empty
    source = f"read_parquet({_sql_list(resolved.files)}, union_by_name = true, filename = true)"
    where = " OR ".join(f"(filename = '{name}' AND {KEY_COLUMN} IN {_sql_list(keys)})"
                        for name, keys in resolved.dropped.items())
    return f"(SELECT * FROM {source}{f' WHERE NOT ({where})' if where else ''}) UNION ALL BY NAME ({empty})"


def table_sql(table: Table, resolved: Resolved) -> str:
    """The SELECT a raw table's view runs over its files."""
    cols = ", ".join(f'"{c}"' for c in table.columns)
    rows = _rows(table, resolved)
    if not table.key:
        return f"SELECT {cols} FROM ({rows})"
    keys = ", ".join(f'"{c}"' for c in table.key)
    merged = ", ".join(f'"{c}"' if c in table.key else
                       f'arg_max_null("{c}", {WRITTEN}) FILTER (WHERE "{c}" IS NOT NULL OR '
                       f"list_contains({CLEARED}, '{c}')) AS \"{c}\"" for c in table.columns)
    return f"SELECT {merged} FROM ({rows}) GROUP BY {keys}"


def _as_roots(roots: Path | str | list) -> list[Path]:
    return [Path(r).absolute() for r in ([roots] if isinstance(roots, (str, Path)) else roots)]


_view_sql: dict[tuple[int, str], str] = {}  # (connection, table) -> the SELECT its view runs now


def refresh(con: duckdb.DuckDBPyConnection, roots: Path | str | list, schema: Schema) -> list[str]:
    """Point the raw tables' views at the files there are now (a view whose files did not change is
    left as it is); one line per damaged file skipped."""
    roots = _as_roots(roots)
    damaged = []
    for table in schema.tables.values():
        resolved = resolve([root / table.name for root in roots])
        damaged += resolved.damaged
        sql = table_sql(table, resolved)
        if _view_sql.get((id(con), table.name)) != sql:
            con.execute(f'CREATE OR REPLACE VIEW "{table.name}" AS {sql}')
            con.execute(f"COMMENT ON VIEW \"{table.name}\" IS '{RAW_TABLE}'")  # tells it from the derived views
            _view_sql[(id(con), table.name)] = sql
    return damaged


def reader(roots: Path | str | list, schema: Schema, *, config: dict | None = None,
           sandbox: dict | None = None) -> tuple[duckdb.DuckDBPyConnection, list[str]]:
    """An in-memory DuckDB connection whose raw tables are views over the shards as they are now
    (of the first root and of the others, read as one), with the schema's views on top; and one
    line per damaged file skipped. `sandbox`: DuckDB settings applied once the views exist (e.g.
    enable_external_access=false); the connection may then read the roots' files and no other."""
    roots = _as_roots(roots)
    con = duckdb.connect(config=config or {})
    for key in [k for k in _view_sql if k[0] == id(con)]:  # another connection had this id before
        del _view_sql[key]
    if sandbox:
        con.execute(f"SET allowed_directories = {_sql_list([str(r) + os.sep for r in roots])}")
    damaged = refresh(con, roots, schema)
    for statement in schema.views:
        con.execute(statement)
    for setting, value in sorted((sandbox or {}).items(), key=lambda kv: kv[0] == "lock_configuration"):
        con.execute(f"SET {setting} = {str(value).lower() if isinstance(value, bool) else repr(value)}")
    return con, damaged


# -- compaction ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Compacted:
    table: str
    merged: int  # files merged into one
    rows: int
    deleted: int  # covered files old enough to delete


def compact(root: Path | str, schema: Schema, *, min_files: int = 2, grace: float | None = None) -> list[Compacted]:
    """Merge each table's files into one (tables with fewer than `min_files` are left), and delete
    files covered or superseded more than `grace` seconds ago. Returns what was done per table."""
    root = Path(root)
    grace = GRACE_S if grace is None else grace
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".compact.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Unavailable(f"another compaction of {root} is running; try again when it ends") from None
        return [done for table in schema.tables.values()
                if (done := _compact_table(root, table, min_files, grace)) is not None]


def _compact_table(root: Path, table: Table, min_files: int, grace: float) -> Compacted | None:
    folder = root / table.name
    if not folder.is_dir():
        return None
    for _attempt in range(5):  # a writer replacing a key meanwhile may delete a file we listed
        resolved = resolve(folder)
        # Big compacted files stay as they are: merging them again would rewrite the log each time.
        merge = [p for p in resolved.files if not p.name.startswith(COMPACT) or p.stat().st_size < BIG_FILE]
        if len(merge) < min_files:
            return Compacted(table.name, 0, 0, _sweep(folder, grace))
        covers = []
        for path in merge:
            covers.append(path.name)
            if path.name.startswith(COMPACT):
                covers += covers_of(path)
        part = Resolved(files=merge, dropped={k: v for k, v in resolved.dropped.items() if Path(k) in merge})
        cols = ", ".join(f'"{c}"' for c in table.columns + ([WRITTEN, CLEARED] if table.key else []))
        key = f"coalesce({KEY_COLUMN}, split_part(parse_filename(filename), '~', 1)) AS {KEY_COLUMN}"
        con = duckdb.connect()
        try:
            frame = con.sql(f"SELECT {cols}, {key} FROM ({_rows(table, part, ((KEY_COLUMN, 'VARCHAR'),))})"
                            ).to_arrow_table()
        except duckdb.IOException:
            continue
        finally:
            con.close()
        _write_file(folder, f"{COMPACT}{stamp()}{SUFFIX}", frame, {"cardlab.covers": json.dumps(sorted(set(covers)))})
        return Compacted(table.name, len(merge), frame.num_rows, _sweep(folder, grace))
    raise Unavailable(f"{folder} kept changing while it was compacted; try again")


def _sweep(folder: Path, grace: float) -> int:
    """Delete files no reader resolves any more (covered or superseded) `grace` seconds after they
    stopped being read, and temporary files of writers that died mid-write."""
    now = time.time()
    live = {p.name for p in resolve(folder).files}
    names = [n for n in os.listdir(folder) if n.endswith(SUFFIX)]
    died: dict[str, float] = {}  # dead file -> when a compacted file or a newer copy replaced it
    copies: dict[str, list[str]] = {}
    for name in names:
        path = folder / name
        try:
            if name.startswith(COMPACT) and not _whole(path):
                for covered in covers_of(path):
                    died[covered] = min(died.get(covered, now), path.stat().st_mtime)
            elif not name.startswith((".", "_")):
                copies.setdefault(_split(name)[0], []).append(name)
        except (OSError, pa.ArrowInvalid, ValueError):
            continue
    for versions in copies.values():
        versions.sort(key=lambda n: _split(n)[1])
        for older, newer in zip(versions, versions[1:], strict=False):
            with contextlib.suppress(OSError):
                died[older] = min(died.get(older, now), (folder / newer).stat().st_mtime)
    deleted = 0
    for name in names:
        path = folder / name
        with contextlib.suppress(OSError):
            if name.startswith(".tmp-"):  # a live writer renames within seconds
                if now - path.stat().st_mtime >= max(grace, 60.0):
                    path.unlink()
            elif name not in live and name in died and now - died[name] >= grace:
                path.unlink()
                deleted += 1
    return deleted


def check(root: Path | str, schema: Schema) -> list[str]:
    """Read every file of every table fully, page checksums verified; one line per file that cannot be read."""
    problems = []
    for table in schema.tables.values():
        folder = Path(root) / table.name
        for name in sorted(os.listdir(folder)) if folder.is_dir() else []:
            if not name.endswith(SUFFIX) or name.startswith("."):
                continue
            try:
                pq.read_table(folder / name, page_checksum_verification=True)
            except (OSError, pa.ArrowException) as exc:
                problems.append(f"{folder / name}: {str(exc).splitlines()[0]}")
    return problems
