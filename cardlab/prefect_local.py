"""A Prefect server that never outlives the cardlab command that started it.

Prefect's local (ephemeral) mode starts a uvicorn child on a random port and stops it from
an atexit handler, so SIGTERM or kill -9 of the command left it running. When the user has
not pointed PREFECT_API_URL at a server of their own, cardlab starts that same child itself:

* the kernel sends the child SIGTERM when cardlab dies, however it dies (PR_SET_PDEATHSIG);
* it runs in its own process group, so a terminal's Ctrl-C reaches only cardlab, which then
  stops it after the flow has reported its final state;
* SIGTERM to cardlab becomes SystemExit, so the normal exit path (atexit) stops it;
* a pidfile under $PREFECT_HOME/cardlab-servers/ names the server and its owner; every
  cardlab command first stops servers whose owner is gone (a safety net where the death
  signal cannot be used), and also Prefect's own temporary servers of this PREFECT_HOME that
  were orphaned (reparented to init) by a killed process that did not start its server here.

Every Prefect client of the command (flows, tasks, Dask workers it spawns) then talks to
this one server through PREFECT_API_URL, which also spares Dask workers a temporary server
each. A user's PREFECT_API_URL (a team's server) is left alone.
"""

import atexit
import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core.errors import Unavailable
from engine.core.pids import alive, stat_field

PR_SET_PDEATHSIG = 1
OWNED_MARK = "CARDLAB_OWNS_PREFECT_SERVER"  # set with PREFECT_API_URL when the server is ours
STOP_GRACE_S = 5.0


@dataclass(frozen=True)
class LocalServer:
    pid: int
    port: int
    owner: int
    pidfile: Path
    log: Path | None = None  # the server's output (removed with it)

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"


_current: LocalServer | None = None


def pid_dir() -> Path:
    home = Path(os.environ.get("PREFECT_HOME") or Path.home() / ".prefect")
    return home / "cardlab-servers"


def _start_ticks(pid: int) -> str | None:
    """The process's start time in clock ticks: with the pid, it names one process (pids are reused)."""
    return stat_field(pid, 19)


def _is_our_server(pid: int, started: str | None) -> bool:
    """The recorded pid is still the server we started, not a process that reused its number."""
    if not alive(pid):
        return False
    if started is not None and _start_ticks(pid) not in (None, started):
        return False
    try:
        return b"prefect.server.api.server:create_app" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the pidfile


def _owner_gone(record: dict) -> bool:
    owner = int(record["owner"])
    if not alive(owner):
        return True
    return record.get("owner_started") not in (None, _start_ticks(owner))


def _stop_pid(pid: int, grace_s: float = STOP_GRACE_S) -> None:
    """SIGTERM, then SIGKILL after the grace period; reaps it when it is our child."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        if not alive(pid):
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _orphaned_ephemeral_servers() -> list[int]:
    """Prefect's own temporary servers (started by a command that did not go through `ensure`,
    e.g. a test or a plain flow script) whose owner died: reparented to init, same PREFECT_HOME."""
    home = f"PREFECT_HOME={os.environ.get('PREFECT_HOME', '')}".encode()
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if b"prefect.server.api.server:create_app" not in (entry / "cmdline").read_bytes():
                continue
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[1] == "1" and stat[0] != "Z" and b"PREFECT__SERVER_EPHEMERAL=1" in environ and home in environ:
            found.append(int(entry.name))
    return found


def reap_stale() -> list[int]:
    """Stop the servers whose owning command is gone; returns their pids."""
    reaped = []
    for orphan in _orphaned_ephemeral_servers():
        _stop_pid(orphan)
        reaped.append(orphan)
    folder = pid_dir()
    if not folder.is_dir():
        return reaped
    for pidfile in folder.glob("*.json"):
        try:
            record = json.loads(pidfile.read_text())
            server = int(record["server"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being written by its owner right now, or not ours
        if not _owner_gone(record):
            continue
        if _is_our_server(server, record.get("server_started")):
            _stop_pid(server)
            reaped.append(server)
        pidfile.unlink(missing_ok=True)
        if record.get("log"):
            Path(record["log"]).unlink(missing_ok=True)
    return reaped


def _free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with(parent: int):
    # PR_SET_PDEATHSIG fires when the forking *thread* ends: `ensure` runs on the main thread.
    def setup() -> None:
        """Runs in the child between fork and exec: its own process group, SIGTERM when we die."""
        os.setpgid(0, 0)
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return setup


def _server_command(port: int) -> list[str]:
    """Prefect 3.8's own temporary-server command (prefect/server/api/server.py)."""
    import prefect

    return [sys.executable, "-m", "uvicorn", "--app-dir", str(Path(prefect.__file__).parent.parent),
            "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "error", "--lifespan", "on"]


def _last_line(log: Path | None) -> str:
    """The server log's last line, to name why it failed (its output goes to the log, not the terminal)."""
    if log is None:
        return ""
    try:
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return ""
    return f": {lines[-1].strip()[:300]} (log {log})" if lines else ""


def wait_healthy(process: subprocess.Popen, url: str, timeout_s: float, log: Path | None = None) -> None:
    """Until the server at `url` answers /health; Unavailable (naming the log's last line) if it exits or
    the time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Unavailable(f"the local Prefect server exited with code {process.returncode} while starting"
                              f"{_last_line(log)}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise Unavailable(f"the local Prefect server did not answer {url}/health within {timeout_s:.0f} s "
                       f"(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS){_last_line(log)}")


def _on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


def exit_cleanly_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C (finally blocks, atexit) instead of killing the process
    outright, so whichever temporary server is running gets stopped."""
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _on_sigterm)


