"""Files built once and then shared by every thread and process that needs them (lookup
tables, prior banks). Builders may race: sweep threads, Dask workers and contestant programs
all start cold at the same moment on a fresh clone.

- A builder holds an exclusive lock on `<file>.lock` while it builds, so the others wait and
  then load its result instead of building again (flock: separate opens conflict even
  between threads of one process).
- The file is written under a private temporary name and renamed into place, so a reader
  never sees half a file, and nothing depends on who finishes first.
- A folder that cannot be written (a read-only checkout) still works: the data is built and
  used without being kept.
"""

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import numpy as np

T = TypeVar("T")


def publish_npz(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    """Write `arrays` to `path` atomically (a unique temporary file, then a rename)."""
    return publish(path, lambda out: np.savez(out, **arrays))


def publish(path: Path, write) -> Path:
    """Call `write(binary file)` on a unique temporary file beside `path`, then rename it to `path`: a
    reader sees the whole file or none of it, and a failed write leaves nothing behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[bool]:
    """Hold `<path>.lock` exclusively; yields False when the folder cannot be written."""
    lock_path = Path(path).with_name(Path(path).name + ".lock")
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def load_or_build(path: Path, *, load: Callable[[Path], T], build: Callable[[], dict[str, np.ndarray]],
                  convert: Callable[[dict[str, np.ndarray]], T]) -> T:
    """`load(path)` if the file is there, else build it once (whoever holds the lock) and keep it.

    `load` may raise OSError/KeyError/ValueError for a missing or unreadable file; it is then
    rebuilt. `convert` turns freshly built arrays into what `load` returns."""
    path = Path(path)
    with contextlib.suppress(OSError, KeyError, ValueError):
        return load(path)
    with build_lock(path) as writable:
        if writable:
            with contextlib.suppress(OSError, KeyError, ValueError):
                return load(path)  # another builder finished while we waited
        arrays = build()
        if writable:
            with contextlib.suppress(OSError):
                publish_npz(path, arrays)
        return convert(arrays)
