"""The task runner is a setting: threads by default (numba kernels release the GIL), or
Dask, either a local cluster or a scheduler address shared by a team (see cardlab/cluster.py)."""

import os
from collections.abc import Callable
from urllib.parse import urlparse

from engine.core.errors import BadValue
from flows.settings import task_runner_kind, worker_count

LOOPBACK = ("127.0.0.1", "localhost", "::1")
LOCAL_HTTP = "127.0.0.1:0"  # a local Dask cluster's HTTP server: loopback, a free port


class LocalOnly:
    """A callback that stays in the flow process. Prefect sends a flow's parameters to every
    task's worker; a progress bar holds locks and a terminal, so a copy of this one is a no-op."""

    def __init__(self, callback: Callable[[int], None]):
        self.callback = callback

    def __call__(self, n: int) -> None:
        self.callback(n)

    def __reduce__(self):
        return LocalOnly, (_no_op,)


def _no_op(*args, **kwargs) -> None:
    return None


def make_task_runner(kind: str | None = None, *, workers: int | None = None, address: str | None = None):
    kind = kind or task_runner_kind()
    workers = workers or worker_count()
    if kind == "threads":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=workers)
    if kind == "dask":
        from prefect_dask import DaskTaskRunner

        address = address or os.environ.get("CARDLAB_DASK_ADDRESS")
        if address:
            check_reachable_prefect(address)
            return DaskTaskRunner(address=address)
        # the scheduler serves HTTP even without a dashboard, on 8787 for None: a second cluster on the machine
        # then warns and moves; a free loopback port never collides nor listens beyond this machine
        return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1,
                                              "dashboard_address": LOCAL_HTTP})
    raise BadValue(f"unknown task runner {kind!r}; accepted: threads, dask")


def check_reachable_prefect(address: str) -> None:
    """Workers report to the flow's Prefect server: one on this machine's loopback is out of
    reach of workers on other hosts, so such a mix is refused before any work."""
    parsed = urlparse(address if "://" in address else f"tcp://{address}")
    api = urlparse(os.environ.get("PREFECT_API_URL", "")).hostname or ""
    if parsed.scheme != "inproc" and (parsed.hostname or "") not in LOOPBACK and api in LOOPBACK + ("",):
        raise BadValue(f"CARDLAB_DASK_ADDRESS {address} is on the network but PREFECT_API_URL is "
                         f"{os.environ.get('PREFECT_API_URL') or 'unset'}: point PREFECT_API_URL at the team's "
                         f"Prefect server (http://HOST:4200/api), which every worker can reach")