def start(*, scheduling: bool = False) -> LocalServer:
    """Start the server (ephemeral services only unless `scheduling`) and wait until it answers."""
    reap_stale()
    port = _free_port()
    env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_FINAL": "1"}
    if not scheduling:
        env["PREFECT__SERVER_EPHEMERAL"] = "1"  # the services Prefect's local mode runs, no scheduler
    env.pop("PREFECT_API_URL", None)
    folder = pid_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # the server's own output goes to a log beside its pidfile: stopping it at the end of a command made
    # its database pool print a cancelled-reset traceback under the command's successful output
    log = folder / f"{os.getpid()}-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(_server_command(port), env=env, stdin=subprocess.DEVNULL, stdout=sink,
                                   stderr=subprocess.STDOUT, preexec_fn=_die_with(os.getpid()))
    pidfile = folder / f"{os.getpid()}-{process.pid}.json"
    record = {"server": process.pid, "server_started": _start_ticks(process.pid), "owner": os.getpid(),
              "owner_started": _start_ticks(os.getpid()), "port": port, "log": str(log)}
    temporary = pidfile.with_suffix(".tmp")
    temporary.write_text(json.dumps(record))
    os.replace(temporary, pidfile)
    server = LocalServer(pid=process.pid, port=port, owner=os.getpid(), pidfile=pidfile, log=log)
    try:
        timeout = float(os.environ.get("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120"))
        wait_healthy(process, server.api_url, timeout, log)
    except BaseException:
        stop(replace(server, log=None))  # the log stays: the error names it
        raise
    return server


def stop(server: LocalServer) -> None:
    _stop_pid(server.pid)
    server.pidfile.unlink(missing_ok=True)
    if server.log is not None:
        server.log.unlink(missing_ok=True)


def ensure(*, scheduling: bool = False) -> str | None:
    """Point this process (and its children) at a server that dies with it; None when the user
    set PREFECT_API_URL. Idempotent within a process."""
    global _current
    url = os.environ.get("PREFECT_API_URL")
    if url:  # ours from an earlier call, or the user's
        return url if _current is not None and url == _current.api_url else None
    if _current is not None:  # ours, but someone cleared the variable: stop it and start afresh
        _stop_current()
    server = start(scheduling=scheduling)
    _current = server
    atexit.register(_stop_current)  # before Prefect registers its own handlers: they drain first
    exit_cleanly_on_sigterm()
    os.environ["PREFECT_API_URL"] = server.api_url
    os.environ[OWNED_MARK] = str(server.pid)
    if "prefect.context" in sys.modules:  # settings are read once at import
        sys.modules["prefect.context"].refresh_global_settings_context()
    return server.api_url


def _stop_current() -> None:
    global _current
    if _current is None:
        return
    server, _current = _current, None
    stop(server)
    if os.environ.get(OWNED_MARK) == str(server.pid):
        os.environ.pop("PREFECT_API_URL", None)
        os.environ.pop(OWNED_MARK, None)
        if "prefect.context" in sys.modules:
            sys.modules["prefect.context"].refresh_global_settings_context()

