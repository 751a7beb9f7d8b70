"""Where the workspace keeps its state. Everything defaults to the project folder and each
location can be pointed elsewhere by environment variable, so a team can share servers.

| variable                | default                                   |
|-------------------------|-------------------------------------------|
| CARDLAB_HOME            | the project folder                        |
| CARDLAB_DB              | $CARDLAB_HOME/data/handlog (a folder)     |
| CARDLAB_OUT             | $CARDLAB_HOME/out (reports, bundles)      |
| MLFLOW_TRACKING_URI     | sqlite:///$CARDLAB_HOME/.mlflow/mlflow.db |
| CARDLAB_ARTIFACT_ROOT   | $CARDLAB_HOME/.mlflow/artifacts           |
| PREFECT_HOME            | $CARDLAB_HOME/.prefect                    |
| PREFECT_API_URL         | unset: Prefect's local (ephemeral) mode   |
| NUMBA_CACHE_DIR         | $CARDLAB_HOME/.cache/numba                |
| CARDLAB_TASK_RUNNER     | threads (or dask)                         |
| CARDLAB_DASK_ADDRESS    | unset: a local Dask cluster when dask     |
| CARDLAB_WORKERS         | 2                                         |
| OPENBLAS_NUM_THREADS    | 1 (and MKL_NUM_THREADS)                   |
"""

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import BadValue

# One BLAS thread a process: cardlab's parallelism is its workers, and the games' matrices are small,
# so BLAS's own threads only spin against the workers (a learning bot's 1,500-hand match at load 7 took
# 8.1 s of CPU with them, 0.8 s with one).
ONE_BLAS_THREAD = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def _home() -> Path:
    return Path(os.environ.get("CARDLAB_HOME", PROJECT_ROOT)).resolve()


def apply_defaults() -> None:
    """Fill in the environment before prefect, mlflow or numba are imported (same as .ci/env.sh)."""
    home = _home()
    defaults = {
        "PREFECT_HOME": str(home / ".prefect"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
        "DO_NOT_TRACK": "1",
        "MLFLOW_DISABLE_TELEMETRY": "true",
        "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
        "MLFLOW_TRACKING_URI": f"sqlite:///{home / '.mlflow' / 'mlflow.db'}",
        "NUMBA_CACHE_DIR": str(home / ".cache" / "numba"),
        "DASK_TEMPORARY_DIRECTORY": str(home / ".cache" / "dask"),
    }
    for key, value in defaults.items():
        os.environ.setdefault(key, value)
    _one_blas_thread()
    os.environ.setdefault(
        "PREFECT_API_DATABASE_CONNECTION_URL",
        f"sqlite+aiosqlite:///{Path(os.environ['PREFECT_HOME']) / 'prefect.db'}",
    )
    for folder in (os.environ["PREFECT_HOME"], home / ".mlflow", home / ".cache"):
        Path(folder).mkdir(parents=True, exist_ok=True)


def _one_blas_thread() -> None:
    """Children read the variables; this process too, unless numpy (and its BLAS) loaded first."""
    chosen = any(name in os.environ for name in ONE_BLAS_THREAD)  # the user's own choice stands
    for name in ONE_BLAS_THREAD:
        os.environ.setdefault(name, "1")
    if not chosen and "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")


@dataclass(frozen=True)
class Paths:
    home: Path
    db: Path
    out: Path
    artifact_root: Path
    tracking_uri: str

    @classmethod
    def from_env(cls) -> "Paths":
        home = _home()
        return cls(
            home=home,
            db=Path(os.environ.get("CARDLAB_DB", home / "data" / "handlog")),
            out=Path(os.environ.get("CARDLAB_OUT", home / "out")),
            artifact_root=Path(os.environ.get("CARDLAB_ARTIFACT_ROOT", home / ".mlflow" / "artifacts")),
            tracking_uri=os.environ.get("MLFLOW_TRACKING_URI", f"sqlite:///{home / '.mlflow' / 'mlflow.db'}"),
        )


def task_runner_kind() -> str:
    return os.environ.get("CARDLAB_TASK_RUNNER", "threads")


def worker_count() -> int:
    given = os.environ.get("CARDLAB_WORKERS", "2")
    # ASCII digits only: int() would also take '１', ' 2' or '2_0'
    if not (given.isascii() and given.isdigit() and 1 <= int(given) <= 256):
        raise BadValue(f"CARDLAB_WORKERS={given!r}: not a worker count; accepted: a whole number from 1 to 256")
    return int(given)
