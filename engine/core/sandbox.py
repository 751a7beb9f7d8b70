"""Start a contestant's program so that it, and everything it starts, can always be stopped.

A contestant is untrusted. It is started through a *guard*: a fork of the judge made inside
Popen's child (so it costs a fork, not an interpreter start) that

- puts itself in new PID, network and mount namespaces when the kernel allows it (root, or
  unprivileged user namespaces): the program is then PID 1 of its own namespace, so killing
  it kills every process it started, however it detached (setsid, double fork); it has no
  network (only a loopback that is down) and its own /proc (no view of the judge's processes);
- in that mount namespace, gives the program a read-only view of the whole file system except
  its writable folders (its private folder, or the contest's folder for it): every mount is
  bind-remounted read-only, the folders are bind-mounted over themselves first and stay
  writable; caches of compiled code are private overlays; /dev is a read-only tmpfs holding only
  null, zero, full, random, urandom and tty (a read-only mount does not stop writes to a
  device, and the real /dev holds the disks); the user's home and the project's stores (hand log,
  MLflow store) are covered by an empty read-only tmpfs, but for the folders the program needs (its
  own, its interpreter's, the project's code), bound back. Run as root, the program also loses the
  capabilities that could undo this (mount, mknod, raw I/O, ...) from its bounding set. If
  any step fails, the view is put back as it was and the mode says so;
- is in any case a child subreaper (PR_SET_CHILD_SUBREAPER): descendants orphaned by the
  program are re-parented to the guard rather than to init, so the guard can find and kill
  them by walking /proc;
- forks the program in its own process group with the contest's rlimits (CPU, file size,
  no core files) and PR_SET_PDEATHSIG, in its control groups if the judge made some
  (engine.core.cgroups: memory and processes over its whole tree), and waits for it;
- kills the whole tree as soon as the program exits, or when the judge closes the control
  pipe (on purpose, or because the judge itself died), and then reports the program's exit
  status and CPU time (its own wait4 rusage) on the info pipe.

The guard closes every descriptor of the judge's it inherited except its two pipes.
"""

import ctypes
import errno
import math
import os
import resource
import select
import signal
from dataclasses import dataclass

_libc = ctypes.CDLL(None, use_errno=True)  # loaded here: the forked guard only calls into it
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_CLONE_NEWNS = 0x00020000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWUSER = 0x10000000

NAMESPACES = "namespaces"  # PID + network: nothing outlives the program's PID 1; no network
READONLY_FS = "namespaces+readonly-fs"  # the same, and it can write only in its own folders
SUBREAPER = "subreaper"  # descendants found and killed through /proc; network as the judge's


@dataclass(frozen=True)
class Limits:
    cpu_seconds: float | None = None
    file_mb: float | None = 64.0  # largest file (stderr included) the program may write


def _prctl(option: int, value: int) -> bool:
    return _libc.prctl(option, value, 0, 0, 0) == 0


def _enter_namespaces() -> bool:
    """New PID and network namespaces for the guard's next child; False if not allowed."""
    uid, gid = os.geteuid(), os.getegid()
    flags = _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWNS | (0 if uid == 0 else _CLONE_NEWUSER)
    if _libc.unshare(flags) != 0:
        return False
    if uid != 0:  # keep the same ids inside the new user namespace
        try:
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(text)
        except OSError:
            os._exit(126)  # half-entered: the program could not run as itself
    return True


_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT = 1, 2, 4, 8, 32
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 1 << 14, 1 << 18
_KEPT_OPTIONS = {b"nosuid": _MS_NOSUID, b"nodev": _MS_NODEV, b"noexec": _MS_NOEXEC}  # may be locked
# Root keeps its other powers, but not these: undoing the read-only view (mount), a device node
# of the disk in its folder (mknod), raw I/O, modules, immutable files, raised hard rlimits,
# tracing, the clock, rebooting, BPF, syslog, MAC policy; CAP_SETPCAP goes last.
_ROOT_CAPS_DROPPED = (21, 27, 17, 16, 9, 24, 19, 25, 22, 39, 38, 34, 32, 33, 8)
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4


def _unescape(path: bytes) -> bytes:
    """A mountinfo path: spaces, tabs, newlines and backslashes are written as octal escapes."""
    parts = path.split(b"\\")
    return parts[0] + b"".join(bytes([int(p[:3], 8)]) + p[3:] for p in parts[1:])


