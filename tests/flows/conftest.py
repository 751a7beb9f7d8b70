import os

import pytest

from flows import games


@pytest.fixture(scope="session")
def toy():
    os.environ["CARDLAB_EXTRA_GAMES"] = "toy=tests.flows.toy_game"  # inherited by Dask workers
    return games.get("toy")
