"""Run a contestant's program over a line protocol, with the contest's limits, safely.

Used by every judge that talks to external programs. Limits are enforced the way judges
do it: CPU time by RLIMIT_CPU (the kernel stops the program), memory and the number of
processes over the program's whole tree (a cgroup where the machine gives one, else the tree
summed from /proc every 50 ms and killed when over: engine.core.cgroups; address-space limits
would break JIT runtimes that reserve large virtual ranges), and wall-clock time per read by
the caller's timeout. `limits` says which of the two is in force.

The program is untrusted (engine.core.sandbox starts it): it gets a scrubbed environment, a
private working directory, and where the kernel allows namespaces no network and a read-only
file system beyond its folders; it and everything it starts are killed when it ends or is
closed. Talking to it can never deadlock: writes are
non-blocking (what the pipe does not take waits in a buffer and goes out while the judge waits
for an answer), reads are bounded (a line over `max_line_bytes`, or more than
`max_output_bytes` in all, is an 'output' limit at once).
"""

import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass

from engine.core import cgroups, sandbox
from engine.core.errors import BadValue
from engine.core.pids import Tree, stat_fields

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_MEMORY_POLL_SECONDS = 0.05
CLOCKS = ("wall", "cpu")  # what a turn's time limit counts (LineProcess.read_line)
# --clock cpu: a turn still ends after this many times its limit on the wall, and never before CPU_CLOCK_WALL_MIN s
# (at a load of 26 on 2 cores a spinning program got 0.1 s of CPU in 1.2-2.4 s)
CPU_CLOCK_WALL_FACTOR, CPU_CLOCK_WALL_MIN = 20, 5.0
MAX_LINE_BYTES = 1 << 20
MAX_OUTPUT_BYTES = 64 << 20  # a whole Hold'em Training match of RATE 1 floods is ~21 MB
MAX_PENDING_INPUT_BYTES = 64 << 20  # unread input kept for a program that does not read
ENV_ALLOWED = ("PATH", "LANG", "LC_ALL")  # passed on from the judge; everything else is dropped
MAX_TASKS = 256  # processes and threads of a program's tree: room for a JVM or a thread pool, not a fork bomb


class SpinBudget:
    """How long to poll a pipe before sleeping on it: about what sleeping has been costing.

    On a VM, sleeping until the other side writes and being woken up is charged to the sleeper:
    measured here ~80-100 us of CPU per wait when the cores are idle (a halted vCPU is woken)
    but ~10 us when they are busy. Polling costs its own duration. Spinning for as long as a
    sleep costs is the classic rule that is never worse than twice the better choice; the cost
    of a sleep is measured as it happens (the thread's CPU time across the wait), so the budget follows the
    machine: it shrinks on a loaded machine and grows back on an idle one."""

    __slots__ = ("seconds", "cap")

    def __init__(self, initial: float = 0.00008, cap: float = 0.0002):
        self.seconds, self.cap = initial, cap

    def slept(self, cpu_seconds: float) -> None:
        self.seconds = min(self.cap, 0.8 * self.seconds + 0.2 * max(0.0, cpu_seconds))


def poll_read(fd: int, seconds: float, size: int = 65536) -> bytes | None:
    """What a non-blocking `fd` yields within `seconds` (b"" at end of input), or None."""
    give_up = time.perf_counter() + seconds
    while True:
        try:
            return os.read(fd, size)
        except BlockingIOError:
            if time.perf_counter() > give_up:
                return None


class LimitExceeded(Exception):
    """The program broke a limit; ``kind`` is 'cpu', 'memory', 'processes', 'wall' or 'output'."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind} limit exceeded: {detail}")
        self.kind = kind
        self.detail = detail


class ProgramEnded(Exception):
    """The program closed its output or died before answering. `returncode`: its exit code once
    known (negative: the signal that killed it); `stderr_tail`: the end of its stderr."""

    def __init__(self, message: str, returncode: int | None = None, stderr_tail: str = ""):
        super().__init__(message)
        self.returncode, self.stderr_tail = returncode, stderr_tail

    @property
    def crashed(self) -> bool:
        return self.returncode not in (None, 0)


def exit_text(code: int | None) -> str:
    """'exit status 3', 'killed by signal SIGSEGV', or '' while it runs."""
    if code is None:
        return ""
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def last_lines(text: str, lines: int = 3, width: int = 300) -> str:
    """The last non-empty lines of a program's stderr on one line, for a reason text."""
    kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
    joined = " | ".join(kept)
    return joined if len(joined) <= width else "..." + joined[-width:]


