"""A team's cluster from the project's own environment: a Prefect server, a Dask scheduler
and Dask worker processes, each a child process that dies with the command that started it.

Workers run this venv's Python with the project folder importable (PYTHONPATH) and the
workspace settings (flows.settings.apply_defaults: numba cache, .cache for bot tables and
prior banks, Prefect home) plus PREFECT_API_URL, so every task reports to the one server.
On other hosts, run the same checkout (or a shared folder) and start only workers there.
"""

import contextlib
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cardlab import prefect_local
from engine.core.errors import Unavailable
from flows.settings import PROJECT_ROOT, apply_defaults

START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Service:
    name: str
    pid: int
    address: str  # tcp://HOST:PORT for Dask, http://HOST:PORT/api for Prefect


free_port = prefect_local._free_port  # a free port on 127.0.0.1, for tests and benches


def service_env(prefect_api: str | None = None) -> dict[str, str]:
    """This process's environment with the workspace defaults, the project importable and,
    when given, the Prefect server every worker reports to."""
    apply_defaults()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    if prefect_api:
        env["PREFECT_API_URL"] = prefect_api
    env.pop(prefect_local.OWNED_MARK, None)
    return env


def _spawn(command: list[str], env: dict[str, str], log: Path | None) -> subprocess.Popen:
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
    try:
        # Own process group (Ctrl-C reaches only cardlab, which stops them in order) and
        # SIGTERM from the kernel if cardlab dies.
        return subprocess.Popen(command, env=env, cwd=PROJECT_ROOT, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, preexec_fn=prefect_local._die_with(os.getpid()))
    finally:
        if log:
            out.close()


def _bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def _wait_port(process: subprocess.Popen, host: str, port: int, what: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Unavailable(f"{what} exited with code {process.returncode} while starting")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
            return
        time.sleep(0.1)
    raise Unavailable(f"{what} did not listen on {host}:{port} within {timeout_s:.0f} s")


def start_prefect(*, host: str = "127.0.0.1", port: int = 4200, log: Path | None = None,
                  timeout_s: float = 120.0) -> Service:
    """`prefect server start` (UI, API and scheduler) from this venv; waits for /api/health."""
    env = service_env()
    env.pop("PREFECT_API_URL", None)
    process = _spawn([_bin("prefect"), "server", "start", "--host", host, "--port", str(port)], env, log)
    url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/api"  # noqa: S104 - the user's choice
    try:
        prefect_local.wait_healthy(process, url, timeout_s, log)
    except BaseException:
        stop(process.pid)
        raise
    return Service("prefect server", process.pid, url)


def start_scheduler(*, host: str = "127.0.0.1", port: int = 8786, prefect_api: str | None = None,
                    log: Path | None = None, timeout_s: float = START_TIMEOUT_S) -> Service:
    process = _spawn([_bin("dask"), "scheduler", "--host", host, "--port", str(port), "--no-dashboard"],
                     service_env(prefect_api), log)
    try:
        _wait_port(process, "127.0.0.1" if host == "0.0.0.0" else host, port, "the dask scheduler",  # noqa: S104
                   timeout_s)
    except BaseException:
        stop(process.pid)
        raise
    return Service("dask scheduler", process.pid, f"tcp://{host}:{port}")


def start_worker(scheduler: str, *, name: str, host: str = "127.0.0.1", prefect_api: str | None = None,
                 log: Path | None = None) -> Service:
    """One worker process with one thread (plus its nanny, which restarts it if it crashes).
    It exits on its own if the scheduler stays unreachable for a minute."""
    command = [_bin("dask"), "worker", scheduler, "--name", name, "--host", host, "--nworkers", "1",
               "--nthreads", "1", "--no-dashboard", "--death-timeout", "60",
               "--local-directory", str(Path(os.environ.get("DASK_TEMPORARY_DIRECTORY", PROJECT_ROOT / ".cache"
                                                            / "dask")))]
    process = _spawn(command, service_env(prefect_api), log)
    return Service(f"dask worker {name}", process.pid, scheduler)


def wait_for_workers(scheduler: str, count: int, timeout_s: float = START_TIMEOUT_S) -> None:
    from distributed import Client

    with Client(scheduler, timeout=timeout_s) as client:
        client.wait_for_workers(count, timeout=timeout_s)


def stop(pid: int, grace_s: float = prefect_local.STOP_GRACE_S) -> None:
    """SIGTERM the service's process group (a worker's nanny and worker, the server's
    children), then SIGKILL after the grace period."""
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGTERM)
    prefect_local._stop_pid(pid, grace_s)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def kill(service: Service) -> None:
    """A host lost at once: SIGKILL the whole process group, no goodbye to the scheduler."""
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(service.pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(service.pid, 0)


@dataclass(frozen=True)
class Cluster:
    prefect: Service | None
    scheduler: Service
    workers: tuple[Service, ...]

    def settings(self) -> dict[str, str]:
        """What points cardlab at this cluster."""
        out = {"CARDLAB_TASK_RUNNER": "dask", "CARDLAB_DASK_ADDRESS": self.scheduler.address}
        if self.prefect is not None:
            out["PREFECT_API_URL"] = self.prefect.address
        return out

    def stop(self) -> None:
        for service in (*self.workers, self.scheduler, *([self.prefect] if self.prefect else [])):
            stop(service.pid)


def start_cluster(*, workers: int, host: str = "127.0.0.1", scheduler_port: int = 8786,
                  prefect_port: int | None = 4200, logs: Path | None = None) -> Cluster:
    """Prefect server (unless prefect_port is None), scheduler and `workers` workers, all up."""
    started: list[Service] = []

    def log(name: str) -> Path | None:
        if logs is None:
            return None
        logs.mkdir(parents=True, exist_ok=True)
        return logs / f"{name}.log"

    try:
        prefect = None
        if prefect_port is not None:
            prefect = start_prefect(host=host, port=prefect_port, log=log("prefect"))
            started.append(prefect)
        api = prefect.address if prefect else os.environ.get("PREFECT_API_URL")
        scheduler = start_scheduler(host=host, port=scheduler_port, prefect_api=api, log=log("scheduler"))
        started.append(scheduler)
        pool = []
        for index in range(workers):
            pool.append(start_worker(scheduler.address, name=f"w{index}", host=host, prefect_api=api,
                                     log=log(f"worker-{index}")))
            started.append(pool[-1])
        wait_for_workers(scheduler.address, workers)
    except BaseException:
        for service in reversed(started):
            stop(service.pid)
        raise
    return Cluster(prefect, scheduler, tuple(pool))
