"""Test-wide settings: every store the workspace writes goes to a temporary folder, removed when the
process ends (each pytest worker has its own; CARDLAB_KEEP_TEST_TMP=1 keeps them to look into)."""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

_TMP = Path(tempfile.mkdtemp(prefix="cardlab-tests-"))
if os.environ.get("CARDLAB_KEEP_TEST_TMP") != "1":  # about 4 MB a worker a run, left in /tmp before
    atexit.register(shutil.rmtree, _TMP, ignore_errors=True)
os.environ["CARDLAB_DB"] = str(_TMP / "handlog.duckdb")
os.environ["CARDLAB_OUT"] = str(_TMP / "out")
os.environ["CARDLAB_ARTIFACT_ROOT"] = str(_TMP / "mlflow-artifacts")
os.environ["MLFLOW_TRACKING_URI"] = f"sqlite:///{_TMP / 'mlflow.db'}"
os.environ["CARDLAB_SPOOL_FALLBACK"] = str(_TMP / "spool-fallback")  # where a full disk's spool goes, not ~/.cache

from flows.settings import apply_defaults  # noqa: E402

apply_defaults()


def pytest_runtest_setup(item):
    _no_flow_heartbeats()


def _no_flow_heartbeats():
    """Prefect's flow heartbeat thread sleeps in whole seconds and every flow run joins it at its end:
    up to a second of idle wall time per flow, where no test reads a heartbeat. Once Prefect is loaded
    (collection usually loads it), the flows of this process send none. Subprocesses keep them."""
    engine = sys.modules.get("prefect.flow_engine")
    base = getattr(engine, "BaseFlowRunEngine", None)
    if base is not None and isinstance(vars(base).get("heartbeat_seconds"), property):
        base.heartbeat_seconds = property(lambda self: None)  # None: Prefect starts no heartbeat thread


def pytest_unconfigure(config):
    """Prefect stops its temporary server at exit and logs it through the console handler it
    configured while pytest's capture streams were live; drop those handlers first."""
    import logging

    for logger in [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]:
        for handler in list(getattr(logger, "handlers", [])):
            if type(handler).__name__ == "PrefectConsoleHandler":
                logger.removeHandler(handler)