@dataclass(frozen=True)
class Keep:
    """Where to save a program's stderr (NAME.stderr) and, with `with_folder`, a copy of its
    working folder (NAME.folder) when it is closed, for debugging; a repeated name gets a number."""

    folder: str
    name: str
    with_folder: bool = False

    def named(self, name: str) -> "Keep":
        return Keep(self.folder, name, self.with_folder)


@dataclass(frozen=True)
class ProcessReport:
    returncode: int | None
    cpu_seconds: float
    peak_memory_mb: float
    limit: str | None  # which limit stopped it, if any
    stderr_tail: str
    isolation: str = ""  # sandbox.READONLY_FS, NAMESPACES or SUBREAPER: what was in force
    limits: str = ""  # how memory and processes were limited over the tree (LineProcess.limits)


_PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Never covered, nor anything holding one of them: what every program needs to run, and /tmp,
# where its own folder is.
_SYSTEM = ("/usr", "/bin", "/lib", "/lib64", "/etc", "/opt", "/var", "/tmp", "/dev", "/proc", "/sys", "/run")


def compiled_caches() -> tuple[str, ...]:
    """Caches of compiled code every program sees as a private copy (an overlay: what it writes
    stays in its own folder): the project's numba cache, which exported bundles name. numba
    uses a cache only where it may write; the judge's own copy must never be written by a
    program, since the judge loads its entries, which are pickles."""
    return (os.environ.get("NUMBA_CACHE_DIR") or os.path.join(_PROJECT, ".cache", "numba"),)


def hidden_paths() -> tuple[str, ...]:
    """What a program must not see (where the read-only view is in force): the user's home, the
    MLflow store and Prefect's home (folders), and the hand log: its folder (or an old log's file) and
    the files and folders beside it named after it, since its folder holds the project's
    own data too. Defaults under CARDLAB_HOME and the project, and where the environment points
    them. The project's code stays readable (bundles run it); nothing in or holding a system
    folder (/tmp) is covered."""
    bases = list(dict.fromkeys((os.environ.get("CARDLAB_HOME") or _PROJECT, _PROJECT)))
    folders = [os.path.join(base, name) for base in bases for name in (".mlflow", ".prefect")]
    folders += [os.environ.get(name) for name in ("HOME", "CARDLAB_ARTIFACT_ROOT", "PREFECT_HOME")]
    uri = os.environ.get("MLFLOW_TRACKING_URI", "")
    stores = [os.path.join(base, "data", name) for base in bases for name in ("handlog", "handlog.duckdb")]
    stores.append(os.environ.get("CARDLAB_DB"))
    stores.append(uri.removeprefix("sqlite:///") if uri.startswith("sqlite:///") else None)
    found = []
    for folder in filter(None, folders):
        found.append(os.path.realpath(folder))
    for store in filter(None, stores):
        store = os.path.realpath(store)
        folder, name = os.path.split(store)
        try:
            found += [os.path.join(folder, entry) for entry in os.listdir(folder) if entry.startswith(name)]
        except OSError:
            pass
    return tuple(dict.fromkeys(p for p in found if os.path.exists(p) and not any(
        s == p or s.startswith(p.rstrip("/") + "/") for s in _SYSTEM)))


def needed_folders(argv: list[str], env: dict[str, str]) -> tuple[str, ...]:
    """Folders a program needs to see even inside a hidden one: those of the files and folders
    its arguments name, its interpreter's (a venv or prefix: the folder above a bin/), the
    toolchains on its PATH (~/.pyenv for ~/.pyenv/shims: a shim runs more of its toolchain), the
    judge's own Python, and the project's code (bundles and hosts run it)."""
    found = [_PROJECT, sys.prefix, sys.base_prefix]
    for entry in env.get("PATH", "").split(":"):
        if entry.startswith("/"):
            found.append(os.path.dirname(entry) if os.path.basename(entry) in ("bin", "sbin", "shims") else entry)
    program = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=env.get("PATH")) or argv[0]
    for i, arg in enumerate([program, *argv[1:]]):
        real = os.path.realpath(arg) if arg.startswith("/") else ""
        if os.path.isdir(real):
            found.append(real)
        elif os.path.isfile(real):
            folder = os.path.dirname(real)
            found.append(os.path.dirname(folder) if i == 0 and os.path.basename(folder) == "bin" else folder)
            if i == 0 and real != arg:  # a link to the interpreter: where it was named too
                found.append(os.path.dirname(os.path.abspath(arg)))
    return tuple(dict.fromkeys(os.path.realpath(f) for f in found))


