"""The task runner is a setting: threads by default (numba kernels release the GIL), or
Dask, either a local cluster or a scheduler address shared by a team."""

from flows.settings import task_runner_kind, worker_count


def make_task_runner(kind: str | None = None, *, workers: int | None = None, address: str | None = None):
    import os

    kind = kind or task_runner_kind()
    workers = workers or worker_count()
    if kind == "threads":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=workers)
    if kind == "dask":
        from prefect_dask import DaskTaskRunner

        address = address or os.environ.get("CARDLAB_DASK_ADDRESS")
        if address:
            return DaskTaskRunner(address=address)
        return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1,
                                              "dashboard_address": None})
    raise ValueError(f"unknown task runner {kind!r}; accepted: threads, dask")
