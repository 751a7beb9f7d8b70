"""Run a contestant's program over a line protocol, with the contest's limits.

Used by every judge that talks to external programs. Limits are enforced the way judges
do it: CPU time by RLIMIT_CPU (the kernel stops the program), peak resident memory by
watching /proc (address-space limits break JIT runtimes that reserve large virtual
ranges), and wall-clock time per read by the caller's timeout.
"""

import os
import resource
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_MEMORY_POLL_SECONDS = 0.05


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
    """The program broke a limit; ``kind`` is 'cpu', 'memory' or 'wall'."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind} limit exceeded: {detail}")
        self.kind = kind
        self.detail = detail


class ProgramEnded(Exception):
    """The program closed its output or died before answering."""


@dataclass(frozen=True)
class ProcessReport:
    returncode: int | None
    cpu_seconds: float
    peak_memory_mb: float
    limit: str | None  # which limit stopped it, if any
    stderr_tail: str


class LineProcess:
    def __init__(
        self,
        argv: list[str],
        *,
        cpu_seconds: float | None = None,
        memory_mb: float | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        spin: bool = False,
    ):
        """`spin`: read_line polls for an answer for a while (SpinBudget) before sleeping. For
        judges of programs that answer within microseconds: the judge's own wake-up delays its
        reply, and the program waiting for that reply is charged for the wait."""
        self.argv = list(argv)
        self.spin = SpinBudget() if spin else None
        self.cpu_limit = cpu_seconds
        self.memory_limit_mb = memory_mb
        self._limit_hit: str | None = None
        self._peak_kb = 0
        self._last_poll = 0.0
        self._buffer = b""
        self._stderr_path = None
        self._reaped_cpu: float | None = None  # CPU of the whole run, once reaped with wait4

        def limit_cpu():
            if cpu_seconds is not None:
                soft = max(1, int(cpu_seconds + 0.999))
                resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
            os.setsid()

        import tempfile

        self._stderr_file = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr_file,
                cwd=cwd,
                env=env,
                preexec_fn=limit_cpu,
                bufsize=0,
            )
        except OSError as exc:
            raise ProgramEnded(f"cannot start {self.argv[0]!r}: {exc.strerror}") from exc
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.proc.stdout, selectors.EVENT_READ)
        if spin:
            os.set_blocking(self.proc.stdout.fileno(), False)

    # -- talking -----------------------------------------------------------------------
    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
        except (BrokenPipeError, ValueError, OSError) as exc:
            self._raise_if_limit()
            raise ProgramEnded("the program closed its input") from exc

    def close_input(self) -> None:
        """Send end-of-file (batch programs read to EOF before answering); output stays readable."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def read_line(self, timeout: float | None = None) -> str:
        """The next line without its newline; raises ProgramEnded at EOF, LimitExceeded on a limit."""
        deadline = None if timeout is None else time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                self._raise_if_limit()
                raise LimitExceeded("wall", f"no answer within {timeout:g} s")
            wait = _MEMORY_POLL_SECONDS if wait is None else min(wait, _MEMORY_POLL_SECONDS)
            chunk = poll_read(fd, self.spin.seconds) if self.spin else None
            if chunk is None:
                before = time.thread_time()
                ready = self._selector.select(wait)
                if self.spin and ready:
                    self.spin.slept(time.thread_time() - before)
                chunk = os.read(fd, 65536) if ready else None
            if chunk is not None:
                if not chunk:
                    self._raise_if_limit()
                    if self._buffer:
                        line, self._buffer = self._buffer, b""
                        return line.decode(errors="replace").rstrip("\r")
                    raise ProgramEnded("the program ended without answering")
                self._buffer += chunk
            self._poll_memory()
        line, _, self._buffer = self._buffer.partition(b"\n")
        self._poll_memory()
        return line.decode(errors="replace").rstrip("\r")

    # -- limits ------------------------------------------------------------------------
    def cpu_used(self) -> float:
        """CPU seconds (user + system) used so far by the program."""
        if self._reaped_cpu is not None:
            return self._reaped_cpu
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            return 0.0

    def _poll_memory(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_poll < _MEMORY_POLL_SECONDS:
            return
        self._last_poll = now
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for row in f:
                    if row.startswith("VmHWM:"):
                        self._peak_kb = max(self._peak_kb, int(row.split()[1]))
                        break
        except OSError:
            return
        if self.memory_limit_mb is not None and self._peak_kb > self.memory_limit_mb * 1024:
            self._limit_hit = "memory"
            self._kill()
            raise LimitExceeded("memory", f"peak {self._peak_kb / 1024:.0f} MB > {self.memory_limit_mb:g} MB")

    def _reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` s for the program to exit and reap it with wait4, keeping its CPU
        time (Popen.poll/wait would reap it too and lose that, so a report said 0 s)."""
        deadline = time.monotonic() + timeout
        while self.proc.returncode is None:
            try:
                pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            except ChildProcessError:  # already reaped elsewhere
                return self.proc.poll()
            if pid:
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                self._reaped_cpu = usage.ru_utime + usage.ru_stime
                # Not usage.ru_maxrss: Linux carries it over exec, so it counts the forked copy
                # of the judge's own memory; VmHWM polled from /proc resets at exec.
                break
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.005)
        return self.proc.returncode

    def _raise_if_limit(self) -> None:
        code = self._reap(2.0)  # an ended program is usually exiting: wait to learn why (a CPU limit?)
        if code is None:
            return
        if code in (-signal.SIGXCPU, -signal.SIGKILL) and self.cpu_limit is not None:
            if self.cpu_used() >= self.cpu_limit or code == -signal.SIGXCPU:
                self._limit_hit = "cpu"
                raise LimitExceeded("cpu", f"more than {self.cpu_limit:g} s of CPU")

    def _kill(self) -> None:
        if self._reap(0) is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
            if self._reap(10.0) is None:
                self.proc.wait()

    def close(self, grace: float = 1.0) -> ProcessReport:
        """Close stdin, give the program a moment to exit, then stop it; report what it used."""
        cpu = self.cpu_used()
        if self.proc.returncode is None:
            try:
                self._poll_memory(force=True)
            except LimitExceeded:
                pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        if self._reap(grace) is None:
            self._kill()
        cpu = max(cpu, self.cpu_used())
        self._selector.close()
        self.proc.stdout.close()
        self._stderr_file.seek(0, os.SEEK_END)
        size = self._stderr_file.tell()
        self._stderr_file.seek(max(0, size - 2000))
        tail = self._stderr_file.read().decode(errors="replace")
        self._stderr_file.close()
        return ProcessReport(
            returncode=self.proc.returncode,
            cpu_seconds=cpu,
            peak_memory_mb=self._peak_kb / 1024,
            limit=self._limit_hit,
            stderr_tail=tail,
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None or not self.proc.stdout.closed:
            self.close(grace=0.2)
