"""`cardlab cluster`: a team's Prefect server, Dask scheduler and workers from this checkout."""

import os
import signal
import time
from pathlib import Path

import typer
from rich.console import Console

from cardlab.errors import fail

console = Console()
app = typer.Typer(help="Stand up a Dask cluster and a Prefect server for sweeps on many processes or hosts.",
                  no_args_is_help=True)


def _wait_for_stop() -> None:
    """Until Ctrl-C or SIGTERM; the services are stopped by the caller's finally."""
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        console.print("stopping...")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


@app.command()
def up(
    workers: int = typer.Option(2, min=1, help="Dask worker processes on this host (one thread each)."),
    host: str = typer.Option("127.0.0.1", help="Address every service binds to; a network address (or 0.0.0.0) "
                                               "lets other hosts in."),
    scheduler_port: int = typer.Option(8786, help="Dask scheduler port."),
    prefect_port: int = typer.Option(4200, help="Prefect server port."),
    no_prefect: bool = typer.Option(False, "--no-prefect", help="Use the Prefect server in PREFECT_API_URL."),
    logs: Path = typer.Option(None, help="Folder for the services' logs (default .cache/cluster)."),
):
    """A Prefect server, a Dask scheduler and N workers on this host, until Ctrl-C."""
    from cardlab import cluster
    from flows.settings import PROJECT_ROOT

    if no_prefect and not os.environ.get("PREFECT_API_URL"):
        fail("--no-prefect needs PREFECT_API_URL (the team's server, http://HOST:4200/api)")
    logs = logs or PROJECT_ROOT / ".cache" / "cluster"
    try:
        running = cluster.start_cluster(workers=workers, host=host, scheduler_port=scheduler_port,
                                        prefect_port=None if no_prefect else prefect_port, logs=logs)
    except RuntimeError as exc:
        fail(f"the cluster did not start: {exc} (logs in {logs})")
    try:
        _print_settings(running.settings(), host)
        console.print(f"{workers} workers up; logs in {logs}. Ctrl-C stops everything.")
        _wait_for_stop()
    finally:
        running.stop()


@app.command()
def workers(
    scheduler: str = typer.Argument(..., help="The scheduler's address, tcp://HOST:PORT."),
    count: int = typer.Option(2, min=1, help="Worker processes on this host."),
    host: str = typer.Option("127.0.0.1", help="Address the workers bind to (this host's network address)."),
    logs: Path = typer.Option(None, help="Folder for the workers' logs (default .cache/cluster)."),
):
    """More workers, on this host, for a running scheduler (another host's `cardlab cluster up`)."""
    from cardlab import cluster
    from flows.settings import PROJECT_ROOT

    if not os.environ.get("PREFECT_API_URL"):
        fail("workers report to the team's Prefect server: set PREFECT_API_URL=http://HOST:4200/api first")
    logs = logs or PROJECT_ROOT / ".cache" / "cluster"
    logs.mkdir(parents=True, exist_ok=True)
    started = []
    try:
        for index in range(count):
            name = f"{os.uname().nodename}-{os.getpid()}-w{index}"
            started.append(cluster.start_worker(scheduler, name=name, host=host,
                                                prefect_api=os.environ["PREFECT_API_URL"],
                                                log=logs / f"{name}.log"))
        console.print(f"{count} workers for {scheduler}; logs in {logs}. Ctrl-C stops them.")
        _wait_for_stop()
    finally:
        for service in started:
            cluster.stop(service.pid)


def _print_settings(settings: dict[str, str], host: str) -> None:
    import socket

    console.print("Point cardlab at this cluster (any shell on a host that reaches it):")
    for key, value in settings.items():
        if host == "0.0.0.0":  # noqa: S104 - bound to every interface: others use this host's name
            value = value.replace("0.0.0.0", socket.getfqdn()).replace("127.0.0.1", socket.getfqdn())  # noqa: S104
        console.print(f"  export {key}={value}")
