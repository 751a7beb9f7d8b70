"""A fresh CARDLAB_HOME for a module's fixture: the hand log and the stores beside it go to a temporary folder."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def scratch_home(tmp_path_factory, name: str) -> Iterator[Path]:
    """CARDLAB_HOME and CARDLAB_DB point into a new folder while the block runs (a module fixture's lifetime)."""
    home = tmp_path_factory.mktemp(name)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDLAB_HOME", str(home))
        mp.setenv("CARDLAB_DB", str(home / "handlog.duckdb"))
        yield home
