"""Whether a process still runs, for anything that keeps a pid on disk (pidfiles, waiting markers);
the processes of a tree, for limits over a contestant's whole tree (engine.core.process)."""

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



class Tree:
    """A process and all its descendants, found again at each call by walking /proc. Parents are
    cached by pid (a pid's parent is read once, while the pid lives), so a call costs a listing
    of /proc and one read per member, not a read per process of the machine."""

    def __init__(self, root: int):
        self.root = root
        self._parent: dict[int, int] = {}

    def members(self) -> list[int]:
        """The root's descendants (not the root itself), by their pids in this PID namespace."""
        live = {int(name) for name in os.listdir("/proc") if name.isdigit()}
        for gone in self._parent.keys() - live:
            del self._parent[gone]
        for new in live - self._parent.keys():
            ppid = stat_field(new, 1)
            if ppid is not None:
                self._parent[new] = int(ppid)
        children: dict[int, list[int]] = {}
        for pid, ppid in self._parent.items():
            children.setdefault(ppid, []).append(pid)
        found, frontier = [], [self.root]
        while frontier:
            frontier = [child for pid in frontier for child in children.get(pid, ())]
            found.extend(frontier)
        return found

    @staticmethod
    def memory_kb(pids: list[int]) -> int:
        """Resident KB of `pids` now; a lone process: the larger of its resident size and its peak
        (VmHWM: a spike between two polls counts). Several: the sum of their proportional sizes
        (Pss), which counts each page they share (a fork's copy-on-write pages) once in all."""
        if len(pids) == 1:
            rows = _rows(f"/proc/{pids[0]}/status", (b"VmHWM:", b"VmRSS:"))
            return max(rows.values(), default=0)
        return sum(_rows(f"/proc/{pid}/smaps_rollup", (b"Pss:",)).get(b"Pss:", 0) for pid in pids)


def _rows(path: str, keys: tuple[bytes, ...]) -> dict[bytes, int]:
    """The KB figures of these rows of a /proc file; {} when the process is gone."""
    found = {}
    try:
        with open(path, "rb") as f:
            for row in f:
                key = row.split(None, 1)[0] if row.strip() else b""
                if key in keys:
                    found[key] = int(row.split()[1])
                    if len(found) == len(keys):
                        break
    except (OSError, ValueError, IndexError):
        pass  # gone between the listing and the read
    return found
