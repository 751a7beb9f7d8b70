"""Writes the hand log could not take, kept on disk until it can (`<db>.spool/`).

One entry is a folder: `ops.json` (what to do, in order: record a match, store chunks,
finish a match) and one Arrow IPC file per frame of its chunks. An entry is written under
a temporary name and renamed whole, so a reader never sees half of one; it is removed only
after the hand log committed it, and storing it twice is harmless (chunks are replaced
whole, a match is recorded once).

When the spool's own disk cannot take an entry (the hand log's disk is full), it goes to a
fallback folder on another file system (~/.cache/cardlab/spool/, then the temporary folder),
named after the hand log; every reader of the spool looks there too. When none can, SpoolFull.
"""

import hashlib
import json
import os
import shutil
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from engine.core.errors import Unavailable
from flows.sharing import disk_problem

REJECTED = "rejected"


class SpoolFull(Unavailable):
    """No spool folder could keep a write (one line naming each folder and why)."""


def spool_folder(db: Path) -> Path:
    return Path(db).with_name(Path(db).name + ".spool")


def fallback_folders(db: Path) -> list[Path]:
    """Where entries go when the spool folder's disk cannot take them: one per hand log (named by
    its absolute path) under each folder of CARDLAB_SPOOL_FALLBACK (separated by ':'), by default
    ~/.cache/cardlab/spool and <temporary folder>/cardlab-spool."""
    key = f"{Path(db).name}-{hashlib.sha256(str(Path(db).absolute()).encode()).hexdigest()[:12]}"
    given = os.environ.get("CARDLAB_SPOOL_FALLBACK")
    if given is not None:
        return [Path(folder) / key for folder in given.split(os.pathsep) if folder]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return [cache / "cardlab" / "spool" / key, Path(tempfile.gettempdir()) / "cardlab-spool" / key]


def folders(db: Path) -> list[Path]:
    """Every folder that may hold entries of `db`, the spool folder first."""
    return [spool_folder(db), *fallback_folders(db)]


@dataclass(frozen=True)
class Entry:
    path: Path
    ops: list[dict]

    def frame(self, name: str) -> pa.Table:
        with pa.memory_map(str(self.path / f"{name}.arrow")) as source:
            return pa.ipc.open_file(source).read_all()


def write(db: Path, *, ops: list[dict], frames: dict[str, pa.Table]) -> Path:
    """Keep one entry (in the first folder that can take it); its frames are named as the ops refer to them."""
    failed = []
    for folder in folders(db):
        try:
            return _write_in(folder, ops, frames)
        except OSError as exc:
            failed.append(f"{folder}: {disk_problem(exc) or exc.strerror or exc}")
    raise SpoolFull(f"no spool folder could keep the write ({'; '.join(failed)})")


def _write_in(folder: Path, ops: list[dict], frames: dict[str, pa.Table]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    staging = folder / f".tmp-{name}"
    try:
        staging.mkdir()
        for key, frame in frames.items():
            with pa.OSFile(str(staging / f"{key}.arrow"), "wb") as sink, pa.ipc.new_file(sink, frame.schema) as out:
                out.write_table(frame)
        (staging / "ops.json").write_text(json.dumps(ops))
        os.replace(staging, folder / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return folder / name


def _names(folder: Path) -> list[str]:
    try:
        return [n for n in os.listdir(folder) if not n.startswith(".") and n != REJECTED]
    except (FileNotFoundError, NotADirectoryError):
        return []


def entries(db: Path) -> list[Entry]:
    """Whole entries of every folder, oldest first (names start with the time they were written)."""
    found = []
    for name, where in sorted((name, folder) for folder in folders(db) for name in _names(folder)):
        try:
            found.append(Entry(where / name, json.loads((where / name / "ops.json").read_text())))
        except (OSError, ValueError):
            continue  # removed meanwhile by the process that stored it
    return found


def pending(db: Path) -> int:
    return sum(len(_names(folder)) for folder in folders(db))


def rejected(db: Path) -> int:
    """Entries set aside with their reason, in every folder."""
    return sum(len(os.listdir(folder / REJECTED)) for folder in folders(db) if (folder / REJECTED).is_dir())


def remove(entry: Entry) -> None:
    shutil.rmtree(entry.path, ignore_errors=True)


def reject(entry: Entry, error: str) -> Path:
    """Set aside an entry the hand log refuses (e.g. a table it does not have), with the reason."""
    target = entry.path.parent / REJECTED / entry.path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(entry.path, target)
    (target / "error.txt").write_text(error + "\n")
    return target