def _mount_points() -> list[tuple[bytes, int]]:
    """Every mount point of this mount namespace with the flags a remount must keep."""
    with open("/proc/self/mountinfo", "rb") as f:
        rows = [line.split() for line in f]
    return [(_unescape(row[4]), sum(_KEPT_OPTIONS.get(o, 0) for o in row[5].split(b","))) for row in rows]


def _drop_root_powers() -> bool:
    """Root only: the program keeps its uid but cannot gain these capabilities at exec (the
    guard and the program before exec keep their own, to mount its /proc)."""
    if os.geteuid() != 0:
        return True  # an ordinary uid has no capabilities after exec, even in its user namespace
    _libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    with open("/proc/self/status", "rb") as f:
        inheritable = next(int(r.split()[1], 16) for r in f if r.startswith(b"CapInh:"))
    if inheritable & sum(1 << c for c in _ROOT_CAPS_DROPPED):
        return False  # they would come back at exec: not worth a capset(2) here
    return all(_libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) == 0 for cap in _ROOT_CAPS_DROPPED)


def _private_copy(folder: bytes, scratch: bytes, number: int) -> bool:
    """`folder` seen through an overlay whose writes land in `scratch` (the program's own, removed
    with it): it reads what is there and may add to it, and the original never changes."""
    if any(c in folder for c in b",:\\"):
        return False  # would break the overlay's option string
    layer = os.path.join(scratch, b".cardlab-overlay-%d" % number)
    upper, work = os.path.join(layer, b"upper"), os.path.join(layer, b"work")
    try:
        for path in (layer, upper, work):
            os.mkdir(path)
    except OSError:
        return False
    options = b"lowerdir=%s,upperdir=%s,workdir=%s" % (folder, upper, work)
    return any(_libc.mount(b"overlay", folder, b"overlay", 0, options + extra) == 0
               for extra in (b"", b",userxattr"))  # userxattr: what a user namespace may need


_DEVICES = (b"null", b"zero", b"full", b"random", b"urandom", b"tty")
_DEV_LINKS = {b"fd": b"/proc/self/fd", b"stdin": b"/proc/self/fd/0", b"stdout": b"/proc/self/fd/1",
              b"stderr": b"/proc/self/fd/2"}
_MNT_DETACH = 2


def _minimal_dev() -> bool:
    """A /dev of the program's own with only harmless devices, bound from the real ones: a
    read-only mount does not stop writes to a device, and the real /dev holds the disks (which
    root may write). Read-only once built (no shm: POSIX semaphores and shared memory fail)."""
    nodes = []
    for name in _DEVICES:
        try:
            nodes.append((name, os.open(b"/dev/" + name, os.O_PATH)))
        except OSError:
            pass  # absent here: absent for the program too
    mount = _libc.mount
    fixed = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC  # nodev is forced on a tmpfs made in a user namespace
    built = mount(b"tmpfs", b"/dev", b"tmpfs", fixed, b"mode=755,size=64k") == 0
    try:
        for name, fd in nodes:
            if built:
                os.close(os.open(b"/dev/" + name, os.O_CREAT | os.O_WRONLY, 0o666))
                built = mount(b"/proc/self/fd/%d" % fd, b"/dev/" + name, None, _MS_BIND, None) == 0
        if built:
            for name, target in _DEV_LINKS.items():
                os.symlink(target, b"/dev/" + name)
            os.mkdir(b"/dev/shm")
            os.mkdir(b"/dev/pts")
            built = mount(None, b"/dev", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | fixed, None) == 0
    except OSError:
        built = False
    finally:
        for _, fd in nodes:
            os.close(fd)
    if not built:
        _libc.umount2(b"/dev", _MNT_DETACH)
    return built


def _under(path: bytes, folders) -> bytes | None:
    """The innermost of `folders` that is `path` or holds it."""
    holding = [f for f in folders if path == f or path.startswith(f.rstrip(b"/") + b"/")]
    return max(holding, key=len) if holding else None


