"""Test-wide settings: every store the workspace writes goes to a temporary folder."""

import os
import tempfile
from pathlib import Path

_TMP = Path(tempfile.mkdtemp(prefix="cardlab-tests-"))
os.environ["CARDLAB_DB"] = str(_TMP / "handlog.duckdb")
os.environ["CARDLAB_OUT"] = str(_TMP / "out")
os.environ["CARDLAB_ARTIFACT_ROOT"] = str(_TMP / "mlflow-artifacts")
os.environ["MLFLOW_TRACKING_URI"] = f"sqlite:///{_TMP / 'mlflow.db'}"

from flows.settings import apply_defaults  # noqa: E402

apply_defaults()
