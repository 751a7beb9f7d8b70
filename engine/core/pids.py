"""Whether a process still runs, for anything that keeps a pid on disk (pidfiles, waiting markers)."""

import os
from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (which may hold blanks and parentheses):
    0 state, 11/12 user/system CPU ticks, 19 start time in ticks; None when the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def stat_field(pid: int, index: int) -> str | None:
    """Field `index` of stat_fields; None when the process or the field is gone."""
    fields = stat_fields(pid)
    return fields[index] if fields is not None and index < len(fields) else None


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie does not: it will never act on anything again)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process (perhaps one that reused the pid)
        return True
    return stat_field(pid, 0) not in ("Z", None)
