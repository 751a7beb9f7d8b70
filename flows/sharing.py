"""Taking turns at the hand log file between processes.

DuckDB 2.0 locks a database file per process: while one process has it open read-write,
every other open fails at once (IOException "Could not set lock"), read-only ones too;
read-only processes may share it. So nobody keeps the file longer than needed, and a
process that wants it and finds it taken leaves a marker in `<db>.waiting/` and retries
with a bounded backoff. The writer (flows.store.HandLog) gives the file up at its next
write when it sees a marker, and a waiter lets earlier markers go first, so neither a long
sweep nor a stream of readers keeps anyone out for long.
"""

import errno
import os
import re
import time
import uuid
from pathlib import Path

import duckdb

from engine.core.errors import BadValue, Unavailable
from engine.core.pids import alive

# Seconds a writer tries before it spools a write instead, and a reader before it gives up.
DEFAULT_WRITE_WAIT = 10.0
DEFAULT_READ_WAIT = 10.0
# A waiter defers to earlier markers this long at most (a stuck process must not block it).
DEFER_AT_MOST = 2.0
STALE_MARKER_S = 600.0


class HandLogBusy(Unavailable):
    """The hand log stayed locked by another process for the whole wait (one-line message)."""


class HandLogDamaged(Unavailable):
    """The hand log file is damaged (cut short, overwritten, a checksum that does not match)."""


# How DuckDB says a file is damaged (lower case), and what that means in a user's words.
WAL_DAMAGED = "its write-ahead log (.wal) cannot be replayed"
DAMAGE_SIGNS = {"replaying wal": WAL_DAMAGED,  # first: its message also speaks of a checksum
                "not a valid duckdb database": "not a DuckDB database file",
                "could not read enough bytes": "cut short: it ends before its own data does",
                "corrupt database file": "a block's checksum does not match its data",
                "checksum": "a block's checksum does not match its data"}
last_opened: Path | None = None  # the hand log this process opened last (for damage found by a later query)


def damage(exc: BaseException) -> str | None:
    """What is wrong with the file when `exc` is DuckDB finding it damaged, else None."""
    if not isinstance(exc, duckdb.Error) or is_lock_error(exc):
        return None
    text = str(exc).lower()
    return next((what for sign, what in DAMAGE_SIGNS.items() if sign in text), None)


def damaged(db: Path | str, what: str) -> HandLogDamaged:
    """One line: the file, what is wrong, what to do."""
    if what == WAL_DAMAGED:
        return HandLogDamaged(f"the hand log {db} is damaged ({what}); move {Path(db).name}.wal aside (the hand log "
                              f"then opens as of its last checkpoint, without the writes since) or restore both "
                              f"from a backup, and run the command again")
    return HandLogDamaged(f"the hand log {db} is damaged ({what}); move it aside (or restore it from a backup) and "
                          f"run the command again: a new hand log is started in its place, and writes waiting in "
                          f"its spool ({Path(db).name}.spool) are kept for it")


class HandLogUnwritable(HandLogBusy):
    """The hand log's disk refused a write (full, read-only, failing): its writes go to the spool as
    while it is busy, and it is not tried again by the same writer."""


def _seconds(variable: str, default: float) -> float:
    text = os.environ.get(variable)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise BadValue(f"{variable}={text!r} is not a number of seconds; accepted: 0 to 3600") from None
    if not 0 <= value <= 3600:
        raise BadValue(f"{variable}={text!r} is out of range; accepted: 0 to 3600 seconds")
    return value


def write_wait() -> float:
    return _seconds("CARDLAB_LOCK_WAIT", DEFAULT_WRITE_WAIT)


def read_wait() -> float:
    return _seconds("CARDLAB_READ_WAIT", DEFAULT_READ_WAIT)


def is_lock_error(exc: BaseException) -> bool:
    return isinstance(exc, duckdb.IOException) and "Could not set lock" in str(exc)


# What the disk says when it cannot take a write, as OSError numbers and inside DuckDB's messages.
DISK_ERRNOS = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
               errno.EFBIG: "file too large", errno.EROFS: "read-only file system", errno.EIO: "input/output error"}