def _hide(hidden: list[bytes], visible: list[bytes]) -> list[bytes] | None:
    """An empty read-only tmpfs over each `hidden` folder (the user's home, the MLflow store), the
    null device, unopenable (nodev), over each hidden file (the hand log); then each `visible`
    folder under a covered one bound back from the real one (opened before it was covered): the
    program's own folders, its interpreter. A hidden path inside a visible folder inside a hidden
    one is covered again. The mount points made, or None (all undone)."""
    opened = {}
    try:
        for folder in visible:
            opened[folder] = os.open(folder, os.O_PATH | os.O_DIRECTORY)
    except OSError:
        for fd in opened.values():
            os.close(fd)
        return None
    mount, covered, shown, ok = _libc.mount, [], [], True
    for path in sorted(set(hidden) | set(visible), key=lambda p: (len(p), p not in visible)):
        outer = _under(path, [p for p in covered + shown if p != path])
        inside_cover = outer is not None and outer in covered
        if path in visible:  # visible wins over hidden for the same folder
            if inside_cover:
                try:
                    os.makedirs(path, exist_ok=True)
                except OSError:
                    ok = False
                    break
                if mount(b"/proc/self/fd/%d" % opened[path], path, None, _MS_BIND | _MS_REC, None) != 0:
                    ok = False
                    break
            shown.append(path)
        elif not inside_cover:
            made = (mount(b"tmpfs", path, b"tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, b"mode=755,size=64k")
                    if os.path.isdir(path) else mount(b"/dev/null", path, None, _MS_BIND, None))
            if made != 0:
                ok = False
                break
            covered.append(path)
    for fd in opened.values():
        os.close(fd)
    fixed = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC | _MS_REMOUNT | _MS_BIND | _MS_RDONLY
    if ok and all(mount(None, point, None, fixed, None) == 0 for point in covered):
        return covered
    for point in reversed(covered):
        _libc.umount2(point, _MNT_DETACH)
    return None


def _read_only_view(writable: tuple[str, ...], private_copies: tuple[str, ...] = (), hidden: tuple[str, ...] = (),
                    visible: tuple[str, ...] = ()) -> bool:
    """In the guard, in its new mount namespace: everything read-only but `writable` (folders,
    the first its private one) and `private_copies` (overlays: writes go to the private folder);
    `hidden` folders covered but for what lies in `visible`, `writable` or `private_copies`.
    False, with the mounts as they were (bar harmless self-binds), if any step failed."""
    mount = _libc.mount
    if mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:  # nothing propagates back out
        return False
    folders = [os.fsencode(os.path.realpath(f)) for f in dict.fromkeys(writable) if os.path.isdir(f)]
    if any(mount(f, f, None, _MS_BIND | _MS_REC, None) != 0 for f in folders):
        return False
    os.chdir(os.getcwd())  # the program's folder was chdir'ed to under the bind: onto it
    copies = [os.fsencode(os.path.realpath(f)) for f in dict.fromkeys(private_copies) if os.path.isdir(f)]
    copies = [f for f in copies if f not in folders]
    if folders and not all(_private_copy(f, folders[0], i) for i, f in enumerate(copies)):
        return False
    done = []
    for point, kept in _mount_points():
        if any(point == f or point.startswith(f.rstrip(b"/") + b"/") for f in folders + copies):
            continue
        if mount(None, point, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | kept, None) == 0:
            done.append((point, kept))
        elif ctypes.get_errno() not in (errno.ENOENT, errno.EACCES):  # those: hidden, unreachable
            break
    else:
        kept = [os.fsencode(os.path.realpath(f)) for f in visible if os.path.isdir(f)]
        covers = _hide([os.fsencode(os.path.realpath(f)) for f in hidden if os.path.exists(f)],
                       list(dict.fromkeys(folders + copies + kept)))
        if covers is not None and _minimal_dev():
            if _drop_root_powers():
                return True
            _libc.umount2(b"/dev", _MNT_DETACH)
        for point in reversed(covers or ()):
            _libc.umount2(point, _MNT_DETACH)
    for point, kept in reversed(done):  # today's behaviour rather than half a view
        mount(None, point, None, _MS_REMOUNT | _MS_BIND | kept, None)
    return False


def _private_proc() -> None:
    """A /proc of the program's own PID namespace, so it cannot read the judge's processes
    (their command lines, their environment) through it; read-only, like the rest (no
    /proc/sys or sysrq writes). In the program's process (PID 1)."""
    mount = _libc.mount
    if (mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None) != 0
            or mount(b"proc", b"/proc", b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC | _MS_RDONLY, None) != 0):
        os._exit(126)  # it would see the judge's /proc: do not run it


