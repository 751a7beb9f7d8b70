"""Fixtures shared by the CLI tests that run real `cardlab` processes."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path):
    env = dict(os.environ)
    env.update(CARDLAB_HOME=str(tmp_path), CARDLAB_DB=str(tmp_path / "handlog.duckdb"),
               CARDLAB_OUT=str(tmp_path / "out"), MLFLOW_TRACKING_URI=f"sqlite:///{tmp_path / 'mlflow.db'}",
               CARDLAB_ARTIFACT_ROOT=str(tmp_path / "artifacts"), CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game",
               CARDLAB_PROGRESS_SECONDS="0.5", PYTHONPATH=str(ROOT))
    return env
