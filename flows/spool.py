"""Writes the hand log could not take, kept on disk until it can (`<db>.spool/`).

One entry is a folder: `ops.json` (what to do, in order: record a match, store chunks,
finish a match) and one Arrow IPC file per frame of its chunks. An entry is written under
a temporary name and renamed whole, so a reader never sees half of one; it is removed only
after the hand log committed it, and storing it twice is harmless (chunks are replaced
whole, a match is recorded once).
"""

import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

REJECTED = "rejected"


def spool_folder(db: Path) -> Path:
    return Path(db).with_name(Path(db).name + ".spool")


@dataclass(frozen=True)
class Entry:
    path: Path
    ops: list[dict]

    def frame(self, name: str) -> pa.Table:
        with pa.memory_map(str(self.path / f"{name}.arrow")) as source:
            return pa.ipc.open_file(source).read_all()


def write(db: Path, *, ops: list[dict], frames: dict[str, pa.Table]) -> Path:
    """Keep one entry; its frames are named as the ops refer to them."""
    folder = spool_folder(db)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    staging = folder / f".tmp-{name}"
    staging.mkdir()
    try:
        for key, frame in frames.items():
            with pa.OSFile(str(staging / f"{key}.arrow"), "wb") as sink, pa.ipc.new_file(sink, frame.schema) as out:
                out.write_table(frame)
        (staging / "ops.json").write_text(json.dumps(ops))
        os.replace(staging, folder / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return folder / name


def entries(db: Path) -> list[Entry]:
    """Whole entries, oldest first."""
    folder = spool_folder(db)
    try:
        names = sorted(n for n in os.listdir(folder) if not n.startswith(".") and n != REJECTED)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        try:
            found.append(Entry(folder / name, json.loads((folder / name / "ops.json").read_text())))
        except (OSError, ValueError):
            continue  # removed meanwhile by the process that stored it
    return found


def pending(db: Path) -> int:
    folder = spool_folder(db)
    try:
        return sum(1 for n in os.listdir(folder) if not n.startswith(".") and n != REJECTED)
    except FileNotFoundError:
        return 0


def remove(entry: Entry) -> None:
    shutil.rmtree(entry.path, ignore_errors=True)


def reject(entry: Entry, error: str) -> Path:
    """Set aside an entry the hand log refuses (e.g. a table it does not have), with the reason."""
    target = entry.path.parent / REJECTED / entry.path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(entry.path, target)
    (target / "error.txt").write_text(error + "\n")
    return target