def _set_limits(limits: Limits, *, pid_one: bool) -> None:
    if limits.cpu_seconds is not None:
        # A backstop a second past the limit: the judge stops the program at the limit itself,
        # so that the CPU figure it reports is past the limit too (the kernel's check can fire a
        # tick early by rusage's clock). PID 1 of a namespace ignores SIGXCPU, so there the
        # kernel's SIGKILL at the hard limit is what stops it: both limits are the same.
        soft = max(1, math.ceil(limits.cpu_seconds)) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft if pid_one else soft + 1))
    if limits.file_mb is not None:
        size = int(limits.file_mb * 1024 * 1024)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _descendants(root: int) -> list[int]:
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    parent[int(name)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, frontier = [], {root}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier}
        found.extend(frontier)
    return found


def _has_children() -> bool:
    """Whether the guard has a child left, reaping the dead ones. Once the program is reaped,
    every live descendant of its is a child of ours (we are its subreaper), so no child left
    means nothing to kill, without walking /proc (the common case, and always so in a PID
    namespace, which the kernel empties when its PID 1 dies)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if not pid:
            return True


def _kill_tree(me: int) -> None:
    """SIGKILL every descendant until none is left; orphans come back to us as subreaper."""
    if not _has_children():
        return
    for _ in range(100):
        pids = _descendants(me)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not pid:
                break
        if not pids:
            select.select([], [], [], 0.01)


def _guard(child: int, control: int, info: int, mode: str) -> None:
    me = os.getpid()
    os.write(info, f"{child} {mode}\n".encode())
    try:
        watch = os.pidfd_open(child)
    except (AttributeError, OSError):
        watch = None
    status = usage = None
    while status is None:
        ready, _, _ = select.select([control] + ([watch] if watch is not None else []), [], [],
                                    None if watch is not None else 0.02)
        if control in ready:
            break
        pid, wstatus, ru = os.wait4(child, os.WNOHANG)
        if pid:
            status, usage = wstatus, ru
    if status is None:  # the judge asked to stop (or died): the program goes first
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
        _, status, usage = os.wait4(child, 0)
    _kill_tree(me)
    code = os.waitstatus_to_exitcode(status)
    os.write(info, f"{code} {usage.ru_utime + usage.ru_stime!r}\n".encode())


def preexec(limits: Limits, control: int, info: int, *, namespaces: bool, writable: tuple[str, ...] = (),
            private_copies: tuple[str, ...] = (), hidden: tuple[str, ...] = (), visible: tuple[str, ...] = (),
            join: tuple[int, ...] = ()):
    """The preexec_fn for Popen (start_new_session=True): becomes the guard, and returns only
    in the program's process, which Popen then execs. `writable`: the folders the program may
    write in when namespaces are in force (its private folder first, its working folder among
    them); `private_copies`: folders it sees writable through an overlay in its private folder;
    `hidden`: folders it must not see (but for the `visible` folders in them, its own and the
    writable ones); `join`: descriptors on the cgroup.procs of the groups it runs in."""

    def run() -> None:
        pid_one = namespaces and _enter_namespaces()
        view = pid_one and _read_only_view(writable, private_copies, hidden, visible)
        mode = (READONLY_FS if view else NAMESPACES) if pid_one else SUBREAPER
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        child = os.fork()
        if child == 0:
            os.setpgid(0, 0)  # a kill(0, ...) by the program cannot reach the guard
            for fd in join:  # before anything it runs: its children are born in its groups
                try:
                    os.write(fd, b"0")
                except OSError as exc:
                    os.write(2, f"cardlab: cannot join the program's control group: {exc}\n".encode())
                    os._exit(126)
                os.close(fd)
            if pid_one:
                _private_proc()
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            _set_limits(limits, pid_one=pid_one)
            os.close(control)
            os.close(info)
            return  # Popen closes the judge's other descriptors and execs the program
        try:
            keep = sorted((control, info))
            os.closerange(3, keep[0])
            os.closerange(keep[0] + 1, keep[1])
            os.closerange(keep[1] + 1, 1 << 20)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # the program's pipes must close when the program's copies do
                os.dup2(null, fd)
            os.close(null)
            _guard(child, control, info, mode)
        finally:
            os._exit(0)

    return run