def disk_problem(exc: BaseException) -> str | None:
    """'no space left on device' (and the like) when `exc` is the disk refusing a write, else None."""
    if isinstance(exc, OSError) and exc.errno in DISK_ERRNOS:
        return DISK_ERRNOS[exc.errno]
    if isinstance(exc, (duckdb.Error, OSError)):  # pyarrow's OSError has the number in its text only
        text = str(exc).lower()
        return next((what for what in DISK_ERRNOS.values() if what in text), None)
    return None


def holder(exc: BaseException | None) -> str:
    """'PID n' from DuckDB's lock message, or 'another process'."""
    found = re.search(r"\(PID (\d+)\)", str(exc or ""))
    return f"PID {found.group(1)}" if found else "another process"


def waiting_folder(db: Path) -> Path:
    return db.with_name(db.name + ".waiting")


def _live_markers(db: Path) -> list[str]:
    try:
        names = os.listdir(waiting_folder(db))
    except FileNotFoundError:
        return []
    live, now = [], time.time()
    for name in names:
        parts = name.split("-")
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        if alive(int(parts[1])) and now - int(parts[0]) / 1e9 < STALE_MARKER_S:
            live.append(name)
    return sorted(live)


def someone_waiting(db: Path) -> bool:
    """True when another connection waits for the file (checked by the writer between writes)."""
    return bool(_live_markers(db))


class _Marker:
    """This waiter's place in line (a file named by time, pid and a random tag)."""

    def __init__(self, db: Path):
        self.folder = waiting_folder(db)
        self.name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def __enter__(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / self.name).touch()
        return self

    def __exit__(self, *exc):
        (self.folder / self.name).unlink(missing_ok=True)

    def others_first(self, db: Path) -> bool:
        return any(name < self.name for name in _live_markers(db))


def _try_connect(db: Path, read_only: bool, config: dict | None):
    """The connection, or the lock error when another process holds the file (HandLogDamaged when it is damaged)."""
    global last_opened
    last_opened = db
    try:
        con = duckdb.connect(str(db), read_only=read_only, config=config or {})
        short = "" if db in _sized else _cut_short(con, db)
    except duckdb.Error as exc:
        if is_lock_error(exc):
            return exc
        what = damage(exc)
        if what is not None:
            raise damaged(db, what) from None
        raise
    if short:
        con.close()
        raise damaged(db, short)
    _sized.add(db)
    return con


HEADERS = 3 * 4096  # DuckDB's main header and its two database headers, before the first block
_sized: set[Path] = set()  # files this process found whole: a writer reopening its file skips the check (~2 ms)


def _cut_short(con: duckdb.DuckDBPyConnection, db: Path) -> str:
    """Why the file is too short for the blocks in use its header counts, or ''. DuckDB reads a block
    only when a query needs it, so without this a file cut in its data opens, and lists its tables.
    (Used blocks only: a checkpoint may cut free blocks off the end while the header still counts them.)"""
    cursor = con.execute("PRAGMA database_size")
    row = dict(zip([d[0] for d in cursor.description], cursor.fetchone(), strict=True))
    needed = HEADERS + int(row["used_blocks"]) * int(row["block_size"])
    size = os.path.getsize(db)
    if size < needed:
        return f"cut short: {size:,} bytes, fewer than the {needed:,} its blocks in use take"
    return ""


def connect(db: Path, *, read_only: bool, wait: float, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """Open the file, waiting up to `wait` seconds for other processes to let go of it.

    Raises HandLogBusy naming the holder when the wait runs out; any other error at once."""
    db = Path(db)
    last: BaseException | None = None
    if not someone_waiting(db):  # the common case: nobody waits, so no marker is written at all
        last = _try_connect(db, read_only, config)
        if not isinstance(last, BaseException):
            return last
    started = time.monotonic()
    pause = 0.01
    with _Marker(db) as marker:
        while True:
            waited = time.monotonic() - started
            if waited >= DEFER_AT_MOST or not marker.others_first(db):
                last = _try_connect(db, read_only, config)
                if not isinstance(last, BaseException):
                    return last
            if waited >= wait:
                raise HandLogBusy(_busy_text(db, last, wait))
            time.sleep(min(pause, max(0.0, wait - waited)))
            pause = min(pause * 2, 0.2)


def _busy_text(db: Path, exc: BaseException, wait: float) -> str:
    return f"the hand log {db} is held by {holder(exc)} (still after {wait:g} s)"