def _remove_folder(path: str) -> None:
    """rmtree, also through the mode-0 folder an overlay leaves in its work folder."""
    def unlock_and_retry(function, failed, _exc):
        parent = failed if function in (os.scandir, os.open) else os.path.dirname(failed)
        try:
            os.chmod(parent, 0o700)
            shutil.rmtree(failed, ignore_errors=True) if os.path.isdir(failed) else os.unlink(failed)
        except OSError:
            pass

    shutil.rmtree(path, onerror=unlock_and_retry)


def contestant_env(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The allow-listed variables, HOME and TMPDIR in the program's private folder, then `extra`."""
    env = {name: os.environ[name] for name in ENV_ALLOWED if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(HOME=home, TMPDIR=home)
    env.update(extra or {})
    return env


_namespaces_checked: bool | None = None
_namespaces_lock = threading.Lock()


def namespaces_work() -> bool:
    """Whether a program really runs in namespaces here, tried once per judge process: where
    the kernel lets the guard create them but not use them (e.g. user namespaces without
    capabilities under AppArmor), every program would fail; then the subreaper mode is used."""
    global _namespaces_checked
    with _namespaces_lock:
        if _namespaces_checked is None:
            probe = [shutil.which("true") or "/bin/true"]
            try:
                with LineProcess(probe, namespaces=True, _probe=True) as proc:
                    in_force = proc.isolation in (sandbox.READONLY_FS, sandbox.NAMESPACES)
                    _namespaces_checked = proc.wait(10) == 0 and in_force
            except ProgramEnded:
                _namespaces_checked = False
        return _namespaces_checked


def absolute_argv(argv: list[str]) -> list[str]:
    """Arguments naming existing files or folders (relative to the judge's folder) made absolute,
    so the program can run in another folder."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg and not arg.startswith("-") and (i == 0 and "/" in arg or i > 0) and os.path.exists(arg):
            out[i] = os.path.abspath(arg)
    return out


class LineProcess:
    def __init__(
        self,
        argv: list[str],
        *,
        cpu_seconds: float | None = None,
        memory_mb: float | None = None,
        processes: int | None = MAX_TASKS,
        file_mb: float | None = 64.0,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        spin: bool = False,
        namespaces: bool = True,
        writable: tuple[str, ...] = (),
        private_copies: tuple[str, ...] | None = None,
        max_line_bytes: int = MAX_LINE_BYTES,
        max_output_bytes: int = MAX_OUTPUT_BYTES,
        keep: Keep | None = None,
        _probe: bool = False,
    ):
        """`cwd`: the folder to run in (the contest's rule, e.g. the program's own folder); by
        default a private temporary folder, removed at close. `env`: variables added to the
        scrubbed environment. `namespaces`: try PID/network namespaces (False: subreaper only);
        with them the file system is read-only for the program but for its folder (`cwd`, or the
        private one) and `writable`, folders a trusted caller grants (never a cache the judge
        itself loads code from, for an untrusted program). `private_copies` (default:
        compiled_caches()): folders it sees writable through an overlay in its own folder.
        `spin`: read_line polls for an answer for a while (SpinBudget) before sleeping. For
        judges of programs that answer within microseconds: the judge's own wake-up delays its
        reply, and the program waiting for that reply is charged for the wait. `memory_mb`,
        `processes` (tasks: processes and threads; processes only where polled): limits over the
        program's whole tree. The read-only view also hides the user's home and the project's
        stores (hidden_paths) but for what the program needs (needed_folders). `keep`: save its
        stderr (and folder) when closed."""
        self.argv = absolute_argv(argv)
        namespaces = namespaces and (_probe or namespaces_work())
        self.spin = SpinBudget() if spin else None
        self.cpu_limit = cpu_seconds
        self.memory_limit_mb = memory_mb
        self.process_limit = processes
        self.keep = keep
        self._cwd = cwd
        self.max_line_bytes, self.max_output_bytes = max_line_bytes, max_output_bytes
        self._limit_hit: str | None = None
        self._peak_kb = 0
        self._last_poll = 0.0
        self._partial = b""  # output after the last newline
        self._lines: deque[str] = deque()  # complete lines not yet returned, in order
        self._read_total = 0
        self._pending = bytearray()  # input the pipe has not taken yet
        self._close_input_when_sent = False
        self._input_closed = False
        self._reaped_cpu: float | None = None  # CPU of the program's whole run, from its guard
        self._returncode: int | None = None
        self._home = tempfile.mkdtemp(prefix="cardlab-contestant-")
        self._stderr_file = tempfile.TemporaryFile()
        control_read, self._control = os.pipe()
        self._info, info_write = os.pipe()
        self._info_buffer = b""
        limits = sandbox.Limits(cpu_seconds=cpu_seconds, file_mb=file_mb)
        self._group = cgroups.Group(memory_mb, processes) if not _probe else None
        join = self._group.join_fds() if self._group else []
        memory_mode = cgroups.CGROUP if self._group and self._group.memory_folder else cgroups.POLLED
        task_mode = cgroups.CGROUP if self._group and self._group.pids_folder else cgroups.POLLED
        self.limits = f"memory {memory_mode}, processes {task_mode}"
        self._tree: Tree | None = None
        program_env = contestant_env(self._home, env)
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr_file,
                cwd=cwd or self._home,
                env=program_env,
                preexec_fn=sandbox.preexec(limits, control_read, info_write, namespaces=namespaces,
                                           writable=(self._home, cwd or self._home, *writable),
                                           private_copies=compiled_caches() if private_copies is None
                                           else private_copies,
                                           hidden=() if _probe else hidden_paths(),
                                           visible=needed_folders(self.argv, program_env), join=tuple(join)),
                start_new_session=True,
                bufsize=0,
            )
        except OSError as exc:
            self._release()
            raise ProgramEnded(f"cannot start {self.argv[0]!r}: {exc.strerror}") from exc
        finally:
            os.close(control_read)
            os.close(info_write)
            for fd in join:
                os.close(fd)
        first = (self._info_line(30.0) or "").split()  # written by the guard right after its fork
        self.pid = int(first[0]) if first else self.proc.pid
        self._tree = Tree(self.proc.pid)  # the guard's: orphans of the program come back to it
        self.isolation = first[1] if len(first) > 1 else ""
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._poller = select.poll()
        self._poller.register(self._out, select.POLLIN)

    def _close_control(self) -> None:
        """Tell the guard to kill the program's whole tree (closing is the message)."""
        if self._control >= 0:
            os.close(self._control)
            self._control = -1

    def _release(self) -> None:
        self._close_control()
        if self._info >= 0:
            os.close(self._info)
            self._info = -1
        self._stderr_file.close()
        _remove_folder(self._home)
        if self._group is not None:
            self._group.remove()

    def _info_line(self, timeout: float) -> str | None:
        """The guard's next line: '' if none comes within `timeout`, None if the guard is gone."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._info_buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._info], [], [], left)[0]:
                return ""
            chunk = os.read(self._info, 4096)
            if not chunk:
                return None
            self._info_buffer += chunk
        line, _, self._info_buffer = self._info_buffer.partition(b"\n")
        return line.decode()

    # -- talking -----------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Queue a line; what the pipe takes now is written now, the rest while reading."""
        if self._input_closed or self._close_input_when_sent:
            self._raise_if_limit()
            raise self._ended("the program closed its input")
        data = line.encode() + b"\n"
        if self._pending:
            self._pending += data
        else:
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                written = 0
            except OSError as exc:  # EPIPE: it closed its input or died
                self._input_closed = True
                self._raise_if_limit()
                raise self._ended("the program closed its input") from exc
            if written < len(data):
                self._pending += data[written:]
                self._poller.register(self._in, select.POLLOUT)
        if len(self._pending) > MAX_PENDING_INPUT_BYTES:
            self._raise_if_limit()
            raise ProgramEnded(f"the program left over {MAX_PENDING_INPUT_BYTES >> 20} MB of its input unread")

    def close_input(self) -> None:
        """Send end-of-file once queued input is written (batch programs read to EOF before
        answering); output stays readable."""
        self._close_input_when_sent = True
        if not self._pending:
            self._shut_input()

    def _shut_input(self) -> None:
        if not self._input_closed:
            self._input_closed = True
            self._pending.clear()
            try:
                self._poller.unregister(self._in)
            except KeyError:
                pass
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def _flush(self) -> None:
        try:
            written = os.write(self._in, self._pending)
        except BlockingIOError:
            return
        except OSError:  # it closed its input: what it wrote can still be read
            self._shut_input()
            return
        del self._pending[:written]
        if not self._pending:
            self._poller.unregister(self._in)
            if self._close_input_when_sent:
                self._shut_input()

    def read_line(self, timeout: float | None = None, *, clock: str = "wall") -> str:
        """The next line without its newline; raises ProgramEnded at EOF, LimitExceeded on a limit.

        `clock`: what `timeout` counts. "wall" (the contests' rule): seconds on the clock. "cpu" (local
        play on a busy machine): the program's own CPU seconds for this answer, so waiting for a core is
        not the program's fault; a program that uses no CPU (blocked, asleep) still meets a wall cap of
        CPU_CLOCK_WALL_FACTOR times the timeout (at least CPU_CLOCK_WALL_MIN). (The wall clock reads no /proc
        file per line: the judges that read every line under a deadline stay as fast as they were.)"""
        if clock not in CLOCKS:
            raise BadValue(f"clock {clock!r}: accepted: {', '.join(CLOCKS)}")
        if self._lines:
            return self._lines.popleft()
        cpu_clock = clock == "cpu" and timeout is not None
        started, cpu_start = time.monotonic(), self.cpu_used() if cpu_clock else 0.0
        wall_limit = max(CPU_CLOCK_WALL_MIN, CPU_CLOCK_WALL_FACTOR * timeout) if cpu_clock else timeout
        deadline = None if timeout is None else started + wall_limit
        fd = self._out
        while True:
            wait = None if deadline is None else deadline - time.monotonic()
            if cpu_clock and self.cpu_used() - cpu_start >= timeout:
                self._raise_if_limit()
                raise LimitExceeded("wall", f"no answer within {timeout:g} s of CPU time (--clock cpu; wall "
                                            f"{time.monotonic() - started:.3f} s)")
            if wait is not None and wait <= 0:
                self._raise_if_limit()
                raise LimitExceeded("wall", f"no answer within {wall_limit:g} s" + (
                    f" of wall time (--clock cpu's cap; CPU {self.cpu_used() - cpu_start:.3f} s)" if cpu_clock else ""))
            if cpu_clock:  # the CPU used cannot grow faster than the wall clock on one core: look again then
                wait = min(wait, max(0.001, timeout - (self.cpu_used() - cpu_start)))
            wait = _MEMORY_POLL_SECONDS if wait is None else min(wait, _MEMORY_POLL_SECONDS)
            chunk = poll_read(fd, self.spin.seconds) if self.spin and not self._pending else None
            if chunk is None:
                before = time.thread_time()
                events = self._poller.poll(wait * 1000)
                if self.spin and events:
                    self.spin.slept(time.thread_time() - before)
                chunk = None
                for ready, flags in events:
                    if ready == self._in:
                        self._flush()
                    elif flags:
                        try:
                            chunk = os.read(fd, 65536)
                        except BlockingIOError:
                            chunk = None
            if chunk is not None:
                if not chunk:
                    return self._end_of_output()
                line = self._take(chunk)
                if line is not None:
                    self._poll_memory()
                    return line
            self._poll_memory()

    def _take(self, chunk: bytes) -> str | None:
        """Add output; the first complete line, if there is one now. Bounded: a line over the
        bound, or too much output in all, is an output limit at once."""
        self._read_total += len(chunk)
        if self._read_total > self.max_output_bytes:
            self._limit_hit = "output"
            raise LimitExceeded("output", f"more than {self.max_output_bytes >> 20} MB of output")
        if b"\n" not in chunk:
            self._partial += chunk
            if len(self._partial) > self.max_line_bytes:
                self._limit_hit = "output"
                raise LimitExceeded("output", f"a line longer than {self.max_line_bytes:,} bytes")
            return None
        parts = (self._partial + chunk).split(b"\n")
        self._partial = parts.pop()
        if len(chunk) > self.max_line_bytes and max(map(len, parts + [self._partial])) > self.max_line_bytes:
            self._limit_hit = "output"
            raise LimitExceeded("output", f"a line longer than {self.max_line_bytes:,} bytes")
        lines = [p.decode(errors="replace").rstrip("\r") for p in parts]
        self._lines.extend(lines[1:])
        return lines[0]

    def _end_of_output(self) -> str:
        self._raise_if_limit()
        if self._partial:
            line, self._partial = self._partial, b""
            return line.decode(errors="replace").rstrip("\r")
        raise self._ended("the program ended without answering")

    def _ended(self, what: str) -> ProgramEnded:
        """ProgramEnded once the program stopped talking (_raise_if_limit has waited for its exit):
        a crash, an exit other than 0 or a signal, is named as one with the end of its stderr."""
        code, tail = self._returncode, self.stderr_text(2000)
        if code in (None, 0):
            return ProgramEnded(what + (" (it exited with status 0)" if code == 0 else ""), code, tail)
        said = last_lines(tail)
        return ProgramEnded(f"the program crashed ({exit_text(code)})" + (f": {said}" if said else ""), code, tail)

    def unfinished_line(self) -> str:
        """Output after the last newline (a program stopped mid-line), at most one line's bound."""
        return self._partial[: self.max_line_bytes].decode(errors="replace")

    def stderr_text(self, limit: int = 1 << 20) -> str:
        """The last `limit` bytes the program wrote to stderr."""
        self._stderr_file.seek(0, os.SEEK_END)
        size = self._stderr_file.tell()
        self._stderr_file.seek(max(0, size - limit))
        return self._stderr_file.read().decode(errors="replace")

    # -- limits ------------------------------------------------------------------------
    def cpu_used(self) -> float:
        """CPU seconds (user + system) used so far by the program."""
        if self._reaped_cpu is not None:
            return self._reaped_cpu
        fields = stat_fields(self.pid)
        try:
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (TypeError, IndexError, ValueError):  # gone (None) or a short read
            return 0.0

    def _poll_memory(self, force: bool = False) -> None:
        """Memory and processes over the whole tree (and CPU), every _MEMORY_POLL_SECONDS: from
        the program's cgroup where it has one, else summed from /proc; over a limit, the tree is
        killed and LimitExceeded raised."""
        now = time.monotonic()
        if not force and now - self._last_poll < _MEMORY_POLL_SECONDS or self._tree is None:
            return
        self._last_poll = now
        group = self._group
        members = []
        if not (group and group.memory_folder and group.pids_folder):  # a pids group lists the tree in one read
            found = group.members() if group else None
            members = self._tree.members() if found is None else found
        if group and group.memory_folder:
            self._peak_kb = max(self._peak_kb, group.memory_peak_kb())
        elif members:
            self._peak_kb = max(self._peak_kb, Tree.memory_kb(members))
        self._check_tree(len(members))
        if self.cpu_limit is not None and self.cpu_used() > self.cpu_limit:
            self._kill()
            self._raise_if_limit()

    def _check_tree(self, processes: int | None = None) -> None:
        """LimitExceeded (the tree killed) if memory or processes went over: `processes`, the
        count polled from /proc where no cgroup counts them."""
        group = self._group
        hit = None
        if self.memory_limit_mb is not None and (
                self._peak_kb > self.memory_limit_mb * 1024 or group is not None and group.memory_killed()):
            hit = "memory", f"peak {self._peak_kb / 1024:.0f} MB > {self.memory_limit_mb:g} MB over its process tree"
        elif self.process_limit is not None and (group.tasks_refused() if group and group.pids_folder
                                                 else (processes or 0) > self.process_limit):
            hit = "processes", f"more than {self.process_limit} processes or threads in its tree"
        if hit:
            self._limit_hit = hit[0]
            self._kill()
            raise LimitExceeded(*hit)

    def _reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` s for the program to end; its exit code and CPU come from the
        guard, which has killed whatever the program left behind by then."""
        if self._returncode is not None or self.proc.returncode is not None:
            return self._returncode if self._returncode is not None else self.proc.returncode
        line = self._info_line(timeout)
        if line is None:  # the guard died without a report (killed from outside)
            return self.proc.wait()
        if not line:
            return None
        code, cpu = line.split()
        self._returncode, self._reaped_cpu = int(code), float(cpu)
        self.proc.wait()
        return self._returncode

    def wait(self, timeout: float) -> int | None:
        """The program's exit code once it has ended (within `timeout` s), else None."""
        return self._reap(timeout)

    def _raise_if_limit(self) -> None:
        """A CPU verdict is given on the figure reported with it: the program's own CPU time
        past the limit (the judge stops it there; the kernel's RLIMIT_CPU, a second later, is
        the backstop)."""
        code = self._reap(2.0)  # an ended program is usually exiting: wait to learn why (a CPU limit?)
        if code is None:
            return
        if self._group is not None and (self._group.memory_folder or self._group.pids_folder):
            if self._group.memory_folder:
                self._peak_kb = max(self._peak_kb, self._group.memory_peak_kb())
            self._check_tree()  # the kernel stopped it at memory.max, or it died of a refused fork
        if self.cpu_limit is None:
            return
        if self.cpu_used() > self.cpu_limit:
            self._limit_hit = "cpu"
            raise LimitExceeded("cpu", f"{self.cpu_used():.2f} s of CPU > {self.cpu_limit:g} s")

    def _kill(self) -> None:
        """Stop the program and everything it started (the guard does it when told)."""
        if self._returncode is not None or self.proc.returncode is not None:
            return
        self._close_control()
        if self._reap(5.0) is None:  # the guard itself is stuck: kill it; PDEATHSIG takes the program
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()

    def close(self, grace: float = 1.0) -> ProcessReport:
        """Close stdin, give the program a moment to exit, then stop it; report what it used."""
        cpu = self.cpu_used()
        if self._returncode is None:
            try:
                self._poll_memory(force=True)
            except LimitExceeded:
                pass
        self._shut_input()
        if self._reap(grace) is None:
            self._kill()
        cpu = max(cpu, self.cpu_used())
        if self._limit_hit is None and self.cpu_limit is not None and cpu > self.cpu_limit:
            self._limit_hit = "cpu"
        if self._limit_hit is None and self._group is not None:
            try:
                self._check_tree()
            except LimitExceeded:
                pass
        self.proc.stdout.close()
        tail = self.stderr_text(2000)
        if self.keep is not None:
            self._save(self.keep)
        self._release()
        return ProcessReport(
            returncode=self._returncode,
            cpu_seconds=cpu,
            peak_memory_mb=self._peak_kb / 1024,
            limit=self._limit_hit,
            stderr_tail=tail,
            isolation=self.isolation,
            limits=self.limits,
        )

    def _save(self, keep: Keep) -> None:
        """The whole stderr to KEEP/NAME.stderr (NAME.2.stderr, ... when taken), and with
        `with_folder` the working folder to NAME.folder."""
        os.makedirs(keep.folder, exist_ok=True)
        for number in range(1, 100_000):
            base = os.path.join(keep.folder, keep.name if number == 1 else f"{keep.name}.{number}")
            try:
                fd = os.open(base + ".stderr", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as out:
                self._stderr_file.seek(0)
                shutil.copyfileobj(self._stderr_file, out)
            if keep.with_folder:
                shutil.copytree(self._cwd or self._home, base + ".folder", symlinks=True,
                                ignore=shutil.ignore_patterns(".cardlab-overlay-*"), ignore_dangling_symlinks=True)
            return

    @property
    def closed(self) -> bool:
        return self.proc.stdout.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not self.closed:
            self.close(grace=0.2)

    def __del__(self):  # dropped without close: the guard still kills the program
        if getattr(self, "_control", -1) >= 0:
            self._close_control()
            _remove_folder(self._home)
            if self._group is not None:
                self._group.remove()  # if its tree is gone by now; else the next judge removes it
