"""Whether a process still runs, for anything that keeps a pid on disk (pidfiles, waiting markers)."""

import os
from pathlib import Path


def stat_field(pid: int, index: int) -> str | None:
    """Field `index` of /proc/PID/stat after the command name (0: state, 19: start time in ticks);
    None when the process or the field is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[index]
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie does not: it will never act on anything again)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process (perhaps one that reused the pid)
        return True
    return stat_field(pid, 0) not in ("Z", None)
