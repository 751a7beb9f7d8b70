"""Control groups holding a contestant's whole process tree, where the machine lets the judge make them.

A group is made inside the judge's own group of each hierarchy (never elsewhere: the limits of
the groups above still hold), named cardlab-JUDGEPID-N, and removed when the program's tree is
gone. The program joins it before exec, through a descriptor the judge opened on the group's
cgroup.procs (so it works in the program's read-only mount namespace too); its children are
born in it.

- memory: cgroup v2 only (memory.max, no swap, the whole group killed at once on OOM), when the
  judge's own v2 group can delegate the memory controller. cgroup v1 memory is not used: its
  OOM killer takes one process, not the tree.
- processes: pids.max, in cgroup v2, or in the v1 pids hierarchy. It counts tasks (threads
  too): past it, fork and thread creation fail (EAGAIN), and the judge stops the program.

Where a controller is missing or cannot be written, the caller falls back to polling the tree
through /proc (engine.core.pids.Tree), and says so.
"""

import itertools
import os

from engine.core.pids import alive

CGROUP = "cgroup"  # the kernel enforces the limit over the whole tree
POLLED = "polled tree"  # the judge sums the tree from /proc every 50 ms and kills it when over
_PREFIX = "cardlab-"
_numbers = itertools.count(1)


def _hierarchies() -> dict[str, str]:
    """'v2', or a v1 controller name -> the folder of the judge's own group in that hierarchy."""
    try:
        with open("/proc/self/cgroup") as f:
            own = {}
            for line in f:
                _, names, path = line.rstrip("\n").split(":", 2)
                for name in names.split(",") if names else ["v2"]:
                    own[name] = path
        with open("/proc/self/mountinfo") as f:
            rows = [line.split() for line in f]
    except OSError:
        return {}
    found = {}
    for row in rows:
        dash = row.index("-")
        fstype, root, point, options = row[dash + 1], row[3], row[4], row[dash + 3].split(",")
        names = ["v2"] if fstype == "cgroup2" else [o for o in options if o in ("pids", "memory")]
        for name in names if fstype in ("cgroup", "cgroup2") else ():
            path = own.get(name)
            if path is not None and (root == "/" or path == root or path.startswith(root + "/")):
                rel = os.path.relpath(path, root)
                found.setdefault(name, point if rel == "." else os.path.join(point, rel))
    return found


def _write(folder: str, name: str, value: str) -> bool:
    try:
        with open(os.path.join(folder, name), "w") as f:
            f.write(value)
        return True
    except OSError:
        return False


def _read_counts(path: str) -> dict[str, int]:
    """A 'key value' file (memory.events, pids.events): {} when it cannot be read."""
    try:
        with open(path) as f:
            return {k: int(v) for k, v in (line.split() for line in f if len(line.split()) == 2)}
    except (OSError, ValueError):
        return {}


def _remove_stale(parent: str) -> None:
    """Groups left by judges that were killed (empty, since their programs died with them)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if name.startswith(_PREFIX) and name[len(_PREFIX):].split("-")[0].isdigit():
            if not alive(int(name[len(_PREFIX):].split("-")[0])):
                try:
                    os.rmdir(os.path.join(parent, name))
                except OSError:
                    pass


def _make(parent: str, writes: list[tuple[str, str]], optional: tuple[str, ...] = ()) -> str | None:
    """A new group under `parent` with these files written; None (and nothing left) if any failed."""
    _remove_stale(parent)
    folder = os.path.join(parent, f"{_PREFIX}{os.getpid()}-{next(_numbers)}")
    try:
        os.mkdir(folder)
    except OSError:
        return None
    for name, value in writes:
        if not _write(folder, name, value) and name not in optional:
            _rmdir(folder)
            return None
    return folder


def _rmdir(folder: str) -> None:
    for _ in range(50):  # the last tasks may still be exiting
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            os.sched_yield()


class Group:
    """One contestant's groups: `memory_folder` (v2) and `pids_folder` (v2 or v1), either may be None."""

    def __init__(self, memory_mb: float | None, tasks: int | None):
        self.memory_folder = self.pids_folder = None
        found = _hierarchies()
        v2 = found.get("v2")
        if v2 is not None:
            self._make_v2(v2, memory_mb, tasks)
        if tasks is not None and self.pids_folder is None and "pids" in found:
            self.pids_folder = _make(found["pids"], [("pids.max", str(tasks))])

    def _make_v2(self, parent: str, memory_mb: float | None, tasks: int | None) -> None:
        try:
            with open(os.path.join(parent, "cgroup.controllers")) as f:
                offered = f.read().split()
        except OSError:
            return
        wanted = [c for c, want in (("memory", memory_mb is not None), ("pids", tasks is not None))
                  if want and c in offered]
        for name in wanted:  # delegated to children; refused where the judge's group holds processes
            _write(parent, "cgroup.subtree_control", f"+{name}")
        try:
            with open(os.path.join(parent, "cgroup.subtree_control")) as f:
                enabled = [c for c in wanted if c in f.read().split()]
        except OSError:
            return
        writes = []
        if "memory" in enabled:
            writes += [("memory.max", str(int(memory_mb * 1024 * 1024))), ("memory.swap.max", "0"),
                       ("memory.oom.group", "1")]
        if "pids" in enabled:
            writes.append(("pids.max", str(tasks)))
        folder = _make(parent, writes, optional=("memory.swap.max",)) if writes else None
        if folder is not None:
            self.memory_folder = folder if "memory" in enabled else None
            self.pids_folder = folder if "pids" in enabled else None

    def folders(self) -> list[str]:
        return list(dict.fromkeys(f for f in (self.memory_folder, self.pids_folder) if f))

    def join_fds(self) -> list[int]:
        """Descriptors on each group's cgroup.procs: the program writes '0' to them to join."""
        fds = []
        for folder in self.folders():
            try:
                fds.append(os.open(os.path.join(folder, "cgroup.procs"), os.O_WRONLY))
            except OSError:
                for fd in fds:
                    os.close(fd)
                self.remove()
                return []
        return fds

    def members(self) -> list[int] | None:
        """The processes in the pids group now: the program's whole tree (its children are born in
        it), read from one file instead of walking /proc; None where there is no such group."""
        if self.pids_folder is None:
            return None
        try:
            with open(os.path.join(self.pids_folder, "cgroup.procs")) as f:
                return [int(pid) for pid in f.read().split()]
        except (OSError, ValueError):
            return None

    def memory_peak_kb(self) -> int:
        """The group's peak (memory.peak, or the current use where the kernel has no peak)."""
        for name in ("memory.peak", "memory.current"):
            try:
                with open(os.path.join(self.memory_folder, name)) as f:
                    return int(f.read().split()[0]) // 1024
            except (OSError, ValueError, IndexError, TypeError):
                continue
        return 0

    def memory_killed(self) -> bool:
        return self.memory_folder is not None and _read_counts(
            os.path.join(self.memory_folder, "memory.events")).get("oom_kill", 0) > 0

    def tasks_refused(self) -> bool:
        """Whether a fork or thread was refused at pids.max."""
        return self.pids_folder is not None and _read_counts(
            os.path.join(self.pids_folder, "pids.events")).get("max", 0) > 0

    def remove(self) -> None:
        for folder in self.folders():
            _rmdir(folder)
        self.memory_folder = self.pids_folder = None
